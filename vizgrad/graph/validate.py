"""Validate a whole node-link document before :func:`vizgrad.from_json` builds a graph from it.

Every field that a renderer, the replay of the steps or the gradient check
reads is checked for its type, its range and its references, so a hand-edited
file gives one :class:`~vizgrad.exceptions.GraphFormatError` naming the field
and the node, never a traceback from deep inside a renderer::

    >>> check_document({"nodes": [{"id": "v0", "op": "", "kind": "input", "data": 1.0,
    ...                             "order": "0"}], "edges": [], "graph": {}})
    ... # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.GraphFormatError: node 'v0' (nodes[0]): 'order' must be a whole number,
        got '0'

What the boxes of :mod:`vizgrad.graph.collapse` add is checked by :mod:`vizgrad.graph.meta`.
"""

from __future__ import annotations

from typing import Any

from .meta import (Fields, check_box, check_edge_count, check_folded_contribution,
                   check_graph_meta, check_step_meta, fail)
from .meta import show as _show
from ..tracing.recorder import READ_FORMATS

__all__ = ["check_document", "KINDS", "STEP_KINDS"]

#: node kinds and step kinds of the format
KINDS = ("input", "const", "op", "output", "group", "stub", "inputs")
#: the kinds of box that hold no value of their own: a focus stub, a batch's inputs
_VALUELESS = ("stub", "inputs")
_TRANSFORMED = ("collapsed", "focus", "merged")  # collapse's graphs: ids of their own
STEP_KINDS = ("inputs", "forward", "seed", "backward")
_BOXES = ("group", "stub")
#: what Graphviz hands back changed: a backslash (DOT keeps ``\\`` doubled), control characters
_NOT_IN_IDS = frozenset("\\" + "".join(map(chr, range(32))) + "\x7f")


def _check_id(f: Fields, node_id: str, i: int, transformed: bool) -> None:
    if not transformed:
        if node_id != f"v{i}":
            raise fail(f.where, f"the id must be 'v{i}' (ids are v0, v1, … in order)")
        return
    if not node_id or not _NOT_IN_IDS.isdisjoint(node_id):
        raise fail(f.where, "an id must be a non-empty text without backslashes or control "
                            "characters (Graphviz would hand it back changed)")


def _check_nodes(nodes: list[Any], transformed: bool) -> tuple[dict[str, int], dict[str, str]]:
    """Check every node; return id → order and id → kind."""
    orders: dict[str, int] = {}
    kinds: dict[str, str] = {}
    for i, raw in enumerate(nodes):
        f = Fields(raw, f"nodes[{i}]")
        node_id = f.get("id", "str")
        f.where = f"node {node_id!r} (nodes[{i}])"
        if node_id in orders:
            raise fail(f.where, "this id is used by an earlier node too")
        f.get("label", "str", required=False)
        f.get("name", "str|null", required=False)  # vizgrad.trace/3
        f.get("sample", "int|null", required=False)
        f.get("op", "str")
        kind = f.get("kind", "str")
        if kind not in KINDS:
            raise fail(f.where, f"'kind' must be one of {', '.join(KINDS)}, got {_show(kind)}")
        f.get("data", "number|null" if kind in _VALUELESS else "number")
        f.get("grad", "number|null", required=False)
        f.get("on_path", "bool", required=False)
        f.get("group", "str|null", required=False)
        order = f.get("order", "int")
        if order != i:
            raise fail(f.where, f"'order' must be its position in 'nodes', {i}, got {order}")
        _check_id(f, node_id, i, transformed)
        check_box(f)  # what a box adds; the renderers read it on any node that has it
        orders[node_id] = order
        kinds[node_id] = kind
    if transformed:  # "g1-op" would be the name of g1's op circle in the layout
        for node_id in orders:
            if node_id.endswith("-op") and node_id[:-3] in orders:
                raise fail(f"node {node_id!r}", f"the id clashes with the op circle of "
                                                f"{node_id[:-3]!r} in the layout; rename it")
    return orders, kinds


