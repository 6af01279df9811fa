"""The steps of a contracted graph: each box's forward and backward steps, replayed.

:func:`contract_steps` is what :func:`vizgrad.graph.collapse.contract.contract` calls to
turn the original graph's steps into the collapsed graph's: a box's forward step comes with
its last output's; with merged steps its backward steps become one, whose contributions
along one collapsed edge are summed exactly (:func:`math.fsum`), with ``before``/``after``
the target's shown grad, so :func:`vizgrad.tracing.recorder.replay` gives every step's state.

    >>> import vizgrad
    >>> from vizgrad.graph.collapse import collapse
    >>> H = collapse(vizgrad.examples.graph("mlp"), "neuron")
    >>> [s["kind"] for s in H.graph["steps"]][:3]
    ['inputs', 'forward', 'forward']
    >>> len(H.graph["steps"])
    14
"""

from __future__ import annotations

import math
from typing import Any

from .boxes import Boxes as _Boxes
from .boxes import exact_sum as _sum
from .batch import grid_cells, grid_step
from .cells import add_cell, per_sample, start_cells, upstream_of
from ..columns import member_steps
from ...tracing.records import contributions_of, heads_of, totals_of

__all__ = ["TERMS", "contract_steps", "selected_sample", "step_contributions", "step_heads"]

#: the most terms, one per sample, that a folded contribution states (``terms``): more would
#: not fit a caption line; past it the caption says how many it sums
TERMS = 8


def _apply(t: str, amount: float, before: float, after: float, overwrote: bool,
           vis: dict[str, float], totals: dict[str, list[Any]] | None = None) -> None:
    """Move the shown grad of a contribution's target ``t`` as the original step did; its
    last contribution, in whatever order, leaves the recorded total (``totals``: target →
    [contributions left, the total])."""
    if overwrote:
        vis[t] = amount
    elif vis.get(t, 0.0) == before:
        vis[t] = after  # the original order: the recorded total, exactly
    else:
        vis[t] = vis.get(t, 0.0) + amount
    left = totals.get(t) if totals is not None else None
    if left is not None:
        left[0] -= 1
        if left[0] == 0:  # summed in another order: the same total, but for rounding
            vis[t] = left[1]


def step_contributions(steps: Any, indices: list[int], skip: Any = ()) -> Any:
    """``(target, source, slot, local, amount, before, after, observed, overwrote)`` of every
    contribution of the steps at ``indices``, in order, but for those to the targets in
    ``skip`` (a light graph's steps read them off their records:
    :class:`vizgrad.tracing.stream.StreamSteps`)."""
    own = getattr(steps, "contributions", None)
    return own(indices, skip) if own is not None else contributions_of(steps, indices, skip)


