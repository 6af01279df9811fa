"""The chain rule as the pictures write it: one line per contribution of a step, and the
text of a contribution alone (an edge's label)::

    >>> from vizgrad import Value, to_networkx
    >>> n = Value(0.5, label="n"); o = n * 2; o.label = "o"; o.backward()
    >>> chain_rule(to_networkx(o), 3, trim=True)
    ['n.grad += 2 × o.grad = 2 × 1 = 2   (— → 2)']
    >>> amount_text({"amount": 2.0}, trim=True), amount_text({"amount": 2.0, "count": 2}, 2)
    ('2', '2.00 (sum of 2)')
"""

from __future__ import annotations

import re
from typing import Any

from ..tracing.names import kept
from ..tracing.rules import check_contribution
from .folded import inputs_lines, layer_line, other_line, sample_word
from .formulas import formula, local_rule, name
from .verdicts import disagreement_text, terms_text
from ..core.numerals import MINUS, NOT_REACHED, fmt, product
from ..i18n import t

__all__ = ["amount_text", "chain_rule", "contribution_text", "first_arrival"]

_INDEX = re.compile(r"(\[\d+(?:\.\.\d+)?\])+$")  # a sample's index: x[0][1], Σ[0..2]


def contribution_text(c: dict[str, Any], decimals: int = 4, trim: bool = False,
                      lang: str = "en") -> str:
    """``local × upstream = amount`` for one contribution.

    >>> contribution_text({"local": 3.0, "upstream": 1.0, "amount": 3.0}, trim=True)
    '3 × 1 = 3'
    >>> contribution_text({"local": 1.0, "upstream": -6.0, "amount": -6.0}, 2)
    '1.00 × (−6.00) = −6.00'
    """
    if c.get("local") is None and c.get("terms"):  # one term per sample, stated
        return terms_text(c, decimals, trim, lang)
    if c.get("local") is None:  # measured (micrograd), or summed over a collapsed box
        count = c.get("count", 1)
        how = t("chain.observed", lang) if c.get("observed") else t(
            "chain.sum", lang, count=count) if count > 1 else None
        amount = fmt(c["amount"], decimals, trim=trim)
        return f"{amount} ({how})" if how else amount
    local, up, amount = product(c["local"], c["upstream"], c["amount"], decimals, trim)
    if up.startswith(MINUS):
        up = f"({up})"
    return f"{local} × {up} = {amount}"


def amount_text(c: dict[str, Any], decimals: int = 4, trim: bool = False,
                lang: str = "en") -> str:
    """The contribution alone (the edge label of a collapsed graph), with the number of
    contributions it sums.

    >>> amount_text({"amount": -0.5, "count": 3}, trim=True)
    '−0.5 (sum of 3)'
    """
    amount = fmt(c["amount"], decimals, trim=trim)
    count = c.get("count", 1)
    return t("edge.sum", lang, amount=amount, count=count) if count > 1 else amount


def first_arrival(G: Any, c: dict[str, Any]) -> bool:
    """True when ``c`` is the first gradient to reach its target (it was "—" before).

    Backward steps run in reverse topological order, so the first contribution
    comes from the target's latest on-path consumer, through its lowest slot.
    """
    target, source = c["target"], c["source"]
    if source != kept(G, ("latest", target), _latest_user):
        return False
    return c["slot"] == min(G[target][source])


def _latest_user(G: Any, target: str) -> str | None:
    """The last on-path value computed from ``target``, or None."""
    users = [n for n in G.successors(target) if G.nodes[n].get("on_path", True)]
    return max(users, key=lambda n: G.nodes[n]["order"]) if users else None


def _d(label: str) -> str:
    """A name after ∂: a group path in brackets, so ``∂(L1/N0)/∂(L0/N2)`` is one fraction.

    >>> _d("a"), _d("L0/N2")
    ('a', '(L0/N2)')
    """
    return f"({label})" if "/" in label else label


def _bracketed(rule: str) -> str:
    """A compound local derivative in brackets, so ``(1 − o²) × o.grad`` reads as a product.

    >>> _bracketed("b"), _bracketed("1"), _bracketed("1 − o²"), _bracketed("2·x")
    ('b', '1', '(1 − o²)', '(2·x)')
    >>> _bracketed("x[0][1]"), _bracketed("L0.N2.out[3]"), _bracketed("ŷ[0] − y[0]")
    ('x[0][1]', 'L0.N2.out[3]', '(ŷ[0] − y[0])')
    """
    plain = _INDEX.sub("", rule).replace(".", "").replace("_", "").replace(
        MINUS, "", rule.startswith(MINUS))
    if plain.isalnum() or rule.startswith("[") and rule.endswith("]"):
        return rule
    return f"({rule})"


