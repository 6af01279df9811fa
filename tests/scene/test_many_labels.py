"""Past a few hundred edge labels Graphviz lays out none: the ranks are spaced to hold them.

Each label laid out is a node and a rank of its own for Graphviz, which about tripled the
layout of a long chain drawn whole. Past ``MANY_LABELS`` the DOT has no label nodes: a value
and its op circle are one node (taken apart again when the layout is read), the gaps between
ranks are as wide as nine labels in ten (an edge with a longer one spans more ranks), and
each label goes in a gap its own edge crosses, clear of the labels before it. When labels
would still lie on top of each other (a dense net's fan-outs), the layout is run again with
a node per label.

Everything here is read back from the written SVG with an XML parser: the curves are the
paths' own Bezier points, flattened here; nothing is asked of vizgrad's placing code.
"""

from __future__ import annotations

import math
import random
import re
import xml.etree.ElementTree as ET

import pytest

import vizgrad
import vizgrad.scene.layout.run as layout_run
from vizgrad import Value
from vizgrad.nn import MLP
from vizgrad.scene import ids
from vizgrad.scene.labels import MANY_LABELS
from vizgrad.scene.layout import geometry as gm

from ..helpers import distance_to_line, flatten_bezier

SVG = "{http://www.w3.org/2000/svg}"


def relu_chain(steps: int, residual: bool = False) -> Value:
    """A student's chain: x = relu(x·w − b) (+ x/2 when ``residual``), then squared."""
    rnd = random.Random(7)
    x = Value(0.8, label="x")
    for i in range(steps):
        w = Value(round(rnd.uniform(0.3, 0.6), 3), label=f"w{i}")
        b = Value(round(rnd.uniform(-0.1, 0.1), 3), label=f"b{i}")
        y = (x * w - b).relu()
        x = y + x * 0.5 if residual else y
    loss = x ** 2
    loss.backward()
    return loss


def dense_net() -> Value:
    """An MLP(3, [6, 6, 1]) on 3 samples, drawn whole: every input feeds 6 neurons."""
    random.seed(1)
    net = MLP(3, [6, 6, 1])
    xs = [[random.uniform(-1, 1) for _ in range(3)] for _ in range(3)]
    loss = sum(((net(x) - y) ** 2 for x, y in zip(xs, [1.0, -1.0, 1.0])), Value(0.0))
    loss.backward()
    return loss


def read(svg: str) -> dict:
    """Edges (flattened curves), label boxes, value boxes and op circles, by id."""
    root = ET.fromstring(svg)
    edges, labels, boxes, ops = {}, {}, [], []
    for el in root.iter():
        cls, eid = el.get("class", ""), el.get("id", "")
        if el.tag == SVG + "path" and cls == "vg-edge":
            nums = [float(v) for v in re.findall(r"-?[\d.]+", el.get("d"))]
            edges[eid] = flatten_bezier(list(zip(nums[0::2], nums[1::2])), 32)
        elif el.tag == SVG + "rect" and cls.split()[:1] in (["vg-label-bg"], ["vg-box"]):
            x, y, w, h = (float(el.get(k)) for k in ("x", "y", "width", "height"))
            if cls.startswith("vg-label-bg"):
                labels[eid] = (x, y, x + w, y + h)
            else:
                boxes.append((x, y, x + w, y + h))
        elif el.tag == SVG + "ellipse":
            cx, cy, rx, ry = (float(el.get(k)) for k in ("cx", "cy", "rx", "ry"))
            ops.append((cx - rx, cy - ry, cx + rx, cy + ry))
    return {"edges": edges, "labels": labels, "boxes": boxes, "ops": ops}


def _overlap(r, q) -> bool:
    return min(r[2], q[2]) - max(r[0], q[0]) > 0.5 and min(r[3], q[3]) - max(r[1], q[1]) > 0.5


def overlaps(rects, others=None) -> int:
    if others is None:
        return sum(_overlap(r, q) for i, r in enumerate(rects) for q in rects[i + 1:])
    return sum(_overlap(r, q) for r in rects for q in others)


def _check_readable(svg: str) -> dict:
    got = read(svg)
    labels = got["labels"]
    assert len(labels) > MANY_LABELS
    for lid, (x0, y0, x1, y1) in labels.items():
        edge = got["edges"]["e-" + lid.removeprefix("lb-")]
        assert distance_to_line(((x0 + x1) / 2, (y0 + y1) / 2), edge) < 1.5, lid  # on its own edge
    rects = list(labels.values())
    assert overlaps(rects) == 0
    assert overlaps(rects, got["boxes"]) == 0
    assert overlaps(rects, got["ops"]) == 0
    return got


def operations(loss: Value) -> int:
    """The values an op computed (each with an op circle), counted by walking the graph."""
    return sum(1 for v in _walk(loss) if v._prev)


def _walk(loss: Value) -> list[Value]:
    seen, out, stack = set(), [], [loss]
    while stack:
        v = stack.pop()
        if id(v) not in seen:
            seen.add(id(v))
            out.append(v)
            stack.extend(v._prev)
    return out


def test_a_long_chain_is_laid_out_once_without_label_nodes_and_reads(layouts):
    loss = relu_chain(70)
    svg = vizgrad.draw(loss, collapse=False, max_nodes=5000, rankdir="LR").svg()
    assert len(layouts) == 1  # laid out once
    dot = layouts[0]
    assert 'label="X' not in dot  # no label placeholder: no label node
    joined = sum(1 for line in dot.splitlines() if "vg_join=" in line)
    assert joined == operations(loss) == 4 * 70 + 1  # x·w, −b, + and relu per step; the square
    _check_readable(svg)


