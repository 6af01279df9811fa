"""Draw a traced graph as a standalone SVG: one layout, any step, the same picture.

:func:`draw` accepts a Value, a :class:`~vizgrad.Trace` or a graph from
:func:`vizgrad.to_networkx` and returns a :class:`Drawing`. After
``backward()`` it shows the final view (every contribution on its edge,
every grad final); ``step=k`` shows the state right after step ``k``, on the
same layout, so pictures of different steps line up exactly::

    >>> from vizgrad import Value
    >>> a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    >>> q = (a * b) * (a + b); q.label = "q"
    >>> q.backward()
    >>> d = draw(q)
    >>> d
    <Drawing of q, final view, 5 nodes>
    >>> import xml.etree.ElementTree as ET
    >>> root = ET.fromstring(d.svg())
    >>> root.get("viewBox") == ET.fromstring(d.at(0).svg()).get("viewBox")
    True
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .._budget import too_many_values
from .._files import write_atomic
from ..collapse import AUTO_NODES
from ..exceptions import GraphTooLargeError, OptionError, RenderError
from ..graph import as_graph
from . import text
from ._svgout import svg_document
from .animated import DEFAULT_FINAL_HOLD, DEFAULT_HOLD, animated_svg
from .layout import BACKENDS, DEFAULT_TIMEOUT, available_backends
from .presets import Preset
from .scene import Scene, make_scene
from .theme import Theme

__all__ = ["DEFAULT_MAX_NODES", "SAVE_FORMATS", "Drawing", "draw", "shrink", "system_available"]

#: Value nodes a drawing accepts unless ``max_nodes`` is raised.
DEFAULT_MAX_NODES = 2000
#: File suffix → what :meth:`Drawing.save` writes.
SAVE_FORMATS = {".svg": "svg", ".dot": "dot", ".gv": "dot", ".json": "json", ".png": "png",
                ".pdf": "pdf"}

Step = int | str | None


def check_step(G: Any, step: Step) -> int | None:
    """The step to show: a whole number, or ``None`` for the final view.

    ``None`` means the final view after ``backward()``, or the state after the
    forward pass when it had not run; ``"final"`` asks for the final view.
    """
    last = len(G.graph["steps"]) - 1
    if step is None or step == "final":
        return None
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= last:
        raise OptionError(f"step must be a whole number from 0 to {last} or 'final' for this "
                          f"graph, got {step!r}")
    return step


class Drawing:
    """One picture of a graph at one step; made by :func:`draw`.

    ``.svg()`` and ``.dot()`` return text; ``.save(path)`` writes a file;
    ``.at(k)`` is the same drawing at another step (no new layout);
    Jupyter displays it inline, scaled to the cell.
    """

    def __init__(self, scene: Scene, step: int | None) -> None:
        self.scene = scene
        self.graph = scene.graph
        self.step = step
        self._svg: str | None = None

    def __repr__(self) -> str:
        G = self.graph
        at = "final view" if self.step is None else f"step {self.step}/{self.scene.last}"
        return f"<Drawing of {text.name(G, G.graph['root'])}, {at}, {G.number_of_nodes()} nodes>"

    def at(self, step: Step) -> Drawing:
        """The same drawing (same layout and options) after ``step``."""
        return Drawing(self.scene, check_step(self.graph, step))

    def dot(self) -> str:
        """The DOT given to Graphviz for the layout (sizes and placeholders, no colours)."""
        return self.scene.dot

    def title(self) -> str:
        """The text of the SVG's ``<title>``: the output's formula and the step caption."""
        G, s = self.graph, self.scene
        return f"{text.formula(G, G.graph['root'])} · {s.caption_texts(self.step)[0]}"

    def svg(self) -> str:
        """The standalone SVG text (same graph, options and step → same bytes)."""
        if self._svg is None:
            s = self.scene
            desc = "\n".join(s.caption_texts(self.step)[1:])
            self._svg = svg_document(s, s.look(self.step), title=self.title(), desc=desc)
        return self._svg

    def animated_svg(self, *, hold: float = DEFAULT_HOLD, final_hold: float = DEFAULT_FINAL_HOLD,
                     loop: bool = True) -> str:
        """One standalone SVG that plays every step, ``hold`` seconds each, then shows the
        final view for ``final_hold`` seconds, with CSS animations only (no script); it
        loops, or with ``loop=False`` plays once and rests on the final view. Without
        CSS animations, or with reduced motion asked for, it shows the final view.
        The drawing's own step does not matter. See :mod:`vizgrad.render.animated`."""
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
            from ..graph import to_json

            data = to_json(self.graph).encode("utf-8")
        else:
            from .frames import picture_bytes

            data = picture_bytes(self.scene, self.step, fmt, dpi=dpi)
        write_atomic(out, data)
        return out

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return {"image/svg+xml": self.svg(), "text/plain": repr(self)}


def system_available() -> bool:
    """True when the system Graphviz ``dot`` is installed (an optional layout backend)."""
    return "system" in available_backends()