def _grad(label: str) -> str:
    """``a.grad``, ``x[0][1].grad``; any other name in brackets: ``(a·b).grad``,
    ``(L0/N2).grad``.

    >>> _grad("ŷ[0]"), _grad("L0.N1.Σ2[3]"), _grad("ŷ[0] − y[0]"), _grad("Σ[0..2]")
    ('ŷ[0].grad', 'L0.N1.Σ2[3].grad', '(ŷ[0] − y[0]).grad', 'Σ[0..2].grad')
    """
    call = label.endswith(")") and label.split("(", 1)[0].isalpha() and " " not in label
    plain = _INDEX.sub("", label).replace("_", "").replace(".", "").isalnum()
    return f"{label}.grad" if plain or call else f"({label}).grad"


def chain_rule(G: Any, k: int, decimals: int = 4, trim: bool = False,
               lang: str = "en", order: Any = None) -> list[str]:
    """One line per contribution of step ``k``, in the chapter's words "received gradient ×
    local derivative", as its code writes it (``self.grad += ...``):

    ``a.grad += b × u.grad = 3 × 1 = 3   (−6 → −3)``: the target's running gradient, ``+=``,
    the local derivative in symbols (bracketed when compound) × the upstream gradient, the
    same in numbers, the contribution, and the target's running total (from "—" where it
    first arrives). A constant (the 2 in ``2 * x``) gets no line: nothing learns from its
    gradient. ``order(node)``, if given, sorts the lines by their targets (a picture's
    reading order); lines of one target keep their order, so its running total reads on.

    >>> from vizgrad import Value, to_networkx
    >>> n = Value(0.8813735870195429, label="n"); o = n.tanh(); o.label = "o"; o.backward()
    >>> chain_rule(to_networkx(o), 3, trim=True)
    ['n.grad += (1 − o²) × o.grad = 0.5 × 1 = 0.5   (— → 0.5)']
    """
    step = G.graph["steps"][k]
    lines = []
    contributions = step.get("contributions", [])
    if order is not None:
        contributions = sorted(contributions, key=lambda c: order(c["target"]))
    for c in contributions:
        if G.nodes[c["target"]].get("kind") == "const":
            continue
        sign = "=" if c.get("overwrote") else "+="
        src, tgt = name(G, c["source"]), name(G, c["target"])
        if c.get("grads") is not None:  # a batch's inputs: the marked sample's row
            shape = G.nodes[c["target"]].get("shape") or (1, 1)
            lines += inputs_lines(c, src, name(G, G.graph["root"]), int(shape[0]),
                                  decimals, trim, lang)
            continue
        before = NOT_REACHED if first_arrival(G, c) else fmt(c["before"], decimals, trim=trim)
        total = f"   ({before} → {fmt(c['after'], decimals, trim=trim)})"
        head = f"{_grad(tgt)} {sign} "
        if c.get("cells") is not None:  # a box's outputs: the selected sample's Values
            a = G.nodes[c["target"]]
            s = a.get("sample", f"all:{a['samples']}" if "samples" in a else None)
            if len(c["cells"]) > 1:
                names = [str(x[0]).replace("/", ".").rsplit(".", 1)[-1]
                         for x in a.get("cells") or ()]
                lines.append(layer_line(c, src, tgt, names, s, decimals, trim, lang))
                continue
            if c.get("others") and not c.get("count"):
                lines.append(other_line(c, tgt, s, lang))
                continue
            if s is not None:
                head = f"{_grad(tgt)} ({sample_word(s, lang)}) {sign} "
        if c.get("local") is None:
            lines.append(head + contribution_text(c, decimals, trim, lang) + total)
            continue
        verdict = check_contribution(G, c)
        rule = _slot_rules(G, c) if verdict is not None else local_rule(
            G, c["source"], c["slot"])
        d = f"∂{_d(src)}/∂{_d(tgt)}"
        local = _bracketed(rule) if rule is not None and (
            verdict is None or verdict.agrees) else d
        lines.append(f"{head}{local} × {_grad(src)} = "
                     + contribution_text(c, decimals, trim, lang) + total
                     + (" ⚠" if verdict is not None and not verdict.agrees else ""))
        if verdict is not None and not verdict.agrees:
            lines.append(_disagrees(G, c, verdict, d, rule, decimals, trim, lang))
    if step["kind"] == "forward":
        lines.append(f"{formula(G, step['node'])} = {fmt(step['value'], decimals, trim=trim)}")
    return lines


def _slot_rules(G: Any, c: dict[str, Any]) -> str | None:
    """The rule of every slot of ``c``'s source that its target fills, summed: ``x + x``."""
    slots = sorted(k for u, _, k in G.in_edges(c["source"], keys=True) if u == c["target"])
    rules = [local_rule(G, c["source"], k) for k in slots]
    if not rules or None in rules:
        return None
    return rules[0] if len(rules) == 1 else " + ".join(_bracketed(str(r)) for r in rules)


def _disagrees(G: Any, c: dict[str, Any], verdict: Any, d: str, rule: str | None,
               decimals: int, trim: bool, lang: str) -> str:
    """The warning line of an observed local derivative that its op's rule contradicts."""
    seen = dict.fromkeys(e[0] for e in sorted(G.in_edges(c["source"], keys=True),
                                             key=lambda e: e[2]))
    at = [(name(G, u), G.nodes[u]["data"]) for u in seen]
    return disagreement_text(verdict, d, rule, at, decimals, trim, lang)
