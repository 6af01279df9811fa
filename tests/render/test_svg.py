"""The SVG drawing: what each step shows, parsed back with an XML parser."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from vizgrad import Value, from_json, to_json, to_networkx, trace
from vizgrad.exceptions import GraphTooLargeError, OptionError
from vizgrad.render import layout
from vizgrad.render.svg import Drawing, draw, scalable

from ..helpers import build_fork

NS = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"
HAS_DOT = "system" in layout.available_backends()


@pytest.fixture(params=["embedded", "system"])
def backend(request):
    if request.param == "system" and not HAS_DOT:
        pytest.skip("the system Graphviz `dot` is not installed (apt install graphviz)")
    return request.param


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def group(root: ET.Element, gid: str) -> ET.Element:
    for g in root.iter(NS + "g"):
        if g.get("id") == gid:
            return g
    raise AssertionError(f"no <g id={gid!r}> in the SVG")


def texts(el: ET.Element) -> list[str]:
    return [t.text or "" for t in el.iter(NS + "text")]


def node_texts(root: ET.Element, gid: str) -> list[str]:
    return texts(group(root, gid))


def classes(root: ET.Element, gid: str) -> set[str]:
    return set(group(root, gid).get("class", "").split())


def caption_lines(root: ET.Element) -> list[str]:
    return [t.text or "" for t in group(root, "graph0").findall(NS + "text")]


def fork_graph(backward: bool = True):
    return to_networkx(build_fork(backward=backward)[0])


@pytest.fixture(scope="module")
def G():
    return fork_graph()


@pytest.fixture(scope="module")
def fork_svgs():
    """The fork graph at every step, embedded backend: {step: parsed root}."""
    G = fork_graph()
    return {k: parse(draw(G, k).svg()) for k in range(8)}


# ids in the fork graph: a=v0, b=v1, u=v2, v=v3, q=v4


def test_step0_inputs_known_ops_pending(fork_svgs):
    root = fork_svgs[0]
    assert node_texts(root, "v0") == ["a", "data -2.0000", "grad —"]
    assert node_texts(root, "v1") == ["b", "data 3.0000", "grad —"]
    for vid, name in (("v2", "u"), ("v3", "v"), ("v4", "q")):
        assert node_texts(root, vid) == [name, "data pending", "grad —"]
        assert "vg-pending" in classes(root, vid)
    assert "vg-pending" not in classes(root, "v0")
    assert caption_lines(root) == ["step 0/7 · inputs are set; every op is pending"]


def test_forward_steps_fill_in_values_one_by_one(fork_svgs):
    assert node_texts(fork_svgs[1], "v2") == ["u", "data -6.0000", "grad —"]
    assert node_texts(fork_svgs[1], "v3") == ["v", "data pending", "grad —"]
    assert "vg-active" in classes(fork_svgs[1], "v2")
    assert "vg-active" in classes(fork_svgs[1], "v2-op")
    assert node_texts(fork_svgs[3], "v4") == ["q", "data -6.0000", "grad —"]
    assert caption_lines(fork_svgs[3])[:2] == ["step 3/7 · forward: q = u × v",
                                               "q = u × v = -6.0000"]


def test_grads_show_a_dash_until_reached(fork_svgs):
    for k in range(4):
        for vid in ("v0", "v1", "v2", "v3", "v4"):
            assert node_texts(fork_svgs[k], vid)[2] == "grad —"
    seed = fork_svgs[4]
    assert node_texts(seed, "v4")[2] == "grad — → 1.0000"
    assert [node_texts(seed, v)[2] for v in ("v0", "v1", "v2", "v3")] == ["grad —"] * 4
    assert node_texts(fork_svgs[5], "v0")[2] == "grad —"


def test_step5_backward_through_q(fork_svgs):
    root = fork_svgs[5]
    assert node_texts(root, "v2") == ["u", "data -6.0000", "grad — → 1.0000"]
    assert node_texts(root, "v3") == ["v", "data 1.0000", "grad — → -6.0000"]
    assert texts(group(root, "e-v2-v4-0")) == ["1.0000 × 1.0000 = 1.0000"]
    assert texts(group(root, "e-v3-v4-1")) == ["-6.0000 × 1.0000 = -6.0000"]
    assert "vg-active" in classes(root, "v4")
    assert caption_lines(root)[:3] == [
        "step 5/7 · backward through q = u × v",
        "∂q/∂u += 1.0000 × 1.0000 = 1.0000  (— → 1.0000)",
        "∂q/∂v += -6.0000 × 1.0000 = -6.0000  (— → -6.0000)",
    ]


def test_step6_backward_through_v(fork_svgs):
    root = fork_svgs[6]
    assert node_texts(root, "v0") == ["a", "data -2.0000", "grad — → -6.0000"]
    assert node_texts(root, "v1") == ["b", "data 3.0000", "grad — → -6.0000"]
    assert node_texts(root, "v2")[2] == "grad 1.0000"  # settled in step 5
    assert texts(group(root, "e-v0-v3-0")) == ["1.0000 × -6.0000 = -6.0000"]
    assert texts(group(root, "e-v1-v3-1")) == ["1.0000 × -6.0000 = -6.0000"]
    assert texts(group(root, "e-v0-v2-0")) == []


def test_step7_contributions_and_running_totals(fork_svgs):
    root = fork_svgs[7]
    assert node_texts(root, "v0") == ["a", "data -2.0000", "grad -6.0000 → -3.0000"]
    assert node_texts(root, "v1") == ["b", "data 3.0000", "grad -6.0000 → -8.0000"]
    assert texts(group(root, "e-v0-v2-0")) == ["3.0000 × 1.0000 = 3.0000"]
    assert texts(group(root, "e-v1-v2-1")) == ["-2.0000 × 1.0000 = -2.0000"]
    assert texts(group(root, "e-v0-v3-0")) == []
    assert "vg-contribution" in classes(root, "e-v0-v2-0")
    assert "vg-active" in classes(root, "v2")
    assert "vg-active" not in classes(root, "v4")
    assert caption_lines(root)[:3] == [
        "step 7/7 · backward through u = a × b",
        "∂q/∂a += 3.0000 × 1.0000 = 3.0000  (-6.0000 → -3.0000)",
        "∂q/∂b += -2.0000 × 1.0000 = -2.0000  (-6.0000 → -8.0000)",
    ]


def test_contribution_edges_carry_the_chain_rule_as_tooltip(fork_svgs):
    anchors = [a.get(XLINK + "title") for a in group(fork_svgs[7], "e-v0-v2-0").iter(NS + "a")]
    assert "∂q/∂a += 3.0000 × 1.0000 = 3.0000  (-6.0000 → -3.0000)" in anchors


def test_gradient_sign_colours_the_nodes(fork_svgs):
    def fill(root, vid):
        return next(p.get("fill") for p in group(root, vid).iter(NS + "polygon"))

    root = fork_svgs[7]
    assert fill(root, "v0") != fill(root, "v2")  # a < 0 (orange), u > 0 (purple)
    assert fill(fork_svgs[0], "v0") == "#ffffff"  # not reached: plain


def test_default_picture_is_the_last_step_after_backward(G):
    assert draw(G).svg() == draw(G, 7).svg()


def test_before_backward_the_default_shows_grads_not_computed():
    G = fork_graph(backward=False)
    root = parse(draw(G).svg())
    for vid in ("v0", "v1", "v2", "v3", "v4"):
        assert node_texts(root, vid)[2] == "grad —"
    assert node_texts(root, "v4")[1] == "data -6.0000"
    assert any("backward() has not run" in line for line in caption_lines(root))


def test_shared_input_draws_two_edges():
    a = Value(3.0, label="a")
    b = a + a
    b.label = "b"
    root = parse(draw(b, 3).svg())
    edges = [g for g in root.iter(NS + "g") if (g.get("id") or "").startswith("e-v0-v1-")]
    assert sorted(g.get("id") for g in edges) == ["e-v0-v1-0", "e-v0-v1-1"]
    assert [texts(g) for g in edges] == [["1.0000 × 1.0000 = 1.0000"]] * 2
    assert node_texts(root, "v0") == ["a", "data 3.0000", "grad — → 2.0000"]


def test_constants_are_drawn_compactly():
    a = Value(0.5, label="a")
    y = a + 2
    y.label = "y"
    root = parse(draw(y).svg())
    const = group(root, "v1")
    assert "vg-const" in classes(root, "v1")
    assert texts(const) == ["2"]
    assert not list(const.iter(NS + "polyline"))  # no record fields


def test_off_path_output_is_greyed():
    x = Value(0.5, label="x")
    p = x.exp()
    p.label = "p"
    other = (x * 3).exp()
    other.label = "other"
    root = parse(draw(trace(p, also=[other])).svg())
    oid = next(g.get("id") for g in root.iter(NS + "g") if texts(g)[:1] == ["other"])
    assert "vg-offpath" in classes(root, oid)
    assert {t.get("fill") for t in group(root, oid).iter(NS + "text")} == {"#8c8c8c"}
    assert node_texts(root, oid)[2] == "grad —"
    assert "vg-offpath" not in classes(root, "v1")


def test_nan_and_inf_show_as_text():
    a, b = Value(float("nan"), label="a"), Value(float("inf"), label="b")
    c = a * b + b
    c.label = "c"
    c.backward()
    root = parse(draw(c).svg())
    assert node_texts(root, "v0")[1] == "data nan"
    assert node_texts(root, "v1")[1] == "data inf"
    assert node_texts(root, "v1")[2].startswith("grad ")


def test_decimals_option(G):
    root = parse(draw(G, 7, decimals=2).svg())
    assert node_texts(root, "v0") == ["a", "data -2.00", "grad -6.00 → -3.00"]
    assert texts(group(root, "e-v0-v2-0")) == ["3.00 × 1.00 = 3.00"]


def test_top_to_bottom_and_dark_theme(G):
    svg = draw(G, 7, rankdir="TB", theme="dark").svg()
    root = parse(svg)
    assert "vg-theme-dark" in root.get("class").split()
    background = group(root, "graph0").find(NS + "polygon")
    assert background.get("fill") == "#1e1e1e"
    assert node_texts(root, "v0") == ["a", "data -2.0000", "grad -6.0000 → -3.0000"]

    def top(vid):
        return min(float(y) for t in group(root, vid).iter(NS + "text") for y in [t.get("y")])

    assert top("v0") < top("v2") < top("v4")  # inputs above the output


HOSTILE = [
    'say "hi"',
    "{braces} and [brackets]",
    "a|b|c",
    "<b>bold</b> & more",
    "&amp; &lt; &#65;",
    "back\\slash \\n \\N \\l \\G \\",
    "two\nlines",
    "中文标签",
    "emoji 😀🎉",
    "שלום עולם",
    "<script>alert(1)</script>",
    "x]]>--<!-- y -->",
    "'single' `tick`",
    "\\\"",
    "trailing  spaces  ",
]


@pytest.fixture(scope="module")
def hostile():
    values = [Value(float(i), label=h) for i, h in enumerate(HOSTILE)]
    out = values[0]
    for v in values[1:]:
        out = out * v
    out.label = "out <&> \"q\""
    out.backward()
    return to_networkx(out)


def test_hostile_labels_render_verbatim(hostile, backend):
    svg = draw(hostile, backend=backend).svg()
    root = parse(svg)  # parses: nothing became markup
    assert not list(root.iter(NS + "script"))
    seen = {}
    for n, attrs in hostile.nodes(data=True):
        if attrs["kind"] == "const" or not attrs["label"]:
            continue
        lines = node_texts(root, n)
        first_data = next(i for i, t in enumerate(lines) if t.startswith("data "))
        seen[attrs["label"]] = "\n".join(lines[:first_data])
    assert seen == {lab: lab for lab in [*HOSTILE, "out <&> \"q\""]}


def test_hostile_labels_in_captions_and_tooltips(hostile):
    last = len(hostile.graph["steps"]) - 1
    root = parse(draw(hostile, last).svg())
    from vizgrad.render.text import caption, chain_rule, formula

    expected = "\n".join([caption(hostile, last), *chain_rule(hostile, last),
                          "grad colour: orange < 0 < purple"])
    assert "\n".join(caption_lines(root)) == expected
    tips = {a.get(XLINK + "title") for a in root.iter(NS + "a")}
    assert formula(hostile, hostile.graph["root"]) in tips


def test_svg_is_standalone_and_stable(G, backend):
    svg = draw(G, 7, backend=backend).svg()
    again = draw(fork_graph(), 7, backend=backend).svg()
    assert svg == again
    root = parse(svg)
    assert root.tag == NS + "svg"
    assert re.fullmatch(r"[\d.]+ [\d.]+ [\d.]+ [\d.]+", root.get("viewBox"))
    assert root[0].tag == NS + "title"
    assert root[0].text == "q = u × v · step 7/7 · backward through u = a × b"
    assert root[1].tag == NS + "desc"
    assert "<!--" not in svg and "DOCTYPE" not in svg
    assert "graphviz version" not in svg.lower()
    assert not re.search(r"(/home/|/tmp/|/usr/|/root/|[A-Z]:\\\\|0x[0-9a-f]{6,})", svg)


def test_node_ids_and_classes_come_from_stable_ids(G, backend):
    root = parse(draw(G, 7, backend=backend).svg())
    for vid in ("v0", "v1", "v2", "v3", "v4"):
        assert {"node", "vg-value", f"vg-{vid}"} <= classes(root, vid)
    for vid in ("v2", "v3", "v4"):
        assert {"node", "vg-operator", f"vg-{vid}"} <= classes(root, f"{vid}-op")
    assert {"edge", "vg-edge"} <= classes(root, "e-v0-v2-0")


def test_graph_from_json_renders_the_same(G):
    assert draw(from_json(to_json(G)), 6).svg() == draw(G, 6).svg()


def test_jupyter_display(G):
    d = draw(G, 7)
    assert isinstance(d, Drawing)
    assert d._repr_svg_() == scalable(d.svg())  # shrinks to the cell: see test_svg_jupyter
    bundle = d._repr_mimebundle_()
    assert bundle["image/svg+xml"] == scalable(d.svg())
    assert bundle["text/plain"] == "<Drawing of q, step 7/7, 5 nodes>"


def test_dot_is_the_layout_input(G):
    d = draw(G, 5, rankdir="TB")
    assert d.dot().startswith("digraph vizgrad {")
    assert 'rankdir="TB"' in d.dot()


def test_a_thousand_node_graph_renders():
    xs = [Value(float(i % 7) - 3.0, label=f"x{i}") for i in range(334)]
    total = xs[0] * xs[0]
    for x in xs[1:]:
        total = total + x * x
    total.label = "total"
    total.backward()
    G = to_networkx(total)
    assert G.number_of_nodes() == 1001
    root = parse(draw(G, timeout=300).svg())
    values = [g for g in root.iter(NS + "g") if "vg-value" in g.get("class", "").split()]
    assert len(values) == 1001
    assert node_texts(root, "v0") == ["x0", "data -3.0000", "grad — → -6.0000"]  # last step
    assert node_texts(root, "v1")[2] == "grad 1.0000"


def test_node_limit_refuses_with_a_suggestion(G):
    with pytest.raises(GraphTooLargeError, match=r"5 values, more than max_nodes=4.*max_nodes=5"):
        draw(G, max_nodes=4)
    assert draw(G, max_nodes=5).step == 7


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"step": 99}, "step must be"),
        ({"rankdir": "XY"}, "rankdir"),
        ({"theme": "neon"}, "unknown theme"),
        ({"decimals": 20}, "decimals"),
        ({"max_nodes": 0}, "max_nodes"),
        ({"backend": "cairo"}, "backend must be one of"),
        ({"timeout": 0}, "timeout"),
    ],
    ids=["step", "rankdir", "theme", "decimals", "max-nodes", "backend", "timeout"],
)
def test_bad_options_are_clear(G, kwargs, match):
    with pytest.raises(OptionError, match=match):
        draw(G, **kwargs)


def test_default_node_limit_is_two_thousand():
    xs = [Value(1.0, label=f"x{i}") for i in range(1001)]
    total = xs[0]
    for x in xs[1:]:
        total = total + x
    G = to_networkx(total)
    assert G.number_of_nodes() == 2001
    with pytest.raises(GraphTooLargeError, match="max_nodes=2,000.*pass max_nodes=2001"):
        draw(G)


def test_environment_variable_picks_the_backend(G, monkeypatch):
    if not HAS_DOT:
        pytest.skip("the system Graphviz `dot` is not installed (apt install graphviz)")
    monkeypatch.setenv("VIZGRAD_LAYOUT", "system")
    via_env = draw(G, 7).svg()
    monkeypatch.delenv("VIZGRAD_LAYOUT")
    assert via_env == draw(G, 7, backend="system").svg()
    assert via_env != draw(G, 7, backend="embedded").svg()


def test_desc_holds_the_chain_rule(G):
    root = parse(draw(G, 7).svg())
    assert root[1].text == ("∂q/∂a += 3.0000 × 1.0000 = 3.0000  (-6.0000 → -3.0000)\n"
                            "∂q/∂b += -2.0000 × 1.0000 = -2.0000  (-6.0000 → -8.0000)")


def test_contribution_to_a_constant_is_labelled_too():
    a = Value(0.5, label="a")
    y = a * 3
    y.label = "y"
    y.backward()
    root = parse(draw(y).svg())
    assert texts(group(root, "e-v1-v2-1")) == ["0.5000 × 1.0000 = 0.5000"]
    assert texts(group(root, "v1")) == ["3"]


def test_a_micrograd_value_draws_with_two_edges_for_a_plus_a():
    engine = pytest.importorskip("micrograd.engine", reason="micrograd==0.1.0 is a test extra")
    a = engine.Value(3.0)
    b = a + a
    b.backward()
    root = parse(draw(b).svg())
    assert node_texts(root, "v0") == ["v0", "data 3.0000", "grad — → 2.0000"]
    assert sorted(g.get("id") for g in root.iter(NS + "g")
                  if (g.get("id") or "").startswith("e-v0-v1-")) == ["e-v0-v1-0", "e-v0-v1-1"]


def test_chain_rule_starts_a_first_arrival_at_not_reached():
    from vizgrad.render.text import chain_rule

    G = fork_graph()
    assert chain_rule(G, 6)[0].endswith("(— → -6.0000)")
    assert chain_rule(G, 7)[0].endswith("(-6.0000 → -3.0000)")
    a = Value(3.0, label="a")
    shared = to_networkx(a + a)
    first, second = chain_rule(shared, 3)
    assert first.endswith("  (— → 1.0000)") and second.endswith("  (1.0000 → 2.0000)")
