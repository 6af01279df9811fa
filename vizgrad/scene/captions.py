"""The words around a scene's graph: the caption and chain-rule block on top, the legend below.

Each function reads a finished :class:`~vizgrad.scene.plan.Plan` and, for a caption, where
the layout put each node (``reading``: the chain rule's terms and the final view's inputs
follow the picture's reading order). The scene keeps the wrapped lines of every step, so
its looks never wrap a line again::

    >>> from vizgrad import examples
    >>> from vizgrad.scene.plan import plan
    >>> p = plan(examples.graph("fork"))
    >>> caption_texts(p, {}, 7)[1]
    'a.grad += b × u.grad = 3 × 1 = 3   (−6 → −3)'
    >>> legend_texts(p)[-1].endswith("x.grad is ∂q/∂x")
    True
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Mapping

from ..style import text as tx
from ..style.folded import params_text
from ..style.metrics import units
from .contributions import final_state
from .groups import params_line

if TYPE_CHECKING:
    from ..style.presets import Preset
    from .plan import Plan

__all__ = ["caption_groups", "caption_texts", "legend_texts", "wrap", "wrap_caption"]

Reading = Mapping[str, tuple[float, float]]


def caption_texts(scene: Plan, reading: Reading, k: int | None,
                  steps: Any = None) -> list[str]:
    """The caption and chain-rule lines of step ``k`` (``None``: final view), unwrapped;
    ``reading``: each node's place in the picture's reading order. ``steps``: a picture of
    groups opened in place counts the collapsed picture's steps (its
    :class:`~vizgrad.scene.opened.Opened` ``steps`` and ``base_last``), as the player's
    counter does: "step 12 / 13 (inside L0/N1: 1 of 5)"."""
    lines = _texts(scene, reading, k)
    if steps is None or k is None or not lines:
        return lines
    table, base_last = steps
    own = scene.word("caption.step", k=k, n=scene.last)
    K, i, n, path = table[k]
    said = scene.word("caption.step", k=K, n=base_last)
    if path:
        said += " " + scene.word("player.inside", path=path, i=i, n=n)
    if lines[0].startswith(own):
        lines = [said + lines[0][len(own):], *lines[1:]]
    return lines


def _texts(scene: Plan, reading: Reading, k: int | None) -> list[str]:
    G = scene.facts
    notes = list(scene.notes)
    if k is None and not G.graph.get("backward_ran", True):
        k = int(G.graph["default_step"])
        return [tx.caption(G, k, scene.lang), scene.word("caption.not_run"), *notes]
    if k is None:
        st = final_state(G)
        root = tx.name(G, G.graph["root"])
        ins = _in_order(G, sorted((n for n in scene.order if scene.kind(n) == "input"),
                                  key=lambda n: (reading.get(n, (0.0, 0.0)), tx.name(G, n))))
        check = scene.contributions.final
        wrong = {w[0]: w for w in check["wrong"]} if check and check["status"] == "disagree" \
            else {}
        parts = [f"∂{root}/∂{tx.name(G, n)} = {scene.num(st.grad.get(n))}"
                 + (" ⚠" if n in wrong else "") for n in ins[:6]]
        grads = ["   ".join(parts) + (" …" if len(ins) > 6 else "")] if parts else []
        grads += _grid_final(scene, root)
        head = scene.word("caption.final_wrong") if wrong else tx.caption(G, None, scene.lang)
        return [head, *grads, *_final_notes(scene, root, wrong, check), *notes]
    return [tx.caption(G, k, scene.lang),
            *tx.chain_rule(G, k, scene.decimals, scene.trim, scene.lang,
                           order=lambda n: reading.get(n, (0.0, 0.0))),
            *_shares(scene, k),
            *params_line(G, k, scene, scene.params, scene.params_done), *_radd(scene, k),
            *notes]


def _shares(scene: Plan, k: int) -> list[str]:
    """A line for each contribution of step ``k`` that reached a box's parameters apart from
    its outputs (an L2 penalty's ``2αp``): their sum and its largest term."""
    G = scene.facts
    lines = [params_text(c, tx.name(G, c["source"]), tx.name(G, c["target"]), scene.decimals,
                         scene.trim, scene.lang)
             for c in G.graph["steps"][k].get("contributions", ())]
    return [line for line in lines if line]


def _grid_final(scene: Plan, root: str) -> list[str]:
    """The final view's line on a batch's inputs: the marked sample's gradients."""
    out = []
    for n in scene.order:
        m = scene.matrices.get(n, (None,))[0]
        if scene.kind(n) == "inputs" and m is not None and m.sample in m.neurons:
            row = [c for c in m.cells if c.row == m.neurons.index(m.sample)]
            out.append(scene.word("final.inputs", root=root, s=m.sample,
                                  values=", ".join(scene.num(c.grad) for c in row),
                                  sample=scene.word("chain.sample", s=m.sample)))
    return out


def _radd(scene: Plan, k: int) -> list[str]:
    """At the step of an addition of a constant 0 (what Python's ``sum()`` leaves), why."""
    G = scene.facts
    node = G.graph["steps"][k].get("node")
    if node is None or node not in G or G.nodes[node].get("op") != "+":
        return []
    zero = any(G.nodes[u].get("kind") == "const" and G.nodes[u].get("data") == 0
               for u in G.predecessors(node))
    return [scene.word("note.radd", made=tx.name(G, node))] if zero else []


def _in_order(G: Any, drawn: list[str]) -> list[str]:
    """The inputs as drawn, but each family of numbered names (``z0`` … ``z3``) in the order of
    its numbers within the places the family takes: ``z0, z3, z2, z1`` reads z0, z1, z2, z3."""
    families: dict[str, list[int]] = {}
    for i, n in enumerate(drawn):
        families.setdefault(re.sub(r"\d+$", "", tx.name(G, n)), []).append(i)
    out = list(drawn)
    for places in families.values():
        members = sorted((drawn[i] for i in places), key=lambda n: [
            int(p) if p.isdigit() else p for p in re.split(r"(\d+)", tx.name(G, n))])
        for i, n in zip(places, members):
            out[i] = n
    return out


def _final_notes(scene: Plan, root: str, wrong: dict[str, Any], check: Any) -> list[str]:
    """The final view's words on its check against central differences."""
    G = scene.facts
    if check is None:
        return []
    if check["status"] == "agree" and check.get("kinks"):  # relu at 0: not checkable there
        return [scene.word("final.checked_kinks", error=tx.fmt(check["largest"], 1, trim=True),
                           names=", ".join(tx.name(G, n) for n in check["kinks"]))]
    if check["status"] == "agree":
        return [scene.word("final.checked", error=tx.fmt(check["largest"], 1, trim=True))]
    if check["status"] == "not_checked":
        if check.get("folded"):
            return [scene.word("final.not_checked_folded")]
        return [scene.word("final.not_checked_op", op=check["op"]) if check["op"] else
                scene.word("final.not_checked")]
    key = "final.overwritten" if check["overwrote"] else "final.disagrees"
    places = max(scene.decimals, 4)
    return ["⚠ " + scene.word(key, d=f"∂{root}/∂{tx.name(G, n)}",
                              grad=tx.fmt(b, places, trim=True),
                              central=tx.fmt(x, places, trim=True))
            for n, b, x in wrong.values()]


def wrap_caption(lines: list[str], preset: Preset, room: float) -> list[str]:
    """A step's caption ``lines`` (:func:`caption_texts`) as drawn: long lines wrap before an
    ``=`` to ``room`` points (the caption's width, less the badge's)."""
    return [row for rows in caption_groups(lines, preset, room) for row in rows]


def caption_groups(lines: list[str], preset: Preset, room: float) -> list[list[str]]:
    """The rows of :func:`wrap_caption`, one list per line of ``lines`` (a slide that keeps
    some of the rows keeps whole lines)."""
    c = preset.caption
    room -= c
    out = [[lines[0]]]
    for line in lines[1:]:
        if units(line) * c / 1000 <= room:  # it fits whole: no piece of it would wrap
            out.append([line])
            continue
        sep = " = " if "=" in line.split("   ")[0].split(" = ", 1)[-1] else "   "
        sep = sep if sep in line and not line.startswith("⚠") else " "  # a note: between words
        rows: list[str] = []
        for piece in wrap(line, room, c, sep):  # a piece still too wide: between words
            wide = units(piece) * c / 1000 > room and " " in piece.strip()
            rows += wrap(piece, room, c, " ") if wide else [piece]
        out.append(rows)
    return out


def legend_texts(scene: Plan) -> list[str]:
    """The legend's lines, unwrapped (none without a legend)."""
    if not scene.legend:
        return []
    fit = scene.preset.fit
    slide = fit is not None and fit[1] is not None
    if slide:  # a slide: one short line, and the warnings
        lines = [scene.word("legend.slide_amount" if scene.collapsed else "legend.slide")]
    else:
        lines = [scene.word("legend.edge_amount" if scene.collapsed else "legend.edge"),
                 *([scene.word("legend.inputs")] if scene.inrows else []),
                 *([scene.word("legend.grid")] if any(m.inputs for m, _ in
                                                      scene.matrices.values()) else []),
                 scene.word("legend.arrows"),
                 scene.word("legend.fill", scale=scene.num(scene.scale)) + " · "
                 + scene.word("legend.unreached")]
    if not all(on for _, on in scene.facts.nodes(data="on_path", default=True)):
        lines.append(scene.word("legend.offpath"))
    if any(c.get("observed") for c in scene.contributions.by_edge.values()):
        lines.append(scene.word("legend.observed"))
    if scene.collapsed and any(c.get("count", 1) > 1 and c.get("grads") is None
                               for c in scene.contributions.by_edge.values()):
        lines.append(scene.word("legend.sum"))
    final = scene.contributions.final
    if scene.contributions.warned or final is not None and final["status"] == "disagree":
        lines.append(scene.word("legend.warning"))
    if scene.caption and not scene.collapsed and not slide:
        G = scene.facts
        lines.append(scene.word("legend.caption", root=tx.name(G, G.graph["root"])))
    return lines


def wrap(line: str, room: float, size: float, sep: str = " = ") -> list[str]:
    """``line`` in pieces no wider than ``room`` where it can, cut at ``sep``; with
    ``" = "`` each further piece starts with an indented ``=``.

    >>> wrap("∂q/∂a += b × u.grad = 3 × 1 = 3", 130, 10)
    ['∂q/∂a += b × u.grad', '    = 3 × 1 = 3']
    >>> wrap("∂q/∂a = 1   ∂q/∂b = 2", 60, 10, "   ")
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