def _check_edges(edges: list[Any], orders: dict[str, int],
                 kinds: dict[str, str]) -> set[tuple[str, str, int]]:
    """Check every edge; return the (operand, node, slot) triples."""
    slots: dict[str, set[int]] = {n: set() for n in orders}
    triples: set[tuple[str, str, int]] = set()
    for i, raw in enumerate(edges):
        f = Fields(raw, f"edges[{i}]")
        source, target = f.get("source", "str"), f.get("target", "str")
        for end, node in (("source", source), ("target", target)):
            if node not in orders:
                raise fail(f.where, f"{end} {_show(node)} is not a node listed in 'nodes'")
        slot = f.get("slot", "int")
        key = f.get("key", "int", required=False, default=slot)
        if key != slot or slot < 0:
            raise fail(f.where, f"'slot' and 'key' must be the same operand position ≥ 0, "
                                f"got {slot} and {key}")
        # a focus stub may stand for values on both sides of a shown one
        stub = kinds[source] == "stub" or kinds[target] == "stub"
        if orders[source] >= orders[target] and not (stub and source != target):
            raise fail(f.where, f"{source!r} → {target!r} runs backwards: an operand comes "
                                "before the node that uses it")
        if slot in slots[target]:
            raise fail(f.where, f"node {target!r} has two operands in slot {slot}")
        slots[target].add(slot)
        triples.add((source, target, slot))
        if "count" in f.obj:
            check_edge_count(f)
    for node, used in slots.items():
        if used and len(used) != max(used) + 1:
            raise fail(f"node {node!r}", f"its operand slots must be 0..{len(used) - 1}, "
                                         f"got {sorted(used)}")
        if kinds[node] == "op" and not used:
            raise fail(f"node {node!r}", "an 'op' node needs at least one operand edge")
        if kinds[node] in ("input", "const") and used:
            raise fail(f"node {node!r}", f"an {kinds[node]!r} node has no operands, "
                                         f"but {len(used)} edges end at it")
    return triples


def _node_ref(f: Fields, key: str, orders: dict[str, int], required: bool = True) -> Any:
    value = f.get(key, "id|null" if not required else "str", required=required)
    if value is not None and value not in orders:
        raise fail(f.where, f"{key!r} names {_show(value)}, which is not a node")
    return value


def _check_contributions(f: Fields, node: Any, contributions: list[Any], orders: dict[str, int],
                         triples: set[tuple[str, str, int]]) -> None:
    for j, raw in enumerate(contributions):
        c = Fields(raw, f"{f.where}.contributions[{j}]")
        source = _node_ref(c, "source", orders)
        target = _node_ref(c, "target", orders)
        slot = c.get("slot", "int")
        if source != node:
            raise fail(c.where, f"'source' is {source!r}, but the step runs the backward "
                                f"function of {node!r}")
        if (target, source, slot) not in triples:
            raise fail(c.where, f"{target!r} is not operand {slot} of {source!r} (no such edge)")
        c.get("upstream", "number")
        c.get("amount", "number")
        # a batch's inputs hold no grad of their own: their cells' are in ``grads``
        c.get("after", "number|null" if "grads" in c.obj else "number")
        c.get("local", "number|null")  # null: observed with an upstream of 0
        c.get("before", "number|null")
        c.get("observed", "bool", required=False)
        c.get("overwrote", "bool", required=False)
        if "count" in c.obj:  # 0: a folded step that reaches only other samples' outputs
            c.count("count", 0)
        check_folded_contribution(c)


def _check_step(f: Fields, k: int, orders: dict[str, int], kinds: dict[str, str],
                triples: set[tuple[str, str, int]]) -> str:
    if f.get("index", "int") != k:
        raise fail(f.where, f"'index' must be {k}, its position in 'steps'")
    kind = f.get("kind", "str")
    if kind not in STEP_KINDS:
        raise fail(f.where, f"'kind' must be one of {', '.join(STEP_KINDS)}, got {_show(kind)}")
    node = _node_ref(f, "node", orders, required=kind != "inputs")
    if kind == "inputs":
        values = Fields(f.get("values", "object", required=False, default={}),
                        f"{f.where}.values")
        for n in values.obj:
            if n not in orders:
                raise fail(values.where, f"{_show(n)} is not a node")
            values.get(n, "number|null" if kinds[n] in _VALUELESS else "number")
    elif kind == "forward":
        f.get("value", "number|null" if kinds[node] in _VALUELESS else "number")
    elif kind == "seed":
        f.get("grad", "number")
    elif kind == "backward":
        f.get("upstream", "number|null")
    contributions = f.get("contributions", "list", required=kind == "backward", default=[])
    if contributions and kind != "backward":
        raise fail(f.where, f"only a backward step has contributions; this is a {kind} step")
    _check_contributions(f, node, contributions, orders, triples)
    return str(kind)


