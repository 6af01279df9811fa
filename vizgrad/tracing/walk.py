"""Walking a graph of micrograd-style Values in the chapter's order, for :func:`vizgrad.trace`.

Any object with ``data``, ``grad``, ``_backward`` and ``parents`` or ``_prev`` is a Value;
a ``_prev`` set is put in operand order through the closure's ``self`` and ``other``::

    >>> from vizgrad import Value
    >>> a, b = Value(2.0, label="a"), Value(3.0, label="b")
    >>> order, parents, n_root = topo([(a * b) + a])
    >>> [v.label or v.op for v in order], n_root
    (['a', 'b', '*', '+'], 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..exceptions import GraphCycleError, OperandTypeError

__all__ = ["is_value", "op_of", "parents_of", "topo"]


def is_value(v: object) -> bool:
    return (
        hasattr(v, "data")
        and hasattr(v, "grad")
        and hasattr(v, "_backward")
        and (hasattr(v, "parents") or hasattr(v, "_prev"))
    )


def _closure_cells(fn: Any) -> list[tuple[str, Any]]:
    code = getattr(fn, "__code__", None)
    cells = getattr(fn, "__closure__", None) or ()
    if code is None:
        return []
    out = []
    for name, cell in zip(code.co_freevars, cells):
        try:
            out.append((name, cell.cell_contents))
        except ValueError:  # an empty cell
            continue
    return out


def _parents_of(v: Any) -> tuple[Any, ...]:
    """Operand-ordered parents; a ``_prev`` set is ordered through the closure."""
    parents = getattr(v, "parents", None)
    if parents is not None and not isinstance(parents, (set, frozenset)):
        return tuple(parents)
    prev = getattr(v, "_prev", None) if parents is None else parents
    if not prev:
        return ()
    members = list(prev)
    # micrograd's closures name their operands self and other: read the slots
    # from them, so the order (and a + a's two slots) are what the code did.
    cells = dict(_closure_cells(v._backward))
    slots = [cells[n] for n in ("self", "other") if any(cells.get(n) is m for m in members)]
    found = [m for m in members if not any(m is s for s in slots)]
    found.sort(key=lambda m: (str(_op_of(m)), float(m.data), str(getattr(m, "label", ""))))
    return tuple(slots) + tuple(found)


def _op_of(v: Any) -> str:
    op = getattr(v, "op", None)
    if op is None:
        op = getattr(v, "_op", "")
    return str(op)


def parents_of(v: Any) -> tuple[Any, ...]:
    """A vizgrad or micrograd Value's operands, in operand order (``a + a``: twice)."""
    return _parents_of(v)


def op_of(v: Any) -> str:
    """A vizgrad or micrograd Value's operation (``"+"``, ``"**2"``, ``"ReLU"``, ``""``)."""
    return _op_of(v)


def _cycle(path: list[Any], again: Any) -> str:
    """What a cycle looks like: the values from ``again`` back to ``again``."""
    loop = path[next(i for i, v in enumerate(path) if v is again):]
    shown = " -> ".join(_shown(v) for v in [*loop[:4], *([again] if len(loop) <= 4 else [])])
    more = f" (and {len(loop) - 4} more)" if len(loop) > 4 else ""
    what = ("a value that is its own parent" if len(loop) == 1 else
            f"a cycle of {len(loop)} values")
    return (f"the graph has {what}: {shown}{more}; a Value's parents must be made before "
            "it (do not assign _prev or parents by hand)")


def _shown(v: Any) -> str:
    label = getattr(v, "label", None)
    return f"{label!s:.30}" if label else f"{_op_of(v) or 'value'}({v.data!r:.20})"


def topo(roots: Sequence[Any]) -> tuple[list[Any], dict[int, tuple[Any, ...]], int]:
    """Iterative DFS in operand order; returns order, parents by id() and root count.

    The path is two flat lists (its nodes, and an iterator over each one's parents), not a
    tuple per level: a deep chain leaves fewer objects for the garbage collector to scan.
    """
    order: list[Any] = []
    parents: dict[int, tuple[Any, ...]] = {}
    done: set[int] = set()  # finished values: one met again but not done is its own ancestor
    checked: set[type] = set()  # classes already seen to be Values
    n_root = 0
    add = order.append
    for i, start in enumerate(roots):
        if id(start) in parents:
            continue
        nodes, its = [start], [iter(parents.setdefault(id(start), _parents_of(start)))]
        push, push_it, pop, pop_it = nodes.append, its.append, nodes.pop, its.pop
        while nodes:
            for p in its[-1]:
                if id(p) not in parents:
                    if p.__class__ not in checked:
                        if not is_value(p):
                            raise OperandTypeError(
                                f"a parent of {nodes[-1]!r} is not a Value: {p!r}")
                        checked.add(p.__class__)
                    ps = parents[id(p)] = _parents_of(p)
                    push(p)
                    push_it(iter(ps))
                    break
                if id(p) not in done:
                    raise GraphCycleError(_cycle(nodes, p))
            else:  # every parent visited
                done.add(id(nodes[-1]))
                add(pop())
                pop_it()
        if i == 0:
            n_root = len(order)
    return order, parents, n_root
