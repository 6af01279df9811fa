"""Slides a teacher would project (issue 33, items 2 and 4), read back from the SVG files that
``vizgrad render … --preset slides -o NAME.svg`` writes, with an XML parser:

- the lecture's tanh neuron is one 960×540 slide with its smallest text at 14 pt or more;
- a student's own net in the layer view fills one slide (its windows side by side);
- no slide cuts a box, an op circle or an edge label: each lies wholly inside the slide and
  inside its window's clip, or is not on the slide (texts measured with matplotlib's font
  outlines, not with vizgrad's width table);
- the caption and the legend take at most a quarter of a picture's slide;
- a split picture heads each slide "part k of n: A → B", k running 1..n, A and B names of
  boxes on that slide, in English and in Chinese;
- no number from 0.001 on is written in e-notation, and a number under 1 keeps three
  significant digits (tanh(0.8814) = 0.7071 shows as 0.707).
"""

from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as ET
from functools import lru_cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from vizgrad import draw, examples
from vizgrad.cli.commands import main

micrograd = pytest.importorskip("micrograd.nn", reason="micrograd==0.1.0 is a test dependency")

SVG = "{http://www.w3.org/2000/svg}"
MODELS = Path(__file__).resolve().parents[1] / "models"
STUDENT = ["moons", "squares", "bce", "wide", "deep64"]
#: nets with 64-neuron layers: their matrices are compact on slides (at 14 pt, tested below)
TALL_BOXES = {"wide", "deep64"}
E_NUMBER = re.compile(r"([−-]?\d+(?:\.\d+)?)e([−-]?\d+)")
PART = {"en": re.compile(r"^part (\d+) of (\d+): (.+?)(?: → (.+))?$"),
        "zh": re.compile(r"^第 (\d+) 部分（共 (\d+) 部分）：(.+?)(?: → (.+))?$")}


def render(target: str, out: Path, *args: str) -> list[str]:
    """The slides ``vizgrad render TARGET --preset slides -o OUT/NAME.svg`` writes, in order."""
    out.mkdir(parents=True, exist_ok=True)
    name = Path(target).stem
    result = CliRunner().invoke(main, ["render", target, "--preset", "slides", "-o",
                                       str(out / f"{name}.svg"), "-q", *args])
    assert result.exit_code == 0, (result.output, result.exception)
    files = sorted(out.glob(f"{name}*.svg"),
                   key=lambda p: int(m.group(1)) if (m := re.search(r"-(\d+)\.svg$", p.name))
                   else 0)
    return [p.read_text(encoding="utf-8") for p in files]


@pytest.fixture(scope="module")
def decks(tmp_path_factory):
    """Every gallery example and every student net as slides, in English, once."""
    out = tmp_path_factory.mktemp("slides")
    got = {name: render(name, out / name) for name in examples.names()}
    for name in STUDENT:
        got[name] = render(str(MODELS / f"{name}.py"), out / name)
    return got