def _check_steps(steps: list[Any], graph: Fields, orders: dict[str, int], kinds: dict[str, str],
                 triples: set[tuple[str, str, int]]) -> None:
    """Each step, and their order: inputs, forward steps, the seed of the root, backward steps."""
    if not steps:
        raise fail("graph", "'steps' needs at least one step")
    phase, last = 0, 0
    for k, raw in enumerate(steps):
        f = Fields(raw, f"graph.steps[{k}]")
        kind = _check_step(f, k, orders, kinds, triples)
        at = STEP_KINDS.index(kind)
        if (k == 0) != (kind == "inputs") or at < phase or (at == 3 and phase < 2) or (
                at == 2 and phase == 2):
            raise fail(f.where, f"a {kind} step cannot come here: the steps are one 'inputs' "
                                "step, the forward steps, one 'seed', then the backward steps")
        if kind == "seed" and f.obj["node"] != graph.obj["root"]:
            raise fail(f.where, f"the seed step must seed the root {graph.obj['root']!r}, "
                                f"not {f.obj['node']!r}")
        phase = at
        last = check_step_meta(f, last)
    if phase < 2:
        raise fail("graph", "'steps' has no seed step (the root's grad set to 1)")


def check_document(data: Any) -> None:
    """Raise :class:`GraphFormatError` unless ``data`` (parsed JSON) is a whole vizgrad graph."""
    top = Fields(data, "the document")
    for key in ("directed", "multigraph"):  # node-link flags: vizgrad graphs are both
        if top.get(key, "bool", required=False) is False:
            raise fail("the document", f"{key!r} must be true (to_json writes it so), got false")
    nodes = top.get("nodes", "list")
    edges = top.get("edges", "list")
    graph = Fields(top.get("graph", "object"), "graph")
    if not nodes:
        raise fail("nodes", "a graph needs at least one node")
    transformed = any(k in graph.obj for k in _TRANSFORMED)
    orders, kinds = _check_nodes(nodes, transformed)
    if not transformed and any(k in _BOXES for k in kinds.values()):
        n = next(n for n, k in kinds.items() if k in _BOXES)
        raise fail(f"node {n!r}", f"a {kinds[n]!r} box belongs to a graph of vizgrad.collapse, "
                                  "whose 'graph' says 'collapsed' or 'focus'")
    triples = _check_edges(edges, orders, kinds)
    fmt = graph.get("format", "str", required=False)
    if fmt is not None and fmt not in READ_FORMATS:
        raise fail("graph", f"'format' must be one of {', '.join(READ_FORMATS)}, got {_show(fmt)}")
    _node_ref(graph, "root", orders)
    also = graph.get("also", "list", required=False, default=[])
    for j, node in enumerate(also):
        if not isinstance(node, str) or node not in orders:
            raise fail(f"graph.also[{j}]", f"{_show(node)} is not a node")
    derivatives = graph.get("derivatives", "str", required=False, default="exact")
    if derivatives not in ("exact", "observed"):
        raise fail("graph",
                   f"'derivatives' must be 'exact' or 'observed', got {_show(derivatives)}")
    graph.get("backward_ran", "bool", required=False)
    steps = graph.get("steps", "list")
    _check_steps(steps, graph, orders, kinds, triples)
    default = graph.get("default_step", "int")
    if not 0 <= default < len(steps):
        raise fail("graph", f"'default_step' must be a step 0..{len(steps) - 1}, got {default}")
    check_graph_meta(graph)

