"""The caption lines of a folded net's steps: the chain rule each stands for, with the numbers
of the selected sample's own Values (never a sum over samples or over neurons).

A contribution to a box's outputs (:func:`vizgrad.graph.collapse.contract.contract` gives it
``cells``) is what the selected sample's output Values received. A neuron's reads as any
step (``∂(L1/N3)/∂(L0/N0) × (L1/N3).grad = …``, the box's own local derivative); a layer's
as the vector rule ``∂loss/∂x_j += Σ_i w_ij · g_i`` with the terms of its largest cell::

    >>> c = {"cells": [0.5, 0.25], "amount": 0.75, "count": 4,
    ...      "rule": {"cell": 0, "terms": [[2.0, 0.25, 0.5], [-1.0, -0.5, 0.5]]}}
    >>> layer_line(c, "L1", "L0", ["N0", "N1"], 0, 4, True, "en").split("; ")[-2:]
    ['x_N0: 0.5 + 0.5 = 1', 'the largest term: w_ij × g_i = 2 × 0.25 = 0.5']
"""

from __future__ import annotations

import math
from typing import Any

from ..core.numerals import MINUS, fmt, product
from ..i18n import t

__all__ = ["TERMS_SHOWN", "inputs_lines", "layer_line", "other_line", "params_text",
           "sample_word"]

#: the most products ``w_ij · g_i`` a layer's line prints; past it, how many there are
TERMS_SHOWN = 3


def sample_word(s: Any, lang: str) -> str:
    """``sample 3``, or ``8 samples`` for a row of every sample (``s`` is then their count
    as a string ``"all:8"``)."""
    if isinstance(s, str) and s.startswith("all:"):
        return t("chain.samples", lang, n=s[4:])
    return t("chain.sample", lang, s=s)


def _paren(x: str) -> str:
    return f"({x})" if x.startswith(MINUS) else x


def layer_line(c: dict[str, Any], src: str, tgt: str, names: list[str], s: Any,
               decimals: int, trim: bool, lang: str) -> str:
    """``L1 → L0 (sample 0): ∂loss/∂x_j += Σ_i w_ij · g_i; x_N3: w × g + … = total``: the
    rule of a step into a layer's outputs, and the terms of the cell it moved most (each
    term is what one ``+=`` of the code added: a weight times the gradient at its neuron's
    sum); every cell's total is in the box's row, its tooltip and the player's table."""
    if c.get("params") and not c.get("count"):  # only the layer's parameters were reached
        return (t("chain.layer_none_one", lang, source=src, target=tgt) if s is None else
                t("chain.layer_none", lang, source=src, target=tgt,
                  sample=sample_word(s, lang)))
    head = (t("chain.layer_one", lang, source=src, target=tgt) if s is None else
            t("chain.layer", lang, source=src, target=tgt, sample=sample_word(s, lang)))
    rule = c.get("rule")
    if not rule or not rule["terms"]:
        return head
    j = rule["cell"]
    cell = names[j] if j < len(names) else str(j)
    return f"{head}; " + _terms_of(rule["terms"], cell, decimals, trim, lang)


def _terms_of(terms: list[list[Any]], cell: str, decimals: int, trim: bool, lang: str) -> str:
    """``x_N3: w × g + … = total; the largest term: w_ij × g_i = …``: the terms one cell
    received in a step (each what one ``+=`` of the code added), the largest first."""
    amounts = [a for *_, a in terms]
    total = fmt(sum(amounts), decimals, trim=trim)
    big = sorted(range(len(terms)), key=lambda i: (-abs(amounts[i]), i))[:TERMS_SHOWN]
    for d in range(decimals, 13):  # all terms shown: enough digits that they add up
        shown = [fmt(amounts[i], d, trim=trim) for i in big]
        if len(terms) > TERMS_SHOWN or fmt(sum(float(x.replace(MINUS, "-")) for x in shown),
                                           decimals, trim=trim) == total:
            break
    body = " + ".join(_paren(x) for x in shown)
    if len(terms) > TERMS_SHOWN:
        body += " + " + t("chain.more_terms", lang, n=len(terms))
    line = f"x_{cell}" + (f": {body} = {total}" if len(terms) > 1 else "")
    local, up, amount = terms[big[0]]
    if local is not None and up is not None:  # the largest term's factors, w_ij × g_i
        w, g, a = product(local, up, amount, decimals, trim)
        line += ("; " if len(terms) > 1 else ": ") + t("chain.largest", lang, w=w,
                                                         g=_paren(g), a=a)
    return line