def check_common(G: Any, max_nodes: int, backend: str | None, timeout: float) -> None:
    """Validate the options every renderer shares; refuse graphs past ``max_nodes``."""
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
        raise OptionError(f"max_nodes must be a positive whole number, got {max_nodes!r}")
    if backend is not None and backend not in BACKENDS:
        raise OptionError(f"backend must be one of {list(BACKENDS)} or None, got {backend!r}")
    if (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
            or not timeout > 0 or timeout == float("inf")):
        raise OptionError(f"timeout must be a positive number of seconds, got {timeout!r}")
    n = G.number_of_nodes()
    if n > max_nodes:
        raise GraphTooLargeError(
            f"{too_many_values(n, max_nodes)}; its layout "
            f"would be slow and unreadable. Draw it collapsed (collapse='auto' or a level such "
            f"as 'neuron'), focus on a part (focus=NODE), or pass max_nodes={n} to draw it anyway"
        )


def shrink(G: Any, k: int | None = None, *, collapse: Any = False, focus: str | None = None,
           radius: int = 2, group_steps: str = "merge", merge_constants: Any = None,
           max_nodes: Any = None) -> tuple[Any, int | None]:
    """``G`` with the large-graph options applied (:func:`vizgrad.collapse.prepare`), and
    step ``k`` of ``G`` carried over to it; ``G`` itself when no option asks for a change."""
    auto = collapse == "auto" and (G.number_of_nodes() > AUTO_NODES or (
        isinstance(max_nodes, int) and G.number_of_nodes() > max_nodes))
    if not auto and collapse in ("auto", False, None) and focus is None \
            and merge_constants in (None, False):
        return G, k
    from ..collapse import prepare, transform_step

    limit = max_nodes if isinstance(max_nodes, int) and not isinstance(max_nodes, bool) else None
    H, chain = prepare(G, collapse_at=collapse, focus_on=focus, radius=radius,
                       constants=merge_constants, steps=group_steps, max_nodes=limit)
    return H, transform_step(chain, k)


def draw(x: Any, step: Step = None, *, preset: str | Preset = "docs", rankdir: str | None = None,
         theme: str | Theme = "light", decimals: int | None = None, trim: bool | None = None,
         lang: str | None = None, backend: str | None = None,
         max_nodes: int = DEFAULT_MAX_NODES, timeout: float = DEFAULT_TIMEOUT,
         caption: bool = True, legend: bool = True, collapse: Any = "auto",
         focus: str | None = None, radius: int = 2, group_steps: str = "merge",
         merge_constants: Any = None, model: Any = None) -> Drawing:
    """A :class:`Drawing` of ``x`` (Value, Trace or graph).

    Args:
        x: what to draw; a Value is traced first.
        step: ``None`` or ``"final"`` for the final view after ``backward()``
            (the state after the forward pass if it had not run); a whole
            number ``k`` for the state right after step ``k``.
        preset: ``"docs"`` (default), ``"slides"`` (large text for a 960 pt
            slide) or ``"compact"``.
        rankdir: ``"LR"`` (left to right) or ``"TB"``; ``None`` (the default) is
            left to right, except for slides that fit better top to bottom.
        theme: ``"light"`` or ``"dark"``.
        decimals: digits after the decimal point (default: the preset's, 4 or 2).
        trim: drop trailing zeros (default: the preset's, on).
        lang: ``"en"`` or ``"zh"`` (default: ``$VIZGRAD_LANG``, else English).
        backend: ``"embedded"``, ``"system"`` or ``None`` (``VIZGRAD_LAYOUT``,
            else the embedded Graphviz).
        max_nodes: refuse graphs with more Values than this
            (:class:`~vizgrad.exceptions.GraphTooLargeError`).
        timeout: seconds the layout may run.
        caption: show the step caption and the chain rule above the graph.
        legend: explain the edge labels and colours below the graph.
        collapse: ``"auto"`` (the default: a grouped graph of more than 100
            values, or any graph past ``max_nodes``, is drawn collapsed, and the
            caption says so), ``False`` (never), or a level: ``"neuron"``,
            ``"layer"`` or a group depth (see :mod:`vizgrad.collapse`).
        focus, radius: draw only the values within ``radius`` edges of the
            node id ``focus``; the rest shows as ``… N more`` stubs.
        group_steps: ``"merge"`` (a box's backward pass is one step) or
            ``"inside"`` (one step per member).
        merge_constants: a level (or True for ``"layer"``) at which wrapped
            copies of one input are drawn once.
        model: the micrograd-style net ``x`` came from (``layers`` →
            ``neurons`` → ``w``, ``b``): its parameters are named ``L0.N2.w1``
            and each neuron becomes a group, as ``vizgrad.trace(x, model=net)``.

    With collapse or focus, ``step`` counts the steps of ``x``, and the drawing
    shows the collapsed step right after it; :meth:`Drawing.at` counts the
    drawn graph's own steps.
    """
    G = as_graph(x, model)
    k = check_step(G, step)
    G, k = shrink(G, k, collapse=collapse, focus=focus, radius=radius,
                  group_steps=group_steps, merge_constants=merge_constants, max_nodes=max_nodes)
    check_common(G, max_nodes, backend, timeout)
    scene = make_scene(G, preset=preset, theme=theme, rankdir=rankdir, decimals=decimals,
                       trim=trim, lang=lang, caption=caption, legend=legend, backend=backend,
                       timeout=timeout)
    return Drawing(scene, k)
