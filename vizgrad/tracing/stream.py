"""The steps of a compact trace, built one at a time as they are read.

A collapsed overview of a huge graph (:class:`vizgrad.graph.lite.LiteGraph`) reads the steps
once, in order, and mostly only their heads and contributions: :class:`StreamSteps`
gives those straight off the trace's records, and builds a step's dict only where one is
read, keeping none::

    >>> from vizgrad import Value, trace
    >>> a = Value(3.0, label="a")
    >>> steps = StreamSteps(trace(a * a + a))
    >>> len(steps), [kind for _, kind, _ in steps.heads()]
    (6, ['inputs', 'forward', 'forward', 'seed', 'backward', 'backward'])
    >>> steps[3]["kind"], sorted(steps.totals())
    ('seed', ['v0', 'v1'])
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterator
from itertools import chain as _chain
from itertools import compress
from itertools import repeat as _repeat
from operator import itemgetter, not_, sub
from typing import Any

from .records import (CONTRIBUTION, OBSERVED, OVERWROTE, LazySteps, contributions_of,
                       heads_of, step_at, step_dicts, totals_of)
from .recorder import Trace

__all__ = ["StreamSteps"]


class StreamSteps(LazySteps):
    """The steps of a compact trace: reading one step, or iterating, builds each dict as it
    is read and keeps none; any other list operation builds them all (a plain list)."""

    __slots__ = ("_at", "_forward")

    def __init__(self, t: Trace) -> None:
        compact = t.compact()
        if compact is None:
            raise ValueError("StreamSteps needs a compact trace, as vizgrad.trace() makes it")
        cols, back = compact
        forward = array("l", (i for i, ps in enumerate(cols.parents) if ps))
        super().__init__(lambda: step_dicts(cols, back, t.root), 2 + len(forward) + len(back))
        self._forward = forward
        self._at = (cols, back, t.root)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        if self._build is None:
            return list.__iter__(self)
        cols, back, root = self._at
        return (step_at(cols, back, root, self._forward, k) for k in range(self._length))

    def heads(self) -> Iterator[tuple[int, str, str | None]]:
        """``(index, kind, node)`` of every step, none built."""
        if self._build is None:  # built: a plain list of step dicts
            yield from heads_of(self)
            return
        cols, back, root = self._at
        ids = cols.id
        yield 0, "inputs", None
        yield from zip(range(1, len(self._forward) + 1), _repeat("forward"),
                       map(ids.__getitem__, self._forward))
        first = len(self._forward) + 2
        yield first - 1, "seed", root
        yield from zip(range(first, first + len(back)), _repeat("backward"),
                       (rec[0] for rec in back))

    def head_lists(self) -> tuple[list[str], str, list[str]] | None:
        """The nodes of the forward steps (``1 … F``), the seed's (step ``F + 1``) and the
        backward steps' (from ``F + 2``), none built (``None`` once they are)."""
        if self._build is None:
            return None
        cols, back, root = self._at
        return list(map(cols.id.__getitem__, self._forward)), root, [rec[0] for rec in back]

    def totals(self, skip: Any = ()) -> dict[str, list[Any]]:
        """Each target's number of contributions and the grad its last one leaves, read
        off the records (what :func:`vizgrad.graph.collapse.contract.contract` needs), but for the
        targets in ``skip``."""
        if self._build is None:
            return totals_of(self, skip)
        back = self._at[1]  # each record: node, upstream, flag, then its contributions
        flat = _chain.from_iterable
        targets = list(flat(map(itemgetter(slice(3, None, CONTRIBUTION)), back)))
        afters = flat(map(itemgetter(slice(8, None, CONTRIBUTION)), back))
        keep = list(map(not_, map(skip.__contains__, targets))) if skip else None
        pairs = zip(targets, afters)
        last = dict(compress(pairs, keep) if keep is not None else pairs)  # the last wins
        counts = Counter(compress(targets, keep) if keep is not None else targets)
        return {t: [k, last[t]] for t, k in counts.items()}

    def contributions(self, indices: list[int], skip: Any = ()) -> Iterator[tuple[Any, ...]]:
        """The contributions of the backward steps at ``indices``, as
        :func:`.contract._contributions` (collapse) reads them, none built as a dict (but for
        those to the targets in ``skip``)."""
        if self._build is None:
            yield from contributions_of(self, indices, skip)
            return
        back, first = self._at[1], len(self._forward) + 2
        recs: Any = map(back.__getitem__, map(sub, indices, _repeat(first)))
        if skip:  # the records with a target outside skip, found in bulk
            recs = list(recs)
            recs = compress(recs, map(not_, map(skip.issuperset, map(
                itemgetter(slice(3, None, CONTRIBUTION)), recs))))
        for rec in recs:
            src, flag = rec[0], rec[2]
            observed, overwrote = flag == OBSERVED, flag == OVERWROTE
            for j in range(3, len(rec), CONTRIBUTION):
                if rec[j] not in skip:
                    yield (rec[j], src, rec[j + 1], rec[j + 2], rec[j + 3], rec[j + 4],
                           rec[j + 5], observed, overwrote)

    def __getitem__(self, k: Any) -> Any:
        if self._build is None or not isinstance(k, int):
            return list.__getitem__(self._fill(), k)
        if k < 0:
            k += self._length
        if not 0 <= k < self._length:
            raise IndexError("step index out of range")
        cols, back, root = self._at
        return step_at(cols, back, root, self._forward, k)
