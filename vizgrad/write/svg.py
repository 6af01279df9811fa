"""Draw a traced graph as a standalone SVG: one layout, any step, the same picture.

:func:`draw` accepts a Value, a :class:`~vizgrad.Trace` or a graph from
:func:`vizgrad.to_networkx` and returns a :class:`Drawing`. After
``backward()`` it shows the final view (every contribution on its edge,
every grad final); ``step=k`` shows the state right after step ``k``, on the
same layout: every shape of the graph keeps its coordinates and every picture ends at the
same bottom edge, while each starts above its own caption (a step of one caption line
keeps no room for the longest caption of another)::

    >>> from vizgrad import Value
    >>> a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    >>> q = (a * b) * (a + b); q.label = "q"
    >>> q.backward()
    >>> d = draw(q)
    >>> d
    <Drawing of q, final view, 5 nodes>
    >>> import xml.etree.ElementTree as ET
    >>> root = ET.fromstring(d.svg())
    >>> box, box0 = (list(map(float, r.get("viewBox").split())) for r in
    ...              (root, ET.fromstring(d.at(0).svg())))
    >>> round(box[1] + box[3], 1) == round(box0[1] + box0[3], 1), box0[1] > box[1]
    (True, True)
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..runtime.files import write_atomic
from ..exceptions import OptionError, RenderError
from ..options import DEFAULT_MAX_NODES, Options, StepArg, options_for
from ..style import text
from ..graph.convert import source_graph
from .svgout import empty_rows, svg_document
from .animated import DEFAULT_FINAL_HOLD, DEFAULT_HOLD, animated_svg
from ..scene.prepare import Prepared, fitted, overview_route
from ..scene.scene import Scene

__all__ = ["DEFAULT_MAX_NODES", "SAVE_FORMATS", "Drawing", "draw", "graph_to_draw"]

#: File suffix → what :meth:`Drawing.save` writes.
SAVE_FORMATS = {".svg": "svg", ".dot": "dot", ".gv": "dot", ".json": "json", ".png": "png",
                ".pdf": "pdf"}

class Drawing:
    """One picture of a graph at one step; made by :func:`draw`.

    ``.svg()`` and ``.dot()`` return text; ``.save(path)`` writes a file;
    ``.at(k)`` is the same drawing at another step (no new layout);
    Jupyter displays it inline, scaled to the cell.
    """

    def __init__(self, scene: Scene, step: int | None,
                 prepared: Prepared | None = None) -> None:
        self.scene = scene
        #: the graph drawn (without ``prepared``: the scene's read-only facts of it)
        self.graph = prepared.graph if prepared is not None else scene.facts
        #: the drawn graph's own step (``None``: the final view)
        self.step = step
        self.prepared = prepared if prepared is not None else Prepared(scene.facts, scene.facts)
        self._svg: str | None = None

    def __repr__(self) -> str:
        G = self.graph
        at = "final view" if self.step is None else f"step {self.step}/{self.scene.last}"
        return f"<Drawing of {text.name(G, G.graph['root'])}, {at}, {G.number_of_nodes()} nodes>"

    def at(self, step: StepArg) -> Drawing:
        """The same drawing (same layout and options) after ``step`` of the view drawn, as
        its counter reads (``"final"``: the final view)."""
        return Drawing(self.scene, self.prepared.step(step), self.prepared)

    def dot(self) -> str:
        """The DOT given to Graphviz for the layout (sizes and placeholders, no colours)."""
        return self.scene.dot

    def title(self) -> str:
        """The text of the SVG's ``<title>``: the output's formula and the step caption."""
        G, s = self.graph, self.scene
        return f"{text.formula(G, G.graph['root'])} · {s.caption_texts(self.step)[0]}"

    def svg(self, *, full_height: bool = False) -> str:
        """The standalone SVG text (same graph, options and step → same bytes). It keeps
        room only for its own step's caption; ``full_height``: for the longest caption of
        any step, as the animated SVG and the GIF do (every frame one size)."""
        if full_height:
            return self._document(0.0)
        if self._svg is None:
            self._svg = self._document(empty_rows(self.scene, self.step))
        return self._svg

    def _document(self, drop: float) -> str:
        s = self.scene
        desc = "\n".join(s.caption_texts(self.step)[1:])
        svg = svg_document(s, s.look(self.step), title=self.title(), desc=desc, drop=drop)
        if s.opened is not None:  # groups opened in place: their frames
            from .group_frames import frames_of, with_frames

            svg = with_frames(s, svg, frames_of(s), "")
        return svg

    def slides(self) -> list[str]:
        """The picture as slides, each readable at 14 pt on a 960×540 slide: one SVG when
        it fits, else one per window of the graph, with the caption and the legend on each
        (:mod:`vizgrad.write.slides`). Meant for ``preset="slides"``."""
        from .slides import slides

        return slides(self.scene, self.step, self.svg, self.title())

    def save_slides(self, path: str | os.PathLike[str], *, force: bool = False) -> list[Path]:
        """Write :meth:`slides` as ``NAME.svg`` (one slide) or ``NAME-1.svg``, ``NAME-2.svg``
        … next to ``path`` (which must end in .svg), as one marked set that replaces the
        earlier set whole and no file of yours unless ``force``
        (:mod:`vizgrad.write.slide_set`); return the paths written."""
        from .slide_set import write_set

        out = Path(path)
        if out.suffix.lower() != ".svg":
            raise RenderError(f"cannot save slides as {str(out)!r}: slides are SVG files; "
                              "give a path ending in .svg")
        if not out.parent.is_dir():
            raise RenderError(f"cannot save {str(out)!r}: the folder {str(out.parent)!r} "
                              "does not exist")
        return write_set(out, self.slides(), force)

    def slide_count(self) -> int:
        """How many slides :meth:`slides` makes, before any is drawn (for a budget)."""
        from .slides import count

        return count(self.scene, self.step)

    def animated_svg(self, *, hold: float | None = DEFAULT_HOLD,
                     final_hold: float | None = DEFAULT_FINAL_HOLD, loop: bool = True) -> str:
        """One standalone SVG that plays every step, ``hold`` seconds each, then shows the
        final view for ``final_hold`` seconds (by default, each for its caption's reading
        time: the pace of the GIF and the player), with CSS animations only (no script); it
        loops, or with ``loop=False`` plays once and rests on the final view. Without
        CSS animations, or with reduced motion asked for, it shows the final view.
        The drawing's own step does not matter. See :mod:`vizgrad.write.animated`."""
        s = self.scene
        return animated_svg(s, hold=hold, final_hold=final_hold, loop=loop,
                            title=self.at(None).title(), desc="\n".join(s.caption_texts(None)[1:]))

    def save(self, path: str | os.PathLike[str], *, dpi: float | None = None) -> Path:
        """Write the format the suffix names (.svg, .dot/.gv, .json, .png, .pdf); return the path.

        png and pdf are drawn by matplotlib from the same scene (``dpi`` sets a
        png's resolution, default 144). The file appears complete or not at all.
        """
        out = Path(path)
        if dpi is not None and (isinstance(dpi, bool) or not isinstance(dpi, (int, float))
                                or not 24 <= dpi <= 1200):
            raise OptionError(f"dpi must be a number from 24 to 1200, got {dpi!r}")
        suffix = out.suffix.lower()
        if suffix not in SAVE_FORMATS:
            raise RenderError(
                f"cannot save {str(out)!r}: unknown format {suffix or '(no suffix)'!r}; "
                f"use one of {', '.join(sorted(SAVE_FORMATS))}"
            )
        if not out.parent.is_dir():
            raise RenderError(f"cannot save {str(out)!r}: the folder {str(out.parent)!r} "
                              "does not exist")
        fmt = SAVE_FORMATS[suffix]
        if dpi is not None and fmt != "png":
            raise OptionError(f"dpi applies to png only, not to {suffix}")
        if fmt == "svg":
            data = self.svg().encode("utf-8")
        elif fmt == "dot":
            data = self.dot().encode("utf-8")
        elif fmt == "json":
            from ..graph.convert import to_json
            from ..graph.facts import GraphFacts

            if isinstance(self.graph, GraphFacts):
                raise RenderError("this Drawing was made from a Scene alone, which keeps no "
                                  "graph to save as JSON: save vizgrad.draw(graph) instead")
            data = to_json(self.graph).encode("utf-8")
        else:
            from .raster.picture import picture_bytes

            data = picture_bytes(self.scene, self.step, fmt, dpi=dpi)
        write_atomic(out, data)
        return out

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return {"image/svg+xml": self.svg(), "text/plain": repr(self)}


