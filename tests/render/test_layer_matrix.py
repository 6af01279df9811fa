"""A layer drawn as what it holds (issue 33, item 1): in the layer view, a layer's box shows
its weights as a matrix (a row per neuron, a column per input) and its biases as a column,
one cell per parameter, filled by the parameter's grad, with a tooltip naming its data and
grad. Checked against the user's own net: the expected grads are read off micrograd's
``w.grad`` directly, not from the drawing's code.
"""

from __future__ import annotations

import json
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
WEIGHT = re.compile(r"c-(?P<box>[a-z]+\d+)-w(?P<row>\d+)x(?P<col>\d+)\Z")
BIAS = re.compile(r"c-(?P<box>[a-z]+\d+)-b(?P<row>\d+)\Z")


def _run(name: str):
    """The model file's loss after its own backward(), and its net."""
    ns = runpy.run_path(str(MODELS / f"{name}.py"))
    loss = ns["build"]()
    net = next(v for k, v in ns.items() if k in ("model", "n", "net"))
    return loss, net


@pytest.fixture(scope="module")
def moons():
    loss, net = _run("moons")  # MLP(2, [8, 8, 1])
    d = vizgrad.draw(loss, model=net)
    return d, net


def _boxes(d) -> dict[str, str]:
    """Box id → its label (L0, L1, …)."""
    G = d.graph
    return {n: str(G.nodes[n].get("label")) for n in G if G.nodes[n].get("kind") == "group"}


