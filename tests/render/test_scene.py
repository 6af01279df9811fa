"""The scene: one layout for every step, no collisions, legible colour, presets."""

from __future__ import annotations

import re

import contextlib
import functools
import math

import pytest

from tests.helpers import svg_smallest_px
import vizgrad
from vizgrad import Value, examples, to_networkx
from vizgrad.graph.collapse import AUTO_NODES
from vizgrad.i18n import languages
from vizgrad.style.metrics import width
from vizgrad.scene import scene_of
from vizgrad.scene.scene import SLIDE_WIDTH, Scene, smallest_text
from vizgrad.scene.make import make_scene

from .test_theme import contrast  # WCAG 2's formula, written out apart from vizgrad's

NAMES = examples.names()


@pytest.fixture(scope="module", params=[(n, lang) for lang in languages() for n in NAMES],
                ids=lambda p: f"{p[0]}-{p[1]}")
def scene(request):
    """Every example in every language: Chinese words are wider, the boxes too. An example
    past the automatic collapse (course-mlp, 398 values) as draw() shows it, by neuron."""
    name, lang = request.param
    G = examples.graph(name)
    if G.number_of_nodes() > AUTO_NODES:
        from vizgrad import draw

        d = draw(G, lang=lang)
        DRAWN[id(d.scene)] = d.graph
        return d.scene
    s = scene_of(G, lang=lang)
    DRAWN[id(s)] = G
    return s


#: the graph each scene of the fixture was drawn from, by the scene's id
DRAWN: dict[int, object] = {}


def steps(s: Scene) -> list[int | None]:
    return [*range(s.last + 1), None]


def rect(sh) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of a rect or ellipse shape."""
    g = sh.geom
    if sh.kind == "ellipse":
        return g[0] - g[2], g[1] - g[3], g[0] + g[2], g[1] + g[3]
    return g[0], g[1], g[0] + g[2], g[1] + g[3]


def overlap(a, b, pad: float = 0.0) -> bool:
    return a[0] < b[2] - pad and b[0] < a[2] - pad and a[1] < b[3] - pad and b[1] < a[3] - pad


def bezier(points, per: int = 24):
    """Sample points along a path given as start + three control points per curve."""
    out = [points[0]]
    for i in range(1, len(points) - 2, 3):
        p0, p1, p2, p3 = points[i - 1], points[i], points[i + 1], points[i + 2]
        for j in range(1, per + 1):
            t = j / per
            out.append(tuple((1 - t) ** 3 * a + 3 * (1 - t) ** 2 * t * b + 3 * (1 - t) * t * t * c
                             + t ** 3 * d for a, b, c, d in zip(p0, p1, p2, p3)))
    return out


def by_id(s: Scene):
    return {sh.id: sh for sh in s.shapes}


def test_every_step_shows_the_same_shapes_in_the_same_places(scene):
    """Zero drift: one set of shapes; each step only changes looks, never geometry."""
    ids = {sh.id for sh in scene.shapes}
    assert len(ids) == len(scene.shapes)
    for k in steps(scene):
        look = scene.look(k)
        assert set(look) <= ids
        texts = [i for i, sh in by_id(scene).items() if sh.kind == "text"]
        assert all("text" in look[i] for i in texts)
    again = scene_of(DRAWN[id(scene)], lang=scene.lang)
    assert [(sh.id, sh.geom) for sh in again.shapes] == [(sh.id, sh.geom) for sh in scene.shapes]


def test_labels_never_overlap_labels_or_boxes(scene):
    shapes = by_id(scene)
    labels = [rect(sh) for i, sh in shapes.items() if i.startswith("lb-")]
    solids = [rect(sh) for i, sh in shapes.items() if i.startswith(("n-", "o-"))]
    for i, a in enumerate(labels):
        assert not any(overlap(a, b) for b in labels[i + 1:]), "two edge labels overlap"
        assert not any(overlap(a, b) for b in solids), "an edge label covers a box"
    for i, a in enumerate(solids):
        assert not any(overlap(a, b) for b in solids[i + 1:]), "two boxes overlap"


def test_no_other_edge_crosses_a_label_and_each_label_sits_on_its_own_edge(scene):
    """A label sits on its own edge (its background hides the line under it, issue 23
    item 5); no other edge may cross it."""
    shapes = by_id(scene)
    paths = {i: bezier(sh.geom) for i, sh in shapes.items()
             if sh.kind == "path" and i.startswith("e-")}
    for i, sh in shapes.items():
        if not i.startswith("lb-"):
            continue
        box = rect(sh)
        inner = (box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1)
        own = "e-" + i[3:]
        for pid, pts in paths.items():
            assert pid == own or not any(inner[0] < x < inner[2] and inner[1] < y < inner[3]
                                         for x, y in pts), f"edge {pid} crosses the label {i}"
        assert any(box[0] < x < box[2] and box[1] < y < box[3] for x, y in paths[own]), (
            f"label {i} is not on its own edge")


@functools.lru_cache(maxsize=None)
def _font_files() -> dict[str, str]:
    """DejaVu Sans (regular, bold) and a CJK font, found by matplotlib's font manager."""
    from matplotlib import font_manager as fm

    def find(family: str, weight: str = "normal") -> str:
        return fm.findfont(fm.FontProperties(family=family, weight=weight),
                           fallback_to_default=False)

    files = {"regular": find("DejaVu Sans"), "bold": find("DejaVu Sans", "bold")}
    for family in ("Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Zen Hei"):
        with contextlib.suppress(ValueError):
            files["cjk"] = find(family)
            break
    return files


