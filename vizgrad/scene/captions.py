"""The words around a scene's graph: the caption and chain-rule block on top, the legend below.

Each function reads a :class:`~vizgrad.scene.scene.Scene`'s public fields only; the
scene keeps the wrapped lines of every step, so its looks never wrap a line again::

    >>> from vizgrad import examples
    >>> from vizgrad.scene.scene import Scene
    >>> scene = Scene(examples.graph("fork"))
    >>> caption_texts(scene, 7)[1]
    'a.grad += b × u.grad = 3 × 1 = 3   (−6 → −3)'
    >>> legend_texts(scene)[-1].endswith("x.grad is ∂q/∂x")
    True
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..style import text as tx
from ..style.metrics import units, width
from .groups import params_line
from .looks import final_state
from .shapes import ROW

if TYPE_CHECKING:
    from ..style.presets import Preset
    from .parts import Drawn

__all__ = ["badge_width", "caption_texts", "legend_texts", "wrap", "wrap_caption"]

PHASES = ("inputs", "forward", "seed", "backward", "final")


def badge_width(preset: Preset, word: Any) -> float:
    """The width of the phase badge: its widest word, in points."""
    c = preset.caption
    return max(width(word(f"phase.{w}"), c * ROW, True) for w in PHASES) + c


def caption_texts(scene: Drawn, k: int | None) -> list[str]:
    """The caption and chain-rule lines of step ``k`` (``None``: final view), unwrapped."""
    G = scene.graph
    notes = list(scene.notes)
    if k is None and not G.graph.get("backward_ran", True):
        k = int(G.graph["default_step"])
        return [tx.caption(G, k, scene.lang), scene.word("caption.not_run"), *notes]
    reading = scene.reading
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
        head = scene.word("caption.final_wrong") if wrong else tx.caption(G, None, scene.lang)
        return [head, *grads, *_final_notes(scene, root, wrong, check), *notes]
    return [tx.caption(G, k, scene.lang),
            *tx.chain_rule(G, k, scene.decimals, scene.trim, scene.lang,
                           order=lambda n: reading.get(n, (0.0, 0.0))),
            *params_line(scene, k), *_radd(scene, k), *notes]


def _radd(scene: Drawn, k: int) -> list[str]:
    """At the step of an addition of a constant 0 (what Python's ``sum()`` leaves), why."""
    G = scene.graph
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


def _final_notes(scene: Drawn, root: str, wrong: dict[str, Any], check: Any) -> list[str]:
    """The final view's words on its check against central differences."""
    G = scene.graph
    if check is None:
        return []
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


def wrap_caption(scene: Drawn, k: int | None) -> list[str]:
    """:func:`caption_texts` as drawn: long lines wrap before an ``=``."""
    c = scene.preset.caption
    lines = scene.caption_texts(k)  # the method: a scene of another kind may say more
    out = [lines[0]]
    for line in lines[1:]:
        sep = " = " if "=" in line.split("   ")[0].split(" = ", 1)[-1] else "   "
        sep = sep if sep in line and not line.startswith("⚠") else " "  # a note: between words
        room = scene.wrap_at - scene.badge_width - c
        for piece in wrap(line, room, c, sep):  # a piece still too wide: between words
            wide = units(piece) * c / 1000 > room and " " in piece.strip()
            out += wrap(piece, room, c, " ") if wide else [piece]
    return out


def legend_texts(scene: Drawn) -> list[str]:
    """The legend's lines, unwrapped (none without a legend)."""
    if not scene.legend:
        return []
    lines = [scene.word("legend.edge_amount" if scene.collapsed else "legend.edge"),
             *([scene.word("legend.inputs")] if scene.inrows else []),
             scene.word("legend.arrows"),
             scene.word("legend.fill", scale=scene.num(scene.scale)) + " · "
             + scene.word("legend.unreached")]
    if not all(on for _, on in scene.graph.nodes(data="on_path", default=True)):
        lines.append(scene.word("legend.offpath"))
    if any(c.get("observed") for c in scene.contributions.by_edge.values()):
        lines.append(scene.word("legend.observed"))
    if scene.collapsed and any(c.get("count", 1) > 1
                               for c in scene.contributions.by_edge.values()):
        lines.append(scene.word("legend.sum"))
    final = scene.contributions.final
    if scene.contributions.warned or final is not None and final["status"] == "disagree":
        lines.append(scene.word("legend.warning"))
    if scene.caption and not scene.collapsed:
        G = scene.graph
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
