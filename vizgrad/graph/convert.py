"""Convert traces to ``networkx.MultiDiGraph`` and to node-link JSON and back.

Renderers read only this graph, so a graph loaded from JSON renders exactly
like a live one::

    >>> from vizgrad import Value
    >>> a = Value(3.0, label="a")
    >>> G = to_networkx(a + a)
    >>> sorted(G.edges(keys=True))
    [('v0', 'v1', 0), ('v0', 'v1', 1)]
    >>> G.nodes["v0"]["grad"], G.graph["root"]
    (2.0, 'v1')
    >>> H = from_json(to_json(G))
    >>> H.nodes["v0"] == G.nodes["v0"] and H.graph == G.graph
    True
"""

from __future__ import annotations

import json
import math
import re
from typing import TYPE_CHECKING, Any

from .validate import check_document
from .lite import LiteGraph
from ..tracing.names import name_nodes
from ..exceptions import GraphFormatError, OperandTypeError
from ..core.labels import MAX_LABEL, cut_all
from ..tracing.recorder import FORMAT, State, Trace, replay, strict_json, trace

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["to_networkx", "to_json", "from_json", "as_graph", "graph_state", "graph_to_trace",
           "lite_or_networkx", "source_graph"]

_NODE_KEYS = ("label", "op", "kind", "data", "grad", "on_path", "order", "group", "name",
              "sample")
_GRAPH_KEYS = ("format", "root", "also", "derivatives", "backward_ran", "default_step", "steps")
_HUGE = re.compile(r"\d{4301,}")
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_ROWS = {"outputs", "inputs", "params", "param_data", "grid"}  # rows of collapsed boxes
_NUMERIC = {"data", "grad", "value", "local", "upstream", "amount", "before", "after"}


def to_networkx(x: Any, also: Any = ()) -> nx.MultiDiGraph:
    """A ``MultiDiGraph`` of a Value (traced with ``also``) or of a :class:`Trace`.

    Edges run parent → child keyed by operand slot; node attributes are
    ``label, name, data, grad, op, kind, on_path, order, group, sample``; ``G.graph`` holds
    ``root``, ``also``, ``steps`` and ``default_step``.
    """
    import networkx as nx

    t = x if isinstance(x, Trace) else trace(x, also)
    G = nx.MultiDiGraph()
    G.graph.update(
        format=FORMAT, root=t.root, also=list(t.also), derivatives=t.derivatives,
        backward_ran=t.backward_ran, default_step=t.default_step, steps=t._lazy_steps(),
    )
    nodes, edges = t._graph_rows()
    if not _fill(G, nodes, edges):
        G.add_nodes_from(nodes)
        G.add_edges_from(edges)
    return G


def _fill(G: nx.MultiDiGraph, nodes: Any, edges: Any) -> bool:
    """Put the nodes ``(id, attributes)`` and edges ``(parent, child, key, attributes)`` of
    a trace straight into a new graph's dicts, as ``add_nodes_from`` and
    ``add_edges_from`` would (same dicts, same order, an edge's key dict shared by its
    ends' adjacency) but without their checks per item, which cost half of
    :func:`to_networkx` on a large graph. False (nothing done) when the graph's dicts are
    not the plain, empty ones of networkx 3, so the caller uses the public methods.
    """
    node, succ, pred = (getattr(G, k, None) for k in ("_node", "_succ", "_pred"))
    plain = all(type(d) is dict and not d for d in (node, succ, pred))
    if not plain or getattr(G, "_adj", None) is not succ or type(G) is not _multidigraph():
        return False
    for n, attrs in nodes:
        node[n] = attrs  # each is a fresh dict (networkx would copy it)
        succ[n] = {}
        pred[n] = {}
    for p, c, key, attrs in edges:
        out = succ[p]
        keys = out.get(c)
        if keys is None:
            keys = out[c] = pred[c][p] = {}
        keys[key] = attrs
    return True


def _multidigraph() -> type:
    import networkx as nx

    return nx.MultiDiGraph


def lite_or_networkx(t: Trace, lite_from: int) -> Any:
    """A :class:`~vizgrad.graph.lite.LiteGraph` of ``t`` when it has more than ``lite_from``
    values and its steps were not read yet (so they need not be built), else its networkx
    graph: what an overview of a huge graph collapses without building the whole graph.

    >>> from vizgrad import Value, trace
    >>> s = sum((Value(i) * 2 for i in range(5)), Value(0))
    >>> len(trace(s).nodes)
    21
    >>> [type(lite_or_networkx(trace(s), n)).__name__ for n in (20, 21)]
    ['LiteGraph', 'MultiDiGraph']
    """
    if t.compact() is not None and t.size > lite_from:
        return LiteGraph(t)
    return to_networkx(t)


