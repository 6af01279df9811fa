"""The scene: every shape of a drawing, placed once from one layout, for every step.

A :class:`Scene` sizes each box for the widest text it shows in any step,
runs Graphviz once (:mod:`vizgrad.render.geometry`), and places every shape:
value boxes, op circles, edges, arrowheads, edge labels, the caption block and
the legend. Shapes never move; :meth:`Scene.look` says what each one shows
after a step (texts, colours, visibility), so every medium (SVG, frames,
player, lab) draws the same picture::

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

import re
from typing import Any, Iterator

from .._names import unchanged
from ..exceptions import OptionError
from ..graph import as_graph
from ..i18n import resolve, t
from ..tracing import State, replay, states
from . import geometry as gm
from . import text as tx
from ._groups import (box_name, input_rows, note_lines, param_rows, params_line, params_step,
                      row_labels)
from ._looks import Looks, final_state
from ._metrics import units, width
from ._shapes import ROW as _ROW
from ._shapes import Shape, op_glyph, place_caption, place_edges, place_legend, place_nodes
from .layout import DEFAULT_TIMEOUT, run_layout
from .presets import Preset
from .presets import get as get_preset
from .theme import Theme
from .theme import get as get_theme

__all__ = ["RANKDIRS", "SLIDE_WIDTH", "TURN_NODES", "Scene", "Shape", "fits", "make_scene",
           "readable", "smallest_size", "smallest_text"]

RANKDIRS = ("LR", "TB")
#: the width of a slide, in points, that the ``slides`` preset fits
SLIDE_WIDTH = 960.0
_SPAN_BUDGET = 1500  # ranks that long edges may cross in all before the longest go free
_LONG = 3  # ranks an edge may cross and still be laid out, past the budget
_LABEL_H = 1.65  # the room an edge label takes across its edge, relative to its text


class Scene:
    """Every shape of a graph's drawing and its look after each step; see the module doc.

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
    """

    def __init__(self, x: Any, *, preset: str | Preset = "docs", theme: str | Theme = "light",
                 rankdir: str = "LR", decimals: int | None = None, trim: bool | None = None,
                 lang: str | None = None, caption: bool = True, legend: bool = True,
                 backend: str | None = None, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.graph = G = as_graph(x)
        self.preset = p = get_preset(preset)
        self.theme = get_theme(theme)
        if rankdir not in RANKDIRS:
            raise OptionError(f"rankdir must be one of {list(RANKDIRS)}, got {rankdir!r}")
        self.rankdir = rankdir
        d = p.decimals if decimals is None else decimals
        if isinstance(d, bool) or not isinstance(d, int) or not 0 <= d <= 12:
            raise OptionError(f"decimals must be a whole number from 0 to 12, got {decimals!r}")
        self.decimals, self.trim = d, p.trim if trim is None else bool(trim)
        self.lang = resolve(lang)
        self.caption, self.legend = bool(caption), bool(legend)
        self.order = sorted(G.nodes, key=lambda n: (G.nodes[n].get("order", 0), str(n)))
        self.last = len(G.graph["steps"]) - 1
        #: a collapsed graph: edge labels give the contribution alone, and lie closer
        self.collapsed = "collapsed" in G.graph
        self.shapes: list[Shape] = []
        with unchanged(G):  # names and operands worked out once, for every step's caption
            self.looks = Looks(self)
            self.dot = self._layout_dot()
            # json0: the positions without Graphviz's drawing operations (a third of json)
            geo = gm.parse(run_layout(self.dot, "json0", backend, timeout))
            self._place(geo)

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

    # -- sizes -------------------------------------------------------------------
    def _box_texts(self, n: str) -> tuple[str, list[str]]:
        """The name and every value text a box can show (for its width)."""
        if not hasattr(self, "_shown"):
            shown: dict[str, set[float]] = {}
            for s in self.graph.graph["steps"]:
                if s["kind"] == "seed":
                    shown.setdefault(s["node"], set()).add(s["grad"])
                for c in s.get("contributions", ()):
                    shown.setdefault(c["target"], set()).add(c["after"])
            self._shown = shown
        G = self.graph
        vals = [self.word("pending"), tx.NOT_REACHED]
        if "data" in G.nodes[n]:
            vals.append(self.num(G.nodes[n]["data"]))
        vals += [self.num(v) for v in G.nodes[n].get("by_sample", ())]  # a player's choice
        if G.nodes[n].get("all") is not None:
            vals.append(self.num(G.nodes[n]["all"]))
        vals += sorted(self.num(v) for v in self._shown.get(n, ()))
        return box_name(self, n), vals

    def _layout_dot(self) -> str:
        G, p = self.graph, self.preset
        f, line = p.font, 1.3 * p.font
        self.box_sizes: dict[str, tuple[float, float]] = {}
        self.params = {n: rows for n in self.order if (rows := param_rows(self, n))}
        self.params_done = params_step(G)
        self.edge_texts = self.looks.edge_texts()
        #: edges between two boxes: their contribution is a row of the head box, not a label
        self.inrows = input_rows(self)
        for rows in self.inrows.values():
            for e, _ in rows:
                self.edge_texts[e] = None
        for (u, v, slot) in self.edge_texts:  # a net's input read by every neuron of a
            if G.nodes[u].get("members") and G.nodes[v].get("kind") == "group":  # layer:
                self.edge_texts[(u, v, slot)] = None  # its grad is written on the input
        for n in self.order:
            name, vals = self._box_texts(n)
            if self.kind(n) in ("const", "stub"):
                self.box_sizes[n] = (width(name, f * 0.9) + f, line + f * 0.4)
                continue
            rows = self.params.get(n, [])
            labels = row_labels(self, n)  # a layer's sums, a net's sample
            inner = max(width(v, f) for v in vals) + f * 0.8 + max(width(w, _ROW * f) for w in labels)
            cols = _param_cols(rows)
            if rows:  # parameter cells side by side: each as wide as the widest
                cell = max(width(self.num(g), f) + width(r, _ROW * f) for r, g in rows) + f * 1.4
                inner = max(inner, cols * cell - f * 0.6)
            ins = self.inrows.get(n, [])
            icols = _param_cols(ins)
            if ins:  # a cell per box feeding this one, side by side as the parameters
                cell = max(width(a, _ROW * f) + width(v, f) for _, (a, v) in ins) + f * 1.4
                inner = max(inner, icols * cell - f * 0.6)
            self.box_sizes[n] = (max(width(name, f, True), inner) + f * 1.2,
                                 (3 + -(-len(rows) // cols) + -(-len(ins) // icols)) * line
                                 + f * 0.6)
        self.op_sizes: dict[str, tuple[float, float]] = {}
        for n in self.order:
            if G.in_degree(n) and self.kind(n) not in ("group", "stub"):
                glyph = op_glyph(str(G.nodes[n].get("op", "")))
                h = p.op * 1.45
                self.op_sizes[n] = (max(h, width(glyph, p.op * 0.8) + p.op * 0.7), h)
        self._heights()  # the longest path to an output, per node: ``to_output``
        self.free = self._free_edges()
        edges = []
        for (u, v, slot), label in self.edge_texts.items():
            size = (width(label, p.label) + p.label * 0.5, p.label * _LABEL_H) if label else None
            if (u, v, slot) not in self.free:
                edges.append((u, v, f"e-{u}-{v}-{slot}", size))
        inputs, first = self._aligned()
        return gm.layout_dot(self.box_sizes, self.op_sizes, edges, inputs=inputs, first=first,
                             rankdir=self.rankdir, font=p.label * _LABEL_H / gm.LINE_EM,
                             nodesep=p.nodesep * (0.6 if self.collapsed else 1),
                             ranksep=p.ranksep)

    def _heights(self) -> None:
        """Each node's longest path to an output: about how far right (LR) it lands."""
        G = self.graph
        self.to_output: dict[str, int] = {}
        height = self.to_output
        for n in reversed(self.order):  # an edge back in the order (a focus stub) counts not
            height[n] = 1 + max((height[v] for v in G.successors(n) if v in height), default=-1)

    def _free_edges(self) -> set[tuple[str, str, int]]:
        """Edges left out of the layout and drawn straight: only when the graph has so
        many long edges (a value shared across a deep chain, like ``a*b + a*b + ...``)
        that laying them out would take Graphviz minutes."""
        h = self.to_output
        spans = {e: h[e[0]] - h[e[1]] - 1 for e in self.edge_texts}
        if sum(spans.values()) <= _SPAN_BUDGET + 4 * len(self.order):
            return set()
        return {e for e, span in spans.items() if span > _LONG}

    def _aligned(self) -> tuple[list[str], list[str]]:
        """Inputs to line up in the first rank, and first ops to line up in one rank,
        each only when that stretches edges little (a deep chain would make every
        input edge long, and the layout slow)."""
        G, height = self.graph, self.to_output
        top = max(height.values(), default=0)
        budget = max(200, 2 * len(self.order))
        inputs = [n for n in self.order if self.kind(n) == "input" and G.out_degree(n)]
        if self.collapsed or sum((top - height[n]) * G.out_degree(n) for n in inputs) > budget:
            inputs = []
        leaves = {n for n in self.order if self.kind(n) in ("input", "const")}
        first = [n for n in self.op_sizes if all(u in leaves for u in G.predecessors(n))]
        if first and sum(max(height[n] for n in first) - height[n] for n in first) > budget:
            first = []
        return inputs, first

    # -- caption and legend --------------------------------------------------------
    def caption_texts(self, k: int | None) -> list[str]:
        """The caption and chain-rule lines of step ``k`` (``None``: final view), unwrapped."""
        G = self.graph
        if not hasattr(self, "_notes"):
            self._notes = note_lines(self)
        if k is None and not G.graph.get("backward_ran", True):
            k = int(G.graph["default_step"])
            return [tx.caption(G, k, self.lang), self.word("caption.not_run"), *self._notes]
        if k is None:
            st = final_state(G)
            root = tx.name(G, G.graph["root"])
            ins = sorted((n for n in self.order if self.kind(n) == "input"),  # as drawn
                         key=lambda n: (self._reading.get(n, (0.0, 0.0)),
                                        [int(p) if p.isdigit() else p
                                         for p in re.split(r"(\d+)", tx.name(G, n))]))
            parts = [f"∂{root}/∂{tx.name(G, n)} = {self.num(st.grad.get(n))}" for n in ins[:6]]
            grads = ["   ".join(parts) + (" …" if len(ins) > 6 else "")] if parts else []
            return [tx.caption(G, None, self.lang), *grads, *self._notes]
        return [tx.caption(G, k, self.lang),
                *tx.chain_rule(G, k, self.decimals, self.trim, self.lang,
                               order=lambda n: self._reading.get(n, (0.0, 0.0))),
                *params_line(self, k), *self._notes]

    def caption_lines(self, k: int | None) -> list[str]:
        """:meth:`caption_texts` as drawn: long lines wrap before an ``=``."""
        if k not in self._wrapped:
            c = self.preset.caption
            lines = self.caption_texts(k)
            out = [lines[0]]
            for line in lines[1:]:
                sep = " = " if "=" in line.split("   ")[0].split(" = ", 1)[-1] else "   "
                sep = sep if sep in line else " "  # a note: between words
                out += _wrap(line, self._wrap_at - self.badge_width - c, c, sep)
            self._wrapped[k] = out
        return self._wrapped[k]

    @property
    def badge_width(self) -> float:
        if not hasattr(self, "_badge"):
            c = self.preset.caption
            words = [self.word(f"phase.{w}")
                     for w in ("inputs", "forward", "seed", "backward", "final")]
            self._badge = max(width(w, c * _ROW, True) for w in words) + c
        return self._badge

    def legend_texts(self) -> list[str]:
        if not self.legend:
            return []
        lines = [self.word("legend.edge_amount" if self.collapsed else "legend.edge"),
                 *([self.word("legend.inputs")] if self.inrows else []),
                 self.word("legend.arrows"),
                 self.word("legend.fill", scale=self.num(self.looks.scale)) + " · "
                 + self.word("legend.unreached")]
        if not all(on for _, on in self.graph.nodes(data="on_path", default=True)):
            lines.append(self.word("legend.offpath"))
        if self.caption and not self.collapsed:
            G = self.graph
            lines.append(self.word("legend.caption", root=tx.name(G, G.graph["root"])))
        return lines

    def legend_lines(self) -> list[str]:
        """:meth:`legend_texts` as drawn: wrapped between words to the caption's width."""
        return self._legend

    # -- placing shapes ----------------------------------------------------------------
    def _place(self, geo: gm.Geometry) -> None:
        p = self.preset
        margin = p.font
        c = p.caption
        self._wrap_at = max(geo.width, 40 * c)
        if p.fit is not None and p.fit[1] is not None:  # a slide: wrap to one page's width
            self._wrap_at = min(self._wrap_at, p.fit[0] * smallest_size(p) / p.fit[2]
                                - 2 * margin)
        self._wrapped: dict[int | None, list[str]] = {}
        # the picture's reading order: top to bottom (LR), left to right (TB)
        along = (lambda b: (b[1], b[0])) if self.rankdir == "LR" else (lambda b: (b[0], b[1]))
        self._reading = {n: along(b) for n, b in geo.nodes.items()}
        cap_w = 0.0
        self._lines = 0
        if self.caption:
            for k in [*range(self.last + 1), None]:
                lines = self.caption_lines(k)
                self._lines = max(self._lines, len(lines))
                cap_w = max([cap_w, width(lines[0], c, True)] + [width(x, c) for x in lines[1:]])
            cap_w += self.badge_width + c
        cap_h = self._lines * c * 1.45
        leg = self._legend = [piece for line in self.legend_texts()
                              for piece in _wrap(line, self._wrap_at, p.legend, " ")]
        leg_h = len(leg) * p.legend * 1.45
        inner_w = max(geo.width, cap_w, *(width(s, p.legend) for s in leg))
        self.width = round(inner_w + 2 * margin, 2)
        top = margin + cap_h + (p.caption * 0.6 if cap_h else 0)
        self.height = round(top + geo.height + (p.legend * 0.8 + leg_h if leg else 0) + margin, 2)
        self.graph_box = (margin + (inner_w - geo.width) / 2, top, geo.width, geo.height)
        dx, dy = self.graph_box[:2]
        if self.caption:
            place_caption(self, margin, margin)
        place_edges(self, geo, dx, dy)
        place_nodes(self, geo, dx, dy)
        if leg:
            place_legend(self, margin, self.height - margin - leg_h, leg)
        self.ids = {s.id for s in self.shapes}


