"""networkx conversion and node-link JSON."""

from __future__ import annotations

import json
import math

import networkx as nx
import pytest

import vizgrad
from vizgrad import Value, examples
from vizgrad.exceptions import GraphFormatError, OperandTypeError, VizgradError
from vizgrad.graph.convert import (as_graph, from_json, graph_state, graph_to_trace, to_json,
                                   to_networkx)
from vizgrad.style.text import caption, chain_rule
from vizgrad.tracing.recorder import trace

NODE_ATTRS = {"label", "data", "grad", "op", "kind", "order"}


def same(x, y) -> bool:
    """Deep equality where nan equals nan."""
    if isinstance(x, float) and isinstance(y, float):
        return x == y or (math.isnan(x) and math.isnan(y))
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(same(x[k], y[k]) for k in x)
    if isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
        return len(x) == len(y) and all(same(a, b) for a, b in zip(x, y))
    return type(x) is type(y) and x == y


def assert_same_graph(G, H):
    assert isinstance(H, nx.MultiDiGraph)
    assert list(G.nodes) == list(H.nodes)
    for n in G.nodes:
        assert same(dict(G.nodes[n]), dict(H.nodes[n])), n
    assert sorted(G.edges(keys=True, data=True)) == sorted(H.edges(keys=True, data=True))
    assert same(G.graph, H.graph)


def test_edges_run_parent_to_child_keyed_by_slot(fork):
    q, a, b = fork
    G = to_networkx(q)
    assert isinstance(G, nx.MultiDiGraph)
    label = {n: d["label"] for n, d in G.nodes(data=True)}
    edges = sorted((label[u], label[v], k) for u, v, k in G.edges(keys=True))
    assert edges == [("a", "u", 0), ("a", "v", 0), ("b", "u", 1), ("b", "v", 1),
                     ("u", "q", 0), ("v", "q", 1)]
    for u, v, k, d in G.edges(keys=True, data=True):
        assert d["slot"] == k


def test_a_plus_a_has_two_edges():
    a = Value(3.0, label="a")
    G = to_networkx(a + a)
    assert G.number_of_edges("v0", "v1") == 2
    assert sorted(G.edges(keys=True)) == [("v0", "v1", 0), ("v0", "v1", 1)]
    assert G.nodes["v0"]["grad"] == 2.0


def test_node_attributes(fork):
    G = to_networkx(fork[0])
    for n, d in G.nodes(data=True):
        assert NODE_ATTRS <= set(d), n
    by = {d["label"]: d for _, d in G.nodes(data=True)}
    assert ((by["a"]["data"], by["a"]["grad"], by["a"]["op"], by["a"]["kind"])
            == (-2.0, -3.0, "", "input"))
    assert ((by["b"]["grad"], by["u"]["op"], by["v"]["op"], by["q"]["kind"])
            == (-8.0, "*", "+", "output"))
    assert ((by["u"]["kind"], by["u"]["data"], by["v"]["data"], by["q"]["data"])
            == ("op", -6.0, 1.0, -6.0))
    assert [d["order"] for _, d in G.nodes(data=True)] == list(range(5))
    assert all(d["on_path"] for _, d in G.nodes(data=True))


def test_constants_and_off_path_nodes():
    a = Value(2.0, label="a")
    G = to_networkx(a * 3, also=[a + 1])
    kinds = {d["kind"] for _, d in G.nodes(data=True)}
    assert kinds == {"input", "const", "output"}
    off = [n for n, d in G.nodes(data=True) if not d["on_path"]]
    assert off and all(G.nodes[n]["grad"] is None for n in off)
    assert G.graph["also"] == [off[-1]]


def test_graph_attributes_hold_the_steps(fork):
    q = fork[0]
    t = trace(q)
    G = to_networkx(t)
    assert G.graph["steps"] == t.steps
    assert G.graph["root"] == t.root and G.graph["also"] == []
    assert G.graph["default_step"] == t.default_step == 3
    assert G.graph["backward_ran"] is False and G.graph["derivatives"] == "exact"
    q.backward()
    assert to_networkx(q).graph["default_step"] == 7


def test_value_and_trace_give_the_same_graph(fork):
    assert_same_graph(to_networkx(fork[0]), to_networkx(trace(fork[0])))