def _backward(contribs: Any, upstream: float | None, C: str, bx: _Boxes,
              emap: dict[Any, Any], vis: dict[str, float], single: bool,
              totals: dict[str, list[Any]] | None = None,
              ) -> tuple[float | None, list[dict[str, Any]]]:
    """One collapsed backward step of node ``C`` made of the original contributions
    ``contribs`` (see :func:`step_contributions`; those to a box's inner members, whose grads are
    never shown, left out); ``upstream``: the original step's, when ``single``."""
    if not single:
        upstream = bx.grad(C, vis)
    agg: dict[tuple[str, int], dict[str, Any]] = {}
    exact: dict[tuple[str, int], str] = {}
    boxes, get_edge = bx.attrs, emap.get
    sample_of = (bx.pick[0].get if bx.pick is not None else lambda t: None)
    for t, source, slot, local, amount, before, after, observed, overwrote in contribs:
        e = get_edge((t, source, slot))
        rec: dict[str, Any] | None = None
        if e is not None:
            P, _, key = e
            rec = agg.get((P, key))
            if rec is None:
                shown = bx.grad(P, vis)
                start = 0.0 if shown is None else shown
                rec = agg[(P, key)] = {"source": C, "target": P, "slot": key, "local": [],
                                       "upstream": upstream, "amount": [],
                                       "before": start, "after": None}
                outs = bx.outputs.get(P)
                if outs is not None and len(outs) == 1 and vis.get(outs[0], 0.0) == start:
                    exact[(P, key)] = outs[0]  # the output's own totals, exactly
                if P in bx.groups:  # a group's outputs: the selected sample's own
                    start_cells(rec, bx.shown_outputs(P), vis)
                elif P in bx.grids:  # a batch's inputs: what each received
                    rec["_grid"] = {}
            if "_grid" in rec:
                rec["_grid"].setdefault(t, []).append([local, upstream_of(local, amount), amount])
            if "_sel" in rec:
                add_cell(rec, t, local, amount, bx.param)
            rec["amount"].append(amount)
            rec["local"].append(local)
            rec.setdefault("of", []).append(sample_of(t))
            if observed:
                rec["observed"] = True
            if overwrote:
                rec["overwrote"] = True
        _apply(t, amount, before, after, overwrote, vis, totals)
        if rec is not None and rec["target"] not in boxes:
            rec["after"] = vis[t]
    out = []
    for (P, key), rec in agg.items():
        amounts, locals_ = rec["amount"], rec["local"]
        rec["count"] = len(amounts)
        of = rec.pop("of")
        got = rec.pop("_grid", None)
        if got is not None:  # a batch's inputs: each cell's own grad, never their sum
            grid_step(rec, got, vis, *grid_cells(bx, P), selected_sample(bx))
            out.append(rec)
            continue
        sel = rec.pop("_sel", None)
        if sel is not None:
            rec["_of"] = of  # a box's outputs: what the selected sample's Values received
            per_sample(rec, list(sel), amounts, vis, upstream, bx)
            out.append(rec)
            continue
        if 1 < len(amounts) <= TERMS and None not in of and len(set(of)) == len(of):
            # one term per sample: the caption states them (the code's += across samples)
            rec["terms"] = sorted([s, a] for s, a in zip(of, amounts))
        rec["amount"] = _sum(amounts)
        if single:  # one original step: one upstream, so the locals add up
            rec["local"] = None if None in locals_ else _sum(locals_)
        elif len(bx.outs(C)) == 1 and upstream and math.isfinite(upstream) and (
                "terms" not in rec):  # terms per sample: stated, not one local derivative
            rec["local"] = rec["amount"] / upstream
        else:
            rec["local"] = None
        if rec["after"] is None:  # a box: what it shows moves by exactly this step's sum
            o = exact.get((P, key))
            after = vis[o] if o is not None else rec["before"] + rec["amount"]
            rec["after"] = bx.shown[P] = float(after)
        out.append(rec)
    return upstream, out


def selected_sample(bx: _Boxes) -> int | None:
    """The sample whose values the boxes show (``None``: all, or a graph of one)."""
    return bx.pick[1] if bx.pick is not None else None


def step_heads(steps: Any) -> Any:
    """``(index, kind, node)`` of every step; a light graph's steps give them without
    building the steps (:class:`vizgrad.tracing.stream.StreamSteps`)."""
    heads = getattr(steps, "heads", None)
    return heads() if heads is not None else heads_of(steps)


