"""Validate a whole node-link document before :func:`vizgrad.from_json` builds a graph from it.

Every field that a renderer, the replay of the steps or the gradient check
reads is checked for its type and its references, so a hand-edited file
gives one :class:`~vizgrad.exceptions.GraphFormatError` naming the field and
the node, never a traceback from deep inside a renderer::

    >>> check_document({"nodes": [{"id": "v0", "op": "", "kind": "input", "data": 1.0,
    ...                             "order": "0"}], "edges": [], "graph": {}})
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.GraphFormatError: node 'v0' (nodes[0]): 'order' must be a whole number, got '0'
"""

from __future__ import annotations

from typing import Any

from .exceptions import GraphFormatError
from .tracing import READ_FORMATS

__all__ = ["check_document", "KINDS", "STEP_KINDS"]

#: node kinds and step kinds of the format
KINDS = ("input", "const", "op", "output", "group", "stub")
_TRANSFORMED = ("collapsed", "focus", "merged")  # graphs of vizgrad.collapse: ids of their own
STEP_KINDS = ("inputs", "forward", "seed", "backward")
_NONFINITE = ("nan", "inf", "-inf")


def _fail(where: str, message: str) -> GraphFormatError:
    return GraphFormatError(f"{where}: {message}")


def _show(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x: Any) -> bool:
    return (isinstance(x, (int, float)) and not isinstance(x, bool)) or x in _NONFINITE


class _Fields:
    """Typed access to one JSON object, with errors that say where it is."""

    def __init__(self, obj: Any, where: str) -> None:
        if not isinstance(obj, dict):
            raise _fail(where, f"must be an object, got {_show(obj)}")
        self.obj, self.where = obj, where

    def get(self, key: str, kind: str, required: bool = True, default: Any = None) -> Any:
        if key not in self.obj:
            if required:
                raise _fail(self.where, f"the field {key!r} is missing")
            return default
        value = self.obj[key]
        ok = {
            "str": isinstance(value, str),
            "int": _is_int(value),
            "bool": isinstance(value, bool),
            "number": _is_number(value),
            "number|null": value is None or _is_number(value),
            "id|null": value is None or isinstance(value, str),
            "str|null": value is None or isinstance(value, str),
            "list": isinstance(value, list),
            "object": isinstance(value, dict),
        }[kind]
        if not ok:
            what = {"int": "a whole number", "str": "a string", "bool": "true or false",
                    "number": "a number", "number|null": "a number or null",
                    "id|null": "a node id or null",
                    "str|null": "a string or null", "list": "a list",
                    "object": "an object"}[kind]
            raise _fail(self.where, f"{key!r} must be {what}, got {_show(value)}")
        return value


def _check_nodes(nodes: list[Any], transformed: bool = False) -> dict[str, int]:
    """Check every node; return id → order."""
    orders: dict[str, int] = {}
    for i, raw in enumerate(nodes):
        f = _Fields(raw, f"nodes[{i}]")
        node_id = f.get("id", "str")
        f.where = f"node {node_id!r} (nodes[{i}])"
        if node_id in orders:
            raise _fail(f.where, "this id is used by an earlier node too")
        f.get("label", "str", required=False)
        f.get("op", "str")
        kind = f.get("kind", "str")
        if kind not in KINDS:
            raise _fail(f.where, f"'kind' must be one of {', '.join(KINDS)}, got {_show(kind)}")
        f.get("data", "number|null" if kind == "stub" else "number")
        f.get("grad", "number|null", required=False)
        f.get("on_path", "bool", required=False)
        f.get("group", "str|null", required=False)
        order = f.get("order", "int")
        if order != i:
            raise _fail(f.where, f"'order' must be its position in 'nodes', {i}, got {order}")
        if node_id != f"v{order}" and not transformed:
            raise _fail(f.where, f"the id must be 'v{order}' (ids are v0, v1, … in order)")
        orders[node_id] = order
    return orders


