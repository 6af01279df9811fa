"""What the lab computes for a checked :class:`~vizgrad.lab._requests.Query`.

Pure functions of the request (plus the caches of :mod:`._caches`), so any
number of workers can answer any request::

    >>> from vizgrad.lab._requests import Limits, Query
    >>> G = build_graph(Query(expression="(a*b)*(a+b)", values={"a": -2, "b": 3}), Limits())
    >>> p = trace_payload(G)
    >>> p["last_step"], p["steps"][7]["caption"]
    (7, 'step 7 / 7 · backward through a·b')
    >>> [(m["label"], m["text"], m["known_at"]) for m in p["metrics"]]
    [('f', '−6', 3), ('∂f/∂a', '−3', 7), ('∂f/∂b', '−8', 7)]
    >>> [r["error_text"] for r in gradcheck_payload(G, 1e-6)["rows"]]
    ['4.1933e-10', '1.1182e-09']
"""

from __future__ import annotations

import ast
import hashlib
import json
import math
from typing import TYPE_CHECKING, Any

from ..graph import examples
from ..graph.gradcheck import gradcheck
from ..graph.samples import pick
from ..exceptions import GraphTooLargeError, OptionError, UnknownExampleError
from ..core.expr import FUNCTIONS, syntax_tree
from ..graph.convert import to_json, to_networkx
from ..graph.expression import expression_graph
from ..options import NO_STEP, resolve_step
from ..style import text
from ._caches import KeyMemo, RenderCache, SceneCache
from ._requests import ApiError, Limits, Query

if TYPE_CHECKING:
    import networkx as nx

__all__ = [
    "full",
    "variables",
    "build_graph",
    "build_source",
    "shrink",
    "graph_key",
    "check_step",
    "trace_payload",
    "gradcheck_payload",
    "examples_payload",
    "RenderCache",
    "KeyMemo",
    "SceneCache",
    "scene_cache",
    "looks",
    "scene_for",
    "scene_payload",
]


def full(x: float | None, missing: str = text.NOT_REACHED) -> str:
    """A number with every digit it has and a true minus sign: ``−3``, ``0.1``, ``1e−06``.

    >>> full(-3.0), full(0.1 + 0.2), full(None), full(None, "pending"), full(-0.0)
    ('−3', '0.30000000000000004', '—', 'pending', '0')
    """
    if x is None:
        return missing
    x = float(x)
    if not math.isfinite(x):
        return text.fmt(x)
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x)).replace("-", text.MINUS)
    return repr(x).replace("-", text.MINUS)


def variables(source: str) -> list[str] | None:
    """The variable names of an expression in order of appearance (None if it does not parse).

    >>> variables("tanh(x*w + b) + x")
    ['x', 'w', 'b']
    """
    try:
        tree = syntax_tree(source.strip())
    except (SyntaxError, ValueError, RecursionError, MemoryError, SystemError):
        return None
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    found = [n for n in ast.walk(tree)
             if isinstance(n, ast.Name) and id(n) not in called and n.id not in FUNCTIONS]
    found.sort(key=lambda n: (n.lineno, n.col_offset))
    return list(dict.fromkeys(n.id for n in found))


def _example_graph(q: Query) -> nx.MultiDiGraph:
    name = q.example or ""
    try:
        defaults = examples.defaults(name)
    except UnknownExampleError as err:
        raise ApiError(422, "unknown_example", str(err), field="example",
                       choices=examples.names()) from None
    extra = [k for k in q.values if k not in defaults]
    if extra:
        raise ApiError(422, "unknown_variable",
                       f"example {name!r} has no input {extra[0]!r}; its inputs are: "
                       f"{', '.join(defaults)}", field=f"values.{extra[0]}",
                       variables=list(defaults))
    root, also = examples.build(name, **q.values)
    return to_networkx(root, also)


