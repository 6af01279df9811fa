"""The overview route: a graph past ``max_nodes`` collapsed from its trace's columns
(:class:`vizgrad.graph.lite.LiteGraph`) gives the graph and steps that collapsing the full
networkx graph gives, without building that graph or every step."""

from __future__ import annotations

import json
import random

import pytest

import vizgrad
from vizgrad import Value, examples, group, to_networkx, trace
from vizgrad.graph.lite import LiteGraph
from vizgrad.graph.collapse import AUTO_BOXES, auto_collapse, collapse, group_depth
from vizgrad.graph.convert import lite_or_networkx, to_json
from vizgrad.core.nn import MLP
from vizgrad.options import Options
from vizgrad.scene.prepare import prepare
from vizgrad.write.svg import graph_to_draw


def tanh_chain(n: int) -> Value:
    v = Value(0.5, label="x")
    for _ in range(n - 1):
        v = v.tanh()
    v.backward()
    return v


def batch_loss(samples: int, seed: int = 0) -> tuple[Value, MLP]:
    net = MLP(3, [4, 4, 1], seed=seed)
    rng = random.Random(seed)
    loss = Value(0.0)
    for _ in range(samples):
        x = [rng.uniform(-1, 1) for _ in range(3)]
        loss = loss + (net(x) - rng.uniform(-1, 1)) ** 2
    loss.backward()
    return loss, net


def micrograd_loss() -> tuple[object, object]:
    from micrograd.engine import Value as MicroValue
    from micrograd.nn import MLP as MicroMLP

    random.seed(3)
    net = MicroMLP(3, [4, 4, 1])
    xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
    loss = sum(((net(x) - y) ** 2 for x, y in zip(xs, [1.0, -1.0, -1.0, 1.0])),
               MicroValue(0.0))
    loss.backward()
    return loss, net


def both(make_trace, options: Options):
    """(today's path: the full networkx graph, the overview route from a compact trace);
    each from its own trace of the graph."""
    full = prepare(to_networkx(make_trace()), options, check_size=False)
    t = make_trace()
    lite = prepare(graph_to_draw(t, options), options, check_size=False)  # as draw() does
    return full, lite, t


