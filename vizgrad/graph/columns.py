"""A graph's attributes and edges read a column at a time, for transforms of huge graphs.

:mod:`vizgrad.graph.collapse` runs on networkx graphs and on :class:`vizgrad.graph.lite.LiteGraph`
alike; these helpers read what it needs in one sweep (a light graph straight off its
trace's columns), so that a million values cost a few passes in C, not a Python call
per node::

    >>> import vizgrad
    >>> G = vizgrad.examples.graph("fork")
    >>> ps, cs, slots = edge_lists(G)
    >>> list(zip(ps, cs, slots)) == list(G.edges(keys=True))
    True
    >>> distinct(G, "kind") == {k for _, k in G.nodes(data="kind")}
    True
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress, groupby, repeat
from operator import is_, is_not, itemgetter, not_
from typing import Any

__all__ = ["children", "distinct", "edge_lists", "getter", "in_order", "member_steps", "namer"]


def getter(G: Any, key: str, default: Any = None) -> Callable[[str], Any]:
    """A function node → its attribute ``key`` (``default`` when it has none); a light graph
    reads it off its column (:meth:`vizgrad.graph.lite.LiteGraph.getter`).

    >>> import vizgrad
    >>> G = vizgrad.examples.graph("fork")
    >>> getter(G, "label")(G.graph["root"]) == G.nodes[G.graph["root"]].get("label")
    True
    """
    own = getattr(G, "getter", None)
    if own is not None:
        return own(key)  # type: ignore[no-any-return]
    nd = G.nodes
    return lambda n: nd[n].get(key, default)


def in_order(G: Any, key: str) -> list[tuple[str, Any]]:
    """``(node, attribute key)`` of every node, in the graph's ``order``.

    >>> import vizgrad
    >>> G = vizgrad.examples.graph("fork")
    >>> [n for n, _ in in_order(G, "op")] == sorted(G, key=lambda n: G.nodes[n]["order"])
    True
    """
    pairs = list(G.nodes(data=key))
    orders = list(map(itemgetter(1), G.nodes(data="order")))
    if orders == list(range(len(orders))):  # the nodes were added in order (the usual case)
        return pairs
    return [pairs[i] for i in sorted(range(len(pairs)), key=orders.__getitem__)]


def distinct(G: Any, key: str) -> set[Any]:
    """The values the nodes' attribute ``key`` takes."""
    return set(map(itemgetter(1), G.nodes(data=key)))


def edge_lists(G: Any) -> tuple[list[str], list[str], list[int]]:
    """Every edge's parent, child and key (slot), as three lists in ``G.edges`` order; a
    light graph gives them off its columns (:meth:`vizgrad.graph.lite.LiteGraph.edge_lists`)."""
    own = getattr(G, "edge_lists", None)
    if own is not None:
        return own()  # type: ignore[no-any-return]
    edges = list(G.edges(keys=True))
    return (list(map(itemgetter(0), edges)), list(map(itemgetter(1), edges)),
            list(map(itemgetter(2), edges)))


def children(G: Any, nodes: set[str]) -> dict[str, list[str]]:
    """The children of each of ``nodes`` that has any (a light graph finds them in one sweep
    over its edges, not a lookup per node).

    >>> import vizgrad
    >>> G = vizgrad.examples.graph("fork")
    >>> kids = children(G, set(G))
    >>> all(set(kids.get(n, ())) == set(G.successors(n)) for n in G)
    True
    """
    if getattr(G, "edge_lists", None) is None:
        return {n: list(G.successors(n)) for n in nodes if G.out_degree(n)}
    ps, cs, _ = edge_lists(G)
    out: dict[str, list[str]] = {}
    for p, c in compress(zip(ps, cs), map(nodes.__contains__, ps)):
        got = out.get(p)
        if got is None:
            out[p] = [c]
        else:
            got.append(c)
    return out


def namer(G: Any, leaves: set[str] | None = None) -> Callable[[str], str]:
    """A function node → its name as the renderers show it
    (:func:`.collapse.contract.display_name`), the attributes looked up once; ``leaves``:
    the nodes without parents, if known.

    >>> import vizgrad
    >>> G = vizgrad.examples.graph("fork")
    >>> sorted(map(namer(G), G))[:2]
    ['a', 'b']
    """
    label, name, kind, data = (getter(G, k) for k in ("label", "name", "kind", "data"))

    def named(n: str) -> str:
        got = label(n)
        if got:
            return str(got)
        got = name(n)
        if got:
            return str(got)
        if (not G.in_degree(n) if leaves is None else n in leaves) and \
                kind(n) in ("const", "input"):
            return f"{data(n):g}"
        return str(n)
    return named


def member_steps(steps: Any, box_of: dict[str, str], heads: Callable[[Any], Any],
                 outputs: set[str]) -> tuple[
        dict[str, int], dict[str, list[int]], dict[str, list[str]], list[tuple[int, str, Any]]]:
    """Of the steps whose ``(index, kind, node)`` ``heads(steps)`` gives: the forward step of
    each of the boxes' ``outputs``, each box's backward steps and their nodes, and the other
    steps' heads
    (what :func:`.collapse.contract.contract` replays); a light graph's steps give their
    nodes in bulk (:meth:`vizgrad.tracing.stream.StreamSteps.head_lists`).

    >>> import vizgrad
    >>> steps = vizgrad.trace(vizgrad.Value(2.0) * 3).steps
    >>> pos, back, _, events = member_steps(steps, {"v2": "g0"}, lambda s: (
    ...     (x["index"], x["kind"], x["node"]) for x in s), {"v2"})
    >>> pos, back, [kind for _, kind, _ in events]
    ({'v2': 1}, {'g0': [3]}, ['inputs', 'seed'])
    """
    pos: dict[str, int] = {}
    back: dict[str, list[int]] = {}
    back_nodes: dict[str, list[str]] = {}
    events: list[tuple[int, str, Any]] = []  # the heads that are not a member's own step
    lists = getattr(steps, "head_lists", None)
    split = lists() if lists is not None else None
    if split is None:
        for i, kind, n in heads(steps):  # one pass over the steps' heads, none built
            b = box_of.get(n)
            if b is None or kind not in ("forward", "backward"):
                events.append((i, kind, n))
            elif kind == "forward":
                if n in outputs:
                    pos[n] = i
            elif b in back:
                back[b].append(i)
                back_nodes[b].append(n)
            else:
                back[b], back_nodes[b] = [i], [n]
        return pos, back, back_nodes, events
    forward, root, backward = split  # steps 1 … F, F + 1 (the seed), F + 2 …
    ahead = range(1, len(forward) + 1)
    pos.update(compress(zip(forward, ahead), map(outputs.__contains__, forward)))
    events.append((0, "inputs", None))
    events.extend(compress(zip(ahead, repeat("forward"), forward),
                           map(not_, map(box_of.__contains__, forward))))
    events.append((len(forward) + 1, "seed", root))
    after = range(len(forward) + 2, len(forward) + 2 + len(backward))
    boxes = list(map(box_of.get, backward))
    events.extend(compress(zip(after, repeat("backward"), backward),
                           map(is_, boxes, repeat(None))))
    for b, run in groupby(compress(zip(boxes, after, backward), map(is_not, boxes,
                                                                    repeat(None))),
                          key=itemgetter(0)):  # a box's steps in a row
        got = list(run)
        idx, nodes = list(map(itemgetter(1), got)), list(map(itemgetter(2), got))
        if b in back:
            back[b] += idx
            back_nodes[b] += nodes
        else:
            back[b], back_nodes[b] = idx, nodes
    return pos, back, back_nodes, events