def _param_cols(rows: list[Any]) -> int:
    """Parameter cells per row of a group box: two once a neuron has four or more."""
    return 2 if len(rows) >= 4 else 1


def _wrap(line: str, room: float, size: float, sep: str = " = ") -> list[str]:
    """``line`` in pieces no wider than ``room`` where it can, cut at ``sep``; with
    ``" = "`` each further piece starts with an indented ``=``.

    >>> _wrap("∂q/∂a += b × u.grad = 3 × 1 = 3", 130, 10)
    ['∂q/∂a += b × u.grad', '    = 3 × 1 = 3']
    >>> _wrap("∂q/∂a = 1   ∂q/∂b = 2", 60, 10, "   ")
    ['∂q/∂a = 1', '∂q/∂b = 2']
    """
    parts = line.split(sep)
    lead = "    = " if sep == " = " else ""
    out: list[str] = []
    cur = parts[0]
    # widths add up in whole units: each piece is measured once, not each line joined
    now, gap, indent = units(cur), units(sep), units(lead)
    for part in parts[1:]:
        more = units(part)
        if (now + gap + more) * size / 1000 <= room:
            cur, now = cur + sep + part, now + gap + more
            continue
        out.append(cur)
        cur, now = lead + part, indent + more
    out.append(cur)
    return out


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
