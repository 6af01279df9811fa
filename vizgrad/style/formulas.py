"""How a value is called and how it was computed: its name, its formula, its op's local
derivative in symbols, and plain-keyboard maths typeset as the pictures write it::

    >>> from vizgrad import Value, to_networkx
    >>> a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    >>> u = a * b; u.label = "u"
    >>> G = to_networkx(u * (a + b))
    >>> name(G, "v2"), formula(G, "v2"), local_rule(G, "v2", 0)
    ('u', 'u = a × b', 'b')
"""

from __future__ import annotations

import re
from typing import Any

from ..tracing.names import NAME_LENGTH, base, compose, kept, tight
from ..core.numerals import MINUS, fmt

__all__ = ["formula", "local_rule", "name", "raw_name", "typeset"]

_SYMBOLS = {"+": "+", "*": "×", "-": MINUS, "/": "÷"}


def name(G: Any, node: str) -> str:
    """What a value is called: its ``name`` from the trace (see :mod:`vizgrad.tracing.names`: the
    label; in a net, its role; a name from its op and operands within :data:`NAME_LENGTH`
    characters; a constant's number; else its id), or for a box its label.

    >>> from vizgrad import Value, to_networkx
    >>> a, b = Value(2.0, label="a"), Value(3.0, label="b")
    >>> G = to_networkx(-((a * b + a) ** 2).log())
    >>> [name(G, n) for n in G]
    ['a', 'b', 'a·b', 'a·b + a', '(a·b + a)²', 'log₁', '−1', 'f']
    """
    return kept(G, ("name", node), _name)  # type: ignore[no-any-return]


def _name(G: Any, node: str) -> str:
    attrs = G.nodes[node]
    if attrs.get("label"):
        return str(attrs["label"])
    if attrs.get("name"):
        return str(attrs["name"])
    if attrs.get("kind") == "const":
        return fmt(attrs["data"], 12, trim=True)
    return _derived(G, node, NAME_LENGTH) or str(node)


def raw_name(G: Any, node: str) -> bool:
    """True when a value has no name but its id (``v5``): pictures write it small.

    >>> from vizgrad import Value, to_networkx
    >>> G = to_networkx(Value(2.0, label="alpha").exp().log() * 2)
    >>> [(name(G, n), raw_name(G, n)) for n in G]
    [('alpha', False), ('exp(alpha)', False), ('log₁', False), ('2', False), ('f', False)]
    """
    return name(G, node) == str(node) and not G.nodes[node].get("label")


def _derived(G: Any, node: str, room: int) -> str | None:
    """A name of at most ``room`` characters from the op and the operands' names, or None."""
    attrs = G.nodes[node]
    if attrs.get("label") or attrs.get("name"):
        text = name(G, node)
        text = None if text == str(node) else text
    elif attrs.get("kind") == "const":
        text = fmt(attrs["data"], 12, trim=True)
    elif attrs.get("kind") in ("op", "output") and room > 2:
        args = [e[0] for e in sorted(G.in_edges(node, keys=True), key=lambda e: e[2])]
        parts = [_derived(G, a, room - 2) for a in args]
        text = None if None in parts else compose(str(attrs.get("op", "")), parts)
    else:
        return None
    return text if text is not None and len(text) <= room else None


_tight = tight


def typeset(text: str) -> str:
    """Plain-keyboard maths in the pictures' typography: ``*`` as ×, a minus as −, ``**k``
    as ``^k``, so a title reads like the picture under it.

    >>> typeset("q = (a*b)*(a+b) at a=-2, b=3: q = -6, grads (-3, -8); x**2, softmax-nll")
    'q = (a×b)×(a+b) at a=−2, b=3: q = −6, grads (−3, −8); x^2, softmax-nll'
    """
    text = re.sub(r"\*\*", "^", text).replace("*", "×")
    return re.sub(r"(?<![\w)])-(?=[\d.(\w])|(?<=[\s(])-(?=\s)", MINUS, text)


def _operands(G: Any, node: str) -> list[str]:
    return list(kept(G, ("operands", node), _named_operands))


def _named_operands(G: Any, node: str) -> tuple[str, ...]:
    edges = sorted(G.in_edges(node, keys=True), key=lambda e: e[2])
    return tuple(name(G, e[0]) for e in edges)


def formula(G: Any, node: str) -> str:
    """How a node was computed: ``u = a × b``, ``o = tanh(n)``, ``p = x ** 2``; a value
    whose name says how it was made is just its name (``a·b``).

    >>> from vizgrad import Value, to_networkx
    >>> a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    >>> q = (a * b) * (a + b); q.label = "q"
    >>> G = to_networkx(q)
    >>> formula(G, "v2"), formula(G, "v4")
    ('a·b', 'q = a·b × (a + b)')
    """
    op = str(G.nodes[node].get("op", ""))
    args = _operands(G, node)
    lhs = name(G, node)
    if not args:
        return lhs
    if not G.nodes[node].get("label") and lhs == compose(op, args):  # its name says how
        return lhs
    if op == "*" and f"{MINUS}1" in args and len(args) == 2:  # the chapter's negation
        return f"{lhs} = {MINUS}{_tight(args[1] if args[0] == f'{MINUS}1' else args[0])}"
    if op in _SYMBOLS and len(args) == 2:
        a, b = (args if op == "+" else [_tight(x) for x in args])
        return f"{lhs} = {a} {_SYMBOLS[op]} {b}"
    if op.startswith("**") and len(args) == 1:
        return f"{lhs} = {base(args[0])} ** {op[2:].replace('-', MINUS)}"
    if G.nodes[node].get("kind") in ("group", "stub"):  # a collapsed box: its inputs
        return f"{lhs}({', '.join(args)})"
    return f"{lhs} = {op}({', '.join(args)})"


def local_rule(G: Any, node: str, slot: int) -> str | None:
    """The op's local derivative for operand ``slot``, in symbols; None if unknown.

    >>> from vizgrad import Value, to_networkx
    >>> x = Value(0.5, label="x"); o = x.tanh(); o.label = "o"
    >>> local_rule(to_networkx(o), "v1", 0), local_rule(to_networkx(x ** 3), "v1", 0)
    ('1 − o²', '3·x²')
    >>> G = to_networkx((x * x) ** 3)  # a compound operand is bracketed: 3·(x·x)²
    >>> local_rule(G, "v2", 0)
    '3·(x·x)²'
    """
    op = str(G.nodes[node].get("op", ""))
    args = _operands(G, node)
    if not 0 <= slot < len(args):
        return None
    x, out = args[slot], name(G, node)
    if op == "+" and len(args) == 2:
        return "1"
    if op == "*" and len(args) == 2:
        return args[1 - slot]
    bx, bout = base(x), base(out)  # a·b in a power or after 1/: bracketed
    if op == "tanh":
        return f"1 {MINUS} {bout}²"
    if op == "exp":
        return out
    if op == "log":
        return f"1/{bx}"
    if op in ("relu", "ReLU"):
        return f"[{x} > 0]"
    if op.startswith("**"):
        try:
            k = float(op[2:])
        except ValueError:
            return None
        kk = fmt(k, 12, trim=True)
        if k == 0:
            return "0"
        if k == 1:
            return "1"
        if k == 2:
            return f"2·{_tight(x)}"
        if k == -1:
            return f"{MINUS}1/{bx}²"
        power = {3.0: "²", 4.0: "³"}.get(k, f"^({fmt(k - 1, 12, trim=True)})")
        return f"{kk}·{bx}{power}"
    return None
