"""Running the backward closures one by one and recording each step's contributions.

Used by :func:`vizgrad.tracing.recorder.trace`; every number comes from the graph's own
closures. For vizgrad Values the contributions are computed from the recorded
local derivatives and checked against what the closure really did; otherwise
(micrograd's Values, or a closure that disagrees) they are observed. Each step is
one flat tuple (see :mod:`vizgrad.tracing.records`): ``(source, upstream, flag)`` and then
``target, slot, local, amount, before, after`` per contribution::

    >>> from vizgrad import Value
    >>> a, b = Value(2.0), Value(3.0)
    >>> c = a * b
    >>> c.grad = 1.0
    >>> records = []
    >>> backward_steps([a, b, c], [(), (), (a, b)], [(), (), ("v0", "v1")],
    ...                ["v0", "v1", "v2"], True, records)
    False
    >>> records
    [('v2', 1.0, 0, 'v0', 0, 3.0, 3.0, 0.0, 3.0, 'v1', 1, 2.0, 2.0, 0.0, 2.0)]
"""

from __future__ import annotations

import math
from typing import Any

from .records import OBSERVED, OVERWROTE, PLAIN

__all__ = ["backward_steps"]

_REL_TOL = 1e-12


def _close(sim: float, real: float) -> bool:
    return math.isclose(sim, real, rel_tol=_REL_TOL) or (math.isnan(sim) and math.isnan(real))


def backward_steps(path: list[Any], operands: list[tuple[Any, ...]],
                   operand_ids: list[tuple[str, ...]], names: list[str], native: bool,
                   records: list[tuple[Any, ...]], inline: bool = True) -> bool:
    """Run the closures in reverse order, appending one tuple per op node with its
    contributions; True when some contribution had to be observed, not computed.

    ``operands[i]`` and ``operand_ids[i]`` are node i's operands and their ids.
    One- and two-operand nodes (nearly all of them) take an inlined path that
    gives exactly what :func:`_run_native` gives (``inline=False`` turns it off).
    """
    observed = not native
    add = records.append
    for i in range(len(path) - 1, -1, -1):
        v = path[i]
        ps = operands[i]
        n = len(ps)
        if not n:
            v._backward()
            continue
        upstream = float(v.grad)
        src = names[i]
        rec: tuple[Any, ...] | None = None
        if inline and native and n <= 2 and not v.overwrites and (n == 1 or ps[0] is not ps[1]):
            p0 = ps[0]
            b0 = float(p0.grad)
            if n == 2:
                p1 = ps[1]
                b1 = float(p1.grad)
            v._backward()
            local = v._local
            if len(local) >= n:  # as zip(ps, local) in _run_native
                l0 = local[0]
                m0 = l0 * upstream
                a0 = b0 + m0
                real = p0.grad
                if a0 == real or _close(a0, real):
                    targets = operand_ids[i]
                    if n == 1:
                        rec = (src, upstream, PLAIN, targets[0], 0, l0, m0, b0, a0)
                    else:
                        l1 = local[1]
                        m1 = l1 * upstream
                        a1 = b1 + m1
                        real = p1.grad
                        if a1 == real or _close(a1, real):
                            rec = (src, upstream, PLAIN, targets[0], 0, l0, m0, b0, a0,
                                   targets[1], 1, l1, m1, b1, a1)
            before = [b0, b1] if n == 2 else [b0]
        else:
            before = [float(p.grad) for p in ps]
            v._backward()
            if native:
                rec = _run_native(v, ps, operand_ids[i], src, upstream, before)
        if rec is None:  # the closure did not do what its local derivatives say
            observed = True
            rec = _run_observed(ps, operand_ids[i], src, upstream, before)
        add(rec)
    return observed


def _run_native(v: Any, ps: tuple[Any, ...], targets: tuple[str, ...], src: str,
                upstream: float, before: list[float]) -> tuple[Any, ...] | None:
    """Contributions from the recorded local derivatives, checked against the real call.

    Returns None when ``_backward`` did something else than its local
    derivatives say; the caller then reports what it saw instead.
    """
    overwrites = v.overwrites
    running: dict[int, float] = {}
    rec: list[Any] = [src, upstream, OVERWROTE if overwrites else PLAIN]
    for slot, (p, local) in enumerate(zip(ps, v._local)):
        amount = local * upstream
        b = running.get(id(p), before[slot])
        a = amount if overwrites else b + amount
        running[id(p)] = a
        rec += (targets[slot], slot, local, amount, b, a)
    for p in ps:
        sim, real = running[id(p)], p.grad
        if sim != real and not _close(sim, real):
            return None
    return tuple(rec)


def _run_observed(ps: tuple[Any, ...], targets: tuple[str, ...], src: str, upstream: float,
                  before: list[float]) -> tuple[Any, ...]:
    """Each operand's observed change over the ``_backward`` call (one per distinct operand)."""
    rec: list[Any] = [src, upstream, OBSERVED]
    done: set[int] = set()
    for slot, p in enumerate(ps):
        if id(p) in done:
            continue
        done.add(id(p))
        b = before[slot]
        after = float(p.grad)
        amount = after - b
        rec += (targets[slot], slot, amount / upstream if upstream != 0 else None, amount, b,
                after)
    return tuple(rec)
