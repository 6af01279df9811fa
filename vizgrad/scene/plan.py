"""The drawing plan: what a graph's picture needs before its layout, read once, frozen.

The second stage of a drawing (the entry turns a Value into a graph; then this plan; then
the layout, :mod:`vizgrad.scene.layout`; then the :class:`~vizgrad.scene.scene.Scene`).
:func:`plan` reads a graph and the options into a :class:`Plan`: the graph's facts
(:class:`~vizgrad.graph.facts.GraphFacts`: nodes, edges, steps, read-only), the drawing
order, each edge's label text, a group box's parameter and input rows, every box sized for
the widest text it shows in any step, and the DOT Graphviz lays out. It runs nothing and
writes nothing, and it holds no networkx graph::

    >>> from vizgrad import examples
    >>> p = plan(examples.graph("fork"))
    >>> p.order[:3], p.last, p.edge_texts[("v0", "v2", 0)]
    (('v0', 'v1', 'v2'), 7, '3 × 1 = 3')
    >>> p.dot.startswith("digraph")
    True
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from types import MappingProxyType
from typing import Any, Iterator, Mapping

from ..exceptions import NotAGraphError
from ..graph.facts import GraphFacts, facts_of
from ..style.presets import Preset
from ..style.theme import Theme
from ..tracing.names import unchanged
from ..tracing.recorder import State, replay, states
from . import dot as _dot
from .contributions import Contributions, final_state
from .groups import input_rows, note_lines, param_rows, params_step
from .layout import geometry as gm
from .parts import Settings, kind, settings
from .matrix import matrices as layer_matrices
from .shapes import ROW, badge_width

__all__ = ["Plan", "label_nodes", "plan", "require_graph", "turned"]

Edge = tuple[str, str, int]
Size = tuple[float, float]


def require_graph(x: Any, where: str) -> None:
    """Raise :class:`~vizgrad.exceptions.NotAGraphError` unless ``x`` is a traced graph (from
    :func:`vizgrad.to_networkx`): a Value or a Trace is traced at the entry, not here."""
    if not isinstance(x, GraphFacts) and hasattr(x, "in_edges") and hasattr(x, "graph") \
            and "steps" in x.graph:
        return
    what = type(x).__name__
    raise NotAGraphError(
        f"{where} takes a graph, not a {what}: call vizgrad.to_networkx(vizgrad.trace(v)) "
        f"first, or draw it with vizgrad.draw(v) (or player_html, show), which trace it")


@dataclass(frozen=True, eq=False, repr=False)
class Plan(Settings):
    """Everything a graph's picture needs before its layout (see the module doc): read-only,
    its fields tuples, frozensets and read-only mappings."""

    #: the graph's nodes, edges and steps, read-only
    facts: GraphFacts
    #: the nodes in drawing order, and the last step
    order: tuple[str, ...]
    last: int
    #: a collapsed graph: edge labels give the contribution alone, and lie closer
    collapsed: bool
    contributions: Contributions
    #: the grad colour scale
    scale: float
    #: a group box's parameter rows (label, final grad), and the step they arrive
    params: Mapping[str, tuple[tuple[str, float | None], ...]]
    params_done: Mapping[str, int]
    #: a layer box's parameters as a matrix, and its grid (:mod:`vizgrad.scene.matrix`)
    matrices: Mapping[str, Any]
    #: every operand edge with its label text (``None``: no label)
    edge_texts: Mapping[Edge, str | None]
    #: edges between two boxes: their contribution is a row of the head box, not a label
    inrows: Mapping[str, tuple[tuple[Edge, tuple[str, str]], ...]]
    box_sizes: Mapping[str, Size]
    op_sizes: Mapping[str, Size]
    #: the longest path to an output, per node
    to_output: Mapping[str, int]
    #: edges drawn straight, outside the layout
    free: frozenset[Edge]
    #: the layout's input but the box sizes (a group opened in place resizes its box)
    dot_parts: Mapping[str, Any]
    dot: str
    #: the caption lines that say what was collapsed, focused or merged
    notes: tuple[str, ...]
    badge_width: float

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {len(self.facts):,} nodes, {self.last + 1:,} steps>"

    def kind(self, n: str) -> str:
        return kind(self.facts, n)

    @property
    def steps(self) -> tuple[Mapping[str, Any], ...]:
        """The graph's steps, read-only."""
        return tuple(self.facts.graph["steps"])

    def state(self, k: int | None) -> State:
        """The state after step ``k``; ``None`` is the final view."""
        if k is None:
            return final_state(self.facts)
        return replay(self.facts.graph["steps"], k)

    def states(self) -> Iterator[State]:
        """The state after each step, in order (cheaper than :meth:`state` per step)."""
        return states(self.facts.graph["steps"])