@functools.lru_cache(maxsize=None)
def _glyph(c: str, size: float, bold: bool) -> tuple[float, float, float]:
    """(advance, ink left, ink right) of one character in points, read by FreeType."""
    from matplotlib import font_manager as fm
    from matplotlib.ft2font import LoadFlags

    files = _font_files()
    path = files["bold" if bold else "regular"]
    font = fm.get_font(path)
    if font.get_char_index(ord(c)) == 0:  # not in DejaVu Sans: the CJK fallback
        if "cjk" not in files:
            pytest.skip("no CJK font found (apt install fonts-noto-cjk)")
        font = fm.get_font(files["cjk"])
    font.set_size(size, 72)  # 72 dpi: one pixel is one point
    g = font.load_char(ord(c), flags=LoadFlags.NO_HINTING)
    return g.linearHoriAdvance / 65536, g.bbox[0] / 64, g.bbox[2] / 64


def ink(text: str, size: float, bold: bool, x: float, anchor: str) -> tuple[float, float]:
    """The x range the glyphs of ``text`` cover, placed at ``x`` as SVG's text-anchor does."""
    glyphs = [_glyph(c, size, bold) for c in text]
    pen = x - {"start": 0.0, "middle": 0.5, "end": 1.0}[anchor] * sum(g[0] for g in glyphs)
    left, right = math.inf, -math.inf
    for c, (advance, x0, x1) in zip(text, glyphs):
        if not c.isspace():
            left, right = min(left, pen + x0), max(right, pen + x1)
        pen += advance
    return left, right


def test_the_ink_measure_knows_its_glyphs():
    left, right = ink("−2.5", 14, False, 0.0, "start")  # DejaVu Sans: − starts at 1.48 pt
    assert 1.4 < left < 1.6 and 32.5 < right < 33.0  # 5 ends 1.2 pt before its advance
    end, start = ink("ab", 10, False, 100.0, "end"), ink("ab", 10, False, 100.0, "start")
    assert end[1] < 100.0 < start[0] + 1


def test_every_text_fits_its_box_in_every_step(scene):
    """Measured by FreeType on the fonts drawn, not with the width table that sized the boxes."""
    shapes = by_id(scene)
    for k in steps(scene):
        look = scene.look(k)
        span = {}
        for i, sh in shapes.items():
            if sh.kind != "text" or not i.startswith("t-") or i.endswith("-op"):
                continue
            node = i[2:].rsplit("-", 1)[0]
            box = rect(shapes[f"n-{node}"])
            text = look[i]["text"]
            if not text.strip():
                continue
            x0, x1 = ink(text, sh.size, bool(look[i].get("bold")), sh.geom[0], sh.anchor)
            assert box[0] < x0 and x1 < box[2], f"{text!r} overflows {node} at {k}"
            span[i] = (x0, x1)
        for i, (x0, x1) in span.items():  # a row's word ends before its number starts
            number = {"-dl": "-data", "-gl": "-grad"}.get(i[-3:])
            if number and span.get(i[:-3] + number):
                assert x1 < span[i[:-3] + number][0], (
                    f"{look[i]['text']!r} touches its number at {k}")


