"""The roles of a net's values in a trace (``ŷ[s]``, ``x[s][i]``, ``L0.N2.Σ1``) and their samples.

The naming passes (:mod:`vizgrad.tracing.names`, :mod:`vizgrad.tracing.nets`) read the trace's node
columns directly, by position: each node's operands are a tuple of positions made once
(:func:`positions`), and every per-node fact is a list indexed by position, so a million
values cost a few list reads each, with no record, row or id string looked up::

    >>> positions([(), ("v0",), ("v0", "v1")])
    [(), (0,), (0, 1)]
    >>> neurons(["L0/N2", None, "L0/N2", "g"])
    [(0, 2, 'L0.N2.'), None, (0, 2, 'L0.N2.'), None]

Records given as dicts (a file of an older format) are read into the same columns by
:func:`columns_of`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.numerals import MINUS

__all__ = ["ACTIVATIONS", "Columns", "Net", "columns_of", "neurons", "positions"]

_PARAM = re.compile(r"L(\d+)\.N(\d+)\.(?:w(\d+)|b|p\d+)")
_NEURON = re.compile(r"L(\d+)/N(\d+)")
#: the ops that make a neuron's output from its sum
ACTIVATIONS = ("tanh", "relu", "ReLU", "sigmoid")
_GIVES = ("+", *ACTIVATIONS)  # what a neuron's output is: its sum or its activation
_UNSET: Any = object()  # a sample not worked out yet (None: a value of several samples)


class Columns:
    """Node records as columns (the fields naming reads and writes), made from dicts by
    :func:`columns_of`; :class:`vizgrad.tracing.records.NodeColumns` has the same fields."""

    __slots__ = ("id", "label", "op", "kind", "data", "parents", "group", "name", "sample")

    def __init__(self, records: Sequence[Mapping[str, Any]]) -> None:
        self.id = [r["id"] for r in records]
        self.label = [r.get("label") for r in records]
        self.op = [str(r["op"]) for r in records]
        self.kind = [r["kind"] for r in records]
        self.data = [r["data"] for r in records]
        self.parents = [r["parents"] for r in records]
        self.group = [r.get("group") for r in records]
        self.name: list[Any] = [None] * len(records)
        self.sample: list[Any] = [None] * len(records)


def columns_of(records: Sequence[Mapping[str, Any]]) -> tuple[Columns, list[tuple[int, ...]]]:
    """The columns of dict records and their operands' positions (ids may be any strings; an
    operand that is not a record is a ``KeyError``).

    >>> cols, ps = columns_of([{"id": "a", "op": "", "kind": "input", "data": 1.0,
    ...                         "parents": []}, {"id": "b", "op": "tanh", "kind": "output",
    ...                         "data": 0.76, "parents": ["a"]}])
    >>> cols.label, ps
    ([None, None], [(), (0,)])
    """
    cols = Columns(records)
    where = {n: i for i, n in enumerate(cols.id)}
    return cols, [tuple([where[p] for p in ps]) for ps in cols.parents]


def positions(parents: Sequence[Sequence[str]]) -> list[tuple[int, ...]]:
    """The operands of a trace's nodes as positions: its ids are ``v{position}``."""
    empty: tuple[int, ...] = ()
    return [(int(ps[0][1:]),) if len(ps) == 1 else
            (int(ps[0][1:]), int(ps[1][1:])) if len(ps) == 2 else
            tuple([int(p[1:]) for p in ps]) if ps else empty for ps in parents]


def _neuron(group: Any) -> tuple[int, int, str] | None:
    m = _NEURON.fullmatch(str(group or ""))
    if m is None:
        return None
    layer, neuron = int(m[1]), int(m[2])
    return layer, neuron, f"L{layer}.N{neuron}."


def neurons(groups: Sequence[Any]) -> list[tuple[int, int, str] | None]:
    """Each node's neuron from its group ``Lk/Nj``: (k, j, the prefix ``Lk.Nj.``), or None."""
    try:
        table = {g: _neuron(g) for g in set(groups)}
    except TypeError:  # a group that cannot be hashed (a malformed record)
        return [_neuron(g) for g in groups]
    return list(map(table.__getitem__, groups))


