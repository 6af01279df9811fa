"""Contract sets of nodes of a vizgrad graph into boxes, steps and all.

:func:`contract` is the engine behind :mod:`vizgrad.graph.collapse`: given which
nodes go into which box, it builds a new vizgrad graph whose steps replay to
the right state. Nodes outside every box keep their id and attributes.

- A box's value is the value of its output (a member used outside the box,
  the root, or a member nobody uses); with several outputs, their sum. Its
  grad is the sum of the contributions that reached it from outside (and the
  seed): its output's grad, unless the box also uses that output inside.
- Edges between a box and anything else are merged per pair of ends; the
  edge's ``count`` says how many original edges it stands for.
- A box's forward step comes with its last output's forward step. With
  ``steps="merge"`` its backward steps become one step, placed where its
  last output's own step was (every gradient into the box has arrived by
  then); with ``steps="inside"`` each member's step stays in place, as a step
  of the box. Contributions along a merged edge in one step are summed:
  ``amount`` is the exactly rounded sum (:func:`math.fsum`) of the members'
  amounts and ``count`` says how many; ``before``/``after`` are the target's
  shown grad, so :func:`vizgrad.tracing.recorder.replay` gives every step's state.
"""

from __future__ import annotations

import math
from itertools import compress, tee
from operator import itemgetter, not_
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import networkx as nx

from .boxes import Boxes as _Boxes
from .boxes import exact_sum as _sum
from .batch import grid_attrs, grid_cells, grid_step
from .cells import add_cell, box_cells, param_terms, per_sample, start_cells, upstream_of
from ..columns import getter, member_steps, namer
from ...tracing.records import contributions_of, heads_of, totals_of

__all__ = ["TERMS", "contract", "display_name"]

#: the most terms, one per sample, that a folded contribution states (``terms``): more would
#: not fit a caption line; past it the caption says how many it sums
TERMS = 8
_KEEP = ("label", "op", "kind", "data", "grad", "on_path", "order", "group")


def display_name(G: Any, n: str) -> str:
    """A node's label, its name (see :mod:`vizgrad.tracing.names`), a constant's value, else its id
    (as the renderers name it)."""
    return namer(G)(n)


def _edges(G: Any, bx: _Boxes) -> tuple[dict[tuple[str, str, int], tuple[str, str, int]],
                                         dict[tuple[str, str, int], int]]:
    """Original edge → collapsed edge (parent, child, key), and each collapsed edge's count."""
    entries: dict[str, dict[Any, tuple[int, int]]] = {}
    ident: dict[tuple[str, str, int], Any] = {}
    of, boxes, order = bx.box_of.get, bx.attrs, bx.rank
    for p, n, slot in bx.crossing:  # the edges inside a box are none of a collapsed edge's
        P, N = of(p, p), of(n, n)
        who = (P,) if (P in boxes or N in boxes) else (p, slot)
        rank = (order[n], slot)
        per = entries.get(N)
        if per is None:
            per = entries[N] = {}
        old = per.get(who)
        if old is None or rank < old:
            per[who] = rank
        ident[(p, n, slot)] = (P, N, who)
    keys = {N: {who: k for k, who in enumerate(sorted(per, key=per.__getitem__))}
            for N, per in entries.items()}
    emap: dict[tuple[str, str, int], tuple[str, str, int]] = {}
    count: dict[tuple[str, str, int], int] = {}
    for edge, (P, N, who) in ident.items():
        e = (P, N, keys[N][who])
        emap[edge] = e
        count[e] = count.get(e, 0) + 1
    return emap, count


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