def as_graph(x: Any, model: Any = None) -> nx.MultiDiGraph:
    """Accept a Value, a :class:`Trace` or a graph; return the graph. A Value is traced
    with ``model`` (a micrograd-style net whose parameters are named and grouped). A
    :class:`~vizgrad.graph.lite.LiteGraph` comes back as it is (:mod:`.collapse` reads it)."""
    import networkx as nx

    if isinstance(x, LiteGraph):
        return x  # type: ignore[return-value]

    if model is not None:
        if not hasattr(x, "_backward"):
            raise OperandTypeError(
                "model= names the parameters of a Value while it is traced; this is a "
                f"{type(x).__name__}: pass model= to vizgrad.trace() when you make it")
        return to_networkx(trace(x, model=model))

    if isinstance(x, nx.MultiDiGraph):
        if "steps" not in x.graph or "root" not in x.graph:
            raise GraphFormatError(
                "this MultiDiGraph has no vizgrad steps; build it with vizgrad.to_networkx()"
            )
        return x
    if isinstance(x, Trace) or hasattr(x, "_backward"):
        return to_networkx(x)
    raise OperandTypeError(
        f"expected a Value, a Trace or a graph from vizgrad.to_networkx(), got {type(x).__name__}"
    )


def source_graph(x: Any, model: Any, *, max_nodes: int, overview: bool) -> Any:
    """What a user gave to draw (a Value, a Trace or a graph) as the graph drawn from: the
    step of every entry that draws (:func:`vizgrad.draw`, the player, the frames, ``show``,
    the export), so that nothing below the entry traces.

    Drawn as an ``overview`` (``collapse="auto"`` and no focus), a Value (traced with
    ``model``) or a compact Trace of more than ``max_nodes`` values becomes a
    :class:`~vizgrad.graph.lite.LiteGraph` (:func:`lite_or_networkx`) and a LiteGraph stays
    one; otherwise a LiteGraph becomes its networkx graph, and the rest goes through
    :func:`as_graph`.

    >>> from vizgrad import Value
    >>> s = sum((Value(i) * 2 for i in range(5)), Value(0))
    >>> [type(source_graph(s, None, max_nodes=20, overview=o)).__name__ for o in (True, False)]
    ['LiteGraph', 'MultiDiGraph']
    """
    if isinstance(x, LiteGraph):
        return x if overview else x.to_networkx()
    if overview and (isinstance(x, Trace) or hasattr(x, "_backward")):
        t = x if isinstance(x, Trace) else trace(x, model=model)
        return lite_or_networkx(t, max_nodes)
    return as_graph(x, model)


def graph_state(G: nx.MultiDiGraph, step: int | None = None) -> State:
    """The state after ``step`` (default: the graph's ``default_step``)."""
    k = G.graph["default_step"] if step is None else step
    return replay(G.graph["steps"], k)


def graph_to_trace(G: nx.MultiDiGraph) -> Trace:
    """Rebuild the :class:`Trace` a graph was made from."""
    nodes = []
    for n, attrs in G.nodes(data=True):
        parents = sorted(G.in_edges(n, keys=True), key=lambda e: e[2])
        nodes.append({"id": n, **{k: attrs.get(k) for k in _NODE_KEYS[:6]},
                      "parents": [e[0] for e in parents], "order": attrs.get("order"),
                      "group": attrs.get("group"), "name": attrs.get("name"),
                      "sample": attrs.get("sample")})
    nodes.sort(key=lambda r: r["order"])
    return Trace(nodes, list(G.graph["steps"]), G.graph["root"], list(G.graph.get("also", [])),
                 G.graph.get("derivatives", "exact"), bool(G.graph.get("backward_ran", True)))


def to_json(G: nx.MultiDiGraph, indent: int | None = None) -> str:
    """Node-link JSON of a vizgrad graph; the same graph gives the same bytes."""
    import networkx as nx

    if isinstance(G, LiteGraph):
        G = G.to_networkx()
    data = nx.node_link_data(G, edges="edges")
    return strict_json(data, indent)


def _restore(x: Any, key: str = "") -> Any:
    if isinstance(x, dict):
        if key == "values":
            return {k: _restore(v, "value") for k, v in x.items()}
        return {k: _restore(v, k) for k, v in x.items()}
    if isinstance(x, list):
        if key in _ROWS:  # a box's [name, value, grad] rows: "nan" and "inf" after the name
            return [[r[0], *(_restore(v, "value") for v in r[1:])] if isinstance(r, list) and r
                    else r for r in x]
        return [_restore(v, key) for v in x]
    if key in _NUMERIC and isinstance(x, str):
        try:
            v = float(x)
        except ValueError:
            raise GraphFormatError(f"field {key!r} must be a number, got {x!r}") from None
        if math.isfinite(v):
            raise GraphFormatError(f"field {key!r} must be a number, got the string {x!r}")
        return v
    return x


def _text(raw: str | bytes) -> str:
    """The document as text: bytes in UTF-8 (with or without a BOM), UTF-16 or UTF-32."""
    if isinstance(raw, (bytes, bytearray)):
        encoding = json.detect_encoding(raw)
        try:
            return bytes(raw).decode(encoding)
        except UnicodeDecodeError as err:
            raise GraphFormatError(
                f"not valid JSON: the bytes are not {encoding.upper()} text ({err.reason} at "
                f"byte {err.start}: {bytes(raw[err.start:err.start + 1])!r}); write the file as "
                "UTF-8") from None
    if not isinstance(raw, str):
        raise GraphFormatError(f"from_json reads JSON text or bytes, got {type(raw).__name__}")
    return raw


