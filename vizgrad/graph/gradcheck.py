"""Gradient checks by central differences, independent of backpropagation.

    >>> from vizgrad import Value
    >>> a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    >>> rows = gradcheck((a * b) * (a + b), h=1e-6)
    >>> [(r["input"], r["backprop"], f"{r['error']:.4e}") for r in rows]
    [('a', -3.0, '4.1933e-10'), ('b', -8.0, '1.1182e-09')]

The graph is re-evaluated from its recorded ops (``+ * **k exp log tanh
relu``), so the check works on vizgrad and micrograd Values, on a
:class:`~vizgrad.tracing.recorder.Trace` and on a graph loaded from JSON. A graph
of :mod:`vizgrad.graph.collapse` is refused: its boxes stand for values whose ops
it does not hold (check the graph it was collapsed from). A graph holding
inf or nan is refused too (:class:`~vizgrad.exceptions.NumericOverflowError`):
both sides of the comparison are meaningless there.
"""

from __future__ import annotations

import math
from typing import Any

from ..exceptions import DomainError, GraphFormatError, NumericOverflowError
from ..tracing.recorder import Trace, trace
from ..tracing.rules import check_contribution
from .reeval import Difference
from .reeval import Program as _Program
from .reeval import arity as _arity
from .reeval import evaluate

__all__ = ["FINAL_CHECK_INPUTS", "FINAL_CHECK_VALUES", "GRAD_TOLERANCE", "evaluate",
           "final_check", "gradcheck", "op_disagreements", "overflowed", "row_status"]

_BOXES = ("group", "stub")
#: a gradient disagrees with its central difference when they differ by more than this
#: times max(1, |central difference|)
GRAD_TOLERANCE = 1e-4


def _as_trace(x: Any) -> Trace:
    if isinstance(x, Trace):
        return x
    if hasattr(x, "graph") and hasattr(x, "nodes"):
        from .convert import as_graph, graph_to_trace

        return graph_to_trace(as_graph(x))  # a graph not made by vizgrad is refused clearly
    return trace(x)


def overflowed(G: Any) -> str:
    """The first values or grads of the graph that are inf or nan, as text ('' if none)."""
    from ..style.text import formula, name

    found = []
    for n, attrs in sorted(G.nodes(data=True), key=lambda item: item[1].get("order", 0)):
        for key, what in (("data", formula(G, n)), ("grad", f"the grad of {name(G, n)}")):
            v = attrs.get(key)
            if isinstance(v, float) and not math.isfinite(v):
                found.append(f"{what} is {v}")
    return "; ".join(found[:3]) + ("; …" if len(found) > 3 else "")


def _checkable(t: Trace) -> None:
    """Refuse a graph whose root cannot be re-evaluated from its own nodes."""
    boxes = [n for n in t.nodes if n["kind"] in _BOXES]
    if boxes:
        what = "focused" if boxes[0]["kind"] == "stub" else "collapsed"
        raise GraphFormatError(
            f"this graph is {what}: its box {boxes[0]['label'] or boxes[0]['id']!r} stands for "
            f"values whose ops it does not hold, so gradcheck cannot re-evaluate it; check "
            "the graph it was made from (vizgrad check mlp, or gradcheck before collapse)")
    for n in t.nodes:
        why = _arity(n["op"], len(n["parents"])) if n["parents"] else None
        if why:
            who = n.get("name") or n.get("label")  # named as the pictures name it
            raise GraphFormatError(
                f"cannot re-evaluate {who + ', ' if who else ''}node {n['id']!r} (op "
                f"{n['op']!r} with {len(n['parents'])} operand"
                f"{'' if len(n['parents']) == 1 else 's'}): {why}")
    bad = [n for n in t.nodes if not all(
        isinstance(v, (int, float)) and math.isfinite(v) for v in
        (n["data"], 0.0 if n["grad"] is None else n["grad"]))]
    if bad:
        from .convert import to_networkx

        raise NumericOverflowError(
            f"the graph overflowed: {overflowed(to_networkx(t))}; backprop and the central "
            "differences are meaningless there. Use smaller inputs")


def _nudged(prog: _Program, node: str, x: float) -> bool:
    """True when the graph can be evaluated one float either side of ``x``."""
    try:
        for side in (math.inf, -math.inf):
            prog.nudged(node, math.nextafter(x, side))
    except (ValueError, OverflowError, ZeroDivisionError):
        return False
    return True