def _contributions(steps: Any, indices: list[int], skip: Any = ()) -> Any:
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
    ``contribs`` (see :func:`_contributions`; those to a box's inner members, whose grads are
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
            grid_step(rec, got, vis, *grid_cells(bx, P), _selected(bx))
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


def _selected(bx: _Boxes) -> int | None:
    """The sample whose values the boxes show (``None``: all, or a graph of one)."""
    return bx.pick[1] if bx.pick is not None else None


def _heads(steps: Any) -> Any:
    """``(index, kind, node)`` of every step; a light graph's steps give them without
    building the steps (:class:`vizgrad.tracing.stream.StreamSteps`)."""
    heads = getattr(steps, "heads", None)
    return heads() if heads is not None else heads_of(steps)


def _steps(G: Any, bx: _Boxes, emap: dict[Any, Any], inside: bool) -> list[dict[str, Any]]:
    steps = G.graph["steps"]
    box_of = bx.box_of
    fwd: dict[int, str] = {}
    firsts: dict[str, int] = {}
    at: dict[str, int] = {}
    pos, back, back_nodes, events = member_steps(steps, box_of, _heads,
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

    heads = list(_heads(steps)) if inside else events
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
                mine = _contributions(steps, [i], bx.inner)
                upstream, cs = _backward(mine, steps[i]["upstream"], C, bx, emap, vis, True,
                                         totals)
                extra = {"member": n} if C != n else {}
                emit({"kind": "backward", "node": C, "upstream": upstream, "contributions": cs,
                      **extra}, i)
            elif at.get(C) == i:
                mine = _contributions(steps, back[C], bx.inner)
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


def contract(G: Any, box_of: dict[str, str], boxes: dict[str, dict[str, Any]], *,
             steps: str = "merge", info: dict[str, Any] | None = None,
             pick: tuple[dict[str, int], int | None] | None = None) -> nx.MultiDiGraph:
    """A new vizgrad graph with each box's members (``box_of``: node → box id) as one node.

    ``boxes`` gives each box's own attributes (``label``, ``kind``, ``op``,
    ``group`` ...); ``members``, ``size``, ``data``, ``grad``, ``on_path``,
    ``order``, ``outputs``, ``inputs`` and ``params`` are added here. ``pick``: each
    node's sample (:func:`vizgrad.graph.samples.samples`) and the sample whose values a box
    shows (``None``: the sum over all); a box then says which (``sample``, ``samples``).
    """
    import networkx as nx

    bx = _Boxes(G, box_of, boxes, pick)
    emap, count = _edges(G, bx)
    new_steps = _steps(G, bx, emap, steps == "inside")
    final: dict[str, float] = {}
    for s in new_steps:
        if s["kind"] == "seed":
            final[s["node"]] = s["grad"]
        for c in s.get("contributions", ()):
            final[c["target"]] = c["after"]
    nd = G.nodes
    rank = {n: bx.rank[n] for n in bx.rank.keys() - bx.box_of.keys()}  # (any order)
    rank.update((b, bx.rank[ms[-1]]) for b, ms in bx.members.items() if ms)  # its last
    nodes, degrees = tee(G.in_degree())
    leaf = set(compress(map(itemgetter(0), nodes), map(not_, map(itemgetter(1), degrees))))
    H = nx.MultiDiGraph()
    H.graph.update({k: v for k, v in G.graph.items() if k not in ("steps", "collapsed", "focus")})
    root = bx.of(G.graph["root"])
    also = [a for a in dict.fromkeys(bx.of(a) for a in G.graph.get("also", ())) if a != root]
    seed = next(s["index"] for s in new_steps if s["kind"] == "seed")
    H.graph.update(root=root, also=also, steps=new_steps,
                   default_step=len(new_steps) - 1 if G.graph.get("backward_ran", True)
                   else seed - 1)
    if info:
        H.graph.update(info)
    links = nx.DiGraph()  # boxes keep no cycle, but their ranks need not be topological
    links.add_nodes_from(rank)
    links.add_edges_from((P, N) for P, N, _ in count)
    try:
        placed = list(nx.lexicographical_topological_sort(links, key=lambda c: (rank[c], c)))
    except nx.NetworkXUnfeasible:  # a focus stub can hold values on both sides of one shown
        placed = sorted(rank, key=lambda c: (rank[c], c))
    named = namer(G, leaf)
    label, data, grad = getter(G, "label"), getter(G, "data"), getter(G, "grad")
    terms = param_terms(G, bx, leaf, named, _contributions, _heads) if bx.pick is not None else {}
    on_path = getter(G, "on_path", True)
    for k, c in enumerate(placed):
        if c not in bx.attrs:
            H.add_node(c, **{**nd[c], "order": k})
            continue
        ms = bx.members[c]
        ins = sorted(bx.feeds[c], key=bx.rank.__getitem__)
        leaves = list(filter(leaf.__contains__, ms))
        outs = bx.outs(c)
        H.add_node(c, **{
            "label": "", "op": "group", "group": None, **bx.attrs[c],
            "data": None if bx.attrs[c].get("kind") == "stub" else bx.value(c),
            "grad": final.get(c),
            "on_path": any(map(on_path, ms)), "order": k,
            "members": ms, "size": len(ms), **bx.sample_attrs(c),
            "outputs": [[named(o), data(o), grad(o)] for o in outs],
            "inputs": [[bx.attrs[bx.of(p)]["label"] if p in bx.box_of else named(p), grad(p)]
                       for p in ins]
            + [[named(m), grad(m)] for m in leaves if not label(m)],
            "params": [[str(label(m)), grad(m)] for m in leaves if label(m)],
            "param_data": [[str(label(m)), data(m)] for m in leaves if label(m)],
            **box_cells(bx, c, named, data, grad, terms),
            **(grid_attrs(G, ms, _selected(bx)) if c in bx.grids else {}),
        })
    for (P, N, key), n in sorted(count.items(), key=lambda e: (H.nodes[e[0][1]]["order"],
                                                               e[0][2])):
        H.add_edge(P, N, key, slot=key, count=n)
    return H
