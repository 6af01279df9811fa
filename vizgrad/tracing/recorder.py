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
``_backward`` and ``parents`` or ``_prev`` (``op`` or ``_op``). What is known after each
step is :mod:`vizgrad.tracing.state`; the JSON is :mod:`vizgrad.tracing.jsonsafe`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ..core import display as _display
from .backward import backward_steps
from .jsonsafe import jsonable, strict_json  # noqa: F401 (jsonable: its old path)
from .names import name_nodes
from .records import NODE_KEYS, LazySteps, NodeColumns, node_columns, step_count, step_dicts
from .roles import positions
from .state import State, replay, states
from .walk import is_value as _is_value
from .walk import topo as _topo
from ..exceptions import GraphFormatError, OperandTypeError

__all__ = ["FORMAT", "READ_FORMATS", "State", "Trace", "replay", "states", "strict_json", "trace"]

FORMAT = "vizgrad.trace/3"
#: formats :meth:`Trace.from_dict` reads (/1 has no node ``group``; /1 and /2 have no
#: ``name`` and ``sample``, which are worked out when they are read)
READ_FORMATS = ("vizgrad.trace/1", "vizgrad.trace/2", FORMAT)




class Trace:
    """The nodes and steps of one traced graph; see :func:`trace`.

    ``nodes`` and ``steps`` are lists of plain dicts (the trace format's records).
    A trace made by :func:`trace` keeps them compact and builds the dicts on first
    access; from then on those lists are the trace (an edit to them is kept).
    """

    __slots__ = ("_nodes", "_steps", "_cols", "_back", "root", "also", "derivatives",
                 "backward_ran")

    def __init__(self, nodes: list[dict[str, Any]], steps: list[dict[str, Any]], root: str,
                 also: list[str], derivatives: str, backward_ran: bool) -> None:
        self._nodes: list[dict[str, Any]] | None = nodes
        self._steps: list[dict[str, Any]] | None = steps
        self._cols: NodeColumns | None = None
        self._back: list[tuple[Any, ...]] | None = None
        self.root, self.also, self.derivatives = root, also, derivatives  # "exact"/"observed"
        self.backward_ran = backward_ran

    @classmethod
    def _compact(cls, cols: NodeColumns, back: list[tuple[Any, ...]], root: str,
                 also: list[str], derivatives: str, backward_ran: bool) -> Trace:
        t = cls.__new__(cls)
        t._nodes = t._steps = None
        t._cols, t._back = cols, back
        t.root, t.also, t.derivatives, t.backward_ran = root, also, derivatives, backward_ran
        return t

    @property
    def nodes(self) -> list[dict[str, Any]]:
        """The node records (see the README's "Trace format")."""
        if self._nodes is None:
            assert self._cols is not None
            self._nodes = self._cols.records()
        return self._nodes

    @nodes.setter
    def nodes(self, nodes: list[dict[str, Any]]) -> None:
        self._nodes = nodes

    @property
    def steps(self) -> list[dict[str, Any]]:
        """The steps: inputs, forward, seed, backward (see the README's "Trace format")."""
        if self._steps is None:
            assert self._cols is not None and self._back is not None
            self._steps = step_dicts(self._cols, self._back, self.root)
            self._back = None  # the dicts are the trace now
        return self._steps

    @steps.setter
    def steps(self, steps: list[dict[str, Any]]) -> None:
        self._steps, self._back = steps, None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Trace):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def _n_nodes(self) -> int:
        return len(self._nodes) if self._nodes is not None else len(self._cols or ())

    @property
    def size(self) -> int:
        """How many values the trace holds."""
        return self._n_nodes()

    def compact(self) -> tuple[NodeColumns, list[tuple[Any, ...]]] | None:
        """The node columns and backward records while the trace is still compact (no
        step dicts built yet), else None: what the million-value overview reads."""
        if self._cols is None or self._back is None:
            return None
        return self._cols, self._back

    def _n_steps(self) -> int:
        if self._steps is not None or self._cols is None or self._back is None:
            return len(self.steps)
        return step_count(self._cols, self._back)[0]

    def __repr__(self) -> str:
        """One line, however large the graph: ``<Trace of q: 5 values, 8 steps>``."""
        i = int(self.root[1:])
        if self._nodes is not None:
            top = self._nodes[i]
            label = top.get("label") or top.get("name")
        else:
            label = (self._cols.label[i] or self._cols.name[i]) if self._cols is not None else None
        root = " ".join(str(label or self.root).splitlines())
        return f"<Trace of {root}: {self._n_nodes()} values, {self._n_steps()} steps>"

    @property
    def default_step(self) -> int:
        """The step a picture without a step shows: the last one, or the last
        forward step when ``backward()`` had not run on the graph."""
        if self._steps is None and self._cols is not None and self._back is not None:
            total, forward = step_count(self._cols, self._back)
            return total - 1 if self.backward_ran else forward
        if self.backward_ran:
            return len(self.steps) - 1
        return next(s["index"] for s in self.steps if s["kind"] == "seed") - 1

    def node(self, node_id: str) -> dict[str, Any]:
        """The node record with this id."""
        return self.nodes[int(node_id[1:])]

    def _graph_rows(self) -> tuple[Iterator[tuple[str, dict[str, Any]]],
                                   Iterator[tuple[str, str, int, dict[str, int]]]]:
        """``(id, attributes)`` and ``(parent, child, slot, {"slot": slot})`` tuples for
        :func:`vizgrad.to_networkx`, from the node dicts once they exist. Generators: each
        tuple is freed as soon as networkx has copied it, which keeps the garbage collector's
        count of new containers, and so its full collections, as low as the floor's."""
        if self._nodes is None and self._cols is not None:
            cols = self._cols
            ids, parents = cols.id, cols.parents
            nodes = cols.attributes()
        else:
            keys = NODE_KEYS[1:7] + NODE_KEYS[8:]  # the record without id and parents
            recs = self.nodes
            nodes = ((n["id"], {k: n[k] for k in keys}) for n in recs)
            ids, parents = [n["id"] for n in recs], [n["parents"] for n in recs]
        edges = ((p, child, slot, {"slot": slot})
                 for child, ps in zip(ids, parents) for slot, p in enumerate(ps))
        return nodes, edges

    def _lazy_steps(self) -> list[dict[str, Any]]:
        """:attr:`steps`, or a :class:`~vizgrad.tracing.records.LazySteps` that builds them when
        first read (what :func:`vizgrad.to_networkx` keeps in ``G.graph["steps"]``)."""
        if self._steps is not None or self._cols is None or self._back is None:
            return self.steps
        return LazySteps(lambda: self.steps, step_count(self._cols, self._back)[0])

    def state(self, k: int | None = None) -> State:
        """The :class:`State` after step ``k`` (default: :attr:`default_step`)."""
        return replay(self.steps, self.default_step if k is None else k)

    def to_dict(self) -> dict[str, Any]:
        """The public serialised form (see docs/trace.md, "Trace format")."""
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
        return strict_json(self.to_dict(), indent)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Trace:
        """Rebuild a Trace from :meth:`to_dict` output (``vizgrad.trace/1``, ``/2`` or ``/3``)."""
        fmt = d.get("format", FORMAT) if isinstance(d, dict) else None
        if fmt not in READ_FORMATS:
            raise GraphFormatError(f"unknown trace format {fmt!r}; this vizgrad reads "
                                   f"{', '.join(READ_FORMATS)}")
        try:
            nodes = list(d["nodes"])
            if fmt == READ_FORMATS[0]:  # /1: no groups
                nodes = [{**n, "group": None} for n in nodes]
            if fmt != FORMAT:  # /1, /2: no names
                nodes = [dict(n) for n in nodes]
                name_nodes(nodes, d["root"])
            return cls(nodes, list(d["steps"]), d["root"], list(d.get("also", [])),
                       d.get("derivatives", "exact"), bool(d.get("backward_ran", True)))
        except (KeyError, TypeError) as err:
            raise GraphFormatError(f"not a vizgrad trace: missing or bad field {err}") from None

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        """Notebooks show a step player (see :mod:`vizgrad.embed.notebook`)."""
        return _display.bundle("trace", self)




