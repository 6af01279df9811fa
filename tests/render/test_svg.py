"""The SVG drawing: what each step shows, parsed back with an XML parser."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from vizgrad import Value, examples, from_json, to_json, to_networkx, trace
from vizgrad.exceptions import GraphTooLargeError, OptionError
from vizgrad.scene.layout import run as layout
from vizgrad.write.svg import Drawing, draw

from ..helpers import build_fork
from ..words import english_words, labels

NS = "{http://www.w3.org/2000/svg}"
HAS_DOT = "system" in layout.available_backends()
GEOMETRY = ("x", "y", "width", "height", "rx", "cx", "cy", "ry", "d", "points", "font-size")


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def elements(root: ET.Element) -> dict[str, ET.Element]:
    return {el.get("id"): el for el in root.iter() if el.get("id")}


def text(root: ET.Element, eid: str) -> str:
    el = elements(root).get(eid)
    return "" if el is None else (el.text or "")


def box(root: ET.Element, node: str) -> tuple[str, str, str]:
    """(name, data, grad) as the box shows them."""
    return text(root, f"t-{node}-name"), text(root, f"t-{node}-data"), text(root, f"t-{node}-grad")


def fork_graph(backward: bool = True):
    return to_networkx(build_fork(backward=backward)[0])


@pytest.fixture(scope="module")
def G():
    return fork_graph()


@pytest.fixture(scope="module")
def fork_svgs(G):
    """The fork graph at every step and the final view: {step: parsed root}."""
    d = draw(G)
    out = {k: parse(d.at(k).svg()) for k in range(8)}
    out[None] = parse(d.svg())
    return out


# ids in the fork graph: a=v0, b=v1, u=v2, v=v3, q=v4


def test_step0_inputs_known_ops_pending(fork_svgs):
    root = fork_svgs[0]
    assert box(root, "v0") == ("a", "−2", "—")
    assert box(root, "v1") == ("b", "3", "—")
    for vid, name in (("v2", "u"), ("v3", "v"), ("v4", "q")):
        assert box(root, vid) == (name, "pending", "—")
    assert text(root, "cap-0") == "step 0 / 7 · inputs are set; every operation is pending"
    assert text(root, "badge-t") == "inputs"


def test_forward_steps_fill_in_values_one_by_one(fork_svgs):
    assert [box(fork_svgs[k], "v2")[1] for k in range(4)] == ["pending", "−6", "−6", "−6"]
    assert [box(fork_svgs[k], "v4")[1] for k in range(4)] == ["pending"] * 3 + ["−6"]
    assert text(fork_svgs[3], "cap-1") == "q = u × v = −6"
    assert elements(fork_svgs[3])["n-v4"].get("stroke") == "#0072b2"


def test_grads_show_a_hatched_dash_until_reached(fork_svgs):
    for k in range(4):
        assert [box(fork_svgs[k], f"v{i}")[2] for i in range(5)] == ["—"] * 5
        assert elements(fork_svgs[k])["c-v0-grad"].get("fill").startswith("url(#")
    assert box(fork_svgs[4], "v4")[2] == "1"
    assert elements(fork_svgs[4])["t-v4-grad"].get("font-weight") == "bold"


def test_step7_contributions_and_totals(fork_svgs):
    root = fork_svgs[7]
    assert box(root, "v0")[2] == "−3" and box(root, "v1")[2] == "−8"
    assert text(root, "l-v0-v2-0") == "3 × 1 = 3"
    assert text(root, "l-v1-v2-1") == "−2 × 1 = −2"
    assert "l-v0-v3-0" not in elements(root)  # only this step's edges are labelled
    assert text(root, "cap-1") == ("a.grad += b × u.grad = 3 × 1 = 3   (−6 → −3)")
    assert elements(root)["e-v0-v2-0"].get("stroke") == "#5e3c99"
    assert elements(root)["e-v1-v2-1"].get("stroke") == "#b35806"


def test_final_view_is_the_default_after_backward(fork_svgs, G):
    root = fork_svgs[None]
    labels = sorted(text(root, i) for i in elements(root) if i.startswith("l-"))
    assert labels == sorted(["−2 × 1 = −2", "1 × (−6) = −6", "1 × (−6) = −6", "1 × 1 = 1",
                             "3 × 1 = 3", "−6 × 1 = −6"])
    assert text(root, "cap-0") == "after backward(): every gradient is final"
    assert text(root, "cap-1") == "∂q/∂a = −3   ∂q/∂b = −8"
    assert not any(el.get("stroke") == "#0072b2" for el in root.iter())
    assert draw(G).svg() == draw(G, "final").svg() != draw(G, 7).svg()


def test_every_step_has_one_layout_and_keeps_only_its_own_caption_rows(fork_svgs):
    roots = list(fork_svgs.values())
    boxes = [list(map(float, r.get("viewBox").split())) for r in roots]
    assert len({(b[0], b[2], round(b[1] + b[3], 1)) for b in boxes}) == 1  # one bottom edge
    lines = [sum(1 for i, el in elements(r).items() if i.startswith("cap-")
                 and "".join(el.itertext()).strip()) for r in roots]
    assert lines[0] == 1 and max(lines) == 3  # step 0: one line; the final view: more
    line = (boxes[0][1] - min(b[1] for b in boxes)) / (max(lines) - lines[0])
    for b, n in zip(boxes, lines):  # each starts lower by the caption rows it leaves empty
        assert b[1] == pytest.approx(boxes[0][1] - (n - lines[0]) * line, abs=0.02)
    first = elements(roots[0])
    for root in roots[1:]:
        for eid, el in elements(root).items():
            if eid in first:
                assert [el.get(a) for a in GEOMETRY] == [first[eid].get(a) for a in GEOMETRY], eid


def test_before_backward_the_default_shows_grads_not_computed():
    root = parse(draw(fork_graph(backward=False)).svg())
    assert [box(root, f"v{i}")[2] for i in range(5)] == ["—"] * 5
    assert box(root, "v4")[1] == "−6"
    assert text(root, "cap-1") == "backward() has not run: gradients are not computed"


def test_shared_input_draws_two_labelled_edges():
    a = Value(3.0, label="a")
    b = a + a
    b.label = "b"
    root = parse(draw(b, 3).svg())
    ids = elements(root)
    assert "e-v0-v1-0" in ids and "e-v0-v1-1" in ids
    assert [text(root, "l-v0-v1-0"), text(root, "l-v0-v1-1")] == ["1 × 1 = 1"] * 2
    assert box(root, "v0") == ("a", "3", "2")


def test_constants_are_small_boxes_with_their_value():
    a = Value(0.5, label="a")
    y = a * 3
    y.label = "y"
    y.backward()
    root = parse(draw(y).svg())
    assert elements(root)["n-v1"].get("class") == "vg-box vg-const"
    assert text(root, "t-v1-name") == "3" and "t-v1-data" not in elements(root)
    assert text(root, "l-v1-v2-1") == "0.5 × 1 = 0.5"  # a constant's contribution is shown too


def test_off_path_output_is_dashed_and_gets_no_grad():
    x = Value(0.5, label="x")
    p = x.exp()
    p.label = "p"
    other = (x * 3).exp()
    other.label = "other"
    G = to_networkx(trace(p, also=[other]))
    root = parse(draw(G).svg())
    oid = next(n for n in G if G.nodes[n]["label"] == "other")
    assert elements(root)[f"n-{oid}"].get("stroke-dasharray")
    assert box(root, oid)[2] == "—"
    assert not elements(root)["n-v1"].get("stroke-dasharray")


def test_nan_and_inf_show_as_words():
    a, b = Value(float("nan"), label="a"), Value(float("inf"), label="b")
    c = a * b + b
    c.label = "c"
    c.backward()
    root = parse(draw(c).svg())
    assert box(root, "v0")[1] == "nan" and box(root, "v1")[1] == "inf"


def test_decimals_and_trim(G):
    root = parse(draw(G, 7, decimals=2, trim=False).svg())
    assert box(root, "v0") == ("a", "−2.00", "−3.00")
    assert text(root, "l-v0-v2-0") == "3.00 × 1.00 = 3.00"
    half = Value(0.123456, label="h") * 1
    assert box(parse(draw(half, 0).svg()), "v0")[1] == "0.1235"


def test_numbers_use_a_true_minus_sign(fork_svgs):
    for root in fork_svgs.values():
        for el in root.iter(NS + "text"):
            assert not re.search(r"-\d", el.text or ""), el.text


def test_top_to_bottom_and_dark_theme(G):
    root = parse(draw(G, 7, rankdir="TB", theme="dark").svg())
    assert "vg-theme-dark" in root.get("class").split()
    assert elements(root)["n-v0"].get("fill") == "#2b2b2b"
    ys = {n: float(elements(root)[f"n-{n}"].get("y")) for n in ("v0", "v2", "v4")}
    assert ys["v0"] < ys["v2"] < ys["v4"]


def test_slides_preset_has_large_text(G):
    root = parse(draw(G, preset="slides").svg())
    sizes = [float(el.get("font-size")) for el in root.iter(NS + "text")]
    width = float(root.get("viewBox").split()[2])
    assert min(sizes) * min(1, 960 / width) >= 14


def test_chinese_words(G):
    root = parse(draw(G, 0, lang="zh").svg())
    assert box(root, "v2") == ("u", "待计算", "—")
    assert text(root, "cap-0").startswith("步骤 0 / 7")
    assert "Noto Sans CJK SC" in root.get("font-family")
    assert box(parse(draw(G, 7, lang="zh").svg()), "v0") == ("a", "−2", "−3")
    assert text(parse(draw(G, 7, lang="zh").svg()), "t-v0-gl") == "累计梯度"  # the chapter's word


def svg_texts(svg: str) -> list[str]:
    """Every text an SVG shows or says: <text>, <tspan>, <title>, <desc>."""
    return [el.text for el in parse(svg).iter() if el.text and el.text.strip()]


@pytest.mark.parametrize("name", examples.names())
def test_a_chinese_svg_has_no_english_words(name):
    G = examples.graph(name)
    V = draw(G).graph  # the view drawn: steps count it
    last = len(V.graph["steps"]) - 1
    backward = next(k for k in range(last, -1, -1) if V.graph["steps"][k]["kind"] == "backward")
    for k in (0, 1, last // 2, backward, None):
        texts = svg_texts(draw(G, k, lang="zh").svg())
        assert texts and english_words(texts, labels(G)) == [], (name, k)
    assert "step" in english_words(svg_texts(draw(G, 0).svg()), labels(G))  # it can fail


HOSTILE = [
    'say "hi"', "{braces} and [brackets]", "a|b|c", "<b>bold</b> & more", "&amp; &lt; &#65;",
    "back\\slash \\n \\N \\l \\G \\", "中文标签", "emoji 😀🎉", "שלום עולם",
    "<script>alert(1)</script>", "x]]>--<!-- y -->", "'single' `tick`", "\\\"",
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


def test_hostile_labels_render_verbatim(hostile):
    root = parse(draw(hostile).svg())  # parses: nothing became markup
    assert not list(root.iter(NS + "script"))
    names = {text(root, f"t-{n}-name") for n in hostile if hostile.nodes[n]["label"]}
    assert names == {*HOSTILE, "out <&> \"q\""}


def test_control_characters_never_break_the_xml():
    v = Value(1.0, label="bell\x07 and \x00 nul") * 2
    root = parse(draw(v, 0).svg())
    assert text(root, "t-v0-name") == "bell\ufffd and \ufffd nul"


def test_xml_text_replaces_exactly_what_xml_cannot_carry():
    from vizgrad.write.svgout import xml_text

    bad = [*map(chr, [*range(0x09), *range(0x0B, 0x20), 0xD800, 0xDBFF, 0xDFFF, 0xFFFE,
                      0xFFFF])]
    good = ["\t", "\n", " ", "~", "\x7f", "\x85", "é", "−", "\ud7ff", "\ue000",
            "\ufffd", "\U0001f600"]
    assert [xml_text(f"a{c}b") for c in bad] == ["a\ufffdb"] * len(bad)
    assert [xml_text(f"a{c}b") for c in good] == [f"a{c}b" for c in good]


def test_svg_is_standalone_and_stable(G):
    svg = draw(G, 7).svg()
    assert svg == draw(fork_graph(), 7).svg()
    assert svg.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg ')
    assert not re.search(r"0x[0-9a-f]{6,}|<!--", svg)
    root = parse(svg)
    assert root[0].tag == NS + "title"


def test_graph_from_json_renders_the_same(G):
    assert draw(from_json(to_json(G)), 6).svg() == draw(G, 6).svg()


def test_jupyter_display_scales_to_the_cell(G):
    d = draw(G, 7)
    assert isinstance(d, Drawing) and d._repr_svg_() == d.svg()
    bundle = d._repr_mimebundle_()
    assert bundle["text/plain"] == "<Drawing of q, step 7/7, 5 nodes>"
    root = parse(bundle["image/svg+xml"])
    assert root.get("viewBox") and "max-width:100%" in root.get("style")


def test_dot_is_the_layout_input(G):
    dot = draw(G, 5, rankdir="TB").dot()
    assert dot.startswith("digraph vizgrad {") and 'rankdir="TB"' in dot
    assert 'fixedsize="true"' in dot and '"v2-op"' in dot


def test_a_thousand_node_graph_renders():
    xs = [Value(float(i % 7) - 3.0, label=f"x{i}") for i in range(334)]
    total = xs[0] * xs[0]
    for x in xs[1:]:
        total = total + x * x
    total.label = "total"
    total.backward()
    G = to_networkx(total)
    assert G.number_of_nodes() == 1001
    root = parse(draw(G, collapse=False, timeout=300).svg())
    boxes = [el for el in root.iter(NS + "rect") if (el.get("id") or "").startswith("n-")]
    assert len(boxes) == 1001
    assert box(root, "v0") == ("x0", "−3", "−6")


def test_node_limit_refuses_with_a_suggestion(G):
    with pytest.raises(GraphTooLargeError, match=r"5 values, more than max_nodes=4.*max_nodes=5"):
        draw(G, max_nodes=4)
    assert draw(G, max_nodes=5).step is None


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"step": 99}, "step must be"),
        ({"step": "latest"}, "step must be"),
        ({"rankdir": "XY"}, "rankdir"),
        ({"theme": "neon"}, "theme must be one of light, dark, got 'neon'"),
        ({"preset": "poster"}, "preset must be one of docs, slides, compact, got 'poster'"),
        ({"lang": "fr"}, "lang must be one of en, zh, got 'fr'"),
        ({"decimals": 20}, "decimals"),
        ({"max_nodes": 0}, "max_nodes"),
        ({"backend": "cairo"}, "backend must be one of"),
        ({"timeout": 0}, "timeout"),
    ],
    ids=["step", "step-word", "rankdir", "theme", "preset", "lang", "decimals", "max-nodes",
         "backend", "timeout"],
)
def test_bad_options_are_clear(G, kwargs, match):
    with pytest.raises(OptionError, match=match):
        draw(G, **kwargs)


def test_past_two_thousand_values_draw_collapses_or_refuses():
    xs = [Value(1.0, label=f"x{i}") for i in range(1001)]
    total = xs[0]
    for x in xs[1:]:
        total = total + x
    G = to_networkx(total)
    assert G.number_of_nodes() == 2001
    d = draw(G)  # an overview in runs of the order, and the caption says so
    assert 1 < d.graph.number_of_nodes() <= 60 and "collapsed automatically" in d.svg()
    with pytest.raises(GraphTooLargeError, match="max_nodes=2,000.*pass max_nodes=2001"):
        draw(G, collapse=False)


def test_environment_variable_picks_the_backend(G, monkeypatch):
    if not HAS_DOT:
        pytest.skip("the system Graphviz `dot` is not installed (apt install graphviz)")
    monkeypatch.setenv("VIZGRAD_LAYOUT", "system")
    via_env = draw(G, 7).svg()
    monkeypatch.delenv("VIZGRAD_LAYOUT")
    assert via_env == draw(G, 7, backend="system").svg()


def test_environment_variable_picks_the_language(G, monkeypatch):
    monkeypatch.setenv("VIZGRAD_LANG", "zh")
    assert text(parse(draw(G, 0).svg()), "badge-t") == "输入"


def test_desc_holds_the_chain_rule(G):
    root = parse(draw(G, 7).svg())
    assert root[1].tag == NS + "desc"
    assert root[1].text == ("a.grad += b × u.grad = 3 × 1 = 3   (−6 → −3)\n"
                            "b.grad += a × u.grad = −2 × 1 = −2   (−6 → −8)")


def test_a_micrograd_value_draws_with_two_edges_for_a_plus_a():
    engine = pytest.importorskip("micrograd.engine", reason="micrograd==0.1.0 is a test extra")
    a = engine.Value(3.0)
    b = a + a
    b.backward()
    root = parse(draw(b).svg())
    assert box(root, "v0") == ("x₁", "3", "2")  # an unlabelled input: by its role, not v0
    assert "e-v0-v1-0" in elements(root) and "e-v0-v1-1" in elements(root)
    # micrograd's closure adds both slots' 1s at once: observed as one contribution of 2
    assert text(root, "l-v0-v1-0") == "2 × 1 = 2" and "l-v0-v1-1" not in elements(root)


def test_every_example_draws_at_every_step():
    for name in examples.names():
        d = draw(examples.graph(name))
        end = [float(v) for v in parse(d.svg()).get("viewBox").split()]
        for k in range(d.scene.last + 1):
            box = [float(v) for v in parse(d.at(k).svg()).get("viewBox").split()]
            assert (box[0], box[2]) == (end[0], end[2])  # one width
            assert box[1] + box[3] == pytest.approx(end[1] + end[3], abs=0.02)  # one bottom


def test_chain_rule_starts_a_first_arrival_at_not_reached():
    from vizgrad.style.text import chain_rule

    G = fork_graph()
    assert chain_rule(G, 6)[0].endswith("(— → −6.0000)")
    assert chain_rule(G, 7)[0].endswith("(−6.0000 → −3.0000)")
    a = Value(3.0, label="a")
    first, second = chain_rule(to_networkx(a + a), 3)
    assert first.endswith("(— → 1.0000)") and second.endswith("(1.0000 → 2.0000)")
