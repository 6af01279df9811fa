"""An ungrouped graph too large to read whole is drawn as the output's neighbourhood."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from tests.helpers import svg_smallest_px
from vizgrad import Value, draw, to_networkx
from vizgrad.graph.collapse import AUTO_NODES


def sum_of_products(terms: int, seed: int) -> Value:
    rng = random.Random(seed)
    xs = [Value(rng.uniform(-1, 1), label=f"x{i}") for i in range(terms)]
    ws = [Value(rng.uniform(-1, 1), label=f"w{i}") for i in range(terms)]
    s = sum((x * w for x, w in zip(xs, ws)), Value(0.0))
    s.backward()
    return s


def softmax_loss(classes: int, seed: int) -> Value:
    rng = random.Random(seed)
    logits = [Value(rng.uniform(-2, 2), label=f"z{i}") for i in range(classes)]
    exps = [z.exp() for z in logits]
    total = sum(exps[1:], exps[0])
    loss = -(exps[classes // 2] / total).log()
    loss.backward()
    return loss


def random_tree(values: int, seed: int) -> Value:
    rng = random.Random(seed)
    pool = [Value(rng.uniform(-1, 1), label=f"a{i}") for i in range(8)]
    while len(to_networkx(pool[-1])) < values:
        a, b = rng.choice(pool), pool[-1]
        pool.append(rng.choice([lambda: a + b, lambda: a * b, lambda: (a * b).tanh()])())
    root = pool[-1]
    root.backward()
    return root


GRAPHS = {
    "sum of 150 products": lambda: sum_of_products(150, 1),
    "softmax over 40 classes": lambda: softmax_loss(40, 2),
    "random tree of 250 values": lambda: random_tree(250, 3),
}


def _slide_pt(svg: str) -> float:
    """The smallest text, in points, on a 960×540 slide (never enlarged)."""
    root = ET.fromstring(svg)
    w, h = (float(root.get(k).removesuffix("pt")) for k in ("width", "height"))
    sizes = [float(el.get("font-size")) for el in root.iter() if el.get("font-size")]
    return min(sizes) * min(1.0, 960 / w, 540 / h)


@pytest.fixture(scope="module", params=list(GRAPHS))
def big(request) -> Value:
    return GRAPHS[request.param]()


def test_a_large_ungrouped_graph_is_drawn_as_the_outputs_neighbourhood(big):
    n = len(to_networkx(big))
    assert n > AUTO_NODES
    d = draw(big)
    G = d.graph
    assert G.graph["focus"]["node"] == G.graph["root"] and G.graph["focus"]["auto"]
    assert G.graph["root"] in G and G.graph["focus"]["hidden"] > 0
    assert any("more" in (G.nodes[m].get("label") or "") for m in G)  # stubs stand for the rest
    svg = d.svg()
    assert svg_smallest_px(svg, 1400) >= 12
    shown = G.graph["focus"]["nodes"] - G.graph["focus"]["hidden"]
    assert f"the output's neighbourhood, {shown} of {n:,} values: collapse=False draws them all" \
        in svg


def test_the_whole_graph_is_still_drawn_when_asked_and_does_not_fit(big):
    whole = draw(big, collapse=False)
    assert whole.graph.number_of_nodes() == len(to_networkx(big))
    assert svg_smallest_px(whole.svg(), 1400) < 12  # why the overview is the default


@pytest.mark.parametrize("name", ["sum of 150 products", "random tree of 250 values"])
def test_the_overview_fits_a_slide(name):
    """One slide of the graph (its windows side by side, :mod:`vizgrad.scene.slide_plan`)
    at 14 pt; softmax over 40 classes reads 13.9 pt: its radius-1 neighbourhood is already
    1,106 pt wide."""
    d = draw(GRAPHS[name](), preset="slides")
    pictures = [s for s in d.slides() if "vg-notes" not in s.split(">", 2)[1]]
    assert len(pictures) == 1 and _slide_pt(pictures[0]) >= 14


def test_the_overview_reaches_as_far_as_fits():
    s = sum_of_products(150, 1)
    radius = draw(s).graph.graph["focus"]["radius"]
    assert radius >= 2
    farther = draw(s, focus=to_networkx(s).graph["root"], radius=radius + 1)
    assert svg_smallest_px(farther.svg(), 1400) < 12


def test_a_graph_under_the_threshold_is_drawn_whole():
    s = sum_of_products(20, 4)  # 81 values
    d = draw(s)
    assert "focus" not in d.graph.graph and d.graph.number_of_nodes() == 81


def test_steps_are_counted_in_the_view_drawn():
    s = sum_of_products(150, 1)
    d = draw(s, step="last")
    last = len(d.graph.graph["steps"]) - 1
    assert d.step == last and f"step {last} / {last}" in d.svg()
    assert "backward through" in d.svg()
    assert draw(s, step=0).graph.graph["focus"]["auto"]
