"""The graph a lab request asks to see: an example or an expression traced within the node
limit, collapsed or focused as asked, its key, and the step it names.

Every problem with the request is an :class:`~vizgrad.lab._json_body.ApiError` that names the
field at fault::

    >>> from vizgrad.lab._requests import Limits, Query
    >>> G = build_graph(Query(expression="a*b + a", values={"a": 2, "b": 3}), Limits())
    >>> G.number_of_nodes(), check_step(G, None)
    (4, 5)
    >>> build_graph(Query(expression="a*b", values={"a": 2}), Limits())
    ... # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    vizgrad.lab._json_body.ApiError: give a value for b in "values";
        the expression's variables are: a, b
"""

from __future__ import annotations

import ast
import hashlib
import json
from typing import TYPE_CHECKING, Any

from ..graph import examples
from ..graph.samples import pick
from ..exceptions import GraphTooLargeError, OptionError, UnknownExampleError
from ..core.expr import FUNCTIONS, syntax_tree
from ..graph.convert import to_json, to_networkx
from ..graph.expression import expression_graph
from ..options import NO_STEP, resolve_step
from ._requests import ApiError, Limits, Query

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["build_graph", "build_source", "check_step", "graph_key", "shrink", "variables"]


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
