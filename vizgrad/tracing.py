"""A step-by-step record of the forward and backward pass of any Value graph.

:func:`trace` walks a graph in the chapter's topological order, runs the
backward pass with the chapter's semantics (zero, seed, closures in reverse)
and records every step and every gradient contribution::

    >>> from vizgrad import Value
    >>> a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    >>> t = trace((a * b) * (a + b))
    >>> [s["kind"] for s in t.steps]
    ['inputs', 'forward', 'forward', 'forward', 'seed', 'backward', 'backward', 'backward']
    >>> [(c["target"], c["amount"], c["after"]) for c in t.steps[6]["contributions"]]
    [('v0', -6.0, -6.0), ('v1', -6.0, -6.0)]

The graph's grads are restored afterwards: tracing has no side effects.
It works on any micrograd-style object with ``data``, ``grad``,
``_backward`` and ``parents`` or ``_prev`` (``op`` or ``_op``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Sequence

from .exceptions import GraphFormatError, OperandTypeError

__all__ = ["Trace", "State", "trace", "replay", "states", "FORMAT"]

FORMAT = "vizgrad.trace/1"
_REL_TOL = 1e-12


def _is_value(v: object) -> bool:
    return (
        hasattr(v, "data")
        and hasattr(v, "grad")
        and hasattr(v, "_backward")
        and (hasattr(v, "parents") or hasattr(v, "_prev"))
    )


def _closure_cells(fn: Any) -> list[tuple[str, Any]]:
    code = getattr(fn, "__code__", None)
    cells = getattr(fn, "__closure__", None) or ()
    if code is None:
        return []
    out = []
    for name, cell in zip(code.co_freevars, cells):
        try:
            out.append((name, cell.cell_contents))
        except ValueError:  # an empty cell
            continue
    return out


def _parents_of(v: Any) -> tuple[Any, ...]:
    """Operand-ordered parents; a ``_prev`` set is ordered through the closure."""
    parents = getattr(v, "parents", None)
    if parents is not None and not isinstance(parents, (set, frozenset)):
        return tuple(parents)
    prev = getattr(v, "_prev", None) if parents is None else parents
    if not prev:
        return ()
    members = list(prev)
    # micrograd's closures name their operands self and other: read the slots
    # from them, so the order (and a + a's two slots) are what the code did.
    cells = dict(_closure_cells(v._backward))
    slots = [cells[n] for n in ("self", "other") if any(cells.get(n) is m for m in members)]
    found = [m for m in members if not any(m is s for s in slots)]
    found.sort(key=lambda m: (str(_op_of(m)), float(m.data), str(getattr(m, "label", ""))))
    return tuple(slots) + tuple(found)


def _op_of(v: Any) -> str:
    op = getattr(v, "op", None)
    if op is None:
        op = getattr(v, "_op", "")
    return str(op)


@dataclass
class State:
    """What is known right after one step: data and grads by node id, the active node."""

    step: int
    kind: str
    active: str | None
    data: dict[str, float] = field(default_factory=dict)
    grad: dict[str, float] = field(default_factory=dict)
    contributions: list[dict[str, Any]] = field(default_factory=list)


def _apply(state: State, step: dict[str, Any]) -> None:
    kind = step["kind"]
    state.step, state.kind, state.active = step["index"], kind, step.get("node")
    state.contributions = step.get("contributions", [])
    if kind == "inputs":
        state.data.update(step.get("values", {}))
    elif kind == "forward":
        state.data[step["node"]] = step["value"]
    elif kind == "seed":
        state.grad[step["node"]] = step["grad"]
    elif kind == "backward":
        for c in step["contributions"]:
            state.grad[c["target"]] = c["after"]


def states(steps: Sequence[dict[str, Any]]) -> Iterator[State]:
    """Yield an independent :class:`State` after each step, in order."""
    state = State(0, "inputs", None)
    for step in steps:
        _apply(state, step)
        yield State(state.step, state.kind, state.active, dict(state.data), dict(state.grad),
                    state.contributions)


def replay(steps: Sequence[dict[str, Any]], k: int) -> State:
    """The :class:`State` right after step ``k`` (0-based), from the steps alone.

    >>> from vizgrad import Value
    >>> a = Value(2.0, label="a")
    >>> s = replay(trace(a * a).steps, 0)
    >>> s.data, s.grad
    ({'v0': 2.0}, {})
    """
    if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < len(steps):
        raise IndexError(f"step {k!r} is out of range: this trace has steps 0..{len(steps) - 1}")
    state = State(0, "inputs", None)
    for step in steps[: k + 1]:
        _apply(state, step)
    return state


@dataclass
class Trace:
    """The nodes and steps of one traced graph; see :func:`trace`."""

    nodes: list[dict[str, Any]]
    steps: list[dict[str, Any]]
    root: str
    also: list[str]
    derivatives: str  # "exact" or "observed"
    backward_ran: bool

    @property
    def default_step(self) -> int:
        """The step a picture without a step shows: the last one, or the last
        forward step when ``backward()`` had not run on the graph."""
        if self.backward_ran:
            return len(self.steps) - 1
        return next(s["index"] for s in self.steps if s["kind"] == "seed") - 1

    def node(self, node_id: str) -> dict[str, Any]:
        """The node record with this id."""
        return self.nodes[int(node_id[1:])]

    def state(self, k: int | None = None) -> State:
        """The :class:`State` after step ``k`` (default: :attr:`default_step`)."""
        return replay(self.steps, self.default_step if k is None else k)

    def to_dict(self) -> dict[str, Any]:
        """The public serialised form (see the README's "Trace format")."""
        return {
            "format": FORMAT,
            "root": self.root,
            "also": list(self.also),
            "derivatives": self.derivatives,
            "backward_ran": self.backward_ran,
            "default_step": self.default_step,
            "nodes": self.nodes,
            "steps": self.steps,
        }

    def to_json(self, indent: int | None = None) -> str:
        """Deterministic JSON; nan and infinities are written as strings."""
        return json.dumps(jsonable(self.to_dict()), indent=indent, ensure_ascii=False,
                          allow_nan=False)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Trace:
        """Rebuild a Trace from :meth:`to_dict` output."""
        try:
            return cls(list(d["nodes"]), list(d["steps"]), d["root"], list(d.get("also", [])),
                       d.get("derivatives", "exact"), bool(d.get("backward_ran", True)))
        except (KeyError, TypeError) as err:
            raise GraphFormatError(f"not a vizgrad trace: missing or bad field {err}") from None

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        """Notebooks show a step player (see :mod:`vizgrad.notebook`)."""
        from .notebook import trace_bundle

        return trace_bundle(self)


def jsonable(x: Any) -> Any:
    """Replace non-finite floats by the strings 'nan', 'inf', '-inf' (JSON has none)."""
    if isinstance(x, float) and not math.isfinite(x):
        return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")
    if isinstance(x, dict):
        return {k: jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    return x


def _topo(roots: Sequence[Any]) -> tuple[list[Any], dict[int, tuple[Any, ...]], int]:
    """Iterative DFS in operand order; returns order, parents by id() and root count."""
    order: list[Any] = []
    parents: dict[int, tuple[Any, ...]] = {}
    n_root = 0
    for i, start in enumerate(roots):
        if id(start) in parents:
            continue
        parents[id(start)] = _parents_of(start)
        stack = [(start, iter(parents[id(start)]))]
        while stack:
            node, it = stack[-1]
            for p in it:
                if id(p) not in parents:
                    if not _is_value(p):
                        raise OperandTypeError(f"a parent of {node!r} is not a Value: {p!r}")
                    parents[id(p)] = _parents_of(p)
                    stack.append((p, iter(parents[id(p)])))
                    break
            else:
                stack.pop()
                order.append(node)
        if i == 0:
            n_root = len(order)
    return order, parents, n_root


def trace(root: Any, also: Iterable[Any] = ()) -> Trace:
    """Record the forward and backward pass of the graph that ends in ``root``.

    Args:
        root: the output whose gradient is taken (a vizgrad or micrograd Value).
        also: outputs computed beside ``root`` but not on its backward path
            (the softmax exercise's other probabilities); never given a grad.

    Returns:
        A :class:`Trace` with ids ``v0, v1, ...`` by topological position.
    """
    also = list(also)
    for v in (root, *also):
        if not _is_value(v):
            raise OperandTypeError(
                f"trace() needs a Value (data, grad, _backward, parents or _prev), "
                f"got {type(v).__name__}"
            )
    order, parents, n_root = _topo([root, *also])
    ids = {id(v): f"v{i}" for i, v in enumerate(order)}
    native = all(hasattr(v, "_local") for v in order)
    backward_ran = float(root.grad) != 0.0
    saved = [v.grad for v in order]
    position = {id(v): i for i, v in enumerate(order)}
    outputs = {id(root)} | {id(v) for v in also if position[id(v)] >= n_root}

    nodes: list[dict[str, Any]] = []
    values: dict[str, float] = {}
    steps: list[dict[str, Any]] = [{"index": 0, "kind": "inputs", "node": None,
                                    "values": values, "contributions": []}]
    for i, v in enumerate(order):
        key = id(v)
        ps = parents[key]
        vid = ids[key]
        data = float(v.data)
        if key in outputs:
            kind = "output"
        elif ps:
            kind = "op"
        else:
            kind = "const" if getattr(v, "is_const", False) else "input"
        label = getattr(v, "label", None)
        nodes.append({"id": vid, "label": "" if label is None else str(label), "op": _op_of(v),
                      "kind": kind, "data": data, "grad": None, "on_path": i < n_root,
                      "parents": [ids[id(p)] for p in ps], "order": i})
        if ps:
            steps.append({"index": len(steps), "kind": "forward", "node": vid, "value": data,
                          "contributions": []})
        else:
            values[vid] = data

    path = order[:n_root]
    observed = not native
    try:
        for v in path:
            v.grad = 0.0
        root.grad = 1.0
        steps.append({"index": len(steps), "kind": "seed", "node": ids[id(root)], "grad": 1.0,
                      "contributions": []})
        run = _run_native if native else _run_observed
        reached = {ids[id(root)]}
        for v in reversed(path):
            ps = parents[id(v)]
            if not ps:
                v._backward()
                continue
            upstream = float(v.grad)
            before = [float(p.grad) for p in ps]
            v._backward()
            contribs = run(v, ps, ids, upstream, before)
            if contribs is None:  # the closure did not do what its local derivatives say
                observed = True
                contribs = _run_observed(v, ps, ids, upstream, before)
            reached.update(c["target"] for c in contribs)
            steps.append({"index": len(steps), "kind": "backward", "node": ids[id(v)],
                          "upstream": upstream, "contributions": contribs})
        for rec, v in zip(nodes, path):
            if rec["id"] in reached:
                rec["grad"] = float(v.grad)
    finally:
        for v, g in zip(order, saved):
            v.grad = g
    return Trace(nodes, steps, ids[id(root)], [ids[id(v)] for v in also],
                 "observed" if observed else "exact", backward_ran)


def _run_native(v: Any, ps: tuple[Any, ...], ids: dict[int, str], upstream: float,
                before: list[float]) -> list[dict[str, Any]] | None:
    """Contributions from the recorded local derivatives, checked against the real call.

    Returns None when ``_backward`` did something else than its local
    derivatives say; the caller then reports what it saw instead.
    """
    src, overwrites = ids[id(v)], v.overwrites
    running: dict[int, float] = {}
    contribs = []
    for slot, (p, local) in enumerate(zip(ps, v._local)):
        amount = local * upstream
        b = running.get(id(p), before[slot])
        a = amount if overwrites else b + amount
        running[id(p)] = a
        c = {"source": src, "target": ids[id(p)], "slot": slot, "local": local,
             "upstream": upstream, "amount": amount, "before": b, "after": a}
        if overwrites:
            c["overwrote"] = True
        contribs.append(c)
    for p in ps:
        sim, real = running[id(p)], p.grad
        if sim != real and not math.isclose(sim, real, rel_tol=_REL_TOL) and not (
                math.isnan(sim) and math.isnan(real)):
            return None
    return contribs


def _run_observed(v: Any, ps: tuple[Any, ...], ids: dict[int, str], upstream: float,
                  before: list[float]) -> list[dict[str, Any]]:
    """Each operand's observed change over the ``_backward`` call (one per distinct operand)."""
    src = ids[id(v)]
    contribs = []
    done: set[int] = set()
    for slot, p in enumerate(ps):
        if id(p) in done:
            continue
        done.add(id(p))
        b = before[slot]
        after = float(p.grad)
        amount = after - b
        contribs.append({"source": src, "target": ids[id(p)], "slot": slot,
                         "local": amount / upstream if upstream != 0 else None,
                         "upstream": upstream, "amount": amount, "before": b,
                         "after": after, "observed": True})
    return contribs
