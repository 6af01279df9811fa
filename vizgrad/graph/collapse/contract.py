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
Those steps are built in :mod:`vizgrad.graph.collapse.steps`.
"""

from __future__ import annotations

from itertools import compress, tee
from operator import itemgetter, not_
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import networkx as nx

from .boxes import Boxes as _Boxes
from .batch import grid_attrs
from .cells import box_cells, param_terms
from .steps import TERMS, contract_steps, selected_sample, step_contributions, step_heads
from ..columns import getter, namer

__all__ = ["TERMS", "contract", "display_name"]

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
    new_steps = contract_steps(G, bx, emap, steps == "inside")
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
    terms = (param_terms(G, bx, leaf, named, step_contributions, step_heads)
             if bx.pick is not None else {})
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
            **(grid_attrs(G, ms, selected_sample(bx)) if c in bx.grids else {}),
        })
    for (P, N, key), n in sorted(count.items(), key=lambda e: (H.nodes[e[0][1]]["order"],
                                                               e[0][2])):
        H.add_edge(P, N, key, slot=key, count=n)
    return H