def plan(G: Any, *, preset: str | Preset = "docs", theme: str | Theme = "light",
         rankdir: str = "LR", decimals: int | None = None, trim: bool | None = None,
         lang: str | None = None, caption: bool = True, legend: bool = True,
         scale: float | None = None, dense: bool = False) -> Plan:
    """The :class:`Plan` of graph ``G`` (from :func:`vizgrad.to_networkx`) drawn with these
    options: ``preset``, ``theme``, ``rankdir`` (``"LR"`` or ``"TB"``), ``decimals``,
    ``trim``, ``lang``, ``caption``, ``legend``; ``scale``: the grad colour scale (default:
    the graph's own; a page whose views open groups gives them all one); ``dense``: on
    slides, layer matrices too wide to print at 14 pt compact
    (:func:`vizgrad.scene.matrix.grid`)."""
    require_graph(G, "a drawing's plan")
    s = settings(preset=preset, theme=theme, rankdir=rankdir, decimals=decimals, trim=trim,
                 lang=lang, caption=caption, legend=legend)
    F = facts_of(G)
    order = tuple(sorted(F, key=lambda n: (F.nodes[n].get("order", 0), str(n))))
    collapsed = "collapsed" in F.graph
    with unchanged(F):  # names and operands worked out once
        contributions = Contributions.of(G)  # its final check re-evaluates the graph
        matrices = MappingProxyType(layer_matrices(F, order, s, s.preset.font * ROW,
                                                        dense))
        params = MappingProxyType({n: tuple(rows) for n in order if n not in matrices
                                   and (rows := param_rows(F, n, s.word))})
        texts = _dot.edge_texts(F, order, contributions.by_edge, collapsed, s)
        inrows = input_rows(F, texts, contributions.by_edge, s)
        for rows in inrows.values():
            for e, _ in rows:
                texts[e] = None
        for (u, v, slot) in texts:  # a net's input read by every neuron of a layer:
            if F.nodes[u].get("members") and F.nodes[v].get("kind") == "group":
                texts[(u, v, slot)] = None  # its grad is written on the input
        frozen_rows = MappingProxyType({n: tuple(r) for n, r in inrows.items()})
        boxes = MappingProxyType(_dot.box_sizes(F, order, s, params, frozen_rows, matrices))
        ops = MappingProxyType(_dot.op_sizes(F, order, s.preset))
        to_output = MappingProxyType(_dot.heights(F, order))
        free = frozenset(_dot.free_edges(to_output, texts, order))
        parts = _dot.dot_parts(F, s, order, collapsed, texts, to_output, ops, free)
        notes = tuple(note_lines(F, s.word))
    return Plan(**{f.name: getattr(s, f.name) for f in fields(Settings)},
                facts=F, order=order, last=len(F.graph["steps"]) - 1, collapsed=collapsed,
                contributions=contributions,  # one colour scale for every view, if given
                scale=contributions.scale if scale is None else float(scale),
                params=params, params_done=MappingProxyType(params_step(F)), matrices=matrices,
                edge_texts=MappingProxyType(texts), inrows=frozen_rows, box_sizes=boxes,
                op_sizes=ops, to_output=to_output, free=free,
                dot_parts=MappingProxyType(parts),
                dot=gm.layout_dot(dict(boxes), dict(ops), **parts), notes=notes,
                badge_width=badge_width(s.preset, s.word))


def turned(p: Plan, rankdir: str) -> Plan:
    """``p`` drawn in direction ``rankdir``: the same texts and sizes (none depends on the
    direction), the DOT written again; the graph is not read a second time.

    >>> from vizgrad import examples
    >>> G = examples.graph("fork")
    >>> turned(plan(G), "TB").dot == plan(G, rankdir="TB").dot
    True
    """
    s = settings(preset=p.preset, theme=p.theme, rankdir=rankdir, decimals=p.decimals,
                 trim=p.trim, lang=p.lang, caption=p.caption, legend=p.legend)
    parts = {**p.dot_parts, "rankdir": s.rankdir}
    if s.rankdir != "LR":  # top to bottom, Graphviz lays the labels out (see dot_parts)
        parts.pop("joined", None)
    return _redrawn(p, parts, rankdir=s.rankdir)


def label_nodes(p: Plan) -> Plan:
    """``p`` with its edge labels laid out by Graphviz, a node each, when its DOT had none
    (``joined``, past :data:`~vizgrad.scene.labels.MANY_LABELS`) and they would crowd each
    other in the gaps between ranks (:func:`~vizgrad.scene.edges.label_spots`)."""
    return _redrawn(p, {k: v for k, v in p.dot_parts.items() if k != "joined"})


def _redrawn(p: Plan, parts: dict[str, Any], **fields: Any) -> Plan:
    """``p`` with these DOT parts (and ``fields``), its DOT written again from them."""
    return replace(p, dot_parts=MappingProxyType(parts), **fields,
                   dot=gm.layout_dot(dict(p.box_sizes), dict(p.op_sizes), **parts))