def _check_edges(edges: list[Any], orders: dict[str, int], kinds: dict[str, str]) -> None:
    slots: dict[str, set[int]] = {n: set() for n in orders}
    for i, raw in enumerate(edges):
        f = _Fields(raw, f"edges[{i}]")
        source, target = f.get("source", "str"), f.get("target", "str")
        for end, node in (("source", source), ("target", target)):
            if node not in orders:
                raise _fail(f.where, f"{end} {_show(node)} is not a node listed in 'nodes'")
        slot = f.get("slot", "int")
        key = f.get("key", "int", required=False, default=slot)
        if key != slot or slot < 0:
            raise _fail(f.where, f"'slot' and 'key' must be the same operand position ≥ 0, "
                                 f"got {slot} and {key}")
        if orders[source] >= orders[target]:
            raise _fail(f.where, f"{source!r} → {target!r} runs backwards: an operand comes "
                                 "before the node that uses it")
        if slot in slots[target]:
            raise _fail(f.where, f"node {target!r} has two operands in slot {slot}")
        slots[target].add(slot)
    for node, used in slots.items():
        if used and used != set(range(len(used))):
            raise _fail(f"node {node!r}", f"its operand slots must be 0..{len(used) - 1}, "
                                          f"got {sorted(used)}")
        if kinds[node] == "op" and not used:
            raise _fail(f"node {node!r}", "an 'op' node needs at least one operand edge")
        if kinds[node] in ("input", "const") and used:
            raise _fail(f"node {node!r}", f"an {kinds[node]!r} node has no operands, "
                                          f"but {len(used)} edges end at it")


def _node_ref(f: _Fields, key: str, orders: dict[str, int], required: bool = True) -> Any:
    value = f.get(key, "id|null" if not required else "str", required=required)
    if value is not None and value not in orders:
        raise _fail(f.where, f"{key!r} names {_show(value)}, which is not a node")
    return value


def _check_step(f: _Fields, k: int, orders: dict[str, int]) -> None:
    if f.get("index", "int") != k:
        raise _fail(f.where, f"'index' must be {k}, its position in 'steps'")
    kind = f.get("kind", "str")
    if kind not in STEP_KINDS:
        raise _fail(f.where, f"'kind' must be one of {', '.join(STEP_KINDS)}, got {_show(kind)}")
    _node_ref(f, "node", orders, required=kind != "inputs")
    if kind == "inputs":
        values = _Fields(f.get("values", "object", required=False, default={}),
                         f"{f.where}.values")
        for node in values.obj:
            if node not in orders:
                raise _fail(values.where, f"{_show(node)} is not a node")
            values.get(node, "number")
    elif kind == "forward":
        f.get("value", "number")
    elif kind == "seed":
        f.get("grad", "number")
    contributions = f.get("contributions", "list", required=kind == "backward", default=[])
    for j, raw in enumerate(contributions):
        c = _Fields(raw, f"{f.where}.contributions[{j}]")
        _node_ref(c, "source", orders)
        _node_ref(c, "target", orders)
        c.get("slot", "int")
        for key in ("upstream", "amount", "after"):
            c.get(key, "number")
        c.get("local", "number|null")  # null: observed with an upstream of 0
        c.get("before", "number|null", required=False)
        c.get("observed", "bool", required=False)
        c.get("overwrote", "bool", required=False)


def check_document(data: Any) -> None:
    """Raise :class:`GraphFormatError` unless ``data`` (parsed JSON) is a whole vizgrad graph."""
    top = _Fields(data, "the document")
    nodes = top.get("nodes", "list")
    edges = top.get("edges", "list")
    graph = _Fields(top.get("graph", "object"), "graph")
    if not nodes:
        raise _fail("nodes", "a graph needs at least one node")
    raw_graph = top.obj.get("graph")
    transformed = isinstance(raw_graph, dict) and any(k in raw_graph for k in _TRANSFORMED)
    orders = _check_nodes(nodes, transformed)
    _check_edges(edges, orders, {n["id"]: n["kind"] for n in nodes})
    fmt = graph.get("format", "str", required=False)
    if fmt is not None and fmt not in READ_FORMATS:
        raise _fail("graph", f"'format' must be one of {', '.join(READ_FORMATS)}, got {_show(fmt)}")
    _node_ref(graph, "root", orders)
    also = graph.get("also", "list", required=False, default=[])
    for j, node in enumerate(also):
        if not isinstance(node, str) or node not in orders:
            raise _fail(f"graph.also[{j}]", f"{_show(node)} is not a node")
    derivatives = graph.get("derivatives", "str", required=False, default="exact")
    if derivatives not in ("exact", "observed"):
        raise _fail("graph", f"'derivatives' must be 'exact' or 'observed', got {_show(derivatives)}")
    graph.get("backward_ran", "bool", required=False)
    steps = graph.get("steps", "list")
    if not steps:
        raise _fail("graph", "'steps' needs at least one step")
    for k, raw in enumerate(steps):
        _check_step(_Fields(raw, f"graph.steps[{k}]"), k, orders)
    default = graph.get("default_step", "int")
    if not 0 <= default < len(steps):
        raise _fail("graph", f"'default_step' must be a step 0..{len(steps) - 1}, got {default}")