def _expression_graph(q: Query) -> nx.MultiDiGraph:
    source = q.expression or ""
    names = variables(source)
    if names is not None:
        missing = [n for n in names if n not in q.values]
        if missing:
            raise ApiError(422, "missing_values",
                           f"give a value for {', '.join(missing)} in \"values\"; the expression's "
                           f"variables are: {', '.join(names)}", field=f"values.{missing[0]}",
                           variables=names, missing=missing)
        extra = [k for k in q.values if k not in names]
        if extra:
            raise ApiError(422, "unknown_variable",
                           f"{extra[0]!r} is not a variable of this expression; its variables are: "
                           f"{', '.join(names) or 'none'}", field=f"values.{extra[0]}",
                           variables=names)
    return expression_graph(source, q.values)


def build_source(q: Query, limits: Limits) -> nx.MultiDiGraph:
    """The traced graph of an example or an expression, within the node limit."""
    G = _example_graph(q) if q.example is not None else _expression_graph(q)
    if G.number_of_nodes() > limits.max_nodes:
        what = ("use a shorter expression" if q.example is None else
                f"draw the example with: vizgrad render {q.example}")
        raise GraphTooLargeError(
            f"the graph has {G.number_of_nodes()} nodes; the lab draws at most {limits.max_nodes}; "
            f"{what}"
        )
    return G


def shrink(G: nx.MultiDiGraph, q: Query) -> nx.MultiDiGraph:
    """``G`` collapsed and focused as the query asks (``G`` itself when it asks nothing).

    >>> from vizgrad.lab._requests import Limits, Query
    >>> from vizgrad.options import options_for
    >>> G = build_source(Query(example="mlp"), Limits())
    >>> neuron = options_for("lab", None, {"collapse": "neuron"})
    >>> shrink(G, Query(example="mlp", options=neuron)).number_of_nodes()
    9
    """
    from ..graph.collapse import group_depth, prepare

    o = q.options
    if o.sample != 0:
        try:
            pick(G, o.sample)  # a sample the net was not run on: said about that field
        except OptionError as err:
            raise ApiError(422, "out_of_range", str(err), field="sample") from None
    if o.collapse in (False, None) and o.focus is None:
        return G
    if o.collapse not in (False, None, "auto") and not group_depth(G):
        raise ApiError(422, "no_groups",
                       "this graph has no groups to collapse: collapse works on graphs traced "
                       "with groups, such as the mlp example; leave \"collapse\" out",
                       field="collapse")
    if o.focus is not None and o.focus not in G:
        raise ApiError(422, "unknown_node",
                       f"focus {json.dumps(o.focus)[:40]} is not a node of this graph; "
                       f"its node ids are v0 to v{G.number_of_nodes() - 1} "
                       "(see the trace's nodes)",
                       field="focus")
    H, chain = prepare(G, collapse_at=o.collapse, focus_on=o.focus, radius=o.radius,
                       steps=o.group_steps, sample=o.sample)
    if q.expand:
        return _expanded(G, H, chain, q)
    return H


def _expanded(G: nx.MultiDiGraph, H: nx.MultiDiGraph, chain: list[Any],
              q: Query) -> nx.MultiDiGraph:
    """``H`` collapsed again with the groups ``q.expand`` left open."""
    from ..graph.collapse import collapse

    info = H.graph.get("collapsed")
    if not info or "runs" in info:
        raise ApiError(422, "invalid_choice", "this graph is not collapsed into groups, so no "
                       "group can be opened; leave \"expand\" out", field="expand")
    paths = {str(g) for _, g in H.nodes(data="group") if g}
    inner = {"/".join(str(g).split("/")[:d]) for _, g in G.nodes(data="group") if g
             for d in range(1, str(g).count("/") + 2)}  # a group inside an opened one opens
    unknown = [p for p in q.expand if p not in paths and not (
        p in inner and "/" in p and p.rsplit("/", 1)[0] in q.expand)]
    if unknown:
        raise ApiError(422, "unknown_group",
                       f"{json.dumps(unknown[0])[:40]} is not a group box of this graph; its "
                       f"groups are: {', '.join(sorted(paths)[:12])}", field="expand",
                       groups=sorted(paths))
    base = chain[-2] if len(chain) > 1 else G
    return collapse(base, info["level"], steps=q.options.group_steps, expand=list(q.expand),
                    sample=q.options.sample)