def params_text(c: dict[str, Any], src: str, tgt: str, decimals: int, trim: bool,
                lang: str) -> str:
    """What a step sent to a box's parameters, apart from its outputs (``c["params"]``: an
    L2 penalty's ``2αp``): the sum over the parameters and the largest term, or the one
    parameter's share ('' when none was reached)::

        >>> c = {"params": {"count": 2, "amount": 0.5, "terms": [["w0", 0.75], ["w1", -0.25]]}}
        >>> params_text(c, "loss", "L1", 4, True, "en").split(": ", 1)[1]
        'their grads += 0.5 in all; the largest: w0.grad += 0.75'
    """
    got = c.get("params")
    if not got or not got["terms"]:
        return ""
    num = lambda x: fmt(x, decimals, trim=trim)  # noqa: E731
    name, largest = max(got["terms"], key=lambda term: (abs(term[1]), term[0]))
    if got["count"] == 1:
        return t("chain.param_one", lang, source=src, target=tgt, name=name,
                 amount=num(got["amount"]))
    return t("chain.params", lang, source=src, target=tgt, n=f"{got['count']:,}",
             amount=num(got["amount"]), name=name, largest=num(largest))


def other_line(c: dict[str, Any], tgt: str, s: Any, lang: str) -> str:
    """A step whose contributions reach only other samples' outputs than the one shown."""
    others = ", ".join(str(o) for o in c.get("others", ()))
    return t("chain.other_samples", lang, target=tgt, sample=sample_word(s, lang),
             others=others)


def inputs_lines(c: dict[str, Any], src: str, root: str, samples: int, decimals: int,
                 trim: bool, lang: str) -> list[str]:
    """A step into a batch's inputs (:mod:`vizgrad.graph.collapse.batch`), stated for the
    marked sample's row as a vector: what each feature ``x_j`` received (the rule's line,
    first: a slide keeps it), then ``Σ_i w_ij · g_i`` over this step's neurons (one neuron:
    its weights and ``g``; several: the terms of the feature that moved most), then the
    row's grads after it when they held some before, and where the other samples' are::

        >>> c = {"row": {"sample": 0, "terms": [[[2.0, 0.5, 1.0]], [[-1.0, 0.5, -0.5]]],
        ...              "after": [1.0, 0.25]}}
        >>> for line in inputs_lines(c, "L0/N1", "loss", 3, 4, True, "en"):
        ...     print(line)
        L0/N1 → x[0] (sample 0): ∂loss/∂x_j += Σ_i w_ij · g_i = [1, −0.5]
        w_ij: the weights of L0/N1 [2, −1], g_i: the gradient at its sum, 0.5
        x[0].grad now [1, 0.25]; the other 2 samples' inputs: their cells (tooltips) and the table
    """
    row = c.get("row") or {}
    s, terms = row.get("sample", 0), row.get("terms") or []
    num = lambda x: fmt(x, decimals, trim=trim)  # noqa: E731
    added = [num(sum(a for *_, a in ts)) if ts else "—" for ts in terms]
    lines = [t("chain.inputs", lang, source=src, s=s, sample=sample_word(s, lang), root=root,
               values=", ".join(added))]
    ups = [ts[0][1] for ts in terms if len(ts) == 1]
    if terms and len(ups) == len(terms) and None not in ups and all(
            math.isclose(u, ups[0], rel_tol=1e-9) for u in ups):  # one neuron: one g
        lines.append(t("chain.inputs_one", lang, source=src, w=", ".join(
            num(ts[0][0]) if ts[0][0] is not None else "—" for ts in terms), g=num(ups[0])))
    elif terms:  # several neurons: the terms of the feature that moved most
        j = max(range(len(terms)), key=lambda i: (abs(math.fsum(a for *_, a in terms[i])), -i))
        many = t("chain.inputs_many", lang, source=src)
        lines.append(many + (t("chain.inputs_sep", lang) + _terms_of(terms[j], str(j), decimals,
                                                                     trim, lang)
                             if terms[j] else ""))
    tail = []
    after = ["—" if g is None else num(g) for g in row.get("after") or ()]
    if after and after != added:  # the row held grads before: its running totals
        tail.append(t("chain.inputs_after", lang, s=s, values=", ".join(after)))
    if samples > 1:
        tail.append(t("chain.inputs_others", lang, n=samples - 1))
    return lines + ([t("chain.inputs_sep", lang).join(tail)] if tail else [])
