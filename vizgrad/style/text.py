"""Words and numbers shared by every renderer: numbers, formulas, captions, chain rules.

All functions read a graph from :func:`vizgrad.to_networkx` (or JSON), never a
Value. Numbers use a true minus sign (U+2212) everywhere. This module writes a step's
caption and phase word and gathers the rest: names, formulas and local derivatives come from
:mod:`.formulas`, the chain rule's lines and a contribution's text from :mod:`.chain`, the
numbers from :mod:`vizgrad.core.numerals`::

    >>> from vizgrad import Value, to_networkx
    >>> a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    >>> u = a * b; u.label = "u"
    >>> q = u * (a + b); q.label = "q"
    >>> G = to_networkx(q)
    >>> caption(G, 7)
    'step 7 / 7 · backward through u = a × b'
    >>> chain_rule(G, 7, trim=True)[0]
    'a.grad += b × u.grad = 3 × 1 = 3   (−6 → −3)'
    >>> caption(G, 7, "zh")
    '步骤 7 / 7 · 反向经过 u = a × b'
    >>> fmt(-2.5), fmt(-2.5, trim=True), fmt(None), fmt(-0.0)
    ('−2.5000', '−2.5', '—', '0.0000')
"""

from __future__ import annotations

from typing import Any

from ..core.numerals import MINUS, NOT_REACHED, SCIENTIFIC, fmt
from ..i18n import t
from ..tracing.names import NAME_LENGTH
from .chain import amount_text, chain_rule, contribution_text, first_arrival
from .formulas import formula, local_rule, name, raw_name, typeset

__all__ = ["amount_text", "caption", "chain_rule", "contribution_text", "first_arrival", "fmt",
           "formula", "local_rule", "name", "phase", "raw_name", "typeset", "MINUS",
           "NAME_LENGTH", "NOT_REACHED", "PENDING", "SCIENTIFIC"]

PENDING = "pending"  # the English word; pictures use t("pending", lang)


def phase(G: Any, k: int | None, lang: str = "en") -> str:
    """The phase word of step ``k`` (``None``: the final view)."""
    if k is None:
        return t("phase.final", lang)
    return t("phase." + G.graph["steps"][k]["kind"], lang)


def caption(G: Any, k: int | None, lang: str = "en") -> str:
    """``step k / N · what happens`` for step ``k``; ``None`` is the final view."""
    steps = G.graph["steps"]
    if k is None:
        return t("caption.final", lang)
    step = steps[k]
    head = t("caption.step", lang, k=k, n=len(steps) - 1) + " · "
    kind = step["kind"]
    if kind == "inputs":
        return head + t("caption.inputs", lang)
    if kind == "seed":
        root = name(G, step["node"])
        return head + t("caption.seed", lang, grad=f"∂{root}/∂{root}")
    return head + t(f"caption.{kind}", lang, formula=formula(G, step["node"]))