def assert_same(full, lite) -> None:
    a, b = json.loads(to_json(full.graph)), json.loads(to_json(lite.graph))
    assert a["nodes"] == b["nodes"]  # every attribute: label, members, rows, data, grad ...
    assert a["edges"] == b["edges"]  # and counts
    assert a["graph"]["steps"] == b["graph"]["steps"]
    assert a == b  # the rest of G.graph (collapsed info, root, default step)
    assert [H.graph.get("collapsed") or H.graph.get("merged") for H in full.chain] == \
        [H.graph.get("collapsed") or H.graph.get("merged") for H in lite.chain]
    for k in (None, 0, 1, full.view_last // 2, full.view_last):
        assert full.step(k) == lite.step(k)
    for k in (None, 0, 1, full.last // 2, full.last):
        assert full.source_step(k) == lite.source_step(k)


def overview(n: int, **kw) -> Options:
    """The options of an automatic overview of a graph of ``n`` values."""
    return Options(max_nodes=max(1, n - 1), **kw)


@pytest.mark.parametrize("name", ["fork", "softmax-nll", "mlp", "course-mlp", "tanh-native",
                                  "shared-node", "overwrite-bug"])
def test_chapter_examples_collapse_alike(name):
    n = len(examples.trace(name).nodes)
    full, lite, t = both(lambda: examples.trace(name), overview(n))
    assert not isinstance(full.source, LiteGraph)
    assert ("collapsed" in lite.graph.graph) == (n > AUTO_BOXES)  # 60 boxes fit as they are
    assert_same(full, lite)
    for boxes in [k for k in (2, 4) if k < n]:  # the same collapse, into fewer boxes
        a = auto_collapse(to_networkx(examples.trace(name)), boxes)
        b = auto_collapse(LiteGraph(examples.trace(name)), boxes)
        assert not isinstance(b, LiteGraph) and "collapsed" in b.graph
        assert to_json(a) == to_json(b)
    if group_depth(full.source):
        for level in ("layer", "neuron"):
            a = collapse(to_networkx(examples.trace(name)), level, steps="inside")
            b = collapse(LiteGraph(examples.trace(name)), level, steps="inside")
            assert to_json(a) == to_json(b)


def test_the_course_net_by_neuron_and_by_layer_alike():
    n = len(examples.trace("course-mlp").nodes)
    for kw in ({"group_steps": "inside"}, {"sample": "all"}, {"sample": 3},
               {"merge_constants": False}, {"merge_constants": True}):
        full, lite, _ = both(lambda: examples.trace("course-mlp"), overview(n, **kw))
        assert_same(full, lite)


def test_an_mlp_batch_alike_with_and_without_its_net():
    loss, net = batch_loss(30)
    n = len(trace(loss).nodes)
    assert n > 2_000
    for model in (net, None):
        full, lite, _ = both(lambda: trace(loss, model=model), Options())
        assert isinstance(lite.source, LiteGraph)
        assert lite.graph.number_of_nodes() < 70
        assert_same(full, lite)
    full, lite, _ = both(lambda: trace(loss, model=net), Options(sample="all"))
    assert_same(full, lite)


def test_micrograd_net_alike():
    loss, net = micrograd_loss()
    n = len(trace(loss).nodes)
    full, lite, _ = both(lambda: trace(loss, model=net), overview(n))
    assert_same(full, lite)


def test_a_deep_chain_alike_and_folded_into_runs():
    v = tanh_chain(3_000)
    full, lite, t = both(lambda: trace(v), Options())
    assert_same(full, lite)
    H = lite.graph
    boxes = [H.nodes[b] for b in H if H.nodes[b]["kind"] == "group"]
    assert len(boxes) == 59 and sum(b["size"] for b in boxes) == 2_999  # the root apart
    # named by their ends (x, tanh(x), then too long to spell: tanh₁ …), never by ids
    assert boxes[0]["label"] == "x…tanh₄₉" and boxes[1]["label"] == "tanh₅₀…tanh₁₀₀"
    # nothing of the whole graph was built: no node record, no step dict
    assert t._nodes is None and t._steps is None


def test_grouped_values_beside_loose_ones_alike():
    with group("a"):
        x = Value(1.0, label="x")
        y = sum((x * i for i in range(300)), Value(0.0))
    z = y
    for _ in range(300):
        z = (z * 0.5).tanh()
    z.backward()
    full, lite, _ = both(lambda: trace(z), Options(max_nodes=500))
    assert_same(full, lite)


def test_below_max_nodes_nothing_changes():
    v = tanh_chain(50)
    p = prepare(graph_to_draw(trace(v), Options()), Options(), check_size=False)
    assert not isinstance(p.source, LiteGraph) and p.graph is p.source
    assert to_json(p.graph) == to_json(to_networkx(v))


def test_other_options_get_the_full_graph():
    loss, net = batch_loss(5)
    t = trace(loss, model=net)
    L = LiteGraph(t)
    for o in (Options(collapse="neuron"), Options(focus="v3"), Options(collapse=False,
                                                                       max_nodes=10_000)):
        p = prepare(L, o, check_size=False)
        q = prepare(to_networkx(trace(loss, model=net)), o, check_size=False)
        assert to_json(p.graph) == to_json(q.graph)


def test_lite_graph_answers_as_networkx_does():
    a, b = Value(2.0, label="a"), Value(-3.0, label="b")
    c = a * a + b
    d = (c * a).tanh() + c
    d.backward()
    L, G = LiteGraph(trace(d)), to_networkx(d)
    assert list(L) == list(G) and L.number_of_nodes() == G.number_of_nodes()
    for n in G:
        assert dict(L.nodes[n].items()) == G.nodes[n]
        assert L.in_degree(n) == G.in_degree(n) and L.out_degree(n) == G.out_degree(n)
        assert list(L.predecessors(n)) == list(G.predecessors(n))
        assert list(L.successors(n)) == list(G.successors(n))
    assert dict(L.in_degree()) == dict(G.in_degree())
    assert dict(L.out_degree()) == dict(G.out_degree())
    assert sorted(L.edges(keys=True)) == sorted(G.edges(keys=True))
    for attr in ("group", "name", "order", "data"):
        assert list(L.nodes(data=attr)) == list(G.nodes(data=attr))
    H = L.to_networkx()
    assert to_json(H) == to_json(G)
    F = L.copy()
    F.nodes["v0"]["group"] = "loss"
    assert F.nodes["v0"]["group"] == "loss" and L.nodes["v0"]["group"] is None
    with pytest.raises(KeyError):
        F.nodes["v0"]["members"] = []


def test_stream_steps_are_the_trace_steps():
    loss, net = batch_loss(2)
    t = trace(loss, model=net)
    steps = LiteGraph(t).graph["steps"]
    want = trace(loss, model=net).steps
    assert len(steps) == len(want)
    assert [steps[k] for k in range(len(want))] == want
    assert steps[-1] == want[-1]
    assert list(iter(steps)) == want
    assert list(steps.heads()) == [(s["index"], s["kind"], s["node"]) for s in want]
    assert t._steps is None  # read one at a time, none kept
    assert steps == want  # a list operation: built once
    with pytest.raises(IndexError):
        steps[len(want)]


def test_the_overview_of_a_graph_past_max_nodes_draws():
    v = tanh_chain(2_500)
    d = vizgrad.draw(v)
    assert d.prepared.graph.graph["collapsed"]["nodes"] == 2_500
    assert d.svg() == vizgrad.draw(to_networkx(v)).svg()


def test_lite_or_networkx_only_for_compact_traces():
    v = tanh_chain(30)
    t = trace(v)
    assert isinstance(lite_or_networkx(t, 10), LiteGraph)
    t.steps  # read: the dicts are the trace now
    assert not isinstance(lite_or_networkx(t, 10), LiteGraph)