def test_graph_state_replays_the_steps(fork):
    q = fork[0]
    t = trace(q)
    G = to_networkx(t)
    for k in range(len(t.steps)):
        s, g = t.state(k), graph_state(G, k)
        assert (s.data, s.grad, s.active, s.kind) == (g.data, g.grad, g.active, g.kind)
    assert graph_state(G).step == 3


def _graphs():
    a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    q = (a * b) * (a + b)
    q.backward()
    yield "fork", lambda: to_networkx(q)
    z = [Value(x, label=f"z{i}") for i, x in enumerate((0.0, 3.0, -2.0, 1.0))]
    e = [v.exp() for v in z]
    s = sum(e)
    p = [x / s for x in e]
    yield "softmax-also", lambda: to_networkx(-p[3].log(), also=p[:3])
    n = Value(float("nan"), label="n")
    yield "nan", lambda: to_networkx(n * 2 + Value(float("inf"), label="i"))
    yield "unicode", lambda: to_networkx(Value(1.0, label="α·β ∂") * Value(2.0, label='"q"\\'))
    yield "leaf", lambda: to_networkx(Value(4.0, label="x"))


@pytest.mark.parametrize("make", [m for _, m in _graphs()], ids=[n for n, _ in _graphs()])
def test_json_round_trip(make):
    G = make()
    text = to_json(G)
    json.loads(text, parse_constant=lambda c: pytest.fail(f"non-standard JSON {c}"))
    H = from_json(text)
    assert_same_graph(G, H)
    assert to_json(H) == text  # and byte-identical on the way back
    assert from_json(text.encode("utf-8")).graph["root"] == G.graph["root"]
    assert graph_to_trace(H).to_json() == graph_to_trace(G).to_json()


def test_nan_survives_the_round_trip_as_a_float():
    G = to_networkx(Value(float("nan"), label="n") * 2)
    H = from_json(to_json(G))
    assert isinstance(H.nodes["v0"]["data"], float) and math.isnan(H.nodes["v0"]["data"])
    assert math.isnan(H.graph["steps"][0]["values"]["v0"])
    assert '"nan"' in to_json(G)


def test_same_construction_same_bytes(fork):
    def build():
        a, b = Value(-2.0, label="a"), Value(3.0, label="b")
        return to_json(to_networkx((a * b) * (a + b) / 2 - a.tanh()))

    assert build() == build()


def test_graph_to_trace_recovers_the_trace(fork):
    t = trace(fork[0])
    assert graph_to_trace(to_networkx(t)).to_dict() == t.to_dict()


def test_a_loaded_graph_is_described_like_the_live_one(fork):
    q = fork[0]
    q.backward()
    G = to_networkx(q)
    H = from_json(to_json(G))
    for k in range(len(G.graph["steps"])):
        assert caption(H, k) == caption(G, k)
        assert chain_rule(H, k) == chain_rule(G, k)
    assert caption(H, 7) == "step 7 / 7 · backward through u = a × b"


def test_vizgrad_exports():
    assert vizgrad.to_networkx is to_networkx
    assert vizgrad.to_json is to_json and vizgrad.from_json is from_json


GOOD = to_json(to_networkx(Value(1.0, label="a") * 2))


def _edit(fn):
    d = json.loads(GOOD)
    fn(d)
    return json.dumps(d)