def _background(shapes, look, i: str, theme) -> list[str]:
    """The colours behind text ``i``: a hatched cell counts its lines and its ground."""
    node = i[2:].rsplit("-", 1)[0] if i.startswith("t-") else ""
    if i.endswith(("-grad", "-gl")):
        cell = look[f"c-{node}-grad"]
        return [theme.background, theme.hatch] if cell.get("hatch") else [cell["fill"]]
    if i.endswith("-op"):
        return [look[f"o-{node}"]["fill"]]
    if i.startswith("t-"):
        return [look[f"n-{node}"]["fill"]]
    if i.startswith("l-"):
        return [look["lb-" + i[2:]]["fill"]]
    if i == "badge-t":
        return [look["badge"]["fill"]]
    return [theme.background]


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("name", ["fork", "softmax-nll", "tanh-native", "shared-node"])
def test_every_text_has_contrast_of_at_least_4_5(name, theme):
    s = scene_of(examples.graph(name), theme=theme)
    shapes = by_id(s)
    for k in steps(s):
        look = s.look(k)
        for i, sh in shapes.items():
            if sh.kind != "text" or look[i].get("hidden") or not look[i]["text"]:
                continue
            for bg in _background(shapes, look, i, s.theme):
                ratio = contrast(look[i]["fill"], bg)
                assert ratio >= 4.5, f"{i} {look[i]['text']!r} at step {k}: {ratio:.2f} on {bg}"


def test_not_reached_is_hatched_and_zero_is_not():
    s = scene_of(examples.graph("tanh-native"))
    G = s.facts
    w2 = next(n for n in G if G.nodes[n]["label"] == "w2")
    final, start = s.look(None), s.look(0)
    assert final[f"t-{w2}-grad"]["text"] == "0" and not final[f"c-{w2}-grad"]["hatch"]
    assert start[f"t-{w2}-grad"]["text"] == "—" and start[f"c-{w2}-grad"]["hatch"] == "1"


def test_one_outlier_does_not_wash_out_the_colours():
    s = scene_of(examples.graph("softmax-nll"))
    G = s.facts
    final = s.look(None)
    fills = {G.nodes[n]["label"]: final[f"c-{n}-grad"]["fill"] for n in G
             if G.nodes[n]["label"] in ("z0", "z1", "z2", "z3")}
    assert all(f != s.theme.node_fill for f in fills.values()), fills
    assert s.looks.scale < 5  # v13's grad of about -23.9 is past the scale, not the scale


def test_final_view_labels_every_contribution_edge_and_highlights_nothing(scene):
    final = scene.look(None)
    # on the edges, or, between a net's boxes, as 'from L0/N1' rows of the receiving box
    labels = [i for i in final if i.startswith("l-") or re.fullmatch(r"t-.+-i\d+", i)]
    assert labels and all(not final[i].get("hidden") for i in labels)
    assert all(final[f"n-{n}"]["stroke"] != scene.theme.active for n in scene.order)
    assert not any(v.get("hidden") == "" for i, v in final.items() if i.endswith("-b"))


def test_backward_steps_point_their_arrowheads_the_way_the_gradient_flows():
    s = scene_of(examples.graph("fork"))  # step 7: backward through u = a × b
    look = s.look(7)
    for tail in ("v0", "v1"):
        eid = f"e-{tail}-v2-{0 if tail == 'v0' else 1}"
        assert look[eid + "-b"]["hidden"] == "" and look[eid + "-f"]["hidden"] == "1"
    assert look["e-v0-v3-0-b"]["hidden"] == "1"
    assert look["badge-t"]["text"] == "backward" and s.look(2)["badge-t"]["text"] == "forward"


def test_caption_names_the_factors_and_the_rule():
    s = scene_of(examples.graph("fork"))
    assert s.caption_texts(7)[1].startswith("a.grad += b × u.grad = 3 × 1 = 3")
    t = scene_of(examples.graph("tanh-native"))
    tanh_step = next(k for k in range(t.last + 1)
                     if t.steps[k]["kind"] == "backward")
    assert "(1 − o²) × o.grad = " in t.caption_texts(tanh_step)[1]


def _measured(text: str, size: float) -> float:
    """The width of ``text`` in DejaVu Sans (the first font the SVG names) at ``size`` units,
    measured by FreeType through Pillow: not vizgrad's own estimate that wrapped the line."""
    from matplotlib import font_manager as fm
    from PIL import ImageFont

    font = ImageFont.truetype(fm.findfont(fm.FontProperties(family="DejaVu Sans")), 1000)
    return font.getlength(text) * size / 1000


