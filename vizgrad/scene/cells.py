"""A folded box's cells: the output Values it stands for, each with its own data and grad.

A box of a net run on several samples shows the outputs of the selected sample (a neuron:
one Value; a layer: one Value per neuron), never a sum over samples or over neurons
(:func:`vizgrad.graph.collapse.contract.contract` puts them in the box's ``cells``). A
layer's row is printed in its box as far as it fits (:data:`SHOWN` cells), and whole in the
box's tooltip and in the player's table::

    >>> row_text(["0.1", "−0.2", "0.3", "0.4", "0.5", "0.6"])
    '0.1  −0.2  0.3 … 0.6 (6)'
    >>> row_text(["0.1", "−0.2", "0.3", "0.4", "0.5", "0.6"], room=120.0, size=16.5)
    '0.1 … 0.6 (6)'
    >>> full_text(["N0", "N1"], ["0.1", "−0.2"])
    'N0 0.1 · N1 −0.2'
    >>> import networkx as nx
    >>> G = nx.MultiDiGraph()
    >>> G.add_node("g", label="L1", cells=[["L1/N0", 1.0, 0.5], ["L1/N1[2]", 2.0, 0.0]])
    >>> short_names(G, "g")
    ['N0', 'N1[2]']
"""

from __future__ import annotations

import bisect
from typing import Any

from ..style.metrics import width

__all__ = ["SHOWN", "GradRows", "full_text", "is_row", "row_text", "short_names"]

#: the most cells of a layer's row that its box prints (the first ones and the last); the
#: tooltip and the table give every cell
SHOWN = 4


def is_row(G: Any, n: str) -> bool:
    """True for a box whose selected outputs are several Values (a layer): it shows a row."""
    return len(G.nodes[n].get("cells") or ()) > 1


def row_text(texts: list[str], room: float | None = None, size: float = 0.0) -> str:
    """A row of values, the first :data:`SHOWN` − 1 and the last when there are more, with
    how many there are; given ``room`` (points, the text ``size`` points), fewer of the first
    ones, then the first alone, then the count alone, until it fits."""
    n = len(texts)
    if n <= SHOWN:
        tries = ["  ".join(texts)]
        first = SHOWN - 1 if n == SHOWN else n - 1
    else:
        tries, first = [], SHOWN
    tries += ["  ".join(texts[:k]) + f" … {texts[-1]} ({n})" for k in range(first - 1, 0, -1)]
    if room is None:
        return tries[0]
    tries += [f"{texts[0]} … ({n})", f"… ({n})"]
    return next((t for t in tries if width(t, size) <= room), tries[-1])


def full_text(names: list[str], texts: list[str]) -> str:
    """Every cell of a row with its Value's name (a tooltip, the player's table)."""
    return " · ".join(f"{n} {t}" for n, t in zip(names, texts))


def short_names(G: Any, n: str) -> list[str]:
    """The names of a box's cells inside it: ``N3`` for ``L1.N3`` in box ``L1``, the sample
    kept (``N3[2]``) when the row holds several samples."""
    box = str(G.nodes[n].get("label", ""))
    out = []
    for name, _, _ in G.nodes[n].get("cells") or ():
        text = str(name)
        for prefix in (box.replace("/", ".") + ".", box + "/"):
            if box and text.startswith(prefix):
                text = text[len(prefix):]
                break
        out.append(text)
    return out


class GradRows:
    """For each box of ``order`` that shows a row (:func:`is_row`), its cells' grads after
    every step that sent it a contribution, read once from the steps of ``G``; with
    ``key="grads"``, each batch's inputs' grads (:mod:`vizgrad.graph.collapse.batch`)."""

    def __init__(self, G: Any, order: Any, key: str = "cells") -> None:
        self.steps: dict[str, list[int]] = {}
        self.rows: dict[str, list[list[float]]] = {}
        rows = {n for n in order if key != "cells" or is_row(G, n)}
        for s in G.graph["steps"]:
            for c in s.get("contributions", ()):
                t = c["target"]
                if t in rows and c.get(key) is not None:
                    self.steps.setdefault(t, []).append(s["index"])
                    self.rows.setdefault(t, []).append(list(c[key]))

    def at(self, n: str, k: int | None) -> list[float] | None:
        """The row of grads box ``n`` shows after step ``k`` (``None``: the final view);
        ``None`` before any reached it."""
        steps = self.steps.get(n)
        if not steps:
            return None
        i = len(steps) if k is None else bisect.bisect_right(steps, k)
        return self.rows[n][i - 1] if i else None
