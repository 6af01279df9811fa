"""The scene: every shape of a drawing, placed once from one layout, for every step.

A :class:`Scene` sizes each box for the widest text it shows in any step
(:mod:`._dot`), runs Graphviz once (:mod:`vizgrad.scene.layout.geometry`), wraps the
caption and legend lines (:mod:`._captions`) and places every shape: value boxes, op
circles, edges, arrowheads, edge labels, the caption block and the legend. Built once,
it is read-only data. Shapes never move; :meth:`Scene.look` says what each one shows
after a step (texts, colours, visibility), so every medium (SVG, frames, player, lab)
draws the same picture::

    >>> from vizgrad import examples
    >>> scene = Scene(examples.graph("fork"))
    >>> scene.look(7)["t-v0-grad"]["text"], scene.look(None)["t-v0-grad"]["text"]
    ('−3', '−3')
    >>> scene.look(0)["t-v2-data"]["text"], scene.look(0)["t-v0-grad"]["text"]
    ('pending', '—')
    >>> scene.size == Scene(examples.graph("fork")).size
    True
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Iterator, Mapping

from ..tracing.names import unchanged
from ..exceptions import OptionError
from ..graph.convert import as_graph
from ..i18n import resolve, t
from ..tracing.recorder import State, replay, states
from . import captions as cap
from . import dot as _dot
from .layout import geometry as gm
from ..style import text as tx
from .groups import input_rows, note_lines, param_rows, params_step
from .looks import Contributions, Looks, final_state
from .matrix import matrices
from ..style.metrics import width
from .shapes import ROW as _ROW
from .shapes import Shape, place_caption, place_edges, place_legend, place_nodes
from .layout.run import DEFAULT_TIMEOUT, run_layout
from ..style.presets import Preset
from ..style.presets import get as get_preset
from ..style.theme import Theme
from ..style.theme import get as get_theme

__all__ = ["RANKDIRS", "SLIDE_WIDTH", "TURN_NODES", "Scene", "Shape", "fits", "make_scene",
           "readable", "smallest_size", "smallest_text"]

RANKDIRS = ("LR", "TB")
#: the width of a slide, in points, that the ``slides`` preset fits
SLIDE_WIDTH = 960.0

Edge = tuple[str, str, int]
Size = tuple[float, float]


def _frozen(d: dict[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(d)


@dataclass(frozen=True, eq=False, repr=False, init=False)
class Scene:
    """Every shape of a graph's drawing and its look after each step; see the module doc.

    Built once, then read-only: its fields are tuples and read-only mappings, and
    assigning one raises :class:`dataclasses.FrozenInstanceError`.

    Args:
        x: a graph from :func:`vizgrad.to_networkx` (a Value or Trace is converted).
        preset: ``"docs"``, ``"slides"`` or ``"compact"`` (sizes and number style).
        theme: ``"light"`` or ``"dark"``.
        rankdir: ``"LR"`` or ``"TB"``.
        decimals: digits after the point (default: the preset's).
        trim: drop trailing zeros (default: the preset's).
        lang: language of the words (default: ``$VIZGRAD_LANG``, else English).
        caption: draw the caption and chain-rule block on top.
        legend: draw the legend at the bottom.
        scale: the grad colour scale (default: this graph's own); a page whose views
            open groups gives them all one.
    """

    # -- the options and the graph
    graph: Any
    preset: Preset
    theme: Theme
    rankdir: str
    decimals: int
    trim: bool
    lang: str
    caption: bool
    legend: bool
    #: the nodes in drawing order, and the last step
    order: tuple[str, ...]
    last: int
    #: a collapsed graph: edge labels give the contribution alone, and lie closer
    collapsed: bool
    # -- the text slots, read from the steps
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
    # -- the layout
    box_sizes: Mapping[str, Size]
    op_sizes: Mapping[str, Size]
    #: the longest path to an output, per node
    to_output: Mapping[str, int]
    #: edges drawn straight, outside the layout
    free: frozenset[Edge]
    #: the layout's input but the box sizes (a group opened in place resizes its box)
    dot_parts: Mapping[str, Any]
    dot: str
    # -- the words around the graph
    notes: tuple[str, ...]
    badge_width: float
    #: the width caption and legend lines wrap to
    wrap_at: float
    #: each node's place in the picture's reading order
    reading: Mapping[str, tuple[float, float]]
    #: each step's caption lines as drawn (``None``: the final view); empty without a caption
    captions: Mapping[int | None, tuple[str, ...]]
    #: the caption rows every step has room for
    caption_rows: int
    legend_rows: tuple[str, ...]
    # -- the shapes
    width: float
    height: float
    graph_box: tuple[float, float, float, float]
    shapes: tuple[Shape, ...]
    ids: frozenset[str]
    looks: Looks

    def __init__(self, x: Any, *, preset: str | Preset = "docs", theme: str | Theme = "light",
                 rankdir: str = "LR", decimals: int | None = None, trim: bool | None = None,
                 lang: str | None = None, caption: bool = True, legend: bool = True,
                 backend: str | None = None, timeout: float = DEFAULT_TIMEOUT,
                 scale: float | None = None) -> None:
        put = self._put
        G = as_graph(x)
        p = get_preset(preset)
        if rankdir not in RANKDIRS:
            raise OptionError(f"rankdir must be one of {list(RANKDIRS)}, got {rankdir!r}")
        d = p.decimals if decimals is None else decimals
        if isinstance(d, bool) or not isinstance(d, int) or not 0 <= d <= 12:
            raise OptionError(f"decimals must be a whole number from 0 to 12, got {decimals!r}")
        put(graph=G, preset=p, theme=get_theme(theme), rankdir=rankdir, decimals=d,
            trim=p.trim if trim is None else bool(trim), lang=resolve(lang),
            caption=bool(caption), legend=bool(legend),
            order=tuple(sorted(G.nodes, key=lambda n: (G.nodes[n].get("order", 0), str(n)))),
            last=len(G.graph["steps"]) - 1, collapsed="collapsed" in G.graph)
        with unchanged(G):  # names and operands worked out once, for every step's caption
            self._build(G, scale, backend, timeout)

    def _build(self, G: Any, scale: float | None, backend: str | None, timeout: float) -> None:
        """Set what the steps and the layout give, once: texts, sizes, DOT, shapes, looks."""
        put = self._put
        contributions = Contributions.of(G)
        put(contributions=contributions,  # one colour scale for every view of a page, if given
            scale=contributions.scale if scale is None else float(scale),
            matrices=_frozen(matrices(self, self.preset.font * _ROW)))
        put(params=_frozen({n: tuple(rows) for n in self.order if n not in self.matrices
                            and (rows := param_rows(self, n))}),
            params_done=_frozen(params_step(G)))
        texts = _dot.edge_texts(self)
        put(edge_texts=texts)
        inrows = input_rows(self)
        for rows in inrows.values():
            for e, _ in rows:
                texts[e] = None
        for (u, v, slot) in texts:  # a net's input read by every neuron of a layer:
            if G.nodes[u].get("members") and G.nodes[v].get("kind") == "group":
                texts[(u, v, slot)] = None  # its grad is written on the input
        put(edge_texts=_frozen(texts), inrows=_frozen({n: tuple(r) for n, r in inrows.items()}))
        put(box_sizes=_frozen(_dot.box_sizes(self)), op_sizes=_frozen(_dot.op_sizes(self)),
            to_output=_frozen(_dot.heights(G, self.order)))
        put(free=frozenset(_dot.free_edges(self)))
        parts = _dot.dot_parts(self, self.op_sizes, self.free)
        put(dot_parts=_frozen(parts), dot=gm.layout_dot(dict(self.box_sizes), dict(self.op_sizes),
                                                        **parts))
        self._place(self._geometry(backend, timeout))
        put(looks=Looks(self))

    def _geometry(self, backend: str | None, timeout: float) -> gm.Geometry:
        """Where Graphviz puts every box, op circle and edge of :attr:`dot`."""
        # json0: the positions without Graphviz's drawing operations (a third of json)
        return gm.parse(run_layout(self.dot, "json0", backend, timeout))

    def _put(self, **fields: Any) -> None:
        """Set fields while the scene is built (the only writes it ever takes)."""
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    # -- numbers and words -------------------------------------------------------
    def num(self, x: float | None, missing: str = tx.NOT_REACHED) -> str:
        return tx.fmt(x, self.decimals, missing, self.trim)

    def word(self, key: str, **values: Any) -> str:
        return t(key, self.lang, **values)

    def kind(self, n: str) -> str:
        kind = self.graph.nodes[n].get("kind")
        if kind in ("input", "const", "op", "output", "group", "stub"):
            return str(kind)
        return "op" if self.graph.in_degree(n) else "input"

    @property
    def size(self) -> tuple[float, float]:
        """The picture's width and height in points."""
        return self.width, self.height

    def state(self, k: int | None) -> State:
        """The state after step ``k``; ``None`` is the final view."""
        if k is None:
            return final_state(self.graph)
        return replay(self.graph.graph["steps"], k)

    def states(self) -> Iterator[State]:
        """The state after each step, in order (cheaper than :meth:`state` per step)."""
        return states(self.graph.graph["steps"])

    def look(self, k: int | None, state: State | None = None) -> dict[str, dict[str, str]]:
        """What every dynamic shape shows after step ``k`` (``None``: the final view)."""
        with unchanged(self.graph):
            return self.looks.all(k, self.state(k) if state is None else state)

    # -- caption and legend --------------------------------------------------------
    def caption_texts(self, k: int | None) -> list[str]:
        """The caption and chain-rule lines of step ``k`` (``None``: final view), unwrapped."""
        return cap.caption_texts(self, k)

    def caption_lines(self, k: int | None) -> list[str]:
        """:meth:`caption_texts` as drawn: long lines wrap before an ``=``."""
        lines = self.captions.get(k)
        return list(lines) if lines is not None else cap.wrap_caption(self, k)

    def legend_texts(self) -> list[str]:
        return cap.legend_texts(self)

    def legend_lines(self) -> list[str]:
        """:meth:`legend_texts` as drawn: wrapped between words to the caption's width."""
        return list(self.legend_rows)

    # -- placing shapes ----------------------------------------------------------------
    def _place(self, geo: gm.Geometry) -> None:
        p, put = self.preset, self._put
        margin = p.font
        c = p.caption
        wrap_at = max(geo.width, 40 * c)
        if p.fit is not None and p.fit[1] is not None:  # a slide: wrap to one page's width
            wrap_at = min(wrap_at, p.fit[0] * smallest_size(p) / p.fit[2] - 2 * margin)
        # the picture's reading order: top to bottom (LR), left to right (TB)
        along = (lambda b: (b[1], b[0])) if self.rankdir == "LR" else (lambda b: (b[0], b[1]))
        put(wrap_at=wrap_at, reading=_frozen({n: along(b) for n, b in geo.nodes.items()}),
            notes=tuple(note_lines(self)), badge_width=cap.badge_width(p, self.word))
        cap_w = 0.0
        captions: dict[int | None, tuple[str, ...]] = {}
        if self.caption:
            for k in [*range(self.last + 1), None]:
                lines = captions[k] = tuple(cap.wrap_caption(self, k))
                cap_w = max([cap_w, width(lines[0], c, True)] + [width(x, c) for x in lines[1:]])
            cap_w += self.badge_width + c
        rows = max((len(lines) for lines in captions.values()), default=0)
        put(captions=_frozen(captions), caption_rows=rows)
        cap_h = rows * c * 1.45
        leg = tuple(piece for line in cap.legend_texts(self)
                    for piece in cap.wrap(line, wrap_at, p.legend, " "))
        leg_h = len(leg) * p.legend * 1.45
        inner_w = max(geo.width, cap_w, *(width(s, p.legend) for s in leg))
        top = margin + cap_h + (p.caption * 0.6 if cap_h else 0)
        put(legend_rows=leg, width=round(inner_w + 2 * margin, 2),
            height=round(top + geo.height + (p.legend * 0.8 + leg_h if leg else 0) + margin, 2),
            graph_box=(margin + (inner_w - geo.width) / 2, top, geo.width, geo.height))
        dx, dy = self.graph_box[:2]
        shapes = place_caption(self, margin, margin) if self.caption else []
        shapes += place_edges(self, geo, dx, dy)
        shapes += place_nodes(self, geo, dx, dy)
        if leg:
            shapes += place_legend(self, margin, self.height - margin - leg_h, leg)
        put(shapes=tuple(shapes), ids=frozenset(s.id for s in shapes))


def smallest_size(p: Preset) -> float:
    """The smallest text a preset draws, in points: row labels, constants, edge labels,
    the phase badge, the legend, a long op glyph."""
    return min(p.font * _ROW, p.font * 0.9, p.label, p.caption * _ROW, p.legend, p.op * 0.8)


def smallest_text(scene: Scene, fit_width: float | None = None) -> float:
    """The smallest font size in the scene, in points, scaled down to ``fit_width``."""
    size = min(sh.size for sh in scene.shapes if sh.kind == "text")
    return size * min(1.0, fit_width / scene.width) if fit_width else size


def readable(scene: Scene) -> float:
    """The smallest text, in points, where the preset's picture is shown (``fit``: a docs
    column, a slide), never enlarged; how the two directions and the collapse levels
    compare."""
    fit = scene.preset.fit
    size = min(sh.size for sh in scene.shapes if sh.kind == "text")
    if fit is None:
        return size
    width, height, _ = fit
    return size * min(1.0, width / scene.width, height / scene.height if height else 1.0)


def fits(scene: Scene) -> bool:
    """True when every text is at least the preset's smallest size where it is shown."""
    fit = scene.preset.fit
    return fit is None or readable(scene) >= fit[2] - 1e-9


#: the most values for which a second direction is laid out to compare
TURN_NODES = 500


def make_scene(x: Any, *, rankdir: str | None = None, **options: Any) -> Scene:
    """A :class:`Scene`; ``rankdir=None`` picks the direction: left to right, unless that
    does not fit where the preset's picture is shown (a 1,400 px docs column, a 960×540
    slide) and top to bottom is more readable there."""
    scene = Scene(x, rankdir=rankdir or "LR", **options)
    if rankdir is None and not fits(scene) and scene.graph.number_of_nodes() <= TURN_NODES:
        tall = Scene(scene.graph, rankdir="TB", **options)
        if readable(tall) > readable(scene):
            return tall
    return scene