def test_caption_block_keeps_its_size_and_long_lines_wrap():
    s = scene_of(examples.graph("tanh-native"), preset="slides", rankdir="TB")
    for k in steps(s):
        lines, texts = s.caption_lines(k), s.caption_texts(k)
        assert len(lines) <= s.caption_rows
        assert all(_measured(x, s.preset.caption) <= s.width for x in lines), lines
        if any(_measured(x, s.preset.caption) > s.width for x in texts):
            assert len(lines) > len(texts)  # a line too wide as written was wrapped


@pytest.mark.parametrize("name", ["fork", "shared-node", "sum-square"])
def test_slides_keep_text_at_14_pt_on_a_960_by_540_slide(name):
    s = make_scene(examples.graph(name), preset="slides")
    scale = min(1.0, SLIDE_WIDTH / s.width, 540 / s.height)
    assert smallest_text(s) * scale >= 14


@pytest.mark.parametrize("name", ["softmax-nll", "tanh-decomposed"])
def test_slides_turn_only_when_that_takes_fewer_slides(name):
    """On slides a picture turns top to bottom only when its deck is then shorter (the
    slides a teacher shows, counted as written, not as planned)."""
    G = examples.graph(name)

    def deck(**kw):
        return len([svg for svg in vizgrad.draw(G, preset="slides", **kw).slides()
                    if "vg-notes" not in svg])

    lr, tb = deck(rankdir="LR"), deck(rankdir="TB")
    chosen = make_scene(G, preset="slides").rankdir
    assert chosen == ("TB" if tb < lr else "LR"), (lr, tb)
    assert deck() == min(lr, tb)
    assert make_scene(G, preset="slides", rankdir="LR").rankdir == "LR"  # asked: kept


def test_compact_is_smaller_than_docs():
    G = examples.graph("fork")
    assert scene_of(G, preset="compact").width < scene_of(G).width < scene_of(
        G, preset="slides").width


def test_inputs_share_the_first_rank_and_parallel_first_ops_line_up():
    s = scene_of(examples.graph("softmax-nll"))
    G, shapes = s.facts, by_id(s)
    xs = {G.nodes[n]["label"]: round(shapes[f"n-{n}"].geom[0] + shapes[f"n-{n}"].geom[2] / 2, 1)
          for n in G if G.nodes[n]["kind"] == "input"}
    assert len(set(xs.values())) == 1, xs
    es = {round(shapes[f"n-{n}"].geom[0] + shapes[f"n-{n}"].geom[2] / 2, 1)
          for n in G if G.nodes[n]["label"] in ("e0", "e1", "e2", "e3")}
    assert len(es) == 1


def test_words_follow_the_language():
    s = scene_of(examples.graph("fork"), lang="zh")
    look = s.look(0)
    assert look["t-v2-data"]["text"] == "待计算" and look["t-v0-dl"]["text"] == "前向值"
    assert look["cap-0"]["text"].startswith("步骤 0 / 7")
    assert scene_of(examples.graph("fork"), lang="zh").size == s.size


def test_a_value_never_drawn_before_backward_shows_forward_state():
    a = Value(2.0, label="a")
    s = scene_of(to_networkx(a * a))
    assert s.caption_texts(None)[1] == "backward() has not run: gradients are not computed"


@pytest.mark.parametrize("name", examples.names())
def test_every_example_reads_at_12_px_in_a_1400_px_docs_column(name):
    from vizgrad import draw

    assert svg_smallest_px(draw(examples.graph(name)).svg(), 1400) >= 12


def test_a_grouped_graph_too_wide_for_the_column_is_collapsed_by_the_deepest_level_that_fits():
    from vizgrad import draw

    G = examples.graph("mlp")  # 40 values: under the automatic collapse's 100, but wide
    full = draw(G, collapse=False)
    assert svg_smallest_px(full.svg(), 1400) < 12
    d = draw(G)
    assert d.graph.number_of_nodes() == 9  # by neuron: 4 neuron boxes and 5 values
    assert "collapsed by neuron" in d.svg()


def test_text_units_add_up_as_the_joined_text_does():
    """Caption wrapping adds the widths of pieces: they must equal the joined text's width,
    for characters in the width table and outside it (CJK, combining marks, emoji)."""
    from vizgrad.style.metrics import units

    pieces = ["∂q/∂a += b × u.grad", " = ", "3 × (−1.5)", "梯度", "x\u0304", "😀", "", " "]
    for a in pieces:
        for b in pieces:
            for bold in (False, True):
                assert units(a, bold) + units(b, bold) == units(a + b, bold)
                assert width(a + b, 12, bold) == units(a + b, bold) * 12 / 1000
    assert units("梯度") == 2000 and units("x\u0304") == units("x") > 0
