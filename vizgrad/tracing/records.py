"""The trace's compact records, and the plain dicts they stand for.

A traced graph keeps its nodes as columns (one list per field, no object per node
but the tuple of parent ids) and each backward step as one flat tuple, so tracing a
million values makes few containers for the garbage collector to scan, where one
dict per node and per step made millions. :attr:`vizgrad.Trace.nodes` and
:attr:`vizgrad.Trace.steps` build the documented dicts from them on first access::

    >>> cols = NodeColumns(["v0", "v1"], ["a", ""], ["", "tanh"], ["input", "output"],
    ...                    [0.5, 0.46], [0.79, 1.0], [True, True], [(), ("v0",)], [None, None])
    >>> cols.record(1)["parents"], len(cols)
    (['v0'], 2)
    >>> back = [("v1", 1.0, PLAIN, "v0", 0, 0.79, 0.79, 0.0, 0.79)]
    >>> [s["kind"] for s in step_dicts(cols, back, "v1")]
    ['inputs', 'forward', 'seed', 'backward']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..core.labels import MAX_LABEL, cut_all
from ..exceptions import NumericOverflowError, OperandTypeError, VizgradError

__all__ = ["NODE_KEYS", "PLAIN", "OVERWROTE", "OBSERVED", "LazySteps", "NodeColumns",
           "contributions_of", "heads_of", "node_columns", "step_at", "step_dicts",
           "step_count", "totals_of"]

#: the keys of a node record, in the order the trace format writes them
NODE_KEYS = ("id", "label", "op", "kind", "data", "grad", "on_path", "parents", "order", "group",
             "name", "sample")

#: a backward step's flag: its contributions are plain, carry ``"overwrote": true`` (the
#: closure assigned, ``=``) or ``"observed": true`` (read off the grads, not computed)
PLAIN, OVERWROTE, OBSERVED = 0, 1, 2
_FLAG_KEY = {OVERWROTE: "overwrote", OBSERVED: "observed"}
#: fields per contribution in a backward step's tuple, after its (source, upstream, flag)
CONTRIBUTION = 6  # target, slot, local, amount, before, after


class NodeColumns:
    """The node records of a trace, one list per field of :data:`NODE_KEYS` (order is the
    position; ``parents`` holds tuples of ids)."""

    __slots__ = ("id", "label", "op", "kind", "data", "grad", "on_path", "parents", "group",
                 "name", "sample")

    def __init__(self, id: list[str], label: list[str], op: list[str], kind: list[str],
                 data: list[float], grad: list[float | None], on_path: list[bool],
                 parents: list[tuple[str, ...]], group: list[str | None]) -> None:
        self.id, self.label, self.op, self.kind = id, label, op, kind
        self.data, self.grad, self.on_path = data, grad, on_path
        self.parents, self.group = parents, group
        n = len(id)
        self.name: list[str | None] = [None] * n  # filled by vizgrad.tracing.names
        self.sample: list[int | None] = [None] * n

    def __len__(self) -> int:
        return len(self.id)

    def record(self, i: int) -> dict[str, Any]:
        """Node ``i`` as the trace format's dict: the one place a node record is made."""
        return {"id": self.id[i], "label": self.label[i], "op": self.op[i],
                "kind": self.kind[i], "data": self.data[i], "grad": self.grad[i],
                "on_path": self.on_path[i], "parents": list(self.parents[i]), "order": i,
                "group": self.group[i], "name": self.name[i], "sample": self.sample[i]}

    def records(self) -> list[dict[str, Any]]:
        """Every node record, in order."""
        return [self.record(i) for i in range(len(self.id))]

    def attributes(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """``(id, attributes)`` for ``networkx``: the record without ``id`` and ``parents``
        (made one at a time, so each is freed once networkx has copied it)."""
        for i, (vid, label, op, kind, data, grad, on_path, group, name, sample) in enumerate(
                zip(self.id, self.label, self.op, self.kind, self.data, self.grad,
                    self.on_path, self.group, self.name, self.sample)):
            yield vid, {"label": label, "op": op, "kind": kind, "data": data, "grad": grad,
                        "on_path": on_path, "order": i, "group": group, "name": name,
                        "sample": sample}


def node_columns(order: list[Any], names: list[str], parent_ids: list[tuple[str, ...]],
                 n_root: int, outputs: set[int]) -> NodeColumns:
    """The columns of the traced Values ``order``, whose first ``n_root`` are the root's
    graph and whose ``outputs`` (by ``id()``) are outputs (grads are filled in later)."""
    kinds = ["op" if ps else "const" if getattr(v, "is_const", False) else "input"
             for v, ps in zip(order, parent_ids)]
    kinds[n_root - 1] = "output"
    for i in range(n_root, len(order)):
        if id(order[i]) in outputs:
            kinds[i] = "output"
    labels = [v if v.__class__ is str else "" if v is None else str(v)
              for v in [getattr(v, "label", None) for v in order]]
    ops = []
    for v in order:
        op = getattr(v, "op", None)
        if op is None:
            op = getattr(v, "_op", "")
        ops.append(op if op.__class__ is str else str(op))
    if max(map(len, labels)) > MAX_LABEL:
        labels = cut_all(labels, "label", names)
    if max(map(len, ops)) > MAX_LABEL:
        ops = cut_all(ops, "op", names)
    n = len(order)
    try:
        data = [float(v.data) for v in order]
    except (TypeError, ValueError, OverflowError):
        raise _bad_data(order, names) from None
    return NodeColumns(names, labels, ops, kinds, data,
                       [None] * n, [True] * n_root + [False] * (n - n_root), parent_ids,
                       [getattr(v, "group", None) for v in order])


def _bad_data(order: list[Any], names: list[str]) -> VizgradError:
    """The error for the first value whose ``data`` is not a float."""
    for v, name in zip(order, names):
        try:
            float(v.data)
        except OverflowError:
            return NumericOverflowError(
                f"the data of {name} is an int of {len(str(abs(v.data)))} digits, too large "
                "for a float (at most about 1.8e308); use smaller numbers")
        except (TypeError, ValueError):
            return OperandTypeError(
                f"the data of {name} is {type(v.data).__name__} {v.data!r:.40}, not a number; "
                "a Value holds an int or a float")
    return OperandTypeError("a value's data is not a number")  # not reached


def step_count(cols: NodeColumns, back: list[tuple[Any, ...]]) -> tuple[int, int]:
    """(number of steps, number of forward steps) of the compact records."""
    forward = sum(1 for ps in cols.parents if ps)
    return 2 + forward + len(back), forward


def _backward_step(rec: tuple[Any, ...], index: int) -> dict[str, Any]:
    """The backward step of one compact record."""
    src, up, flag = rec[0], rec[1], rec[2]
    if flag == PLAIN and len(rec) == 9:
        contribs = [{"source": src, "target": rec[3], "slot": rec[4], "local": rec[5],
                     "upstream": up, "amount": rec[6], "before": rec[7], "after": rec[8]}]
    elif flag == PLAIN and len(rec) == 15:
        contribs = [{"source": src, "target": rec[3], "slot": rec[4], "local": rec[5],
                     "upstream": up, "amount": rec[6], "before": rec[7], "after": rec[8]},
                    {"source": src, "target": rec[9], "slot": rec[10], "local": rec[11],
                     "upstream": up, "amount": rec[12], "before": rec[13],
                     "after": rec[14]}]
    else:
        contribs = []
        for k in range(3, len(rec), CONTRIBUTION):
            c = {"source": src, "target": rec[k], "slot": rec[k + 1], "local": rec[k + 2],
                 "upstream": up, "amount": rec[k + 3], "before": rec[k + 4],
                 "after": rec[k + 5]}
            if flag != PLAIN:
                c[_FLAG_KEY[flag]] = True
            contribs.append(c)
    return {"index": index, "kind": "backward", "node": src, "upstream": up,
            "contributions": contribs}


def _inputs_step(cols: NodeColumns) -> dict[str, Any]:
    ids, data = cols.id, cols.data
    values = {ids[i]: data[i] for i, ps in enumerate(cols.parents) if not ps}
    return {"index": 0, "kind": "inputs", "node": None, "values": values, "contributions": []}


def step_dicts(cols: NodeColumns, back: list[tuple[Any, ...]], root: str) -> list[dict[str, Any]]:
    """The steps of the trace format, built from the node columns and the backward tuples."""
    ids, data = cols.id, cols.data
    steps: list[dict[str, Any]] = [_inputs_step(cols)]
    add = steps.append
    for i, ps in enumerate(cols.parents):
        if ps:
            add({"index": len(steps), "kind": "forward", "node": ids[i], "value": data[i],
                 "contributions": []})
    add({"index": len(steps), "kind": "seed", "node": root, "grad": 1.0, "contributions": []})
    first = len(steps)
    steps.extend(_backward_step(rec, first + k) for k, rec in enumerate(back))
    return steps


def step_at(cols: NodeColumns, back: list[tuple[Any, ...]], root: str,
            forward: Sequence[int], k: int) -> dict[str, Any]:
    """Step ``k`` alone, as :func:`step_dicts` builds it (``forward``: the positions of
    the values that have parents, in order)."""
    if k == 0:
        return _inputs_step(cols)
    if k <= len(forward):
        i = forward[k - 1]
        return {"index": k, "kind": "forward", "node": cols.id[i], "value": cols.data[i],
                "contributions": []}
    if k == len(forward) + 1:
        return {"index": k, "kind": "seed", "node": root, "grad": 1.0, "contributions": []}
    return _backward_step(back[k - len(forward) - 2], k)


class LazySteps(list):  # type: ignore[type-arg]
    """A graph's steps, built on first use: a ``list`` of the plain dicts of
    :attr:`vizgrad.Trace.steps`, filled the first time anything reads it (``len`` reads
    nothing). Every list operation fills it first; pickled or deep-copied it is a plain list.

    >>> s = LazySteps(lambda: [{"index": 0}], 1)
    >>> len(s), s == [{"index": 0}], s[0]["index"], isinstance(s, list)
    (1, True, 0, True)
    """

    __slots__ = ("_build", "_length")

    def __init__(self, build: Callable[[], list[Any]], length: int) -> None:
        super().__init__()
        self._build: Callable[[], list[Any]] | None = build
        self._length = length

    def _fill(self) -> LazySteps:
        build = self._build
        if build is not None:
            self._build = None
            list.extend(self, build())
        return self

    def __len__(self) -> int:
        return self._length if self._build is not None else list.__len__(self)

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        return (list, (list(self._fill()),))

    def __radd__(self, other: list[Any]) -> list[Any]:
        return list(other) + list(self._fill())

    __hash__ = None  # type: ignore[assignment]


def _filled(name: str) -> Callable[..., Any]:
    method = getattr(list, name)

    def call(self: LazySteps, *args: Any, **kwargs: Any) -> Any:
        for x in args:  # the other side of ==, +, <: C reads its items without asking
            if isinstance(x, LazySteps):
                x._fill()
        return method(self._fill(), *args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = method.__doc__
    return call


for _name in ("__iter__", "__getitem__", "__setitem__", "__delitem__", "__contains__",
              "__reversed__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__",
              "__add__", "__mul__", "__rmul__", "__iadd__", "__imul__", "__repr__", "__sizeof__",
              "append", "extend", "insert", "pop", "remove", "index", "count", "copy", "sort",
              "reverse", "clear"):
    setattr(LazySteps, _name, _filled(_name))


def heads_of(steps: Sequence[dict[str, Any]]) -> Iterator[tuple[int, str, Any]]:
    """``(index, kind, node)`` of every step dict.

    >>> list(heads_of([{"index": 0, "kind": "inputs", "node": None}]))
    [(0, 'inputs', None)]
    """
    return ((s["index"], s["kind"], s["node"]) for s in steps)


def totals_of(steps: Sequence[dict[str, Any]], skip: Any = ()) -> dict[str, list[Any]]:
    """Each target's number of contributions in the step dicts and the grad its last one
    leaves, but for the targets in ``skip``.

    >>> c = {"target": "v0", "after": 2.0}
    >>> totals_of([{"contributions": [c, {**c, "after": 5.0}]}, {}])
    {'v0': [2, 5.0]}
    """
    out: dict[str, list[Any]] = {}
    for s in steps:
        for c in s.get("contributions", ()):
            if c["target"] in skip:
                continue
            got = out.setdefault(c["target"], [0, None])
            got[0] += 1
            got[1] = c["after"]
    return out


def contributions_of(steps: Sequence[dict[str, Any]], indices: Sequence[int],
                     skip: Any = ()) -> Iterator[tuple[Any, ...]]:
    """``(target, source, slot, local, amount, before, after, observed, overwrote)`` of every
    contribution of the step dicts at ``indices``, in order, but for those to the targets in
    ``skip``."""
    return ((c["target"], c["source"], c["slot"], c.get("local"), c["amount"], c["before"],
             c["after"], bool(c.get("observed")), bool(c.get("overwrote")))
            for k in indices for c in steps[k]["contributions"] if c["target"] not in skip)
