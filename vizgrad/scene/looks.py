"""What each shape of a scene shows after a step: texts, colours, visibility.

A look is a dict of string attributes per shape id: ``text``, ``fill``,
``stroke``, ``sw`` (stroke width), ``dash``, ``hatch`` and ``hidden`` (``"1"``
or ``""``), ``bold``. Every medium reads the same looks, so the SVG, the frames,
the player and the lab show the same picture.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import TYPE_CHECKING, Any, Mapping

from ..tracing.recorder import State
from ..style import text as tx
from . import ids
from .cells import GradRows, full_text, is_row, row_text, short_names
from .contributions import Contributions, final_state
from .groups import box_name, from_label, input_tip, row_labels
from .matrix import matrix_looks
from .shapes import ROW, op_glyph
from ..style.metrics import width
from ..style.theme import edge_color, grad_color

if TYPE_CHECKING:
    from .plan import Plan

__all__ = ["Contributions", "Looks", "final_state"]

Look = dict[str, str]
_ON, _OFF = "1", ""


class Looks:
    """The looks of one picture's shapes: a pure function of its plan, its caption and legend
    lines as drawn and a step's state, with tables read once and never changed.

    Args:
        plan: the drawing's :class:`~vizgrad.scene.plan.Plan` (a Scene is one too).
        captions: each step's caption lines as drawn (``None``: the final view).
        caption_rows: the caption rows every step has room for.
        legend: the legend's lines as drawn.
    """

    __slots__ = ("plan", "captions_drawn", "caption_rows", "legend", "contrib", "made",
                 "scale", "wrong", "rows", "grids", "_edges_of")

    def __init__(self, plan: Plan, captions: Mapping[int | None, tuple[str, ...]],
                 caption_rows: int, legend: tuple[str, ...]) -> None:
        by: dict[str, list[tuple[str, str, int]]] = {}
        for e in plan.edge_texts:
            by.setdefault(e[0], []).append(e)
            by.setdefault(e[1], []).append(e)
        put = object.__setattr__
        put(self, "plan", plan)
        put(self, "captions_drawn", captions)
        put(self, "caption_rows", caption_rows)
        put(self, "legend", legend)
        #: each contribution by its edge, and the step that made it
        put(self, "contrib", plan.contributions.by_edge)
        put(self, "made", plan.contributions.made)
        put(self, "scale", plan.scale)
        #: a layer's row of grads, one per neuron, after each step that reached it
        put(self, "rows", GradRows(plan.facts, plan.order))
        #: a batch's inputs' grads, one per input, after each step that reached them
        put(self, "grids", GradRows(plan.facts, plan.order, "grads"))
        final = plan.contributions.final
        #: the inputs whose final gradient disagrees with its central difference
        put(self, "wrong", frozenset(w[0] for w in final["wrong"]) if final is not None
            and final["status"] == "disagree" else frozenset())
        put(self, "_edges_of", {n: tuple(es) for n, es in by.items()})

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"looks are read-only: cannot assign to {name!r}")

    # -- one look per shape --------------------------------------------------------
    def all(self, k: int | None, st: State) -> dict[str, Look]:
        """Every shape's look after step ``k`` (``None``: final view) in state ``st``."""
        s = self.plan
        out: dict[str, Look] = {}
        ctx = self._context(st)
        for n in s.order:
            out.update(self.node(n, st, ctx))
        for (u, v, slot) in s.edge_texts:
            out.update(self.edge(u, v, slot, st, ctx))
        for n in s.op_sizes:
            out.update(self.out_edge(n, st))
        out.update(self.captions(k, st))
        return out

    def near(self, k: int | None, st: State, nodes: set[str]) -> dict[str, Look]:
        """The looks of the shapes that depend only on ``nodes``: their boxes, op circles,
        operand edges in and out, and the captions (for replaying a step cheaply).

        Every other shape looks as it did, as long as ``nodes`` holds every node the
        step and the one before it touched (see :meth:`touched`).
        """
        s = self.plan
        out: dict[str, Look] = {}
        ctx = self._context(st)
        edges: set[tuple[str, str, int]] = set()
        for n in sorted(nodes):  # sorted: the same order in every process
            if n not in s.facts.nodes:
                continue
            out.update(self.node(n, st, ctx))
            edges.update(self._edges_of.get(n, ()))
            if n in s.op_sizes:
                out.update(self.out_edge(n, st))
        for (u, v, slot) in sorted(edges):
            out.update(self.edge(u, v, slot, st, ctx))
        out.update(self.captions(k, st))
        return out

    @staticmethod
    def touched(step: dict[str, Any]) -> set[str]:
        """The nodes one step acts on: its node, new values, and both ends of its contributions."""
        out = {step["node"]} if step.get("node") is not None else set()
        out.update(step.get("values", {}))
        for c in step.get("contributions", ()):
            out.update((c["source"], c["target"]))
        return out

    def _row_room(self, n: str, *labels: str) -> float | None:
        """The room, in points, for the values of a layer's row in box ``n`` when its matrix
        is compact (its box no wider than the matrix needs, :mod:`.matrix`), else None."""
        s = self.plan
        got = s.matrices.get(n)
        if got is None or not got[1].compact:
            return None
        f = s.preset.font
        return s.box_sizes[n][0] - 2.0 * f - max(width(t, f * ROW) for t in labels)

    def _context(self, st: State) -> dict[str, Any]:
        cur = {(c["source"], c["target"], c["slot"]): c for c in st.contributions}
        final = st.kind == "final"
        return {"cur": cur, "final": final,
                "changed": set() if final else {c["target"] for c in st.contributions}
                | ({st.active} if st.kind == "seed" else set())}

    def node(self, n: str, st: State, ctx: dict[str, Any]) -> dict[str, Look]:
        s, th = self.plan, self.plan.theme
        G = s.facts
        kind = s.kind(n)
        on_path = bool(G.nodes[n].get("on_path", True))
        pending = n not in st.data and kind not in ("const", "stub")
        active = st.active == n
        dim = pending or not on_path
        border = th.active if active else (th.muted if dim else th.border)
        box = {"fill": th.node_fill if on_path else th.offpath_fill, "stroke": border,
               "sw": "3" if active else "1.2", "dash": "5 3" if dim else ""}
        name = box_name(G, n, s.word)
        if kind == "group" and on_path:
            box["fill"] = th.group_fill
            box["sw"] = "3" if active else "2"
        ran = s.contributions.warned_boxes.get(n)
        if ran is not None and (ctx["final"] or st.step >= ran) or ctx["final"] and n in (
                self.wrong):  # its backward is wrong, or its gradient
            box.update(stroke=th.warning, sw="3", dash="")
        out = {ids.box(n): box}
        if kind in ("const", "stub"):
            box["dash"] = "4 3" if kind == "stub" else ""
            out[ids.text(n, "name")] = {"text": name, "fill": th.muted}
            return out
        if kind == "inputs" and n in s.matrices:  # a batch's inputs: each cell its own
            box.update(dash="", stroke=th.active if active else th.border)
            out[ids.text(n, "name")] = {"text": name, "fill": th.text, "bold": _ON}
            out[ids.sep(n)] = {"stroke": th.border, "sw": "0.8", "dash": ""}
            grads = self.grids.at(n, None if ctx["final"] else st.step)
            out.update(matrix_looks(s, n, *s.matrices[n], True, False, on_path,
                                    lambda g: grad_color(g, self.scale, th), grads))
            return out
        grad = st.grad.get(n)
        reached = grad is not None
        text_fill = th.muted if dim else th.text
        out[ids.text(n, "name")] = {"text": name, "fill": text_fill, "bold": _ON}
        out[ids.sep(n)] = {"stroke": border if not active else th.border, "sw": "0.8", "dash": ""}
        data_label, grad_label = row_labels(G, n, s.word)
        out[ids.text(n, "dl")] = {"text": data_label, "fill": th.muted}
        out[ids.text(n, "gl")] = {"text": grad_label, "fill": th.text}
        out[ids.text(n, "data")] = {"text": s.word("pending") if pending else s.num(st.data.get(n)),
                              "fill": th.muted if pending else th.text}
        fill = grad_color(grad if on_path else None, self.scale, th)
        # off the path no gradient is on its way: not hatched like one still to arrive
        out[ids.cell(n, "grad")] = {"fill": fill, "hatch": _OFF if reached or not on_path else _ON,
                              "stroke": "none", "sw": "0", "dash": ""}
        out[ids.text(n, "grad")] = {"text": s.num(grad), "fill": th.text,
                              "bold": _ON if n in ctx["changed"] else _OFF}
        if is_row(G, n):  # a layer: its neurons' own values, one per cell, never their sum
            cells, names = G.nodes[n]["cells"], short_names(G, n)
            row = self.rows.at(n, None if ctx["final"] else st.step)
            texts = {"data": None if pending else [s.num(c[1]) for c in cells],
                     "grad": None if row is None else [s.num(g) for g in row]}
            room = self._row_room(n, data_label, grad_label)
            for slot, got in texts.items():  # the box prints what fits; "full": every cell
                if got is not None:
                    out[ids.text(n, slot)].update(text=row_text(got, room, s.preset.font),
                                                  full=full_text(names, got))
                elif slot == "grad":
                    out[ids.text(n, slot)]["text"] = tx.NOT_REACHED
            if row:  # its colour: the cell of the largest |grad|, a Value's own grad
                out[ids.cell(n, "grad")]["fill"] = grad_color(
                    max(row, key=abs) if on_path else None, self.scale, th)
            box["title"] = "\n".join(f"{label}: {out[ids.text(n, slot)].get('full', '—')}"
                                      for label, slot in zip((data_label, grad_label), texts))
        done = n in s.params_done and st.step >= s.params_done[n] or ctx["final"]
        for i, (label, g) in enumerate(s.params.get(n, ())):
            shown = g if done else None
            out[ids.cell(n, f"p{i}")] = {
                "fill": grad_color(shown if on_path else None, self.scale, th),
                "hatch": _OFF if done else _ON, "stroke": "none", "sw": "0", "dash": ""}
            out[ids.text(n, f"p{i}l")] = {"text": label, "fill": th.text}
            arrived = done and not ctx["final"] and st.step == s.params_done.get(n)
            out[ids.text(n, f"p{i}")] = {"text": "" if g is None else s.num(shown), "fill": th.text,
                                  "bold": _ON if arrived else _OFF}
        if n in s.matrices:  # a layer's weights and biases, one cell each
            arrived = done and not ctx["final"] and st.step == s.params_done.get(n)
            out.update(matrix_looks(s, n, *s.matrices[n], done, arrived, on_path,
                                    lambda g: grad_color(g, self.scale, th)))
        for i, ((u, v, slot), (label, amount)) in enumerate(s.inrows.get(n, ())):
            k = self.made.get((v, u, slot))
            sent = k is not None and (ctx["final"] or st.step >= k)
            c = self.contrib.get((v, u, slot))
            value = c["amount"] if sent and c is not None else None
            out[ids.cell(n, f"i{i}")] = {
                "fill": grad_color(value if on_path else None, self.scale, th),
                "hatch": _OFF if sent or not on_path else _ON,
                "stroke": "none", "sw": "0", "dash": ""}
            tip = input_tip(G, c, s)  # the terms of its parameters' share, if it has one
            if tip:  # … said in its label once sent
                out[ids.cell(n, f"i{i}")]["title"] = tip if sent else ""
                label = from_label(G, c, u, s, sent)
            out[ids.text(n, f"i{i}l")] = {"text": label, "fill": th.text}
            out[ids.text(n, f"i{i}")] = {
                "text": amount if sent else tx.NOT_REACHED, "fill": th.text,
                "bold": _ON if sent and not ctx["final"] and st.step == k else _OFF}
        if n in s.op_sizes:
            out[ids.op(n)] = {"fill": th.op_fill, "stroke": border, "sw": "3" if active else "1.2",
                             "dash": "5 3" if dim else ""}
            out[ids.text(n, "op")] = {"text": op_glyph(str(G.nodes[n].get("op", ""))),
                                "fill": th.muted if dim else th.text}
        return out

    def edge(self, u: str, v: str, slot: int, st: State, ctx: dict[str, Any]) -> dict[str, Look]:
        s, th = self.plan, self.plan.theme
        eid = ids.edge(u, v, slot)
        c = ctx["cur"].get((v, u, slot))
        child_pending = v not in st.data
        on_path = bool(s.facts.nodes[v].get("on_path", True))
        forward_now = st.kind == "forward" and st.active == v
        line = {"stroke": th.edge, "sw": "1.2", "dash": ""}
        fwd, back = {"fill": th.edge, "hidden": _OFF}, {"fill": th.edge, "hidden": _ON}
        label = self.contrib.get((v, u, slot))
        shown = c is not None
        warned = (v, u, slot) in s.contributions.warned
        if shown:  # a bundle into a batch's inputs carries both signs: no sign's colour
            colour = th.warning if warned else edge_color(
                None if c.get("grads") is not None else c["amount"], th)
            line = {"stroke": colour, "sw": "1.8" if ctx["final"] else "3", "dash": ""}
            if not ctx["final"]:
                fwd = {"fill": colour, "hidden": _ON}
                back = {"fill": colour, "hidden": _OFF}
            else:
                fwd = {"fill": colour, "hidden": _OFF}
        elif forward_now:
            line = {"stroke": th.active, "sw": "3", "dash": ""}
            fwd = {"fill": th.active, "hidden": _OFF}
        elif child_pending or not on_path:
            line = {"stroke": th.muted, "sw": "1.2", "dash": "5 3"}
            fwd = {"fill": th.muted, "hidden": _OFF}
        out = {eid: line, ids.arrow(eid, "f"): fwd, ids.arrow(eid, "b"): back}
        if label is not None and s.edge_texts.get((u, v, slot)):
            colour = th.warning if warned else edge_color(label["amount"], th)
            out[ids.edge_label(u, v, slot)] = {
                "text": s.edge_texts[(u, v, slot)] or "", "fill": colour,
                "hidden": _OFF if shown else _ON, "bold": _OFF}
            out[ids.edge_box(u, v, slot)] = {"fill": th.background, "stroke": colour, "sw": "0.8",
                                "hidden": _OFF if shown else _ON, "dash": ""}
        return out

    def out_edge(self, n: str, st: State) -> dict[str, Look]:
        th = self.plan.theme
        eid = ids.op_edge(n)
        dim = n not in st.data or not self.plan.facts.nodes[n].get("on_path", True)
        colour = th.active if (st.kind == "forward" and st.active == n) else (
            th.muted if dim else th.edge)
        return {eid: {"stroke": colour, "sw": "1.2", "dash": "5 3" if dim else ""},
                ids.arrow(eid, "f"): {"fill": colour, "hidden": _OFF}}

    def captions(self, k: int | None, st: State) -> dict[str, Look]:
        s, th = self.plan, self.plan.theme
        out: dict[str, Look] = {}
        if s.caption:
            ran = s.facts.graph.get("backward_ran", True)  # no final view without backward()
            kind = st.kind if k is not None or not ran else "final"
            fill = {"inputs": th.text, "forward": th.active, "seed": th.positive,
                    "backward": th.positive, "final": th.text}.get(kind, th.text)
            out[ids.badge()] = {"fill": fill, "stroke": "none", "sw": "0", "dash": ""}
            out[ids.badge_text()] = {"text": s.word(f"phase.{kind}"), "fill": th.background,
                                     "bold": _ON}
            lines = self.captions_drawn.get(k, ())
            for i in range(self.caption_rows):
                out[ids.caption(i)] = {"text": lines[i] if i < len(lines) else "", "fill": th.text,
                                   "bold": _ON if i == 0 else _OFF}
        for i, line in enumerate(self.legend):
            out[ids.legend(i)] = {"text": line, "fill": th.muted}
        return out