def _cells(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {el.get("id"): el for el in root.iter(f"{SVG}rect") if el.get("id")}


def _counts(d) -> dict[str, tuple[int, int]]:
    """Per layer label: (weight cells, bias cells) in the SVG."""
    names = _boxes(d)
    out: dict[str, list[int]] = {}
    for sid in _cells(d.svg()):
        for k, rx in enumerate((WEIGHT, BIAS)):
            m = rx.match(sid)
            if m:
                out.setdefault(names[m["box"]], [0, 0])[k] += 1
    return {k: (w, b) for k, (w, b) in out.items()}


def test_the_moons_layers_hold_one_cell_per_weight_and_per_bias(moons):
    d, _ = moons
    assert d.graph.graph["collapsed"]["level"] in ("layer", 1)
    assert _counts(d) == {"L0": (16, 8), "L1": (64, 8), "L2": (8, 1)}


def _rgb(fill: str) -> tuple[int, int, int]:
    return tuple(int(fill[i:i + 2], 16) for i in (1, 3, 5))


def _param(net, layer: int, row: int, col: str):
    neuron = net.layers[layer].neurons[row]
    return neuron.b if col == "b" else neuron.w[int(col)]


def _number(text: str) -> float:
    return float(text.replace("−", "-"))


def test_a_cell_is_filled_by_the_sign_of_the_weights_own_grad_and_names_it(moons):
    d, net = moons
    names = _boxes(d)
    neutral = d.scene.theme.node_fill.lower()
    seen = {"neg": 0, "pos": 0}
    for sid, el in _cells(d.svg()).items():
        m = WEIGHT.match(sid) or BIAS.match(sid)
        if not m:
            continue
        layer = int(names[m["box"]][1:])
        col = m.groupdict().get("col") or "b"
        p = _param(net, layer, int(m["row"]), col)
        r, _, b = _rgb(el.get("fill"))
        if abs(p.grad) > 1e-6:
            sign = "neg" if p.grad < 0 else "pos"
            assert (r > b) == (sign == "neg"), (sid, p.grad, el.get("fill"))
            seen[sign] += 1
        elif p.grad == 0:
            assert el.get("fill").lower() == neutral, (sid, el.get("fill"))
        title = el.find(f"{SVG}title").text
        which = f"w{col}" if col != "b" else "b"
        name, _, data, _, grad = title.split(" ")
        assert name == f"L{layer}.N{m['row']}.{which}"
        assert _number(data) == pytest.approx(p.data, abs=5e-5)
        assert _number(grad) == pytest.approx(p.grad, abs=5e-5)
    assert seen["neg"] > 10 and seen["pos"] > 10  # both signs are drawn


def test_the_cells_are_hatched_until_the_layers_backward_step_and_then_filled(moons):
    d, _ = moons
    s = d.scene
    (l0,) = [n for n, label in _boxes(d).items() if label == "L0"]
    done = s.params_done[l0]
    before, after = s.look(done - 1), s.look(done)
    cell = f"c-{l0}-w0x0"
    assert before[cell]["hatch"] == "1" and " grad —" in before[cell]["title"]
    assert after[cell]["hatch"] == "" and " grad —" not in after[cell]["title"]


def test_a_small_matrix_prints_its_grads_and_a_big_one_only_colours_them(moons):
    d, net = moons
    names = {v: k for k, v in _boxes(d).items()}
    root = ET.fromstring(d.svg())
    texts = {el.get("id"): el.text for el in root.iter(f"{SVG}text")}
    l1 = names["L1"]
    printed = texts[f"t-{l1}-w3x1"]
    assert _number(printed) == pytest.approx(net.layers[1].neurons[3].w[1].grad, abs=5e-5)
    sizes = [float(el.get("font-size")) for el in root.iter(f"{SVG}text")
             if re.match(rf"t-{l1}-w\d+x\d+\Z", el.get("id", ""))]
    assert len(sizes) == 64 and min(sizes) >= 12


@pytest.fixture(scope="module")
def wide():
    loss, net = _run("wide")  # MLP(2, [64, 64, 1]): 39,772 values
    return vizgrad.draw(loss, model=net), net


def test_a_64_by_64_layer_is_4096_small_cells_without_text_and_reads_at_12_px(wide):
    d, net = wide
    assert _counts(d) == {"L0": (128, 64), "L1": (4096, 64), "L2": (64, 1)}
    root = ET.fromstring(d.svg())
    ids = {el.get("id") for el in root.iter(f"{SVG}text")}
    assert not any(re.search(r"-w\d+x\d+\Z", i) for i in ids)  # too small to print: tooltips
    width = float(root.get("width").removesuffix("pt"))
    smallest = min(float(el.get("font-size")) for el in root.iter() if el.get("font-size"))
    assert smallest * 4 / 3 * min(1.0, 1400 / (width * 4 / 3)) >= 12


def test_a_neurons_box_keeps_its_rows_of_parameter_grads():
    """The neuron view (the course MLP folded by neuron) has no weight matrix (its one
    matrix is the batch's inputs)."""
    loss, net = _run("course")
    d = vizgrad.draw(loss, model=net, collapse="neuron")
    assert [m.inputs for m, _ in d.scene.matrices.values()] == [True]
    assert not any(WEIGHT.match(i) for i in _cells(d.svg()))
    assert any(rows for rows in d.scene.params.values())


def test_the_players_table_lists_every_weight_with_its_data_and_grad(tmp_path):
    out = tmp_path / "moons.html"
    result = CliRunner().invoke(main, ["render", str(MODELS / "moons.py"), "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    data = json.loads(re.search(r'id="vg-data">(.*?)</script>', out.read_text("utf-8"),
                                re.S).group(1))
    _, net = _run("moons")
    rows = {r["name"]: r for r in data["rows"]}
    params = {p["name"]: p for p in rows["L1"]["params"]}
    assert len(params) == 8 * 8 + 8
    w = net.layers[1].neurons[3].w[1]
    assert _number(params["L1.N3.w1"]["data"]) == pytest.approx(w.data, abs=5e-5)
    assert _number(params["L1.N3.w1"]["grad"]) == pytest.approx(w.grad, abs=5e-5)


def test_a_64_by_64_matrix_is_compact_on_slides_only():
    """The grid of L1 (64 × 64): on slides its cells are 1.5–2 pt (the matrix about 110 pt
    square), in the docs preset at least 3 pt as before."""
    import networkx as nx

    from vizgrad.scene.matrix import grid, read_matrix
    from vizgrad.scene.parts import settings

    G = nx.MultiDiGraph()
    G.add_node("g1", label="L1", kind="group",
               params=[[f"L1.N{j}.{'b' if i == 64 else f'w{i}'}", 0.5 - (i + j) % 3]
                       for j in range(64) for i in range(65)])
    m = read_matrix(G, "g1")
    assert (m.rows, m.cols) == (64, 64)
    slides = grid(settings(preset="slides"), m, 14.2)
    docs = grid(settings(preset="docs"), m, 12.0)
    assert slides.compact and not slides.printed and 1.5 <= slides.cell_w <= 2.0
    assert 96 <= 64 * slides.cell_h <= 128
    assert not docs.compact and docs.cell_w >= 3.0
