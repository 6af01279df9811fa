"""The words of a truth check: a backward step whose code disagrees with its op's rule, and
a folded contribution's terms, one per sample, that add up to the printed total.

    >>> from vizgrad.tracing.rules import verdict
    >>> v = verdict("log", [2.0], 0.6931471805599453, [0], 1.4426950408889634)
    >>> disagreement_text(v, "∂y/∂x", "1/x", [("x", 2.0)], 4, True, "en")[:60]
    '⚠ the backward code disagrees with the rule: it used ∂y/∂x ='
"""

from __future__ import annotations

from typing import Any

from ..core.numerals import MINUS, fmt
from ..i18n import t

__all__ = ["disagreement_text", "terms_text"]


def disagreement_text(verdict: Any, d: str, rule: str | None, at: list[tuple[str, float]],
                      decimals: int, trim: bool, lang: str) -> str:
    """``⚠ the backward code disagrees with the rule: it used ∂y/∂x = 1.4427; the rule 1/x
    gives 0.5 at x = 2; a central difference gives 0.5`` (``at``: the op's inputs by name)."""
    places = max(decimals, 4)
    where = ", ".join(f"{n} = {fmt(x, places, trim=True)}" for n, x in at)
    return "⚠ " + t("chain.disagrees", lang, d=d, observed=fmt(verdict.observed, places,
                                                                  trim=trim),
                    rule=rule or "?", value=fmt(verdict.rule, places, trim=True), at=where,
                    central=fmt(verdict.central, places, trim=True))


def terms_text(c: dict[str, Any], decimals: int, trim: bool, lang: str) -> str:
    """``0.3385 (sample 0) + 1.5633 (sample 1) − 0.854 (sample 2) = 1.0478``: the terms that
    ``+=`` added, one per sample, with enough digits that they add up to the printed total.

    >>> terms_text({"amount": 0.3, "terms": [[0, 0.14], [1, 0.16]]}, 2, True, "en")
    '0.14 (sample 0) + 0.16 (sample 1) = 0.3'
    """
    total = fmt(c["amount"], decimals, trim=trim)
    terms = c["terms"]
    for d in range(decimals, 13):
        shown = [fmt(a, d, trim=trim) for _, a in terms]
        if fmt(sum(float(x.replace(MINUS, "-")) for x in shown), decimals, trim=trim) == total:
            break
    out = ""
    for k, ((sample, _), text) in enumerate(zip(terms, shown)):
        word = (t("chain.from", lang, name=sample) if isinstance(sample, str)
                else t("chain.sample", lang, s=sample))
        if k == 0:
            out = f"{text} ({word})"
        elif text.startswith(MINUS):
            out += f" {MINUS} {text[1:]} ({word})"
        else:
            out += f" + {text} ({word})"
    return f"{out} = {total}"