def _clear(svg: str) -> None:
    """No label lies on a box, an op circle or another label."""
    got = read(svg)
    rects = list(got["labels"].values())
    assert len(rects) > MANY_LABELS
    assert overlaps(rects) == overlaps(rects, got["boxes"]) == overlaps(rects, got["ops"]) == 0


def test_top_to_bottom_graphviz_still_lays_the_labels_out(layouts):
    """A label lies across its edge there: only Graphviz's label nodes keep room beside it,
    and each label stays in that room (the point of its edge nearest it lay on op circles)."""
    svg = vizgrad.draw(relu_chain(70), collapse=False, max_nodes=5000, rankdir="TB").svg()
    assert len(layouts) == 1 and "vg_join" not in layouts[0]
    assert layouts[0].count('label="X') == sum(1 for v in _walk(relu_chain(70)) for _ in v._prev)
    _clear(svg)


def test_a_chain_with_skips_reads_left_to_right(layouts):
    """Each step's input also skips ahead (x + x·0.5): where labels would still crowd, the
    layout is run again with a node per label (each then where Graphviz kept room for it,
    beside its edge); either way none lies on a box, an op circle or another label."""
    svg = vizgrad.draw(relu_chain(70, residual=True), collapse=False, max_nodes=5000,
                       rankdir="LR").svg()
    assert 1 <= len(layouts) <= 2 and 'label="X' not in layouts[0]
    if len(layouts) == 2:
        assert 'label="X' in layouts[1]
        _clear(svg)
    else:
        _check_readable(svg)


def test_a_label_longer_than_the_gap_spans_more_ranks():
    """Nine labels in ten set the gap; the edge of a longer one has minlen 2 or more."""
    boxes = {"a": (60.0, 40.0), "b": (60.0, 40.0), "c": (60.0, 40.0)}
    ops = {"b": (24.0, 24.0), "c": (24.0, 24.0)}
    edges = [("a", "b", "e0", (50.0, 16.0)), ("b", "c", "e1", (400.0, 16.0))]
    dot = gm.layout_dot(boxes, ops, edges, ranksep=0.3, joined=(50.0, 16.0))
    lines = {re.search(r'id="(e\d)"', ln).group(1): ln for ln in dot.splitlines() if "id=\"e" in ln}
    assert "minlen" not in lines["e0"]
    # (400 + 21.6) / (21.6 + 50) = 5.9 gaps
    assert 'minlen="6"' in lines["e1"]
    assert 'headport="w"' in lines["e1"] and 'tailport="e"' in lines["e1"]
    assert 'ranksep="0.994444"' in dot  # 0.3 in + 50 pt (0.69444 in)


@pytest.mark.parametrize("rankdir", ["LR", "TB"])
def test_a_joined_node_is_read_back_as_its_op_circle_its_box_and_the_edge_between(rankdir):
    boxes, ops = {"a": (60.0, 40.0), "b": (80.0, 30.0)}, {"b": (24.0, 24.0)}
    dot = gm.layout_dot(dict(boxes), dict(ops), [("a", "b", "e0", (50.0, 16.0))],
                        rankdir=rankdir, ranksep=0.25, joined=(50.0, 16.0))
    geo = gm.parse(layout_run.run_layout(dot, "json0", None, 30))
    ox, oy, ow, oh = geo.nodes["b-op"]
    bx, by, bw, bh = geo.nodes["b"]
    assert (ow, oh, bw, bh) == pytest.approx((24.0, 24.0, 80.0, 30.0), abs=0.01)
    edge = geo.edges[ids.op_edge("b")]
    start, tip = edge.points[0], edge.tip
    if rankdir == "LR":  # the circle left of its box, 18 pt (0.25 in) between, on one line
        assert oy == by and start == pytest.approx((ox + 12, oy), abs=0.01)
        assert tip == pytest.approx((bx - 40, by), abs=0.01)
        assert tip[0] - start[0] == pytest.approx(18.0, abs=0.01)
    else:  # the circle above its box
        assert ox == bx and start == pytest.approx((ox, oy + 12), abs=0.01)
        assert tip == pytest.approx((bx, by - 15), abs=0.01)
        assert tip[1] - start[1] == pytest.approx(18.0, abs=0.01)
    # the edge from a ends at the circle's near side
    e0 = geo.edges["e0"].tip
    near = (ox - 12, oy) if rankdir == "LR" else (ox, oy - 12)
    assert math.dist(e0, near) < 1.5


def test_a_dense_net_whose_labels_would_crowd_gets_a_node_per_label(layouts):
    svg = vizgrad.draw(dense_net(), collapse=False, max_nodes=5000, rankdir="LR").svg()
    assert len(layouts) == 2  # the cheap layout, then the one with room for every label
    assert 'label="X' not in layouts[0] and 'label="X' in layouts[1]
    assert len(read(svg)["labels"]) == 774
    _clear(svg)


def test_the_same_chain_twice_is_the_same_svg():
    a = vizgrad.draw(relu_chain(70, True), collapse=False, max_nodes=5000).svg()
    b = vizgrad.draw(relu_chain(70, True), collapse=False, max_nodes=5000).svg()
    assert a == b
