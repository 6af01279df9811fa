"""Words and numbers shared by every renderer: formatting, formulas, captions.

All functions read a graph from :func:`vizgrad.to_networkx` (or JSON), never a Value::

    >>> from vizgrad import Value, to_networkx
    >>> a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    >>> u = a * b; u.label = "u"
    >>> q = u * (a + b); q.label = "q"
    >>> G = to_networkx(q)
    >>> caption(G, 7)
    'step 7/7 · backward through u = a × b'
    >>> chain_rule(G, 7)
    ['∂q/∂a += 3.0000 × 1.0000 = 3.0000  (-6.0000 → -3.0000)', '∂q/∂b += -2.0000 × 1.0000 = -2.0000  (-6.0000 → -8.0000)']
    >>> fmt(float("nan")), fmt(None), fmt(-0.0)
    ('nan', '—', '0.0000')
"""

from __future__ import annotations

import math
from typing import Any

__all__ = [
    "PENDING",
    "NOT_REACHED",
    "fmt",
    "name",
    "formula",
    "caption",
    "chain_rule",
    "first_arrival",
    "contribution_text",
    "PHASES",
]

PENDING = "pending"
NOT_REACHED = "—"
PHASES = {"inputs": "inputs", "forward": "forward", "seed": "seed", "backward": "backward"}
_SYMBOLS = {"+": "+", "*": "×", "-": "−", "/": "÷"}


def fmt(x: float | None, decimals: int = 4, missing: str = NOT_REACHED) -> str:
    """A number with fixed decimals; ``None`` becomes ``missing``; nan/inf as text."""
    if x is None:
        return missing
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    text = f"{x:.{decimals}f}"
    if float(text) == 0:
        text = text.lstrip("-")
    return text


def name(G: Any, node: str) -> str:
    """The node's label; a constant shows its value; otherwise its id."""
    attrs = G.nodes[node]
    if attrs.get("label"):
        return str(attrs["label"])
    if attrs.get("kind") == "const":
        return f"{attrs['data']:g}"
    return node


def _operands(G: Any, node: str) -> list[str]:
    edges = sorted(G.in_edges(node, keys=True), key=lambda e: e[2])
    return [name(G, e[0]) for e in edges]


def formula(G: Any, node: str) -> str:
    """How a node was computed: ``u = a × b``, ``o = tanh(n)``, ``p = x ** 2``."""
    op = str(G.nodes[node].get("op", ""))
    args = _operands(G, node)
    lhs = name(G, node)
    if not args:
        return lhs
    if op in _SYMBOLS and len(args) == 2:
        return f"{lhs} = {args[0]} {_SYMBOLS[op]} {args[1]}"
    if op.startswith("**") and len(args) == 1:
        return f"{lhs} = {args[0]} ** {op[2:]}"
    return f"{lhs} = {op}({', '.join(args)})"


def caption(G: Any, k: int) -> str:
    """``step k/N · phase ...`` for step ``k`` of the graph's steps."""
    steps = G.graph["steps"]
    step = steps[k]
    head = f"step {k}/{len(steps) - 1} · "
    kind = step["kind"]
    if kind == "inputs":
        return head + "inputs are set; every op is pending"
    if kind == "forward":
        return head + f"forward: {formula(G, step['node'])}"
    if kind == "seed":
        return head + f"seed: ∂{name(G, step['node'])}/∂{name(G, step['node'])} = 1"
    return head + f"backward through {formula(G, step['node'])}"


def contribution_text(c: dict[str, Any], decimals: int = 4) -> str:
    """``local × upstream = amount`` for one contribution."""
    if c.get("local") is None:
        return f"+{fmt(c['amount'], decimals)} (observed)"
    return f"{fmt(c['local'], decimals)} × {fmt(c['upstream'], decimals)} = {fmt(c['amount'], decimals)}"


def first_arrival(G: Any, c: dict[str, Any]) -> bool:
    """True when ``c`` is the first gradient to reach its target (it was "—" before).

    Backward steps run in reverse topological order, so the first contribution
    comes from the target's latest on-path consumer, through its lowest slot.
    """
    target, source = c["target"], c["source"]
    users = [n for n in G.successors(target) if G.nodes[n].get("on_path", True)]
    if not users or source != max(users, key=lambda n: G.nodes[n]["order"]):
        return False
    return c["slot"] == min(G[target][source])


def chain_rule(G: Any, k: int, decimals: int = 4) -> list[str]:
    """One line per contribution of step ``k``: the chain rule with numbers.

    The running total starts at "—" where the gradient first arrives.
    """
    step = G.graph["steps"][k]
    root = name(G, G.graph["root"])
    lines = []
    for c in step.get("contributions", []):
        sign = "=" if c.get("overwrote") else "+="
        before = NOT_REACHED if first_arrival(G, c) else fmt(c["before"], decimals)
        lines.append(
            f"∂{root}/∂{name(G, c['target'])} {sign} {contribution_text(c, decimals)}"
            f"  ({before} → {fmt(c['after'], decimals)})"
        )
    if step["kind"] == "forward":
        lines.append(f"{formula(G, step['node'])} = {fmt(step['value'], decimals)}")
    return lines