def trace(root: Any, also: Iterable[Any] = (), *, model: Any = None) -> Trace:
    """Record the forward and backward pass of the graph that ends in ``root``.

    Args:
        root: the output whose gradient is taken (a vizgrad or micrograd Value).
        also: outputs computed beside ``root`` but not on its backward path
            (the softmax exercise's other probabilities); never given a grad.
        model: a micrograd-style net (``layers`` → ``neurons`` → ``w``, ``b``
            or ``parameters()``) whose parameters are named ``L0.N2.w1`` and
            grouped ``L0/N2`` with the ops that use them (see :mod:`vizgrad.tracing.nets`).

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
    names = [f"v{i}" for i in range(len(order))]
    ids = dict(zip(map(id, order), names))
    native = all(hasattr(v, "_local") for v in order)
    backward_ran = float(root.grad) != 0.0
    saved = [v.grad for v in order]
    # the root ends its own search (position n_root - 1); `also` outputs off its path follow
    also_ids = {id(v) for v in also}
    outputs = {id(v) for v in order[n_root:] if id(v) in also_ids}
    operands = list(map(parents.__getitem__, map(id, order)))
    del parents
    get = ids.__getitem__
    operand_ids = [tuple([get(id(p)) for p in ps]) if ps else () for ps in operands]
    cols = node_columns(order, names, operand_ids, n_root, outputs)

    path = order[:n_root]
    back: list[tuple[Any, ...]] = []
    try:
        for v in path:
            v.grad = 0.0
        root.grad = 1.0
        observed = backward_steps(path, operands, operand_ids, names, native, back)
        # every value of the root's graph is an operand of one of its ops: all are reached
        cols.grad[:n_root] = [float(v.grad) for v in path]
    finally:
        for v, g in zip(order, saved):
            v.grad = g
    t = Trace._compact(cols, back, names[n_root - 1], [ids[id(v)] for v in also],
                       "observed" if observed else "exact", backward_ran)
    operand_at = positions(operand_ids)  # read and written in the columns: no record is built
    if model is not None:
        from .nets import name_model

        name_model(model, cols, ids, operand_at)
    name_nodes(cols, t.root, operand_at)  # every value's name (and sample): vizgrad.tracing.names
    return t