def _difference(prog: _Program, n: dict[str, Any], h: float) -> Difference:
    x, name = n["data"], n["label"] or n.get("name") or n["id"]
    try:
        return prog.difference(n["id"], h)
    except (ValueError, OverflowError, ZeroDivisionError) as err:
        cls = NumericOverflowError if isinstance(err, OverflowError) else DomainError
        advice = ("use a smaller h" if _nudged(prog, n["id"], x) else
                  f"no step helps: it fails however close to {name} = {x!r} the step is")
        raise cls(f"the central difference at {name} = {x!r} ± {h:g} cannot be taken ({err}); "
                  + advice) from None


def gradcheck(x: Any, h: float = 1e-6) -> list[dict[str, Any]]:
    """Compare backprop with ``(f(x+h) - f(x-h)) / 2h`` for every input leaf.

    Args:
        x: a Value, a Trace or a graph from :func:`vizgrad.to_networkx`.
        h: the step, a finite number > 0.

    Returns:
        One dict per input (constants excluded), in topological order, with keys ``input``
        and ``name`` (named as the pictures name it: its label, else its role or a name from
        its position, ``x₁``), ``id``, ``backprop``, ``numeric``, ``error``; when the nudge
        ±h crossed a kink (a relu's input within h of 0) also ``kinks`` (each op's output
        ``node`` and ``id``, its ``op`` and its ``input`` value), ``branch`` (the difference
        with those ops on the side backprop's rule takes) and ``branch_error``. See
        :func:`row_status`.
    """
    if isinstance(h, bool) or not isinstance(h, (int, float)) or not (math.isfinite(h) and h > 0):
        raise DomainError(f"h must be a finite number > 0, got {h!r}; try 1e-6")
    t = _as_trace(x)
    _checkable(t)
    prog = _Program(t)
    rows = []
    for n in t.nodes:
        if not n["parents"] and n["kind"] != "const":
            d = _difference(prog, n, h)
            backprop = 0.0 if n["grad"] is None else float(n["grad"])
            name = n["label"] or n.get("name") or n["id"]
            row = {"input": name, "name": name, "id": n["id"], "backprop": backprop,
                   "numeric": d.numeric, "error": abs(d.numeric - backprop)}
            if d.kinks and d.branch is not None:
                row.update(kinks=[{"node": k.name, "id": k.id, "op": k.op, "input": k.value}
                                  for k in d.kinks],
                           branch=d.branch, branch_error=abs(d.branch - backprop))
            rows.append(row)
        if n["id"] == t.root:
            break
    _tell_apart(rows, t)
    return rows


def _tell_apart(rows: list[dict[str, Any]], t: Trace) -> None:
    """Inputs that share a name get the name of the value each feeds: micrograd wraps a float
    input in a new Value in every product, so ``x[0][0]`` is one input per neuron it feeds,
    each with its own grad (``x[0][0] → L0.N1.w0·x0``)."""
    seen: dict[str, int] = {}
    for r in rows:
        seen[r["name"]] = seen.get(r["name"], 0) + 1
    if all(k == 1 for k in seen.values()):
        return
    names = {n["id"]: n["label"] or n.get("name") or n["id"] for n in t.nodes}
    user: dict[str, str] = {}
    for n in t.nodes:
        for p in n["parents"]:
            user.setdefault(p, n["id"])
    for r in rows:
        if seen[r["name"]] > 1 and r["id"] in user:
            r["input"] = r["name"] = f"{r['name']} → {names[user[r['id']]]}"


def row_status(row: dict[str, Any], tol: float | None = None) -> str:
    """``"agree"``: backprop agrees with the central difference, within ``tol`` (default
    :data:`GRAD_TOLERANCE` × max(1, |numeric|)); ``"kink"``: it does not, but the nudge
    crossed a kink and backprop agrees with the difference taken on its rule's side there
    (not a bug: a central difference cannot check a gradient at a kink); else
    ``"disagree"``.

    >>> row_status({"numeric": 0.5, "error": 0.5, "kinks": [{}], "branch": 0.0,
    ...             "branch_error": 0.0})
    'kink'
    >>> row_status({"numeric": 0.5, "error": 0.5, "kinks": [{}], "branch": 0.0,
    ...             "branch_error": 1.0})
    'disagree'
    """
    def within(error: float, numeric: float) -> bool:
        return error <= (tol if tol is not None else GRAD_TOLERANCE * max(1.0, abs(numeric)))

    if within(row["error"], row["numeric"]):
        return "agree"
    if row.get("kinks") and within(row["branch_error"], row["branch"]):
        return "kink"
    return "disagree"