def build_graph(q: Query, limits: Limits) -> nx.MultiDiGraph:
    """The graph the query asks to see: traced, then collapsed or focused if asked."""
    return shrink(build_source(q, limits), q)


def graph_key(G: nx.MultiDiGraph) -> str:
    """SHA-256 of the graph's node-link JSON: equal graphs, equal keys."""
    return hashlib.sha256(to_json(G).encode("utf-8")).hexdigest()


def check_step(G: nx.MultiDiGraph, step: int | None) -> int:
    """The requested step, read as every entry reads one (:func:`vizgrad.options.resolve_step`);
    none given is the lab's row of :data:`vizgrad.options.NO_STEP`, the last step; out of
    range → 422.

    >>> G = build_graph(Query(example="fork"), Limits())
    >>> check_step(G, None), check_step(G, 3)
    (7, 3)
    """
    last = len(G.graph["steps"]) - 1
    try:
        found = resolve_step(step, last, NO_STEP["lab"])
    except OptionError:
        if step is not None and step < 0:
            raise ApiError(422, "out_of_range", f"step {step} is negative; steps start at 0",
                           field="step") from None
        raise ApiError(422, "out_of_range",
                       f"step {step} is out of range: this graph has steps 0..{last}",
                       field="step", minimum=0, maximum=last) from None
    assert found is not None  # the lab's steps are numbered: never the final view
    return found


def _changes(step: dict[str, Any]) -> list[dict[str, Any]]:
    kind = step["kind"]
    if kind == "inputs":
        return [{"id": n, "field": "data", "value": v, "text": full(v)}
                for n, v in sorted(step["values"].items(), key=lambda kv: int(kv[0][1:]))]
    if kind == "forward":
        return [{"id": step["node"], "field": "data", "value": step["value"],
                 "text": full(step["value"])}]
    if kind == "seed":
        return [{"id": step["node"], "field": "grad", "value": step["grad"],
                 "text": full(step["grad"])}]
    return [{"id": c["target"], "field": "grad", "value": c["after"], "text": full(c["after"])}
            for c in step["contributions"]]


def trace_payload(G: nx.MultiDiGraph, lang: str = "en",
                  groups: int | None = None) -> dict[str, Any]:
    """Everything the lab page shows, per step, with every caption and number as text;
    ``groups`` is the group depth of the graph ``G`` was collapsed from (if it was)."""
    from ..graph.collapse import group_depth

    steps = G.graph["steps"]
    root = G.graph["root"]
    rname = text.name(G, root)
    order = sorted(G.nodes, key=lambda n: G.nodes[n]["order"])
    nodes = [{"id": n, "name": text.name(G, n), "kind": G.nodes[n]["kind"], "op": G.nodes[n]["op"],
              "formula": text.formula(G, n), "on_path": G.nodes[n]["on_path"]} for n in order]
    # the leaves a user can set: inputs, and the output itself when it is a bare variable
    inputs = [{"id": n["id"], "name": n["name"], "value": G.nodes[n["id"]]["data"]}
              for n in nodes if n["kind"] != "const" and G.in_degree(n["id"]) == 0]
    computed = {s["node"]: s["index"] for s in steps if s["kind"] == "forward"}
    reached: dict[str, int] = {}
    for s in steps:
        for c in s.get("contributions", []):
            reached[c["target"]] = s["index"]
    last = len(steps) - 1
    metrics = [{"id": root, "label": rname, "kind": "output", "value": G.nodes[root]["data"],
                "text": full(G.nodes[root]["data"]), "known_at": computed.get(root, 0)}]
    for inp in inputs:
        grad = G.nodes[inp["id"]]["grad"]
        metrics.append({"id": inp["id"], "label": f"∂{rname}/∂{inp['name']}", "kind": "grad",
                        "value": grad, "text": full(grad),
                        "known_at": reached.get(inp["id"], last)})
    payload_steps = [{"index": s["index"], "kind": s["kind"], "node": s["node"],
                      "from": s.get("from", s["index"]),
                      "caption": text.caption(G, s["index"], lang),
                      "chain_rule": text.chain_rule(G, s["index"], lang=lang),
                      "changes": _changes(s)}
                     for s in steps]
    node_link = to_json(G)
    return {
        "graph_key": hashlib.sha256(node_link.encode("utf-8")).hexdigest(),
        "root": root,
        "output": rname,
        "last_step": last,
        "backward_complete_at": last,
        "nodes": nodes,
        "inputs": inputs,
        "metrics": metrics,
        "steps": payload_steps,
        "graph": json.loads(node_link),
        "groups": group_depth(G) if groups is None else groups,
        "collapsed": G.graph.get("collapsed"),
        "focus": G.graph.get("focus"),
    }


