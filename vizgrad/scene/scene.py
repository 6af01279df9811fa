"""The scene: every shape of a drawing, placed once from one layout, for every step.

The last stage of a drawing: a :class:`Scene` is made from a drawing's
:class:`~vizgrad.scene.plan.Plan` and the layout's
:class:`~vizgrad.scene.layout.geometry.Geometry`. It wraps the caption and legend lines
(:mod:`.captions`) and places every shape: value boxes, op circles, edges, arrowheads,
edge labels, the caption block and the legend. It runs no layout, reads no file and holds
no networkx graph (the plan's read-only :class:`~vizgrad.graph.facts.GraphFacts` instead).
Shapes never move; :meth:`Scene.look` says what each one shows after a step (texts,
colours, visibility), so every medium (SVG, frames, player, lab) draws the same picture.
:func:`vizgrad.scene.make.scene_of` runs the three stages (plan, layout, scene)::

    >>> from vizgrad import examples
    >>> from vizgrad.scene.make import scene_of
    >>> scene = scene_of(examples.graph("fork"))
    >>> scene.look(7)["t-v0-grad"]["text"], scene.look(None)["t-v0-grad"]["text"]
    ('−3', '−3')
    >>> scene.look(0)["t-v2-data"]["text"], scene.look(0)["t-v0-grad"]["text"]
    ('pending', '—')
    >>> scene.size == scene_of(examples.graph("fork")).size
    True
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any, Mapping

from ..exceptions import NotAGraphError
from ..style.metrics import width
from ..style.presets import Preset
from ..tracing.names import unchanged
from ..tracing.recorder import State
from . import captions as cap
from .layout import geometry as gm
from .looks import Looks
from .frames import Opened
from .parts import RANKDIRS
from .plan import Plan, require_graph
from .shapes import ROW as _ROW
from .edges import place_edges
from .shapes import Shape, place_caption, place_legend, place_nodes

__all__ = ["RANKDIRS", "SLIDE_WIDTH", "Scene", "Shape", "fits", "readable", "slides_of",
           "smallest_size", "smallest_text"]

#: the width of a slide, in points, that the ``slides`` preset fits
SLIDE_WIDTH = 960.0


@dataclass(frozen=True, eq=False, repr=False, init=False)
class Scene(Plan):
    """Every shape of a graph's drawing and its look after each step; see the module doc.

    ``Scene(plan, geometry)``: the :class:`~vizgrad.scene.plan.Plan` of a graph and where
    Graphviz put its boxes, op circles and edges; ``opened``: the frames of the groups
    opened in place, when the geometry is such a picture's
    (:func:`vizgrad.scene.opened.open_scene`). Read-only: its fields (the plan's and its
    own) are tuples and read-only mappings, and assigning one raises
    :class:`dataclasses.FrozenInstanceError`.
    """

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
    #: the groups opened in place, with their frames (``None``: a picture of none)
    opened: Opened | None

    def __init__(self, plan: Plan, geometry: gm.Geometry, opened: Opened | None = None) -> None:
        if not isinstance(plan, Plan):
            require_graph(plan, "Scene(plan, geometry)")  # a Value: say where it is traced
            raise NotAGraphError(
                "Scene(plan, geometry) takes a drawing's plan and its layout: for a graph, "
                "call vizgrad.scene.make_scene(graph) (or scene_of), which lay it out")
        if not isinstance(geometry, gm.Geometry):
            raise NotAGraphError(f"Scene(plan, geometry) takes the layout's Geometry as its "
                                 f"second argument, not a {type(geometry).__name__}")
        for f in fields(Plan):
            object.__setattr__(self, f.name, getattr(plan, f.name))
        with unchanged(self.facts):  # names and operands worked out once, for every caption
            self._place(plan, geometry, opened)

    def _put(self, **values: Any) -> None:
        """Set fields while the scene is made (the only writes it ever takes)."""
        for name, value in values.items():
            object.__setattr__(self, name, value)

    @property
    def size(self) -> tuple[float, float]:
        """The picture's width and height in points."""
        return self.width, self.height

    def look(self, k: int | None, state: State | None = None) -> dict[str, dict[str, str]]:
        """What every dynamic shape shows after step ``k`` (``None``: the final view)."""
        with unchanged(self.facts):
            return self.looks.all(k, self.state(k) if state is None else state)

    # -- caption and legend --------------------------------------------------------
    def caption_texts(self, k: int | None) -> list[str]:
        """The caption and chain-rule lines of step ``k`` (``None``: final view), unwrapped."""
        return _caption_texts(self, self.reading, self.opened, k)

    def caption_lines(self, k: int | None) -> list[str]:
        """:meth:`caption_texts` as drawn: long lines wrap before an ``=``."""
        lines = self.captions.get(k)
        return list(lines) if lines is not None else self._wrapped(k)

    def _wrapped(self, k: int | None) -> list[str]:
        return _wrapped(self, self.reading, self.opened, self.wrap_at, k)

    def legend_texts(self) -> list[str]:
        return cap.legend_texts(self)

    def legend_lines(self) -> list[str]:
        """:meth:`legend_texts` as drawn: wrapped between words to the caption's width."""
        return list(self.legend_rows)

    # -- placing shapes ----------------------------------------------------------------
    def _place(self, plan: Plan, geo: gm.Geometry, opened: Opened | None) -> None:
        p, put = self.preset, self._put
        margin = p.font
        c = p.caption
        wrap_at = max(geo.width, 40 * c)
        if p.fit is not None and p.fit[1] is not None:  # a slide: wrap to one page's width
            wrap_at = p.fit[0] * smallest_size(p) / p.fit[2] - 2 * margin
        # the picture's reading order: top to bottom (LR), left to right (TB)
        along = (lambda b: (b[1], b[0])) if self.rankdir == "LR" else (lambda b: (b[0], b[1]))
        reading = MappingProxyType({n: along(b) for n, b in geo.nodes.items()})
        put(wrap_at=wrap_at, reading=reading, opened=opened)
        cap_w = 0.0
        captions: dict[int | None, tuple[str, ...]] = {}
        if plan.caption:
            for k in [*range(plan.last + 1), None]:
                lines = captions[k] = tuple(_wrapped(plan, reading, opened, wrap_at, k))
                cap_w = max([cap_w, width(lines[0], c, True)] + [width(x, c) for x in lines[1:]])
            cap_w += plan.badge_width + c
        rows = max((len(lines) for lines in captions.values()), default=0)
        put(captions=MappingProxyType(captions), caption_rows=rows)
        cap_h = rows * c * 1.45
        leg = tuple(piece for line in cap.legend_texts(plan)
                    for piece in cap.wrap(line, wrap_at, p.legend, " "))
        leg_h = len(leg) * p.legend * 1.45
        inner_w = max(geo.width, cap_w, *(width(s, p.legend) for s in leg))
        top = margin + cap_h + (p.caption * 0.6 if cap_h else 0)
        put(legend_rows=leg, width=round(inner_w + 2 * margin, 2),
            height=round(top + geo.height + (p.legend * 0.8 + leg_h if leg else 0) + margin, 2),
            graph_box=(margin + (inner_w - geo.width) / 2, top, geo.width, geo.height))
        dx, dy = self.graph_box[:2]
        shapes = place_caption(p, plan.badge_width, rows, margin, margin) if plan.caption else []
        shapes += place_edges(plan, plan.edge_texts, plan.op_sizes, geo, dx, dy, self.width,
                              "joined" in plan.dot_parts)
        shapes += place_nodes(plan.facts, plan.order, p, plan.params, plan.inrows, plan.matrices,
                              plan.op_sizes, geo, dx, dy)
        if leg:
            shapes += place_legend(p, margin, self.height - margin - leg_h, leg)
        put(shapes=tuple(shapes), ids=frozenset(s.id for s in shapes),
            looks=Looks(plan, self.captions, rows, leg))


def _caption_texts(plan: Plan, reading: Mapping[str, tuple[float, float]],
                   opened: Opened | None, k: int | None) -> list[str]:
    steps = None if opened is None else (opened.steps, opened.base_last)
    return cap.caption_texts(plan, reading, k, steps)


def _wrapped(plan: Plan, reading: Mapping[str, tuple[float, float]], opened: Opened | None,
             wrap_at: float, k: int | None) -> list[str]:
    """Step ``k``'s caption lines wrapped to ``wrap_at`` points, less the badge."""
    return cap.wrap_caption(_caption_texts(plan, reading, opened, k), plan.preset,
                            wrap_at - plan.badge_width)


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
    """True when every text is at least the preset's smallest size where it is shown: on a
    slide, when the graph fills one slide (:mod:`.slide_plan`; its windows may be side by
    side)."""
    fit = scene.preset.fit
    if fit is not None and fit[1] is not None:
        return slides_of(scene) == 1
    return fit is None or readable(scene) >= fit[2] - 1e-9


def slides_of(scene: Scene) -> int:
    """How many slides show the graph of ``scene`` (not counting a slide of notes)."""
    from .slide_plan import plan

    return sum(1 for page in plan(scene, None).pages if page.windows)
