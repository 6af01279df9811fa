"""Every picture reads where it is shown: measured from the SVG's own size and font sizes.

docs: no text under 12 px when the picture is shown 1,400 px wide (never enlarged);
slides: no text under 14 pt on a 960×540 pt slide, each slide of a split picture alike.
"""

from __future__ import annotations

import re

import xml.etree.ElementTree as ET

import pytest

import vizgrad
from vizgrad import draw, examples
from vizgrad.core.nn import MLP

XS = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
YS = [1.0, -1.0, -1.0, 1.0]


def course():
    """The course's MLP(3, [4, 4, 1]) on four samples: the loss and the net."""
    net = MLP(3, [4, 4, 1], activation="relu", last="linear", seed=1337)
    loss = sum(((net(x) - y) ** 2 for x, y in zip(XS, YS)), vizgrad.Value(0.0))
    loss.backward()
    return loss, net


def _size_and_smallest(svg: str) -> tuple[float, float, float]:
    root = ET.fromstring(svg)
    width = float(root.get("width").removesuffix("pt"))
    height = float(root.get("height").removesuffix("pt"))
    sizes = [float(el.get("font-size")) for el in root.iter() if el.get("font-size")]
    return width, height, min(sizes)


def docs_px(svg: str, column_px: float = 1400) -> float:
    """The smallest text in CSS px, the picture shown ``column_px`` wide, never enlarged."""
    width, _, small = _size_and_smallest(svg)
    return small * 4 / 3 * min(1.0, column_px / (width * 4 / 3))


def slide_pt(svg: str) -> float:
    """The smallest text in points, the picture shown whole on a 960×540 pt slide."""
    width, height, small = _size_and_smallest(svg)
    return small * min(1.0, 960 / width, 540 / height)


def _drawn(name: str, **options):
    if name == "course":
        loss, net = course()
        return draw(loss, model=net, **options)
    return draw(examples.graph(name), **options)


NAMES = [*examples.names(), "course"]


@pytest.mark.parametrize("name", NAMES)
def test_every_picture_reads_at_12_px_in_a_1400_px_docs_column(name):
    assert docs_px(_drawn(name).svg()) >= 12


@pytest.mark.parametrize("name", NAMES)
def test_every_slide_reads_at_14_pt_on_a_960_by_540_slide(name):
    pages = _drawn(name, preset="slides").slides()
    assert pages and all(slide_pt(p) >= 14 for p in pages), [slide_pt(p) for p in pages]


@pytest.mark.parametrize("name", ["softmax-nll", "tanh-decomposed"])
def test_a_picture_too_big_for_a_slide_is_split_and_keeps_its_chain_rule(name):
    """Split, not collapsed: every slide of a backward step carries the step's chain rule,
    and the slides hold every value box between them."""
    G = examples.graph(name)
    k = next(s["index"] for s in G.graph["steps"] if s["kind"] == "backward")
    d = draw(G, k, preset="slides")
    assert slide_pt(d.svg()) < 14  # the whole picture would not read on one slide
    pages = d.slides()
    assert len(pages) > 1
    rule = d.scene.caption_texts(k)[1]
    boxes = set()
    for p in pages:
        root = ET.fromstring(p)
        texts = "".join(el.text or "" for el in root.iter() if el.tag.endswith("text"))
        assert rule.split(" = ")[0] in texts
        boxes |= {el.get("id").split("-", 1)[1] for el in root.iter()
                  if (el.get("id") or "").split("-", 1)[-1].startswith("n-")}
    assert boxes == {f"n-{n}" for n in G}


def test_the_course_net_collapses_by_layer_only_when_by_neuron_does_not_fit():
    """In a docs column the course net reads by neuron; on a slide by neuron does not read,
    so it goes one level further, by layer (and the slides split what is left)."""
    loss, net = course()
    docs = draw(loss, model=net)
    assert docs.graph.graph["collapsed"]["level"] in (2, "neuron")
    assert docs_px(docs.svg()) >= 12
    by_neuron = draw(loss, model=net, preset="slides", collapse="neuron")
    assert slide_pt(by_neuron.svg()) < 14
    slides = draw(loss, model=net, preset="slides")
    assert slides.graph.graph["collapsed"]["level"] in (1, "layer")


def test_slides_are_saved_one_file_each(tmp_path):
    d = draw(examples.graph("softmax-nll"), preset="slides")
    paths = d.save_slides(tmp_path / "tanh.svg")
    assert [p.name for p in paths] == [f"tanh-{i}.svg" for i in range(1, len(paths) + 1)]
    mark = re.compile(r"<!-- vizgrad slide set [0-9a-f]{12} \d+/\d+ -->\n")  # one set's marker
    assert [mark.sub("", p.read_text(encoding="utf-8"), count=1)
            for p in paths] == d.slides() == d.slides()
    one = draw(examples.graph("fork"), preset="slides").save_slides(tmp_path / "fork.svg")
    assert [p.name for p in one] == ["fork.svg"]
    with pytest.raises(vizgrad.exceptions.RenderError, match="ending in .svg"):
        d.save_slides(tmp_path / "tanh.png")


def test_the_course_net_on_slides_goes_by_layer_with_its_inputs_as_one_box():
    """By neuron the lecture's net does not fit a slide; by layer it does, in two slides of
    the picture (and one of its caption and legend, which would take more than a quarter of
    each), its 12 inputs one box x of 4 samples × 3 features before the first layer."""
    d = _drawn("course", preset="slides")
    G = d.graph
    assert sorted(G.nodes[n]["label"] for n in G) == ["L0", "L1", "L2", "loss", "x"]
    pictures = [p for p in d.slides() if "vg-notes" not in p.split(">", 2)[1]]
    assert len(pictures) <= 2 and all(slide_pt(p) >= 14 for p in d.slides())


MODELS = ["moons", "squares", "bce", "demo", "course"]


@pytest.mark.parametrize("name", MODELS)
def test_a_students_net_reads_at_12_px_by_default(name):
    """tests/models' nets (micrograd MLPs on several samples), drawn with no options: the
    layer view's matrices keep the smallest text at 12 px at min(natural size, 1,400 px)
    (MLP(2, [64, 64, 1]) is tests/render/test_layer_matrix.py's)."""
    import runpy
    from pathlib import Path

    pytest.importorskip("micrograd.nn", reason="micrograd==0.1.0 is a test dependency")
    ns = runpy.run_path(str(Path(__file__).resolve().parents[1] / "models" / f"{name}.py"))
    loss = ns["build"]()
    net = next(v for k, v in ns.items() if k in ("model", "n", "net"))
    assert docs_px(draw(loss, model=net).svg()) >= 12
