"""A traced graph read straight from the trace's columns, for overviews of huge graphs.

A collapsed overview of a million values needs the graph's structure and its steps once,
in order; a ``networkx.MultiDiGraph`` of every value (about 1.5 kB each) and the dict of
every step would need gigabytes. :class:`LiteGraph` answers the part of networkx's API
that :mod:`vizgrad.graph.collapse` reads (nodes and their attributes, degrees, neighbours,
edges, ``graph``) from the compact trace (:mod:`vizgrad.tracing.records`), and its
``graph["steps"]`` builds each step's dict when it is read, one at a time. Collapsing it
runs the same code as collapsing the networkx graph, so the boxes and the steps are the
same; :meth:`LiteGraph.to_networkx` gives the full graph when one is needed::

    >>> from vizgrad import Value, to_networkx, trace
    >>> a = Value(3.0, label="a")
    >>> L = LiteGraph(trace(a * a + a))
    >>> list(L), L.nodes["v0"]["label"], list(L.successors("v0")), L.in_degree("v1")
    (['v0', 'v1', 'v2'], 'a', ['v1', 'v2'], 2)
    >>> [s["kind"] for s in L.graph["steps"]]
    ['inputs', 'forward', 'forward', 'seed', 'backward', 'backward']
    >>> G = to_networkx(a * a + a)
    >>> H = L.to_networkx()
    >>> dict(H.nodes(data=True)) == dict(G.nodes(data=True)), H.graph == G.graph
    (True, True)
"""

from __future__ import annotations

from array import array
from itertools import chain as _chain
from itertools import repeat as _repeat
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ..tracing.records import NODE_KEYS
from ..tracing.stream import StreamSteps
from ..tracing.recorder import FORMAT, Trace

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["ATTRS", "LiteGraph", "StreamSteps"]

#: a node's attributes, in the order :func:`vizgrad.to_networkx` stores them
ATTRS = NODE_KEYS[1:7] + NODE_KEYS[8:]


class _Node:
    """Node ``i`` of a :class:`LiteGraph`, read and written like networkx's attribute dict."""

    __slots__ = ("g", "i")

    def __init__(self, g: LiteGraph, i: int) -> None:
        self.g, self.i = g, i

    def __getitem__(self, key: str) -> Any:
        if key == "order":
            return self.i
        if key not in ATTRS:
            raise KeyError(key)
        return self.g._column(key)[self.i]

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in ATTRS else default

    def __setitem__(self, key: str, value: Any) -> None:
        if key not in ATTRS or key == "order":
            raise KeyError(f"a LiteGraph node keeps only {', '.join(ATTRS)}; got {key!r}")
        self.g._own(key)[self.i] = value

    def __contains__(self, key: object) -> bool:
        return key in ATTRS

    def keys(self) -> tuple[str, ...]:
        return ATTRS

    def __iter__(self) -> Iterator[str]:
        return iter(ATTRS)

    def items(self) -> list[tuple[str, Any]]:
        return [(k, self[k]) for k in ATTRS]

    def __eq__(self, other: object) -> bool:
        return dict(self.items()) == other

    __hash__ = None  # type: ignore[assignment]


class _Nodes:
    """``G.nodes`` of a :class:`LiteGraph`: ``G.nodes[n]`` and ``G.nodes(data=...)``."""

    __slots__ = ("g",)

    def __init__(self, g: LiteGraph) -> None:
        self.g = g

    def __getitem__(self, n: str) -> _Node:
        return _Node(self.g, self.g._ix[n])

    def __iter__(self) -> Iterator[str]:
        return iter(self.g._ids)

    def __len__(self) -> int:
        return len(self.g._ids)

    def __contains__(self, n: object) -> bool:
        return n in self.g._ix

    def __call__(self, data: Any = False, default: Any = None) -> Iterator[Any]:
        g = self.g
        if data is False:
            return iter(g._ids)
        if data is True:
            return ((n, _Node(g, i)) for i, n in enumerate(g._ids))
        if data == "order":
            return zip(g._ids, range(len(g._ids)))
        if data in ATTRS:
            return zip(g._ids, g._column(data))
        return ((n, default) for n in g._ids)


