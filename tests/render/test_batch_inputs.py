"""A batch's inputs as one matrix box, one bundled edge per reader (issue 33, items 1 and 7).

In the folded views, the numbers ``x[s][i]`` a student's code fed the net are one box of
samples × features: each cell the input's data, filled by its grad, with a tooltip naming
both. Checked against the student's own Values: the expected grads are read off micrograd's
``x.grad`` of the same net run on Values, not from the drawing's code.
"""

from __future__ import annotations

import re
import runpy
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

import vizgrad
from vizgrad.cli.commands import main

pytest.importorskip("micrograd.nn", reason="micrograd==0.1.0 is a test dependency")

MODELS = Path(__file__).resolve().parents[1] / "models"
SVG = "{http://www.w3.org/2000/svg}"
CELL = re.compile(r"c-(?P<box>[a-z]+\d+)-s(?P<row>\d+)x(?P<col>\d+)\Z")
TIP = re.compile(r"(?P<name>x\[\d+\]\[\d+\]) data (?P<data>\S+) grad (?P<grad>\S+)\Z")


def _number(text: str) -> float:
    return float(text.replace("−", "-"))


def _render(tmp_path: Path, target: str, *args: str) -> ET.Element:
    out = tmp_path / "out.svg"
    result = CliRunner().invoke(main, ["render", target, "-o", str(out), "-q", *args])
    assert result.exit_code == 0, result.output
    return ET.fromstring(out.read_text("utf-8"))


def _squares_truth() -> tuple[list[list[float]], list[list[float]]]:
    """squares.py's data and ∂loss/∂x, from its own net run on micrograd Values (so that
    each x[s][i] is one Value whose grad micrograd computes itself)."""
    from micrograd.engine import Value

    ns = runpy.run_path(str(MODELS / "squares.py"))
    xs = [[Value(v) for v in row] for row in ns["xs"]]
    loss = sum((ns["n"](x) - y) ** 2 for x, y in zip(xs, ns["ys"]))
    loss.backward()
    return ns["xs"], [[v.grad for v in row] for row in xs]


@pytest.mark.parametrize("view", [[], ["--collapse", "layer"], ["--collapse", "neuron"]],
                         ids=["default", "layer", "neuron"])
def test_squares_inputs_are_one_box_of_6_by_3_cells_with_the_users_numbers(tmp_path, view):
    root = _render(tmp_path, str(MODELS / "squares.py"), *view)
    cells = {}
    for el in root.iter(f"{SVG}rect"):
        m = CELL.match(el.get("id") or "")
        if m:
            title = el.find(f"{SVG}title")
            cells[(int(m["row"]), int(m["col"]))] = (m["box"], title.text if title is not None
                                                    else None)
    assert sorted(cells) == [(s, i) for s in range(6) for i in range(3)]
    boxes = {box for box, _ in cells.values()}
    assert len(boxes) == 1  # one box holds them all
    box = boxes.pop()
    names = [el.text for el in root.iter(f"{SVG}text") if el.get("id") == f"t-{box}-name"]
    assert names == ["inputs · 6 samples × 3 features"]
    data, grads = _squares_truth()
    for (s, i), (_, tip) in cells.items():
        got = TIP.match(tip or "")
        assert got is not None, tip
        assert got["name"] == f"x[{s}][{i}]"
        assert _number(got["data"]) == pytest.approx(data[s][i], abs=5e-5)
        assert _number(got["grad"]) == pytest.approx(grads[s][i], abs=5e-5)
    # no box of its own per input any more
    assert not any(re.fullmatch(r"x\[\d+\]\[\d+\]", el.text or "")
                   for el in root.iter(f"{SVG}text") if (el.get("id") or "").endswith("-name"))


def _bezier(d: str) -> list[tuple[float, float]]:
    """The points of an SVG path of one M and cubic C segments, 20 per segment."""
    nums = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", d)]
    pts = list(zip(nums[::2], nums[1::2]))
    out = [pts[0]]
    for k in range(1, len(pts) - 2, 3):
        p0, p1, p2, p3 = pts[k - 1], pts[k], pts[k + 1], pts[k + 2]
        for j in range(1, 21):
            t = j / 20
            out.append(tuple((1 - t) ** 3 * a + 3 * (1 - t) ** 2 * t * b + 3 * (1 - t) * t * t * c
                             + t ** 3 * e for a, b, c, e in zip(p0, p1, p2, p3)))
    return out


