"""A graph's facts, frozen: what a drawing reads of a graph, with no networkx object inside.

:func:`facts_of` copies a graph's nodes with their attributes, its edges and its
``graph`` attributes (the steps included) into read-only mappings and tuples, once, when a
drawing is planned. :class:`GraphFacts` answers the part of networkx's reading API that
the scene, the captions and the writers use (``nodes``, ``graph``, ``in_edges``,
``edges``, ``successors``, ``predecessors``, degrees, ``G[u][v]``), in networkx's own
order, and nothing that changes it: the scene that holds it stays an immutable value::

    >>> from vizgrad import examples
    >>> G = examples.graph("fork")
    >>> F = facts_of(G)
    >>> F.nodes["v0"]["label"], list(F.successors("v0")), F.in_degree("v2")
    ('a', ['v2', 'v3'], 2)
    >>> list(F.in_edges("v2", keys=True)) == list(G.in_edges("v2", keys=True))
    True
    >>> F.nodes["v0"]["label"] = "b"
    Traceback (most recent call last):
        ...
    TypeError: 'mappingproxy' object does not support item assignment

The copy is one level deep: each node's attributes and each step are read-only mappings of
their own; the lists inside them (a step's contributions, a box's cells) are the trace's,
which no stage changes once a drawing is planned.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

__all__ = ["GraphFacts", "facts_of"]

_EMPTY: Mapping[str, Any] = MappingProxyType({})


class _Nodes:
    """The nodes of a :class:`GraphFacts`, read as networkx's ``G.nodes``."""

    __slots__ = ("_attrs",)

    def __init__(self, attrs: Mapping[str, Mapping[str, Any]]) -> None:
        object.__setattr__(self, "_attrs", attrs)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a graph's facts are read-only")

    def __getitem__(self, n: str) -> Mapping[str, Any]:
        return self._attrs[n]

    def __iter__(self) -> Iterator[str]:
        return iter(self._attrs)

    def __len__(self) -> int:
        return len(self._attrs)

    def __contains__(self, n: object) -> bool:
        return n in self._attrs

    def __call__(self, data: Any = False, default: Any = None) -> Iterator[Any]:
        if data is True:
            return iter(self._attrs.items())
        if data is False:
            return iter(self._attrs)
        return ((n, a.get(data, default)) for n, a in self._attrs.items())


class GraphFacts:
    """A graph's nodes, edges and ``graph`` attributes, read-only (see the module doc)."""

    __slots__ = ("nodes", "graph", "_succ", "_pred")

    nodes: _Nodes
    graph: Mapping[str, Any]

    def __init__(self, nodes: Mapping[str, Mapping[str, Any]], graph: Mapping[str, Any],
                 succ: Mapping[str, Mapping[str, tuple[Any, ...]]],
                 pred: Mapping[str, Mapping[str, tuple[Any, ...]]]) -> None:
        put = object.__setattr__
        put(self, "nodes", _Nodes(nodes))
        put(self, "graph", graph)
        put(self, "_succ", succ)
        put(self, "_pred", pred)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a graph's facts are read-only: cannot assign to {name!r}")

    def __iter__(self) -> Iterator[str]:
        return iter(self.nodes)

    def __len__(self) -> int:
        return len(self.nodes)

    def __contains__(self, n: object) -> bool:
        return n in self.nodes

    def __getitem__(self, u: str) -> Mapping[str, tuple[Any, ...]]:
        """``G[u]``: each successor of ``u`` with the keys of the edges to it."""
        return self._succ[u]

    def number_of_nodes(self) -> int:
        return len(self.nodes)

    def successors(self, n: str) -> Iterator[str]:
        return iter(self._succ[n])

    def predecessors(self, n: str) -> Iterator[str]:
        return iter(self._pred[n])

    def in_degree(self, n: str) -> int:
        return sum(len(keys) for keys in self._pred[n].values())

    def out_degree(self, n: str) -> int:
        return sum(len(keys) for keys in self._succ[n].values())

    def in_edges(self, n: str, keys: bool = False) -> Iterator[tuple[Any, ...]]:
        for u, ks in self._pred[n].items():
            for k in ks:
                yield (u, n, k) if keys else (u, n)

    def edges(self, keys: bool = False) -> Iterator[tuple[Any, ...]]:
        for u, nbrs in self._succ.items():
            for v, ks in nbrs.items():
                for k in ks:
                    yield (u, v, k) if keys else (u, v)


def _adjacency(adj: Any) -> Mapping[str, Mapping[str, tuple[Any, ...]]]:
    return MappingProxyType({n: MappingProxyType({m: tuple(ks) for m, ks in nbrs.items()})
                             if nbrs else _EMPTY for n, nbrs in adj.items()})


def facts_of(G: Any) -> GraphFacts:
    """The facts of ``G`` (a networkx graph, or facts already: returned as they are)."""
    if isinstance(G, GraphFacts):
        return G
    attrs = dict(G.graph)
    if "steps" in attrs:
        attrs["steps"] = tuple(MappingProxyType(dict(s)) for s in attrs["steps"])
    nodes = MappingProxyType({n: MappingProxyType(dict(a)) for n, a in G.nodes(data=True)})
    return GraphFacts(nodes, MappingProxyType(attrs), _adjacency(G.succ), _adjacency(G.pred))