MALFORMED = [
    ("not-json", "this is not json", "not valid JSON"),
    ("truncated", GOOD[: len(GOOD) // 2], "not valid JSON"),
    ("bad-utf8", b"\xff\xfe{", "not valid JSON"),
    ("a-list", "[]", "nodes and edges"),
    ("a-number", "3", "nodes and edges"),
    ("no-edges", '{"nodes": []}', "nodes and edges"),
    ("no-graph", _edit(lambda d: d.pop("graph")), "root, steps and default_step"),
    ("no-steps", _edit(lambda d: d["graph"].pop("steps")), "root, steps and default_step"),
    ("no-root", _edit(lambda d: d["graph"].pop("root")), "root, steps and default_step"),
    ("node-without-id", _edit(lambda d: d["nodes"][0].pop("id")), "each with a string 'id'"),
    ("node-without-op", _edit(lambda d: d["nodes"][0].pop("op")),
     "(nodes[0]): the field 'op' is missing"),
    ("node-without-data", _edit(lambda d: d["nodes"][1].pop("data")),
     "the field 'data' is missing"),
    ("data-word", _edit(lambda d: d["nodes"][0].update(data="abc")), "'data' must be a number"),
    ("data-numeric-string", _edit(lambda d: d["nodes"][0].update(data="1.5")), "'data'"),
    ("edge-to-nowhere",
     _edit(lambda d: d["edges"].append({"source": "v0", "target": "v9", "key": 0})),
     "must join two nodes listed in 'nodes'"),
    ("edge-without-target", _edit(lambda d: d["edges"][0].pop("target")), "must join two nodes"),
    ("edges-not-a-list", _edit(lambda d: d.update(edges=7)), "must join two nodes"),
    ("nodes-not-a-list", _edit(lambda d: d.update(nodes=5)), "each with a string 'id'"),
    ("node-not-an-object", _edit(lambda d: d.update(nodes=[5])), "each with a string 'id'"),
]


@pytest.mark.parametrize("text, words", [pytest.param(t, w, id=i) for i, t, w in MALFORMED])
def test_malformed_json_is_a_graph_format_error(text, words):
    with pytest.raises(GraphFormatError) as info:
        from_json(text)
    assert isinstance(info.value, VizgradError) and isinstance(info.value, ValueError)
    assert words in str(info.value)


def test_as_graph_accepts_value_trace_and_graph(fork):
    q = fork[0]
    G = to_networkx(q)
    assert as_graph(G) is G
    assert_same_graph(as_graph(q), G)
    assert_same_graph(as_graph(trace(q)), G)
    assert_same_graph(as_graph(from_json(to_json(G))), G)


def test_as_graph_rejects_a_foreign_multidigraph():
    H = nx.MultiDiGraph()
    H.add_edge("a", "b")
    with pytest.raises(GraphFormatError, match="to_networkx"):
        as_graph(H)


@pytest.mark.parametrize("bad", [3.0, "v0", None, nx.DiGraph(), {"nodes": []}], ids=repr)
def test_as_graph_rejects_other_things(bad):
    with pytest.raises(OperandTypeError) as info:
        as_graph(bad)
    assert isinstance(info.value, TypeError)
    assert type(bad).__name__ in str(info.value)


def _by_public_methods(t):
    """The graph of trace ``t`` built with networkx's own add_nodes_from / add_edges_from."""
    import networkx as nx

    G = nx.MultiDiGraph()
    nodes, edges = t._graph_rows()
    G.add_nodes_from(nodes)
    G.add_edges_from(edges)
    return G


def _adjacency(G):
    """Both adjacencies, in order, with each edge's key dict."""
    return ([(u, v, dict(keys)) for u, out in G.succ.items() for v, keys in out.items()],
            [(v, u, dict(keys)) for v, ins in G.pred.items() for u, keys in ins.items()])


@pytest.mark.parametrize("name", ["fork", "shared-node", "mlp", "softmax-nll"])
def test_to_networkx_fills_the_same_graph_as_networkxs_own_methods(name):
    """The dicts filled directly hold what add_nodes_from / add_edges_from would, in the
    same order, and the graph then behaves as networkx's own (an edge removed from one end
    is gone from the other)."""
    t = examples.trace(name)
    G, H = to_networkx(t), _by_public_methods(t)
    assert list(G.nodes(data=True)) == list(H.nodes(data=True))
    assert list(G.edges(keys=True, data=True)) == list(H.edges(keys=True, data=True))
    assert _adjacency(G) == _adjacency(H)
    u, v, k = next(iter(G.edges(keys=True)))
    for graph in (G, H):
        graph.remove_edge(u, v, k)
        assert k not in graph.pred[v].get(u, {})
    assert _adjacency(G) == _adjacency(H)
    for graph in (G, H):
        graph.add_edge(u, v, k, slot=k)
    assert _adjacency(G) == _adjacency(H)


def test_a_graph_with_its_own_dicts_is_filled_by_networkxs_methods():
    import networkx as nx

    from vizgrad.graph.convert import _fill

    class Mine(nx.MultiDiGraph):
        pass

    assert not _fill(Mine(), iter([("v0", {})]), iter([]))
    used = nx.MultiDiGraph()
    used.add_node("x")
    assert not _fill(used, iter([("v0", {})]), iter([]))
    assert list(used) == ["x"]  # left as it was