def _where(text: str, pos: int) -> str:
    line = text.count("\n", 0, pos) + 1
    return f"line {line} column {pos - (text.rfind(chr(10), 0, pos) + 1) + 1}"


def _lone(text: str) -> str:
    """The first surrogate escape that is not half of a pair, and where it is."""
    found = list(_SURROGATE.finditer(text))
    for i, m in enumerate(found):
        high = m.group()[2] in "89abAB"
        nxt = found[i + 1] if i + 1 < len(found) else None
        paired = nxt is not None and nxt.start() == m.end() and nxt.group()[2] not in "89abAB"
        if high and paired:
            continue
        before = found[i - 1] if i else None
        if not high and before is not None and before.end() == m.start() and \
                before.group()[2] in "89abAB":
            continue
        return f"the escape {m.group()} at {_where(text, m.start())}"
    return "a surrogate escape"


def _parse(raw: str | bytes) -> Any:
    """The parsed document; anything that is not JSON text is a :class:`GraphFormatError`."""
    text = _text(raw)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as err:
            raise GraphFormatError(f"not valid JSON: a lone surrogate {text[err.start]!r} at "
                                   f"{_where(text, err.start)} is not text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise GraphFormatError(f"not valid JSON: {err}") from None
    except RecursionError:
        raise GraphFormatError("not a vizgrad graph: the JSON is nested too deeply") from None
    except ValueError:  # an integer literal past Python's 4,300-digit limit
        found = _HUGE.search(text)
        where = f" at {_where(text, found.start())}" if found else ""
        raise GraphFormatError(
            f"not a vizgrad graph: an integer of more than 4,300 digits{where}; every number "
            "must fit a float (at most about 1.8e308)") from None
    if _SURROGATE.search(text):  # "\\ud800" escapes are text only in pairs
        try:
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise GraphFormatError(f"not valid JSON: {_lone(text)} is half of a surrogate pair "
                                   "alone, which is not text") from None
    return data


def _name_old(G: nx.MultiDiGraph) -> None:
    """Give the values of a ``vizgrad.trace/1`` or ``/2`` graph their names (``/3`` has them);
    a collapsed or focused graph keeps its boxes' labels."""
    if all("name" in a for _, a in G.nodes(data=True)) or any(
            a.get("kind") in ("group", "stub") for _, a in G.nodes(data=True)):
        return
    records = graph_to_trace(G).nodes
    name_nodes(records, G.graph["root"])
    for r in records:
        G.nodes[r["id"]].update(name=r["name"], sample=r["sample"], kind=r["kind"])
    G.graph["format"] = FORMAT


def from_json(text: str | bytes) -> nx.MultiDiGraph:
    """Load a graph written by :func:`to_json`; it renders without any Value.

    The whole document is checked first (types, node references, step indices):
    anything malformed is a :class:`~vizgrad.exceptions.GraphFormatError` that
    names the field and the node.
    """
    import networkx as nx

    data = _parse(text)
    if not isinstance(data, dict) or "nodes" not in data or "edges" not in data:
        raise GraphFormatError("not a vizgrad graph: expected node-link JSON with nodes and edges")
    graph = data.get("graph")
    if (not isinstance(graph, dict)
            or any(k not in graph for k in ("root", "steps", "default_step"))):
        raise GraphFormatError(
            "not a vizgrad graph: the 'graph' object needs root, steps and default_step; "
            "write it with vizgrad.to_json()"
        )
    nodes, edges = data["nodes"], data["edges"]
    if not isinstance(nodes, list) or not all(
            isinstance(n, dict) and isinstance(n.get("id"), str) for n in nodes):
        raise GraphFormatError(
            "not a vizgrad graph: 'nodes' must be a list of objects, each with a string 'id'")
    ids = {n["id"] for n in nodes}
    for e in edges if isinstance(edges, list) else [edges]:
        if not isinstance(e, dict) or not all(
                isinstance(e.get(end), str) and e[end] in ids for end in ("source", "target")):
            raise GraphFormatError(
                f"not a vizgrad graph: edge {e!r} must join two nodes listed in 'nodes'")
    check_document(data)  # every field renderers, replay and gradcheck read
    for key in ("label", "name", "op"):  # a 10**6-character label: cut, and said so
        texts = [n.get(key) or "" for n in nodes]
        if max(map(len, texts), default=0) > MAX_LABEL:
            for n, text in zip(nodes, cut_all(texts, key, [n["id"] for n in nodes])):
                if n.get(key):
                    n[key] = text
    try:
        G = nx.node_link_graph(_restore(data), directed=True, multigraph=True, edges="edges")
        for _, attrs in G.nodes(data=True):
            attrs.setdefault("group", None)  # vizgrad.trace/1 has no groups
        _name_old(G)
    except (KeyError, TypeError, ValueError, RecursionError, nx.NetworkXError) as err:
        raise GraphFormatError(f"not a vizgrad graph: {err}") from None
    return G