def _cross(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> bool:
    """True when two polylines cross (segments properly intersect)."""
    def side(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    for p, q in zip(a, a[1:]):
        for r, s in zip(b, b[1:]):
            if side(p, q, r) * side(p, q, s) < 0 and side(r, s, p) * side(r, s, q) < 0:
                return True
    return False


def test_course_mlp_reads_its_inputs_along_one_edge_per_neuron_none_crossing(tmp_path):
    root = _render(tmp_path, "course-mlp")
    names = {el.get("id")[2:-5]: el.text for el in root.iter(f"{SVG}text")
             if re.fullmatch(r"t-[a-z]+\d+-name", el.get("id") or "")}
    box = next(n for n, t in names.items() if t.startswith("inputs · 4 samples × 3 features"))
    edges = {el.get("id"): el.get("d") for el in root.iter(f"{SVG}path")
             if re.fullmatch(rf"e-{box}-[a-z]+\d+-\d+", el.get("id") or "")}
    readers = sorted(names[e.split("-")[2]] for e in edges)
    assert readers == ["L0/N0 · 32 values", "L0/N1 · 32 values", "L0/N2 · 32 values",
                       "L0/N3 · 32 values"]  # one edge per reader (before: 48, one per x)
    lines = [_bezier(d) for d in edges.values()]
    assert not any(_cross(a, b) for k, a in enumerate(lines) for b in lines[k + 1:])
    every = [el for el in root.iter(f"{SVG}path") if el.get("class") == "vg-edge"]
    assert len(every) < 48  # the 48 input edges are gone


def test_the_crossing_check_can_fail():
    a = _bezier("M0,0C10,10 20,20 30,30")
    b = _bezier("M0,31C10,21 20,11 30,1")
    c = _bezier("M0,40C10,50 20,60 30,70")
    assert _cross(a, b) and not _cross(a, c)


def _model(name: str):
    ns = runpy.run_path(str(MODELS / f"{name}.py"))
    net = next(v for k, v in ns.items() if k in ("model", "n", "net"))
    return ns["build"](), net


@pytest.mark.parametrize("name", ["squares", "moons"])
def test_a_steps_own_caption_lines_are_few(name):
    """No step lists one line per input: the step into the inputs is one vector line; a
    caption has at most 8 lines of its own, beside the picture's notes (the same on every
    step: the net read, the collapse, the sample shown, why it collapsed)."""
    loss, net = _model(name)
    scene = vizgrad.draw(loss, model=net).scene
    notes = len(scene.notes)
    steps = range(len(scene.facts.graph["steps"]))
    own = {k: len(scene.caption_texts(k)) - notes for k in [*steps, None]}
    assert max(own.values()) <= 8, own
    assert notes <= 4
    texts = [line for k in [*steps, None] for line in scene.caption_texts(k)]
    assert not any(re.match(r"x\[\d+\]\[\d+\]\.grad \+=", line) for line in texts)
    assert not any(re.search(r"\(x\[\d+\]\[\d+\], x\[", line) for line in texts)


def test_the_step_into_the_inputs_states_sample_0s_row_as_a_vector():
    """course-mlp's last step: the vector rule with the numbers of sample 0's own inputs;
    the running totals after it are ∂loss/∂x[0], checked against the net run on Values."""
    G = vizgrad.examples.graph("course-mlp")
    scene = vizgrad.draw(G).scene
    last = len(scene.facts.graph["steps"]) - 1
    lines = scene.caption_texts(last)
    assert lines[0].endswith("backward through L0/N0(x)")
    assert any(line.startswith("L0/N0 → x[0] (sample 0)") for line in lines)
    rule = "\n".join(lines)
    now = re.search(r"x\[0\]\.grad now \[([^\]]*)\]", rule)
    assert now is not None, rule
    shown = [_number(v) for v in now.group(1).split(", ")]
    assert "the other 3 samples' inputs" in rule
    assert "∂loss/∂x_j += Σ_i w_ij · g_i = [" in rule
    # the example's net, built again and run on Values: each x[0][i] is one Value
    from vizgrad.core.nn import MLP as Net
    from vizgrad.graph.examples import COURSE_XS, COURSE_YS

    net = Net(3, [4, 4, 1], seed=1337)
    xs = [[vizgrad.Value(v) for v in row] for row in COURSE_XS]
    loss = sum((net(x) - y) ** 2 for x, y in zip(xs, COURSE_YS))
    loss.backward()
    assert shown == pytest.approx([v.grad for v in xs[0]], abs=5e-5)


def test_forward_steps_name_the_inputs_box_once():
    scene = vizgrad.draw(vizgrad.examples.graph("course-mlp")).scene
    first = scene.caption_texts(1)
    assert first[0].endswith("forward: L0/N0(x)"), first


def test_a_folded_graph_with_an_inputs_box_round_trips_through_json():
    from vizgrad.graph.collapse import collapse

    H = collapse(vizgrad.examples.graph("course-mlp"), "layer")
    box = next(n for n in H if H.nodes[n]["kind"] == "inputs")
    back = vizgrad.from_json(vizgrad.to_json(H))
    assert back.nodes[box]["grid"] == H.nodes[box]["grid"]
    assert back.nodes[box]["shape"] == [4, 3]
    grads = [c["grads"] for s in back.graph["steps"] for c in s["contributions"]
             if c["target"] == box]
    assert grads and grads[-1] == [g for _, _, g in H.nodes[box]["grid"]]


def test_by_layer_the_step_into_the_inputs_states_the_terms_of_its_largest_cell():
    """moons by layer: L0 sends each input the sum over its 8 neurons, Σ_i w_ij · g_i; the
    line gives the terms of the feature that moved most, which add up to its number in
    the vector, and the largest term's factors, checked against the net's own weights."""
    loss, net = _model("moons")
    scene = vizgrad.draw(loss, model=net).scene
    steps = [k for k in range(len(scene.facts.graph["steps"]))
             if any(line.startswith("L0 → x[0] (sample 0)") for line in scene.caption_texts(k))]
    assert len(steps) == 1, steps
    text = "\n".join(scene.caption_texts(steps[0]))
    vector = [_number(v) for v in re.search(r"= \[([^\]]*)\]", text).group(1).split(", ")]
    j, total = re.search(r"; x_(\d): .*? = (\S+);", text).groups()
    assert _number(total) == vector[int(j)]
    w, g, a = re.search(r"the largest term: w_ij × g_i = (\S+) × \((\S+)\) = (\S+)\n",
                        text).groups()
    weights = [n.w[int(j)].data for n in net.layers[0].neurons]
    assert any(abs(_number(w) - x) < 5e-5 for x in weights)
    assert _number(w) * _number(g) == pytest.approx(_number(a), abs=1e-4)


def test_the_player_lists_every_input_and_finds_one(open_page, tmp_path):
    """squares.py's page: the table lists each x[s][i] under the inputs' box with its data,
    and its grad from the step it is final; Find marks x[3][1]'s cell and row."""
    expect = pytest.importorskip("playwright.sync_api",
                                 reason="Playwright for Python is not installed").expect
    out = tmp_path / "squares.html"
    result = CliRunner().invoke(main, ["render", str(MODELS / "squares.py"), "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    pg = open_page(out.read_text("utf-8"), "#step=final")
    rows = pg.locator("tr.param").filter(has_text=re.compile(r"^x\[\d\]\[\d\]"))
    expect(rows).to_have_count(18)
    data, grads = _squares_truth()
    cells = rows.nth(3 * 3 + 1).locator("td")  # x[3][1]
    assert rows.nth(10).locator("th").text_content() == "x[3][1]"
    assert _number(cells.nth(1).text_content()) == pytest.approx(data[3][1], abs=5e-5)
    assert _number(cells.nth(2).text_content()) == pytest.approx(grads[3][1], abs=5e-5)
    find = pg.get_by_label("Find")
    find.fill("x[3][1]")
    find.press("Enter")
    expect(pg.locator("#found")).to_have_text(re.compile(r"^1 of 1: x\[3\]\[1\]"))
    assert pg.locator("rect.vg-found").count() == 1
    assert pg.locator("tr.found th").text_content() == "x[3][1]"
