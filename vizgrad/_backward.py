"""Running the backward closures one by one and recording each step's contributions.

Used by :func:`vizgrad.tracing.trace`; every number comes from the graph's own
closures. For vizgrad Values the contributions are computed from the recorded
local derivatives and checked against what the closure really did; otherwise
(micrograd's Values, or a closure that disagrees) they are observed::

    >>> from vizgrad import Value
    >>> a, b = Value(2.0), Value(3.0)
    >>> c = a * b
    >>> c.grad = 1.0
    >>> steps = []
    >>> backward_steps([a, b, c], [(), (), (a, b)], [[], [], ["v0", "v1"]], ["v0", "v1", "v2"],
    ...                True, steps)
    False
    >>> [(x["target"], x["local"], x["amount"]) for x in steps[0]["contributions"]]
    [('v0', 3.0, 3.0), ('v1', 2.0, 2.0)]
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["backward_steps"]

_REL_TOL = 1e-12


def _close(sim: float, real: float) -> bool:
    return math.isclose(sim, real, rel_tol=_REL_TOL) or (math.isnan(sim) and math.isnan(real))


def backward_steps(path: list[Any], operands: list[tuple[Any, ...]],
                   operand_ids: list[list[str]], names: list[str], native: bool,
                   steps: list[dict[str, Any]], inline: bool = True) -> bool:
    """Run the closures in reverse order, appending one step per op node with its
    contributions; True when some contribution had to be observed, not computed.

    ``operands[i]`` and ``operand_ids[i]`` are node i's operands and their ids.
    One- and two-operand nodes (nearly all of them) take an inlined path that
    gives exactly what :func:`_run_native` gives (``inline=False`` turns it off).
    """
    observed = not native
    add_step = steps.append
    for i in range(len(path) - 1, -1, -1):
        v = path[i]
        ps = operands[i]
        n = len(ps)
        if not n:
            v._backward()
            continue
        upstream = float(v.grad)
        src = names[i]
        contribs: list[dict[str, Any]] | None = None
        if inline and native and n <= 2 and not v.overwrites and (n == 1 or ps[0] is not ps[1]):
            p0 = ps[0]
            b0 = float(p0.grad)
            if n == 2:
                p1 = ps[1]
                b1 = float(p1.grad)
            v._backward()
            local = v._local
            if len(local) >= n:  # as zip(ps, local) in _run_native
                m0 = local[0] * upstream
                a0 = b0 + m0
                real = p0.grad
                if a0 == real or _close(a0, real):
                    targets = operand_ids[i]
                    contribs = [{"source": src, "target": targets[0], "slot": 0,
                                 "local": local[0], "upstream": upstream, "amount": m0,
                                 "before": b0, "after": a0}]
                    if n == 2:
                        m1 = local[1] * upstream
                        a1 = b1 + m1
                        real = p1.grad
                        if a1 == real or _close(a1, real):
                            contribs.append({"source": src, "target": targets[1], "slot": 1,
                                             "local": local[1], "upstream": upstream,
                                             "amount": m1, "before": b1, "after": a1})
                        else:
                            contribs = None
            before = [b0, b1] if n == 2 else [b0]
        else:
            before = [float(p.grad) for p in ps]
            v._backward()
            if native:
                contribs = _run_native(v, ps, operand_ids[i], src, upstream, before)
        if contribs is None:  # the closure did not do what its local derivatives say
            observed = True
            contribs = _run_observed(ps, operand_ids[i], src, upstream, before)
        add_step({"index": len(steps), "kind": "backward", "node": src,
                  "upstream": upstream, "contributions": contribs})
    return observed


def _run_native(v: Any, ps: tuple[Any, ...], targets: list[str], src: str, upstream: float,
                before: list[float]) -> list[dict[str, Any]] | None:
    """Contributions from the recorded local derivatives, checked against the real call.

    Returns None when ``_backward`` did something else than its local
    derivatives say; the caller then reports what it saw instead.
    """
    overwrites = v.overwrites
    running: dict[int, float] = {}
    contribs = []
    for slot, (p, local) in enumerate(zip(ps, v._local)):
        amount = local * upstream
        b = running.get(id(p), before[slot])
        a = amount if overwrites else b + amount
        running[id(p)] = a
        c = {"source": src, "target": targets[slot], "slot": slot, "local": local,
             "upstream": upstream, "amount": amount, "before": b, "after": a}
        if overwrites:
            c["overwrote"] = True
        contribs.append(c)
    for p in ps:
        sim, real = running[id(p)], p.grad
        if sim != real and not _close(sim, real):
            return None
    return contribs


def _run_observed(ps: tuple[Any, ...], targets: list[str], src: str, upstream: float,
                  before: list[float]) -> list[dict[str, Any]]:
    """Each operand's observed change over the ``_backward`` call (one per distinct operand)."""
    contribs = []
    done: set[int] = set()
    for slot, p in enumerate(ps):
        if id(p) in done:
            continue
        done.add(id(p))
        b = before[slot]
        after = float(p.grad)
        amount = after - b
        contribs.append({"source": src, "target": targets[slot], "slot": slot,
                         "local": amount / upstream if upstream != 0 else None,
                         "upstream": upstream, "amount": amount, "before": b,
                         "after": after, "observed": True})
    return contribs