def gradcheck_payload(G: nx.MultiDiGraph, h: float) -> dict[str, Any]:
    """Backprop against central differences per input, with the error as ``%.4e``."""
    rows = [{**r, "backprop_text": full(r["backprop"]), "numeric_text": full(r["numeric"]),
             "error_text": f"{r['error']:.4e}"} for r in gradcheck(G, h=h)]
    return {"h": h, "h_text": f"{h:g}", "output": text.name(G, G.graph["root"]), "rows": rows}


def examples_payload() -> list[dict[str, Any]]:
    """Every gallery example: name, description, inputs with default values."""
    out = []
    for name in examples.names():
        out.append({"name": name, "description": examples.describe(name),
                    "inputs": [{"name": k, "value": v}
                               for k, v in examples.defaults(name).items()]})
    return out


def scene_cache(app_state: Any) -> SceneCache:
    """The app's scene cache (made by create_app; a layout is the slow part of a drawing)."""
    cache: SceneCache = app_state.scenes
    return cache


def looks(q: Query) -> tuple[Any, ...]:
    """What a request's picture looks like, beyond its graph: the theme, the direction, the
    caption and the language (the lab sets every other drawing option to the model's default)."""
    return q.options.theme, q.options.rankdir, q.options.caption, q.options.lang


def scene_for(G: nx.MultiDiGraph, q: Query, limits: Limits, cache: SceneCache,
              key: str | None = None) -> Any:  # the key names the graph, collapsed or not
    """The scene of ``G`` with the query's theme, direction, caption and language (cached)."""
    from ..scene.make import scene_of

    k = (key or graph_key(G), *looks(q))
    if q.expand:  # groups opened in place of the collapsed picture's boxes
        return cache.get(k, lambda: _opened(G, q, limits, cache))
    return cache.get(k, lambda: scene_of(G, **{**q.options.scene(),
                                               "timeout": limits.layout_timeout}))


def _opened(G: nx.MultiDiGraph, q: Query, limits: Limits, cache: SceneCache) -> Any:
    """The scene of ``G`` (collapsed with ``q.expand`` open) laid out in place of the boxes
    of the collapsed picture, so every other box stays where it was."""
    from dataclasses import replace

    from ..scene.opened import open_scene

    closed = replace(q, expand=())
    source = build_source(closed, limits)
    base = scene_for(shrink(source, closed), closed, limits, cache)
    return open_scene(G, base=base, source=source, caption=q.options.caption,
                     timeout=limits.layout_timeout)


def scene_payload(G: nx.MultiDiGraph, q: Query, limits: Limits, cache: SceneCache,
                  key: str, source: nx.MultiDiGraph | None = None) -> dict[str, Any]:
    """The scene's SVG once and the changed shapes of every step (as the player has them);
    ``source``: the graph ``G`` was collapsed from (its parameters' values fill the table)."""
    from ..player.page import player_parts

    from ..player.views import opened_parts

    scene = scene_for(G, q, limits, cache, key)
    parts = opened_parts(scene, source, player_parts(scene, source))
    return {"graph_key": key, "last_step": parts["playback"]["last"], **parts}