class LiteGraph:
    """The graph of a compact :class:`~vizgrad.tracing.recorder.Trace` (one made by
    :func:`vizgrad.trace`, whose steps were not read yet), without networkx.

    Node ids, attributes, edges (parent → child, keyed by slot) and ``graph`` are those
    :func:`vizgrad.to_networkx` gives; ``copy()`` shares all but the ``group`` column.
    """

    def __init__(self, t: Trace) -> None:
        compact = t.compact()
        if compact is None:
            raise ValueError("LiteGraph needs a compact trace, as vizgrad.trace() makes it")
        self.trace = t
        cols = compact[0]
        self._cols = cols
        self._ids: list[str] = cols.id
        self._ix: dict[str, int] = dict(zip(cols.id, range(len(cols.id))))
        self._own_cols: dict[str, list[Any]] = {}
        self._succ: tuple[array[int], array[int], array[int]] | None = None
        self._outs: array[int] | None = None
        self._flat: tuple[list[str], list[str], list[int]] | None = None
        self.graph: dict[str, Any] = {
            "format": FORMAT, "root": t.root, "also": list(t.also),
            "derivatives": t.derivatives, "backward_ran": t.backward_ran,
            "default_step": t.default_step, "steps": StreamSteps(t)}

    # -- columns -----------------------------------------------------------------------
    def _column(self, key: str) -> list[Any]:
        own = self._own_cols.get(key)
        return own if own is not None else getattr(self._cols, key)

    def _own(self, key: str) -> list[Any]:
        """The column ``key`` of this graph alone (a copy's writes leave the trace alone)."""
        if key not in self._own_cols:
            self._own_cols[key] = list(getattr(self._cols, key))
        return self._own_cols[key]

    def getter(self, key: str) -> Callable[[str], Any]:
        """A function node → its attribute ``key`` (``G.nodes[n].get(key)``), read off the
        column as it is now; :func:`vizgrad.graph.collapse.boxes.getter` uses it."""
        ix = self._ix
        if key == "order":
            return ix.__getitem__
        col = self._column(key) if key in ATTRS else None
        return (lambda n: col[ix[n]]) if col is not None else (lambda n: ix[n] and None)

    # -- networkx's API, as much as vizgrad.graph.collapse reads --------------------------------
    @property
    def nodes(self) -> _Nodes:
        return _Nodes(self)

    def number_of_nodes(self) -> int:
        return len(self._ids)

    def __len__(self) -> int:
        return len(self._ids)

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __contains__(self, n: object) -> bool:
        return n in self._ix

    def is_directed(self) -> bool:
        return True

    def is_multigraph(self) -> bool:
        return True

    def _parents(self, n: str) -> tuple[str, ...]:
        return self._cols.parents[self._ix[n]]

    def predecessors(self, n: str) -> Iterator[str]:
        return iter(dict.fromkeys(self._parents(n)))

    def _children(self) -> tuple[array[int], array[int], array[int]]:
        """Each node's (child, slot) edges, children in order: offsets, children, slots."""
        if self._succ is None:
            ix, parents = self._ix, self._cols.parents
            count = array("l", bytes(8 * (len(parents) + 1)))
            for ps in parents:
                for p in ps:
                    count[ix[p] + 1] += 1
            for i in range(1, len(count)):
                count[i] += count[i - 1]
            fill = array("l", count)
            kids = array("l", bytes(8 * count[-1]))
            slots = array("l", bytes(8 * count[-1]))
            for c, ps in enumerate(parents):
                for slot, p in enumerate(ps):
                    i = ix[p]
                    k = fill[i]
                    kids[k], slots[k] = c, slot
                    fill[i] = k + 1
            self._succ = (count, kids, slots)
        return self._succ

    def successors(self, n: str) -> Iterator[str]:
        start, kids, _ = self._children()
        i, ids = self._ix[n], self._ids
        return iter(dict.fromkeys(ids[c] for c in kids[start[i]:start[i + 1]]))

    def in_degree(self, n: str | None = None) -> Any:
        if n is not None:
            return len(self._parents(n))
        return zip(self._ids, map(len, self._cols.parents))

    def _out_counts(self) -> array[int]:
        """Each node's number of out-edges (of edges to its children)."""
        if self._outs is None and self._succ is not None:
            start = self._succ[0]
            self._outs = array("l", (start[i + 1] - start[i] for i in range(len(self._ids))))
        if self._outs is None:
            ix = self._ix
            counts = array("l", bytes(8 * len(self._ids)))
            for ps in self._cols.parents:
                for p in ps:
                    counts[ix[p]] += 1
            self._outs = counts
        return self._outs

    def out_degree(self, n: str | None = None) -> Any:
        counts = self._out_counts()
        return counts[self._ix[n]] if n is not None else zip(self._ids, counts)

    def edges(self, keys: bool = False, data: bool = False) -> Iterator[tuple[Any, ...]]:
        """Every edge parent → child (with its slot as key); children in order."""
        ids, parents = self._ids, self._cols.parents
        if data:
            return ((p, ids[c], s, {"slot": s}) if keys else (p, ids[c], {"slot": s})
                    for c, ps in enumerate(parents) for s, p in enumerate(ps))
        if keys:
            return ((p, ids[c], s) for c, ps in enumerate(parents) for s, p in enumerate(ps))
        return ((p, ids[c]) for c, ps in enumerate(parents) for p in ps)

    def edge_lists(self) -> tuple[list[str], list[str], list[int]]:
        """Every edge's parent, child and slot, as three lists in :meth:`edges` order (made
        once, shared with copies)."""
        if self._flat is None:
            parents = self._cols.parents
            sizes = list(map(len, parents))
            flat = _chain.from_iterable
            self._flat = (list(flat(parents)), list(flat(map(_repeat, self._ids, sizes))),
                          list(flat(map(range, sizes))))
        return self._flat

    def copy(self) -> LiteGraph:
        """The same graph; its ``group`` column and ``graph`` dict are its own."""
        other = LiteGraph.__new__(LiteGraph)
        other.__dict__.update(self.__dict__)
        other._own_cols = {k: list(v) for k, v in self._own_cols.items()}
        other._own("group")
        other.graph = dict(self.graph)
        return other

    def to_networkx(self) -> nx.MultiDiGraph:
        """The full ``networkx`` graph, as :func:`vizgrad.to_networkx` makes it."""
        import networkx as nx

        G = nx.MultiDiGraph()
        G.graph.update({**self.graph, "steps": self.trace._lazy_steps()})
        cols = [range(len(self._ids)) if k == "order" else self._column(k) for k in ATTRS]
        G.add_nodes_from((vid, dict(zip(ATTRS, row))) for vid, *row in zip(self._ids, *cols))
        G.add_edges_from(self.edges(keys=True, data=True))
        return G