class Net:
    """The roles (:attr:`roles`, by position) and samples (:attr:`sample`) of a net's values:
    found from its parameters' labels and groups; :attr:`params` is empty if it is no net."""

    def __init__(self, cols: Any, parents: list[tuple[int, ...]], root: int | None) -> None:
        labels, self.parents = cols.label, parents
        self.params: dict[int, int | None] = {}  # position -> w's index (None: b, p3)
        self.roles: dict[int, str] = {}
        self.where: list[tuple[int, int, str] | None] = []  # each node's neuron (nets only)
        n = len(parents)
        self.sample: list[int | None] = [None] * n
        last = -1
        found = []
        for i, lab in enumerate(labels):
            if lab and not parents[i]:
                m = _PARAM.fullmatch(str(lab))
                if m:
                    found.append((i, m))
        if not found:  # not a net: nothing more to find
            return
        self.where = where = neurons(cols.group)
        for i, m in found:
            w = where[i]
            if w is not None and w[:2] == (int(m[1]), int(m[2])):
                self.params[i] = int(m[3]) if m[3] else None
                last = max(last, w[0])
        if not self.params:
            return
        self.op, self.data, self.group, self.label = cols.op, cols.data, cols.group, labels
        isparam = self.isparam = bytearray(n)
        for i in self.params:
            isparam[i] = 1
        # an unlabelled leaf that is not a parameter: a number the net's code wrapped
        self.leaf = leaf = bytearray(not ps and not lab for ps, lab in zip(parents, labels))
        for i in self.params:
            leaf[i] = 0
        self._uses(n)
        self._outputs(last, root)

    def _uses(self, n: int) -> None:
        """What each node's users tell: it has one (:attr:`used`), one of another group
        (:attr:`exits`), a sum of its own group (:attr:`summed`); and (leaf, user) pairs."""
        group, op, leaf = self.group, self.op, self.leaf
        used, exits, summed = bytearray(n), bytearray(n), bytearray(n)
        pairs: list[tuple[int, int]] = []
        for i, (ps, g, o) in enumerate(zip(self.parents, group, op)):
            if not ps:
                continue
            plus = o == "+"
            for p in ps:
                used[p] = 1
                if group[p] != g:
                    exits[p] = 1
                elif plus:
                    summed[p] = 1
                if leaf[p]:
                    pairs.append((p, i))
        self.used, self.exits, self.summed, self.pairs = used, exits, summed, pairs

    def _outputs(self, last: int, root: int | None) -> None:
        """ŷ: a last-layer neuron's sum or activation that leaves the neuron (or is unused, or
        the root); the k-th of an output neuron, in trace order, is sample k."""
        op, used, exits = self.op, self.used, self.exits
        outs: dict[int, list[int]] = {}
        for i, w in enumerate(self.where):
            if w is not None and w[0] == last and op[i] in _GIVES and (
                    i == root or not used[i] or exits[i]):
                outs.setdefault(w[1], []).append(i)
        self.samples = max((len(v) for v in outs.values()), default=0)
        self.yhat: dict[int, int] = {}
        for j, ids in outs.items():
            for s, i in enumerate(ids):
                self.roles[i] = f"ŷ[{s}]" if len(outs) == 1 else f"ŷ[{s}][{j}]"
                self.yhat[i] = s
        self._samples()

    def _samples(self) -> None:
        """Each value's forward pass (:attr:`sample`): what ŷ[s] was computed from, then
        what one pass's values made, then the numbers those use; None for several."""
        parents, isparam, leaf = self.parents, self.isparam, self.leaf
        sample = [_UNSET] * len(parents)
        for n, s in self.yhat.items():  # back through the forward pass, parameters aside
            stack = [n]
            pop, extend = stack.pop, stack.extend
            while stack:
                m = pop()
                if isparam[m]:
                    continue
                got = sample[m]
                if got is not _UNSET:
                    if got != s:
                        sample[m] = None  # shared by two passes
                    continue
                sample[m] = s
                extend(parents[m])
        for i, got in enumerate(sample):  # on through what one pass's values made (its loss)
            ps = parents[i]
            if got is _UNSET and ps:
                seen = {sample[p] for p in ps if not isparam[p] and not leaf[p]}
                if len(seen) == 1 and None not in seen and _UNSET not in seen:
                    sample[i] = seen.pop()
        users: dict[int, set[Any]] = {}
        for p, u in self.pairs:  # a wrapped number takes the pass of what uses it
            if sample[p] is _UNSET:
                s = sample[u]
                users.setdefault(p, set()).add(None if s is _UNSET else s)
        for p, seen in users.items():
            if len(seen) == 1:
                sample[p] = seen.pop()
        self.sample = [None if s is _UNSET else s for s in sample]

    def name_roles(self, root: int) -> None:
        """Fill :attr:`roles` for neurons, inputs, targets, running sums and the root."""
        roles, parents, where, op, group = self.roles, self.parents, self.where, self.op, self.group
        isparam, leaf, summed, sample, params = (self.isparam, self.leaf, self.summed,
                                                 self.sample, self.params)
        suffix = [f"[{s}]" for s in range(self.samples)] if self.samples > 1 else []
        n = len(parents)
        depth = [0] * n  # a neuron's running sums: terms so far
        running = bytearray(n)  # the loss's running sums
        cover: list[tuple[int, int] | None] = [None] * n
        for i, s in self.yhat.items():
            cover[i] = (s, s)
        for i, ps in enumerate(parents):
            if not ps:
                continue
            if cover[i] is None:  # the samples a value was made from: ŷ[lo] … ŷ[hi]
                span = None
                for p in ps:
                    c = cover[p]
                    if c is not None:
                        span = c if span is None else (min(span[0], c[0]), max(span[1], c[1]))
                if span is not None:
                    cover[i] = span
            elif i in roles:
                continue
            w = where[i]
            o = op[i]
            if w is not None:
                if o == "+":
                    g = group[i]
                    d = 1
                    for p in ps:
                        if depth[p] and group[p] == g:
                            d += depth[p]
                            break
                    depth[i] = d
                    role = f"Σ{d}" if summed[i] else "Σ"
                elif o == "*" and len(ps) == 2:
                    a, b = ps
                    k = params[a] if isparam[a] else params[b] if isparam[b] else None
                    if k is None:
                        continue
                    role = f"w{k}·x{k}"
                    other = b if isparam[a] else a
                    if w[0] == 0 and leaf[other] and other not in roles:
                        s = sample[i]
                        roles[other] = f"x[{s}][{k}]" if s is not None else f"x[{k}]"
                elif o in ACTIVATIONS:
                    role = "out"
                else:
                    continue
                s = sample[i]
                roles[i] = w[2] + role + suffix[s] if suffix and s is not None else w[2] + role
            elif o == "+" and len(ps) == 2:
                self._target(ps)
                if cover[i] is not None and any(running[p] or self._zero(p) for p in ps):
                    lo, hi = cover[i]  # type: ignore[misc]
                    roles[i] = f"Σ[{lo}]" if lo == hi else f"Σ[{lo}..{hi}]"
                    running[i] = 1
        if not self.label[root]:
            roles[root] = "loss"

    def _zero(self, p: int) -> bool:
        """A sum's start: a leaf holding 0 (``sum()``'s, or a labelled ``Value(0.0)``)."""
        return not self.parents[p] and not self.isparam[p] and self.data[p] == 0.0

    def _target(self, ps: tuple[int, ...]) -> None:
        """``ŷ[s] + c`` (micrograd's ``ŷ − y`` with y a number): c is −y[s]; with ``−ŷ[s]``
        (``y − ŷ``), c is y[s]; a Value target negated (``y·−1``) is y[s]."""
        yhat, leaf, data, op, parents, roles = (self.yhat, self.leaf, self.data, self.op,
                                                self.parents, self.roles)
        for a, c in ((ps[0], ps[1]), (ps[1], ps[0])):
            out = a if a in yhat else None
            sign = MINUS
            if out is None and op[a] == "*":  # −ŷ[s]: ŷ[s]·−1
                neg = [p for p in parents[a] if p in yhat]
                if neg and any(leaf[p] and data[p] == -1.0 for p in parents[a]):
                    out, sign = neg[0], ""
            if out is None:
                continue
            index = roles[out][1:]  # ŷ[s], or ŷ[s][j] for the j-th output
            if leaf[c] and c not in roles:
                roles[c] = f"{sign}y{index}"
            elif op[c] == "*" and sign:  # ŷ + y·−1: the Value y
                for p in parents[c]:
                    if leaf[p] and data[p] != -1.0 and p not in roles:
                        roles[p] = f"y{index}"
            return