# -- measuring an SVG ---------------------------------------------------------------------
@lru_cache(maxsize=None)
def _font(bold: bool):
    from matplotlib.font_manager import FontProperties

    return FontProperties(family="DejaVu Sans", weight="bold" if bold else "normal")


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The inked width of ``text`` at ``size``: DejaVu Sans outlines (matplotlib), a wide
    (CJK) character one em."""
    from matplotlib.textpath import TextPath

    total, run = 0.0, ""
    for ch in text + "\0":
        if ch != "\0" and unicodedata.east_asian_width(ch) not in ("W", "F"):
            run += ch
            continue
        if run.strip():
            total += TextPath((0, 0), run, size=size, prop=_font(bold)).get_extents().x1
        elif run:
            total += size * 0.32 * len(run)
        total += size if ch != "\0" else 0.0
        run = ""
    return total


def _translate(el) -> tuple[float, float]:
    m = re.match(r"translate\(([-\d.]+),([-\d.]+)\)", el.get("transform", ""))
    return (float(m.group(1)), float(m.group(2))) if m else (0.0, 0.0)


def shapes(svg: str):
    """Every rect, ellipse and text drawn on a slide as (element, extent on the page, extent
    of its clip on the page or None)."""
    root = ET.fromstring(svg)
    clips = {c.get("id"): c.find(f"{SVG}rect") for c in root.iter(f"{SVG}clipPath")}
    out = []

    def walk(node, dx, dy, clip):
        for el in node:
            tag = el.tag.replace(SVG, "")
            if tag in ("defs", "title", "clipPath", "pattern"):
                continue
            if tag == "g":
                tx, ty = _translate(el)
                c = clip
                ref = re.match(r"url\(#(.+)\)", el.get("clip-path", ""))
                if ref:
                    r = clips[ref.group(1)]
                    x, y = float(r.get("x")), float(r.get("y"))
                    c = (x + dx + tx, y + dy + ty, x + dx + tx + float(r.get("width")),
                         y + dy + ty + float(r.get("height")))
                walk(el, dx + tx, dy + ty, c)
                continue
            box = _extent(el, tag)
            if box is not None:
                out.append((el, (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy), clip))

    walk(root, 0.0, 0.0, None)
    return root, out


def _extent(el, tag):
    if tag == "rect" and "vg-background" not in el.get("class", ""):
        x, y = float(el.get("x", 0)), float(el.get("y", 0))
        return x, y, x + float(el.get("width")), y + float(el.get("height"))
    if tag == "ellipse":
        cx, cy, rx, ry = (float(el.get(k)) for k in ("cx", "cy", "rx", "ry"))
        return cx - rx, cy - ry, cx + rx, cy + ry
    if tag == "text" and "".join(el.itertext()).strip():
        size, x, y = float(el.get("font-size")), float(el.get("x")), float(el.get("y"))
        w = text_width("".join(el.itertext()), size, el.get("font-weight") == "bold")
        anchor = el.get("text-anchor", "start")
        x0 = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
        return x0, y - 0.75 * size, x0 + w, y + 0.22 * size
    return None


def view(root) -> tuple[float, float]:
    _, _, w, h = (float(v) for v in root.get("viewBox").split())
    return w, h


def inside(a, b, slack: float = 0.6) -> bool:
    return a[0] >= b[0] - slack and a[1] >= b[1] - slack and a[2] <= b[2] + slack \
        and a[3] <= b[3] + slack


def outside(a, b) -> bool:
    return a[2] <= b[0] or a[0] >= b[2] or a[3] <= b[1] or a[1] >= b[3]


def smallest_pt(svg: str) -> float:
    """The smallest text of a slide, in points, the slide shown 960 pt wide."""
    root = ET.fromstring(svg)
    sizes = [float(t.get("font-size")) for t in root.iter(f"{SVG}text")
             if "".join(t.itertext()).strip()]
    return min(sizes) * 960.0 / view(root)[0]


def is_notes(svg: str) -> bool:
    return "vg-notes" in ET.fromstring(svg).get("class", "")


def band_share(svg: str) -> float:
    """The caption and heading from the top, the legend from the bottom, over the height."""
    root, found = shapes(svg)
    _, h = view(root)
    top = max((b[3] for el, b, _ in found if el.tag == f"{SVG}text" and re.search(
        r"vg-(caption|rule|page|badge-text)\b", el.get("class", ""))), default=0.0)
    legend = min((b[1] for el, b, _ in found if "vg-legend" in el.get("class", "")),
                 default=h)
    return (top + h - legend) / h


# -- the tests ----------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_lectures_tanh_neuron_is_one_slide_at_14_pt(tmp_path, lang):
    slides = render("tanh-native", tmp_path, "--lang", lang)
    assert len(slides) == 1
    root = ET.fromstring(slides[0])
    w, h = view(root)
    assert abs(w / h - 16 / 9) < 0.01  # a 960×540 slide
    assert smallest_pt(slides[0]) >= 14.0 - 1e-6
    names = {"".join(t.itertext()) for t in root.iter(f"{SVG}text")
             if t.get("class") == "vg-name"}
    assert {"x1", "w1", "x2", "w2", "b", "n", "o"} <= names  # the whole neuron on it
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert "0.707" in texts and "0.881" in texts  # tanh(0.8814) and n, three digits


def test_every_slide_reads_at_14_pt_and_is_16_by_9(decks):
    for name, slides in decks.items():
        for svg in slides:
            w, h = view(ET.fromstring(svg))
            assert abs(w / h - 16 / 9) < 0.01, name
            assert smallest_pt(svg) >= 14.0 - 1e-6, name


@pytest.mark.parametrize("name", sorted(TALL_BOXES))
def test_a_net_of_64_wide_layers_reads_at_14_pt(decks, name):
    assert all(smallest_pt(svg) >= 14.0 - 1e-6 for svg in decks[name])


def test_each_box_is_on_one_slide(decks):
    """A box is drawn whole on exactly one slide of the picture, never twice."""
    for name, slides in decks.items():
        seen: dict[str, int] = {}
        for i, svg in enumerate(slides):
            for el in ET.fromstring(svg).iter(f"{SVG}rect"):
                m = re.fullmatch(r"p\d+-(n-[a-z]+\d+)", el.get("id", ""))
                if m:
                    assert m.group(1) not in seen, (name, m.group(1), seen.get(m.group(1)), i)
                    seen[m.group(1)] = i
        assert seen, name


def test_no_slide_cuts_a_box_or_an_edge_label(decks):
    for name, slides in decks.items():
        for i, svg in enumerate(slides):
            root, found = shapes(svg)
            page = (0.0, 0.0, *view(root))
            for el, box, clip in found:
                where = (name, i + 1, el.get("id"), "".join(el.itertext()))
                assert inside(box, page) or outside(box, page), where
                if clip is not None:  # within its window: not cut by the window's edge
                    assert inside(box, clip), where


def test_caption_and_legend_take_at_most_a_quarter_of_a_slide(decks):
    for name, slides in decks.items():
        for svg in slides:
            if not is_notes(svg):
                assert band_share(svg) <= 0.25 + 1e-6, (name, band_share(svg))


def test_caption_and_legend_stay_in_a_quarter_at_a_backward_step():
    """The last backward step's caption (the chain rule) is longer than the final view's."""
    for name in examples.names():
        d = draw(examples.graph(name), preset="slides")
        k = [s["index"] for s in d.graph.graph["steps"] if s["kind"] == "backward"][-1]
        for svg in d.at(k).slides():  # the view drawn counts its own steps
            if not is_notes(svg):
                assert band_share(svg) <= 0.25 + 1e-6, (name, band_share(svg))


def _check_parts(slides: list[str], lang: str) -> None:
    pictures = [s for s in slides if not is_notes(s)]
    heads = []
    for svg in pictures:
        root = ET.fromstring(svg)
        heads += ["".join(t.itertext()) for t in root.iter(f"{SVG}text")
                  if t.get("class") == "vg-page"]
    if len(pictures) == 1:
        assert heads == []  # the whole graph: no part to name
        return
    assert len(heads) == len(pictures)
    for k, (svg, head) in enumerate(zip(pictures, heads), 1):
        m = PART[lang].match(head)
        assert m, head
        assert (int(m.group(1)), int(m.group(2))) == (k, len(pictures))
        names = {"".join(t.itertext()).split(" · ")[0]
                 for t in ET.fromstring(svg).iter(f"{SVG}text") if t.get("class") == "vg-name"}
        assert {m.group(3), m.group(4) or m.group(3)} <= names, (head, names)


def test_a_split_picture_says_which_part_each_slide_is(decks):
    split = 0
    for name, slides in decks.items():
        _check_parts(slides, "en")
        split += sum(1 for s in slides if not is_notes(s)) > 1
    assert split >= 2  # softmax-nll and tanh-decomposed at least are split


def test_the_part_heading_in_chinese_has_no_english_word(tmp_path):
    slides = render("softmax-nll", tmp_path, "--lang", "zh")
    assert sum(1 for s in slides if not is_notes(s)) > 1
    _check_parts(slides, "zh")


def test_no_number_from_0_001_on_in_e_notation(decks):
    for name, slides in decks.items():
        for svg in slides:
            for t in ET.fromstring(svg).iter(f"{SVG}text"):
                for mantissa, exponent in E_NUMBER.findall("".join(t.itertext())):
                    value = float(mantissa.replace("−", "-")) * 10 ** int(
                        exponent.replace("−", "-"))
                    assert abs(value) < 1e-3, (name, "".join(t.itertext()))


def test_a_students_net_makes_few_full_slides(tmp_path):
    """MLP(3, [7, 5, 1]) by layer once took four slides, the first holding L0 alone: now at
    most two, the first holding L0 and L1 (one, if its boxes fit together); its notes
    (the whole caption, the legend) follow."""
    text = (MODELS / "course.py").read_text(encoding="utf-8")  # the lecture's script, wider
    model = tmp_path / "net753.py"
    model.write_text(text.replace("MLP(3, [4, 4, 1])", "MLP(3, [7, 5, 1])"), encoding="utf-8")
    assert "MLP(3, [7, 5, 1])" in model.read_text(encoding="utf-8")
    slides = render(str(model), tmp_path / "out")
    pictures = [s for s in slides if not is_notes(s)]
    assert len(pictures) <= 2 and len(slides) <= 3
    first = {"".join(t.itertext()).split(" · ")[0]
             for t in ET.fromstring(pictures[0]).iter(f"{SVG}text")
             if t.get("class") == "vg-name"}
    assert {"L0", "L1"} <= first


def test_moons_makes_at_most_two_slides(decks):
    """MLP(2, [8, 8, 1]) by layer: its 8 × 8 matrix compact on slides (its grads too wide to
    print at 14 pt), at most two slides (three when L1 printed its grads)."""
    assert sum(1 for s in decks["moons"] if not is_notes(s)) <= 2


def test_an_explicit_collapse_is_obeyed(tmp_path):
    """--collapse neuron takes more slides than the automatic layer view, and is kept."""
    auto = render(str(MODELS / "squares.py"), tmp_path / "auto")
    neuron = render(str(MODELS / "squares.py"), tmp_path / "neuron", "--collapse", "neuron")
    names = {"".join(t.itertext()).split(" · ")[0] for svg in neuron
             for t in ET.fromstring(svg).iter(f"{SVG}text") if t.get("class") == "vg-name"}
    assert "L0/N0" in names and "L0" not in names
    assert len(neuron) > len(auto)


def test_a_net_of_three_hidden_layers_of_64_is_one_slide_at_14_pt(decks):
    pictures = [s for s in decks["deep64"] if not is_notes(s)]
    assert len(pictures) == 1 and smallest_pt(pictures[0]) >= 14.0 - 1e-6


def test_a_net_of_three_hidden_layers_of_64_is_drawn_by_layer(decks):
    """MLP(2, [64, 64, 64, 1]) with no options: its layers, each on one slide, named."""
    names = {"".join(t.itertext()).split(" · ")[0] for svg in decks["deep64"]
             for t in ET.fromstring(svg).iter(f"{SVG}text") if t.get("class") == "vg-name"}
    assert {"L0", "L1", "L2", "L3", "loss"} <= names


def test_a_64_wide_layer_is_a_compact_matrix_its_rows_inside_its_box(decks):
    """On slides a 64 × 64 matrix is about 110 pt square (cells under 2 pt), its box's data
    and grad rows elided ("… (64)") and drawn wholly inside the box, not past its label."""
    checked = 0
    for name in sorted(TALL_BOXES):
        for svg in decks[name]:
            root, found = shapes(svg)
            by_id = {el.get("id"): (el, box) for el, box, _ in found if el.get("id")}
            for key, (el, box) in by_id.items():
                m = re.fullmatch(r"(p\d+)-n-([a-z]+\d+)", key)
                cells = [b for k, (_, b) in by_id.items() if m and re.fullmatch(
                    rf"{m.group(1)}-c-{m.group(2)}-w\d+x\d+", k)]
                if len(cells) < 64 * 64:
                    continue
                side = max(b[3] for b in cells) - min(b[1] for b in cells)
                across = max(b[2] for b in cells) - min(b[0] for b in cells)
                assert 90 <= side <= 130 and 90 <= across <= 130, (name, key, side, across)
                for slot in ("data", "grad"):
                    text, t = by_id[f"{m.group(1)}-t-{m.group(2)}-{slot}"]
                    _, label = by_id[f"{m.group(1)}-t-{m.group(2)}-{slot[0]}l"]
                    assert "".join(text.itertext()).endswith("(64)"), name
                    assert label[2] < t[0] and inside(t, box, 0.0), (name, key, slot)
                checked += 1
    assert checked >= 3  # wide's L1, deep64's L1 and L2


def _printed(svg: str) -> dict[str, bool]:
    """Each layer box of a slide: whether its matrix prints its grads (a text in the cell of
    weight w0x0) or not (the cell alone)."""
    root = ET.fromstring(svg)
    ids = {el.get("id", "") for el in root.iter()}
    return {m.group(2): f"{m.group(1)}-t-{m.group(2)}-w0x0" in ids
            for i in ids if (m := re.fullmatch(r"(p\d+)-c-([a-z]+\d+)-w0x0", i))}


def test_a_net_that_fits_a_slide_prints_its_grads_and_moons_compacts_its_8_by_8(decks,
                                                                                 tmp_path):
    """The lecture's MLP(3, [4, 4, 1]) fits one slide with every matrix printing its grads;
    moons' 8 × 8 matrix is compact (too wide at 14 pt), its 8 × 2 one still printed."""
    slides = render(str(MODELS / "course.py"), tmp_path)
    pictures = [s for s in slides if not is_notes(s)]
    assert len(pictures) == 1 and list(_printed(pictures[0]).values()) == [True] * 3
    moons = {}
    for svg in decks["moons"]:
        moons.update(_printed(svg))
    assert sorted(moons.values()) == [False, False, True]  # L0 printed; L1, L2 compact