def graph_to_draw(x: Any, options: Options) -> Any:
    """What an entry was given (a Value, a Trace or a graph) as the graph it hands the scene,
    which takes graphs only: a Value is traced here, at the entry, with ``options.model``
    (:func:`vizgrad.graph.convert.source_graph`; past ``max_nodes`` on the overview route, a
    light graph read from the trace's columns).

    >>> from vizgrad import Value
    >>> graph_to_draw(Value(2.0) * 3, Options()).number_of_nodes()
    3
    """
    return source_graph(x, options.model, max_nodes=options.max_nodes,
                        overview=overview_route(options))


def draw(x: Any, step: StepArg = None, *, options: Options | None = None,
         **overrides: Any) -> Drawing:
    """A :class:`Drawing` of ``x`` (Value, Trace or graph).

    Args:
        x: what to draw; a Value is traced first.
        step: ``None`` or ``"final"`` for the final view after ``backward()``
            (the state after the forward pass if it had not run); a whole
            number ``k`` (or ``"first"``, ``"last"``) for the state right after
            step ``k`` of ``x``: with collapse or focus, the drawn step that holds it.
        options: a :class:`vizgrad.options.Options`.
        **overrides: any option of :data:`vizgrad.options.OPTIONS` (``preset``,
            ``theme``, ``rankdir``, ``decimals``, ``lang``, ``collapse``,
            ``focus``, ``model``, ...), over ``options``.

    By default (``collapse="auto"``) a grouped graph of more than
    :data:`vizgrad.graph.collapse.AUTO_NODES` values, or one whose picture would not fit where
    the preset's pictures are shown (:func:`vizgrad.scene.prepare.fitted`), and any graph
    past ``max_nodes``, is drawn collapsed, and the caption says so; ``collapse=False``
    refuses a graph past ``max_nodes`` (:class:`~vizgrad.exceptions.GraphTooLargeError`).
    """
    o = options_for("draw", options, overrides)
    p, scene = fitted(graph_to_draw(x, o), o)
    return Drawing(scene, p.step(step), p)
