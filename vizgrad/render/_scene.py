"""The figure behind animation frames: built once, updated per step.

:class:`Scene` lays the graph out once with Graphviz (via
:func:`vizgrad.render.layout.run_layout`), creates every matplotlib artist
once (boxes, texts, edges, edge labels, table rows, captions) and
:meth:`Scene.show` only changes texts, colours and visibility::

    >>> from vizgrad import Value, to_networkx
    >>> from vizgrad.tracing import replay
    >>> a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    >>> G = to_networkx(a * b)
    >>> scene = Scene(G, Options.make())
    >>> scene.show(replay(G.graph["steps"], 0))
    >>> scene.node_texts("v2")
    ('v2 (×)', 'data pending', 'grad —')
    >>> scene.show(replay(G.graph["steps"], 3))
    >>> scene.node_texts("v0"), scene.active_node()
    (('a', 'data -2.0000', 'grad 3.0000'), 'v2')
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, fields
from typing import Any

from ..exceptions import OptionError
from ..tracing import State
from . import text as tx
from . import theme as th
from ._glyphs import PathText
from ._positions import CHAR_EM, LINE_EM, edge_ids, layout_dot, parse_layout
from ._redraw import Redrawer

__all__ = ["Options", "Scene"]

_NODE_FONT = 10.0  # layout points
_EDGE_FONT = 9.0
_PAD = 6.0
_MIN_PX = 6.2  # box text less tall in pixels is hidden; the table still has the numbers
_TABLE_FONT = 10.0
_SANS = "DejaVu Sans"
_OPS = {"+": "+", "*": "×"}


@dataclass(frozen=True)
class Options:
    """Validated drawing options; see :func:`vizgrad.frames`."""

    size: tuple[float, float] | None = None
    dpi: float = 100.0
    theme: str = "light"
    decimals: int = 4
    rankdir: str = "LR"
    backend: str | None = None
    timeout: float | None = None
    table_rows: int = 30

    @classmethod
    def make(cls, **opts: Any) -> Options:
        """Check every option; unknown names and bad values raise OptionError."""
        names = [f.name for f in fields(cls)]
        unknown = sorted(set(opts) - set(names))
        if unknown:
            raise OptionError(f"unknown option {unknown[0]!r}; options are {names}")
        o = cls(**opts)
        if o.size is not None:
            ok = (isinstance(o.size, (tuple, list)) and len(o.size) == 2
                  and all(_positive(v) and v <= 100 for v in o.size))
            if not ok:
                raise OptionError(f"size must be (width, height) in inches, each in (0, 100], "
                                  f"got {o.size!r}")
        if not _positive(o.dpi) or o.dpi > 1000:
            raise OptionError(f"dpi must be a number in (0, 1000], got {o.dpi!r}")
        d = o.decimals
        if not isinstance(d, int) or isinstance(d, bool) or not 0 <= d <= 12:
            raise OptionError(f"decimals must be an integer 0..12, got {o.decimals!r}")
        if o.timeout is not None and not _positive(o.timeout):
            raise OptionError(f"timeout must be a positive number of seconds, got {o.timeout!r}")
        if o.rankdir not in ("LR", "TB", "RL", "BT"):
            raise OptionError(f"rankdir must be one of LR, TB, RL, BT, got {o.rankdir!r}")
        if not isinstance(o.table_rows, int) or isinstance(o.table_rows, bool) or o.table_rows < 0:
            raise OptionError(f"table_rows must be a whole number ≥ 0, got {o.table_rows!r}")
        th.get(o.theme)
        return o


def _positive(v: Any) -> bool:
    return not isinstance(v, bool) and isinstance(v, (int, float)) and 0 < v < math.inf


def _signed(x: float, decimals: int) -> str:
    return f"- {tx.fmt(-x, decimals)}" if x < 0 else f"+ {tx.fmt(x, decimals)}"


def edge_labels(G: Any, decimals: int) -> list[list[tuple[str, str, str, float]]]:
    """Per step: ``(edge id, local × upstream = amount, running total, amount)``.

    The running total is what the target holds as this contribution arrives:
    ``a: -6.0000`` the first time, ``a: -6.0000 + 3.0000 = -3.0000`` the next.
    """
    ids = edge_ids(G)
    reached: set[str] = set()
    out = []
    for step in G.graph["steps"]:
        labels = []
        if step["kind"] == "seed":
            reached.add(step["node"])
        for c in step.get("contributions", []):
            t = c["target"]
            who = tx.name(G, t)
            if c.get("overwrote"):
                total = (f"{who} = {tx.fmt(c['after'], decimals)} "
                         f"(overwrote {tx.fmt(c['before'], decimals)})")
            elif t in reached:
                total = (f"{who}: {tx.fmt(c['before'], decimals)} {_signed(c['amount'], decimals)}"
                         f" = {tx.fmt(c['after'], decimals)}")
            else:
                total = f"{who}: {tx.fmt(c['after'], decimals)}"
            reached.add(t)
            labels.append((ids[(t, c["source"], c["slot"])], tx.contribution_text(c, decimals),
                           total, c["amount"]))
        out.append(labels)
    return out


def _title(G: Any, n: str) -> str:
    attrs = G.nodes[n]
    op = str(attrs.get("op") or "")
    if attrs.get("kind") == "const":
        return f"{tx.name(G, n)} (const)"
    return f"{tx.name(G, n)} ({_OPS.get(op, op)})" if op else tx.name(G, n)


class Scene:
    """A figure with one artist per box, text, edge and table cell; see the module doc."""

    def __init__(self, G: Any, opts: Options) -> None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        from .layout import run_layout

        self.G, self.opts, self.theme = G, opts, th.get(opts.theme)
        d = opts.decimals
        self.order = sorted(G.nodes, key=lambda n: G.nodes[n].get("order", 0))
        self.labels = edge_labels(G, d)
        grads = [s.get("grad") for s in G.graph["steps"]] + [
            c["after"] for s in G.graph["steps"] for c in s.get("contributions", [])]
        finite = [abs(g) for g in grads if g is not None and math.isfinite(g)]
        self.scale = max(finite, default=1.0) or 1.0
        self.titles = {n: _title(G, n) for n in self.order}
        self.data_text = {n: tx.fmt(G.nodes[n]["data"], d) for n in self.order}
        width = max([len(t) for t in self.titles.values()]
                    + [5 + len(self.data_text[n]) for n in self.order]
                    + [5 + len(tx.fmt(g, d)) for g in grads if g is not None] + [12])
        box = (width * CHAR_EM * _NODE_FONT + 2 * _PAD, 3 * LINE_EM * _NODE_FONT + 2 * _PAD)
        chars = max([max(len(a), len(b)) for s in self.labels for _, a, b, _ in s], default=0)
        label = (chars, 2) if chars else (1, 1)
        dot = layout_dot(G, box=box, label=label, font=_EDGE_FONT, rankdir=opts.rankdir)
        limit = {} if opts.timeout is None else {"timeout": opts.timeout}
        self.geo = parse_layout(run_layout(dot, fmt="json", backend=opts.backend, **limit))
        self.fig = Figure(dpi=100, facecolor=self.theme.background)
        self.canvas = FigureCanvasAgg(self.fig)
        self._chain_lines = max([len(tx.chain_rule(G, k, d)) for k in range(len(self.labels))]
                                + [1])
        self._geometry()
        self.build()

    # -- geometry -------------------------------------------------------------
    def _table_cols(self) -> tuple[int, int, int]:
        d = self.opts.decimals
        names = max([len(tx.name(self.G, n)) for n in self.order] + [4])
        data = max([len(v) for v in self.data_text.values()] + [len(tx.PENDING), 4])
        grad = max([len(tx.fmt(g, d)) for s in self.G.graph["steps"]
                    for g in [s.get("grad")] + [c["after"] for c in s.get("contributions", [])]
                    if g is not None] + [4])
        return names, data, grad

    def _geometry(self) -> None:
        o, geo = self.opts, self.geo

        def inch(em: float, font: float) -> float:  # a length in em of a font → inches
            return em * font / 72

        self.cols = self._table_cols()
        rows = min(len(self.order), o.table_rows)
        self.rows = rows if rows >= len(self.order) else max(rows - 1, 0)
        self.table_w = inch((sum(self.cols) + 4) * CHAR_EM, _TABLE_FONT) if rows else 0.0
        self.row_h = inch(1.45, _TABLE_FONT)
        table_h = (rows + 1) * self.row_h
        m, cap = 0.2, inch(2.2, 13)
        chain = self._chain_lines * inch(1.5, 10) + 0.1
        gap = 0.3 if rows else 0.0
        gw, gh = geo.width / 72, geo.height / 72
        if o.size is None:
            s = min(1.25, 15 / max(gw, 1e-9), 7.5 / max(gh, 1e-9))
            W = 2 * m + gw * s + gap + self.table_w
            H = 2 * m + cap + chain + max(gh * s, table_h)
        else:
            W, H = o.size
            aw, ah = W - 2 * m - gap - self.table_w, H - 2 * m - cap - chain
            if aw <= 0.5 or ah <= 0.5:
                raise OptionError(
                    f"size {W}x{H} in leaves no room for the graph beside the table and "
                    f"captions; use at least {2 * m + gap + self.table_w + 1:.1f}x"
                    f"{2 * m + cap + chain + 1:.1f} or pass table_rows=0"
                )
            s = min(aw / max(gw, 1e-9), ah / max(gh, 1e-9))
        self.s, self.W, self.H, self.m, self.cap, self.chain = s, W, H, m, cap, chain
        self.fig.set_size_inches(W, H)
        self.dpi = o.dpi
        self.fig.set_dpi(o.dpi)
        avail_h = H - 2 * m - cap - chain
        self.graph_rect = (m / W, (m + chain + (avail_h - gh * s) / 2) / H, gw * s / W, gh * s / H)
        self.table_top = H - m - cap
        self.show_text = _NODE_FONT * s * o.dpi / 72 >= _MIN_PX

    # -- artists --------------------------------------------------------------
    def build(self) -> None:
        """Create every artist (once; the naive benchmark calls it per frame)."""
        from matplotlib.patches import FancyBboxPatch, PathPatch, Polygon, Rectangle
        from matplotlib.path import Path as MPath

        fig, t, s = self.fig, self.theme, self.s
        self.ax = ax = fig.add_axes(self.graph_rect, frameon=False)
        ax.set_axis_off()
        ax.set_xlim(0, self.geo.width)
        ax.set_ylim(0, self.geo.height)
        self.edges: dict[str, tuple[Any, Any, Any, Any]] = {}
        for eid in edge_ids(self.G).values():
            e = self.geo.edges.get(eid)
            if e is None or len(e.points) < 2:
                continue
            codes = [MPath.MOVETO] + [MPath.CURVE4] * (len(e.points) - 1)
            line = ax.add_artist(PathPatch(MPath(e.points, codes), fill=False, lw=1.0 * s,
                                          ec=t.edge, capstyle="butt", zorder=1))
            head = None
            if e.tip is not None:
                (x0, y0), (x1, y1) = e.points[-1], e.tip
                nx_, ny_ = (y0 - y1) * 0.35, (x1 - x0) * 0.35
                head = ax.add_artist(Polygon([(x1, y1), (x0 + nx_, y0 + ny_), (x0 - nx_, y0 - ny_)],
                                            closed=True, fc=t.edge, ec="none", zorder=1))
            lx, ly = e.label or e.points[len(e.points) // 2]
            bg = ax.add_artist(Rectangle((lx, ly - LINE_EM * _EDGE_FONT), 0, 2.4 * _EDGE_FONT,
                                        fc=t.background, ec="none", visible=False, zorder=1.5))
            lab = ax.add_artist(PathText(lx, ly, "", size=_EDGE_FONT, linespacing=LINE_EM,
                                        color=t.text, visible=False, zorder=1.6))
            self.edges[eid] = (line, head, lab, bg)
        self.in_edges = {n: [eid for (u, v, _), eid in edge_ids(self.G).items() if v == n]
                         for n in self.order}
        self.boxes: dict[str, Any] = {}
        self.texts: dict[str, tuple[Any, Any, Any]] = {}
        lh = LINE_EM * _NODE_FONT
        for n in self.order:
            x, y, w, h = self.geo.nodes[n]
            self.boxes[n] = ax.add_artist(FancyBboxPatch(
                (x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0,rounding_size=4",
                lw=1.0 * s, ec=t.border, fc=t.node_fill, zorder=2))
            kw: dict[str, Any] = dict(size=_NODE_FONT, color=t.text, visible=self.show_text,
                                      zorder=2.5)
            self.texts[n] = (ax.add_artist(PathText(x, y + lh, self.titles[n], bold=True, **kw)),
                             ax.add_artist(PathText(x, y, "", **kw)),
                             ax.add_artist(PathText(x, y - lh, "", **kw)))
        # caption, chain rule, table (figure artists placed in inches)
        W, H, m = self.W, self.H, self.m
        inches = fig.dpi_scale_trans
        self.caption = fig.add_artist(PathText(m, H - m, "", size=13 / 72, ha="left", va="top",
                                               color=t.text, transform=inches, zorder=2))
        self.chain_text = fig.add_artist(PathText(
            m, m + self.chain - 0.05, "", size=10 / 72, ha="left", va="top", linespacing=1.5,
            color=t.text, transform=inches, zorder=2))
        if not self.show_text:
            fig.text(1 - m / W, m / H, "too small for labels: see the table, or pass a larger "
                     "size= or decimals=2", ha="right", va="bottom", family=_SANS, fontsize=8,
                     color=t.muted)
        self._legend(H - m - 0.1)
        self.table: list[tuple[Any, ...]] = []
        self.row_bg = None
        if self.table_w:
            x0, (cn, cd, cg) = W - m - self.table_w, self.cols
            cw = CHAR_EM * _TABLE_FONT / 72
            xs = (x0, x0 + (cn + 2 + cd) * cw, x0 + (cn + 4 + cd + cg) * cw)

            def row_y(i: int) -> float:  # the middle of table row i, in inches
                return self.table_top - (i + 0.5) * self.row_h

            self.row_bg = fig.add_artist(Rectangle(
                (x0 - cw / 2, 0), self.table_w + cw, self.row_h, transform=inches,
                fc=th.mix(t.background, t.active, 0.22), ec="none", visible=False, zorder=1))
            kw = {"size": _TABLE_FONT / 72, "transform": inches, "zorder": 2}
            for name, x, ha in zip(("node", "data", "grad"), xs, ("left", "right", "right")):
                fig.add_artist(PathText(x, row_y(0), name, ha=ha, color=t.muted, bold=True, **kw))
            for i in range(self.rows + (self.rows < len(self.order))):
                self.table.append(tuple(
                    fig.add_artist(PathText(x, row_y(i + 1), "", ha=ha, color=t.text, **kw))
                    for x, ha in zip(xs, ("left", "right", "right"))))
            self._row_y = [row_y(i + 1) - self.row_h / 2 for i in range(len(self.table))]
        for a in [*self.ax.texts, *fig.texts]:
            a.set_clip_path(None)  # text is never clipped to the axes, as in a full draw
        # draw order of a full draw: axes patches, axes texts, figure artists, figure texts
        order = sorted([*self.ax.patches, *self.ax.texts], key=lambda a: a.get_zorder())
        order += sorted([*fig.artists, *fig.texts], key=lambda a: a.get_zorder())
        fixed = [*self.boxes.values(), *(a for e in self.edges.values() for a in e[:2] if a)]
        self.redraw = Redrawer(self.canvas, order, fixed)
        self._set = self.redraw.set

    def _legend(self, y: float) -> None:
        """Key to the colours, right-aligned on the caption's line (inches)."""
        from matplotlib.patches import Rectangle

        t, x, em = self.theme, self.W - self.m, 9 / 72
        for label, fc, ec in (("active", t.background, t.active),
                              ("grad > 0", th.grad_color(self.scale, self.scale, t), t.border),
                              ("grad < 0", th.grad_color(-self.scale, self.scale, t), t.border)):
            x -= len(label) * CHAR_EM * em
            self.fig.add_artist(PathText(x, y, label, size=em, ha="left", color=t.muted,
                                         transform=self.fig.dpi_scale_trans, zorder=2))
            x -= 0.24
            self.fig.add_artist(Rectangle((x, y - 0.07), 0.17, 0.14, fc=fc, ec=ec, lw=1.4,
                                          transform=self.fig.dpi_scale_trans, zorder=2))
            x -= 0.2

    def clear(self) -> None:
        """Remove every artist (for the naive redraw-everything baseline)."""
        self.fig.clear()

    # -- per step -------------------------------------------------------------
    def show(self, state: State) -> None:
        """Set every artist to the state after ``state.step``."""
        G, t, d, k = self.G, self.theme, self.opts.decimals, state.step
        kind, active = state.kind, state.active
        hot = set(self.in_edges.get(active, ())) if kind in ("forward", "backward") else set()
        for eid, (line, head, lab, bg) in self.edges.items():
            color = t.active if eid in hot else t.edge
            self._set(line, edgecolor=color, linewidth=(2.2 if eid in hot else 1.0) * self.s)
            if head is not None:
                self._set(head, facecolor=color)
            self._set(lab, visible=False)
            self._set(bg, visible=False)
        for eid, first, total, amount in self.labels[k]:
            if eid in self.edges:
                lab, bg = self.edges[eid][2:]
                self._set(lab, text=f"{first}\n{total}", color=th.edge_color(amount, t),
                          visible=self.show_text)
                self._set(bg, x=lab.left - 2, visible=self.show_text,
                          width=lab.width + 4)
        for n in self.order:
            computed = n in state.data
            grad = state.grad.get(n)
            attrs = G.nodes[n]
            if grad is not None:
                fill = th.grad_color(grad, self.scale, t)
            elif not attrs.get("on_path", True):
                fill = t.offpath_fill
            elif not computed:
                fill = t.background
            else:
                fill = t.op_fill if attrs.get("kind") in ("op", "output") else t.node_fill
            self._set(self.boxes[n], facecolor=fill,
                      edgecolor=t.active if n == active else (t.border if computed else t.muted),
                      linewidth=(2.6 if n == active else 1.0) * self.s,
                      linestyle="-" if computed else "--")
            title, data, gtext = self.texts[n]
            color = t.text if computed else t.muted
            self._set(title, color=color)
            self._set(data, text=f"data {tx.fmt(state.data.get(n), d, tx.PENDING)}", color=color)
            self._set(gtext, text=f"grad {tx.fmt(grad, d)}", color=color)
        self._set(self.caption, text=tx.caption(G, k))
        self._set(self.chain_text, text="\n".join(tx.chain_rule(G, k, d)))
        self._show_table(state)

    def _show_table(self, state: State) -> None:
        if not self.table:
            return
        d, t = self.opts.decimals, self.theme
        n_all, rows = len(self.order), self.rows
        pos = self.order.index(state.active) if state.active in self.order else 0
        start = 0 if rows >= n_all else min(max(pos - rows // 2, 0), n_all - rows)
        changed = {c["target"] for c in state.contributions}
        row = None
        for i, (cn, cd, cg) in enumerate(self.table[:rows]):
            n = self.order[start + i]
            row = i if n == state.active else row
            self._set(cn, text=tx.name(self.G, n))
            self._set(cd, text=tx.fmt(state.data.get(n), d, tx.PENDING),
                      color=t.text if n in state.data else t.muted)
            self._set(cg, text=tx.fmt(state.grad.get(n), d),
                      color=t.active if n in changed else (t.text if n in state.grad else t.muted))
        if row is None:
            self._set(self.row_bg, visible=False)
        else:
            self._set(self.row_bg, y=self._row_y[row], visible=True)
        if rows < n_all:
            self._set(self.table[rows][0], text=f"rows {start + 1}–{start + rows} of {n_all}",
                      color=t.muted)

    # -- output ---------------------------------------------------------------
    def image(self) -> Any:
        """The current frame as a Pillow RGB image (only changed pixels are redrawn)."""
        from PIL import Image

        self.redraw.draw()
        w, h = self.canvas.get_width_height()
        return Image.frombuffer("RGBA", (w, h), self.canvas.buffer_rgba(), "raw", "RGBA", 0,
                                1).convert("RGB")

    def png(self) -> bytes:
        """The current frame as PNG bytes (no metadata, so no timestamps)."""
        buf = io.BytesIO()
        self.image().save(buf, format="PNG", compress_level=6)
        return buf.getvalue()

    def svg(self) -> bytes:
        """The current frame as SVG bytes with stable ids and no date."""
        import matplotlib

        buf = io.BytesIO()
        with matplotlib.rc_context({"svg.hashsalt": "vizgrad", "svg.fonttype": "path"}):
            self.fig.savefig(buf, format="svg", metadata={"Date": None},
                             facecolor=self.theme.background)
        self.redraw.invalidate()  # the Agg buffer no longer matches the artists
        return buf.getvalue()

    # -- inspection (tests and doctests) -------------------------------------
    def node_texts(self, n: str) -> tuple[str, str, str]:
        """The three lines of node ``n``'s box."""
        return tuple(a.get_text() for a in self.texts[n])  # type: ignore[return-value]

    def active_node(self) -> str | None:
        """The node whose box is highlighted, if any."""
        found = [n for n, b in self.boxes.items() if b.get_linewidth() > 1.5 * self.s]
        return found[0] if found else None