def op_disagreements(G: Any) -> list[dict[str, Any]]:
    """Every backward step whose observed local derivative disagrees with its op's rule, in
    the order of the steps: the op's output (``node``, named as the pictures name it), its
    ``op``, its ``inputs`` (name and value), the ``target`` whose grad it sent, and the local
    derivative ``observed``, the ``rule``'s and the ``central`` difference's (see
    :func:`vizgrad.tracing.rules.verdict`). Empty for vizgrad's own Values, whose local
    derivatives are recorded, and for correct code.

    >>> from vizgrad import Value, to_networkx
    >>> op_disagreements(to_networkx(Value(2.0, label="x").log()))
    []
    """
    from ..style.text import name

    rows = []
    for step in G.graph.get("steps", ()):
        for c in step.get("contributions", ()):
            v = check_contribution(G, c) if c.get("observed") else None
            if v is None or v.agrees:
                continue
            src = c["source"]
            ins = [e[0] for e in sorted(G.in_edges(src, keys=True), key=lambda e: e[2])]
            rows.append({"node": name(G, src), "id": src, "op": str(G.nodes[src].get("op", "")),
                         "inputs": [(name(G, u), float(G.nodes[u]["data"])) for u in ins],
                         "target": name(G, c["target"]), "observed": v.observed,
                         "rule": v.rule, "central": v.central, "step": step["index"]})
    return rows


#: the final view checks a graph's input gradients against central differences only up to
#: this many inputs and values (each input costs two evaluations of the whole graph)
FINAL_CHECK_INPUTS = 32
FINAL_CHECK_VALUES = 500


def final_check(G: Any) -> dict[str, Any] | None:
    """The final view's check of every input gradient against its central difference.

    ``{"status": "agree", "largest": error}`` (``"kinks"``: the inputs whose nudge crossed a
    kink, where the difference cannot check them: see :func:`row_status`), or
    ``{"status": "disagree", "wrong": [(id, backprop, numeric), …], "overwrote": bool}``
    (``overwrote``: some closure assigned, ``=``, instead of adding), or
    ``{"status": "not_checked", "op": op}`` (an op whose forward vizgrad does not know;
    ``op`` is ``None`` when the graph is over :data:`FINAL_CHECK_INPUTS` inputs or
    :data:`FINAL_CHECK_VALUES` values; ``"folded": True`` for a collapsed or focused graph,
    whose boxes hold no ops to re-evaluate: check the graph it came from); ``None`` for a
    graph without ``backward()``.

    >>> from vizgrad import examples
    >>> [(n, b, round(x, 6)) for n, b, x in final_check(examples.graph("overwrite-bug"))["wrong"]]
    [('v0', 1.0, 2.0)]
    >>> final_check(examples.graph("fork"))["status"]
    'agree'
    """
    if not G.graph.get("backward_ran", True):
        return None
    nodes = G.nodes
    folded = {"status": "not_checked", "op": None, "folded": True}
    if G.graph.get("collapsed") or G.graph.get("focus"):
        return folded  # check the graph it came from
    if len(G) > FINAL_CHECK_VALUES:  # first: a large graph costs nothing more
        return {"status": "not_checked", "op": None}
    if any(nodes[n].get("kind") in _BOXES for n in G):
        return folded
    inputs = sum(1 for n in G if not G.in_degree(n) and nodes[n].get("kind") != "const")
    if inputs > FINAL_CHECK_INPUTS:
        return {"status": "not_checked", "op": None}
    for n in sorted(G, key=lambda n: nodes[n].get("order", 0)):
        count = G.in_degree(n)
        if count and _arity(str(nodes[n].get("op", "")), count):
            return {"status": "not_checked", "op": str(nodes[n].get("op", ""))}
    try:
        rows = gradcheck(G, h=1e-6)
    except (DomainError, NumericOverflowError, GraphFormatError):
        return {"status": "not_checked", "op": None}
    wrong = [(r["id"], r["backprop"], r["numeric"]) for r in rows
             if row_status(r) == "disagree"]
    kinks = [r["id"] for r in rows if row_status(r) == "kink"]
    if not wrong:
        largest = max((r["error"] for r in rows if r["id"] not in kinks), default=0.0)
        return {"status": "agree", "largest": largest, **({"kinks": kinks} if kinks else {})}
    overwrote = any(c.get("overwrote") for s in G.graph["steps"]
                    for c in s.get("contributions", ()))
    return {"status": "disagree", "wrong": wrong, "overwrote": overwrote}
