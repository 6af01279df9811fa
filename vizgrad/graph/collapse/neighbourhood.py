"""Focus on a neighbourhood: the nodes within a radius of one node, the rest as stubs.

    >>> import vizgrad
    >>> G = vizgrad.examples.graph("fork")
    >>> F = focus(G, G.graph["root"], radius=1)
    >>> sorted(F.nodes[s]["label"] for s in F if F.nodes[s]["kind"] == "stub")
    ['… 2 more']
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from .contract import contract
from .merge import finish
from ...exceptions import OptionError
from ..convert import as_graph

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["focus"]


def focus(x: Any, node: str, radius: int = 2) -> nx.MultiDiGraph:
    """The nodes within ``radius`` edges of ``node``; the rest as ``… N more`` stubs.

    Each hidden node joins the stub of the shown node it is nearest to (on the
    side it is reached from), so the stubs' ``hidden`` counts add up to every
    node left out.
    """
    G = as_graph(x)
    if not isinstance(node, str) or node not in G:
        raise OptionError(f"focus node {node!r} is not in this graph; node ids are "
                          f"{', '.join(list(G)[:3])}, … (the trace's ids, or a box's id)")
    if isinstance(radius, bool) or not isinstance(radius, int) or radius < 0:
        raise OptionError(f"radius must be a whole number ≥ 0, got {radius!r}")
    order = G.nodes

    def around(n: str) -> list[tuple[str, str]]:
        near = [(p, "in") for p in G.predecessors(n)] + [(s, "out") for s in G.successors(n)]
        return sorted(dict.fromkeys(near), key=lambda e: (order[e[0]]["order"], e[1]))

    dist = {node: 0}
    queue = deque([node])
    while queue:
        n = queue.popleft()
        if dist[n] < radius:
            for m, _ in around(n):
                if m not in dist:
                    dist[m] = dist[n] + 1
                    queue.append(m)
    stub_of: dict[str, tuple[str, str]] = {}
    for k in sorted(dist, key=lambda n: order[n]["order"]):
        for m, side in around(k):
            if m not in dist and m not in stub_of:
                stub_of[m] = (k, side)
                queue.append(m)
    for same_side in (True, False):  # first along the side a stub was reached from
        if not same_side:
            queue.extend(sorted(stub_of, key=lambda n: order[n]["order"]))
        while queue:
            n = queue.popleft()
            for m, side in around(n):
                if m not in dist and m not in stub_of and (
                        not same_side or side == stub_of[n][1]):
                    stub_of[m] = stub_of[n]
                    queue.append(m)
    for n in sorted(G, key=lambda n: order[n]["order"]):
        if n not in dist and n not in stub_of:
            stub_of[n] = ("", "apart")  # not connected to the shown part
    ids: dict[tuple[str, str], str] = {}
    for n in sorted(stub_of, key=lambda n: order[n]["order"]):
        ids.setdefault(stub_of[n], f"s{len(ids)}")
    box_of = {n: ids[stub_of[n]] for n in stub_of}
    sizes: dict[str, int] = {}
    for b in box_of.values():
        sizes[b] = sizes.get(b, 0) + 1
    boxes = {b: {"label": f"… {sizes[b]:,} more", "kind": "stub", "op": "…", "group": None,
                 "hidden": sizes[b]} for b in ids.values()}
    return finish(G, contract(G, box_of, boxes), "focus",
                   {"node": node, "radius": radius, "hidden": len(box_of)})