def contract_steps(G: Any, bx: _Boxes, emap: dict[Any, Any],
                   inside: bool) -> list[dict[str, Any]]:
    """The steps of ``G`` contracted into the boxes of ``bx`` (``emap``: original edge →
    collapsed edge); ``inside``: each member's backward step stays, as a step of its box."""
    steps = G.graph["steps"]
    box_of = bx.box_of
    fwd: dict[int, str] = {}
    firsts: dict[str, int] = {}
    at: dict[str, int] = {}
    pos, back, back_nodes, events = member_steps(steps, box_of, step_heads,
                                                 set().union(*bx.out_sets.values()))
    valueless = {b for b, a in bx.attrs.items() if a.get("kind") == "stub"}
    for b in bx.attrs:
        ops = [pos[o] for o in bx.outputs[b] if o in pos and b not in valueless]
        if ops:
            fwd[max(ops)] = b
            firsts[b] = min(ops)
            events.append((max(ops), "forward", bx.members[b][0]))
        outs = bx.out_sets[b]
        done = [i for i, n in zip(back.get(b, ()), back_nodes.get(b, ())) if n in outs]
        if back.get(b):
            at[b] = max(done) if done else min(back[b])
            if not inside:
                events.append((at[b], "backward", back_nodes[b][0]))
    vis: dict[str, float] = {}
    own_totals = getattr(steps, "totals", None)
    totals = own_totals(bx.inner) if own_totals is not None else totals_of(steps, bx.inner)
    out: list[dict[str, Any]] = []

    def emit(step: dict[str, Any], origin: int) -> None:
        out.append({"index": len(out), **{k: v for k, v in step.items() if k != "index"},
                    "from": origin})

    heads = list(step_heads(steps)) if inside else events
    # a step is built only where it is read; steps inside show each member's
    heads.sort(key=_in_order(bx, emap, fwd, firsts, heads, inside))
    for i, kind, n in heads:
        if kind == "inputs":
            s = steps[i]
            values = {n: v for n, v in s.get("values", {}).items() if n not in box_of}
            for b in bx.attrs:
                if b not in fwd.values() and b not in valueless:
                    values[b] = bx.value(b)
            emit({"kind": "inputs", "node": None, "values": values, "contributions": []}, i)
        elif kind == "forward":
            if n not in box_of:
                emit(steps[i], i)
            elif fwd.get(i) is not None:
                b = fwd[i]
                emit({"kind": "forward", "node": b, "value": bx.value(b), "contributions": []}, i)
        elif kind == "seed":
            s = steps[i]
            vis[s["node"]] = s["grad"]
            C = bx.of(s["node"])
            if C in bx.attrs:
                bx.shown[C] = s["grad"]
            emit({"kind": "seed", "node": C, "grad": bx.grad(C, vis), "contributions": []}, i)
        elif kind == "backward":
            C = bx.of(n)
            if n not in box_of or inside:
                mine = step_contributions(steps, [i], bx.inner)
                upstream, cs = _backward(mine, steps[i]["upstream"], C, bx, emap, vis, True,
                                         totals)
                extra = {"member": n} if C != n else {}
                emit({"kind": "backward", "node": C, "upstream": upstream, "contributions": cs,
                      **extra}, i)
            elif at.get(C) == i:
                mine = step_contributions(steps, back[C], bx.inner)
                upstream, cs = _backward(mine, None, C, bx, emap, vis, False, totals)
                emit({"kind": "backward", "node": C, "upstream": upstream, "contributions": cs,
                      "members": list(back_nodes[C])}, i)
    return out


_PHASE = {"inputs": 0, "forward": 1, "seed": 2, "backward": 3}


def _in_order(bx: _Boxes, emap: dict[Any, Any], fwd: dict[int, str], firsts: dict[str, int],
              heads: list[tuple[int, str, Any]], inside: bool) -> Any:
    """The sort key of the steps' heads that puts them in the chapter's topological order
    of the contracted graph: a box or value is computed after every box or value it reads
    (a box is computed where its first output is, not its last, so a value that reads its
    first sample's output comes after it), and with merged steps its gradient is sent
    back only after every box or value that reads it has sent it theirs."""
    import networkx as nx

    first = dict(firsts)  # a box: its first output's forward step
    for i, kind, n in heads:
        if kind == "forward" and n not in bx.box_of:
            first.setdefault(n, i)
    links = nx.DiGraph()
    links.add_nodes_from(first)
    links.add_edges_from((P, N) for P, N, _ in emap.values() if P != N)
    try:
        topo = {c: k for k, c in enumerate(nx.lexicographical_topological_sort(
            links, key=lambda c: (first.get(c, -1), str(c))))}
    except nx.NetworkXUnfeasible:  # a focus stub can hold values on both sides of one shown
        topo = {}

    def key(head: tuple[int, str, Any]) -> tuple[int, int, int]:
        i, kind, n = head
        if kind == "forward":
            C = fwd.get(i, bx.of(n)) if n in bx.box_of else n
            return (1, topo.get(C, i), i)
        if kind == "backward" and not inside:
            return (3, -topo.get(bx.of(n), -i), i)
        return (_PHASE.get(kind, 3), 0, i)
    return key
