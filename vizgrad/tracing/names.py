"""Names a student understands, for every value of a trace (the ``name`` and ``sample`` fields).

:func:`name_nodes` gives each node record of a :class:`vizgrad.tracing.recorder.Trace` a
``name``, in this order:

1. the user's label;
2. in a neural net (parameters labelled ``L0.N2.w1``, ``L0.N2.b``, grouped ``L0/N2``,
   as ``model=`` and :mod:`vizgrad.core.nn` make them), its role: a neuron's products
   ``L0.N2.w1·x1``, running sums ``L0.N2.Σ1`` … and sum ``L0.N2.Σ``, output
   ``L0.N2.out``; the net's output ``ŷ[s]``, the wrapped inputs ``x[s][i]`` (the copy
   multiplied by ``w[i]`` of the s-th forward pass), the target ``−y[s]`` (``ŷ[s] − y``
   adds the number −y), the loss's running sums ``Σ[0..s]`` and the root ``loss``;
   a neuron's value also gets ``[s]`` when the net saw several samples;
3. a name from its op and operands while it stays within :data:`NAME_LENGTH`
   characters (``a·b``, ``u + v``, ``tanh(n)``, ``e^z0``, ``−log(p3)``); in a net, the
   values outside its neurons (the loss) may take up to :data:`ROLE_LENGTH`
   (``(ŷ[0] − y[0])²``);
4. a constant's number (``2``, ``−1``);
5. the output (the root) is ``f``, as the command line and the lab call an expression's
   (``out``, ``result`` or ``f_`` when a value already has that name);
6. else its role: its op's word, numbered in the trace's order (``log₁``, ``prod₂``; an
   unlabelled input ``x₁``), never a name the graph already has, and never its id.

The sample ``s`` of a forward pass is found from the net's output neurons: the k-th
value an output neuron gives, in the trace's (topological, operand-first) order, is
sample k, and every value that value was computed from (parameters aside) belongs to
sample k; a value made from one sample's values belongs to it too. ``sample`` is
``None`` for values of several samples and outside nets::

    >>> from vizgrad import Value
    >>> from vizgrad.tracing.recorder import trace
    >>> a, b = Value(2.0, label="a"), Value(3.0, label="b")
    >>> t = trace(-((a * b + a) ** 2).log())
    >>> [r["name"] for r in t.nodes]
    ['a', 'b', 'a·b', 'a·b + a', '(a·b + a)²', 'log₁', '−1', 'f']

In a net, the numbers micrograd wraps (targets, ``sum()``'s 0) become constants
(``kind="const"``): nothing learns from their gradient.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from collections.abc import Sequence
from typing import Any, Callable, Iterator

from ..core.numerals import MINUS, fmt
from .records import NodeColumns
from .roles import ACTIVATIONS, columns_of, positions
from .roles import Net as _Net
from ..core.expr import OUTPUT_NAMES

__all__ = ["ACTIVATIONS", "NAME_LENGTH", "ROLE_LENGTH", "ROLE_WORDS", "base", "compose", "kept",
           "name_columns",
           "name_nodes", "tight", "unchanged"]

#: the longest name made from a value's op and operands (``a·b``, ``tanh(n)``); past it, a role
NAME_LENGTH = 12
#: the longest such name for a value of a net's loss, whose operands have role names
ROLE_LENGTH = 20
_SUPERSCRIPTS = {2.0: "²", 3.0: "³", 4.0: "⁴"}
_ATOM = re.compile(r"[^\W\d][\w.]*(\[\d+\])*|\d+(\.\d+)?")  # a, L0.N2.out, x[0][1], 2


#: the graph that does not change within :func:`unchanged`, and what was worked out of it
_SAME: ContextVar[tuple[Any, dict[Any, Any]] | None] = ContextVar("vizgrad_same", default=None)


@contextmanager
def unchanged(G: Any) -> Iterator[None]:
    """Within the block ``G`` does not change: each node's name and operands are worked
    out once (a scene writes a caption for every step, naming the same nodes again)."""
    token = _SAME.set((G, {}))
    try:
        yield
    finally:
        _SAME.reset(token)


def kept(G: Any, key: tuple[Any, ...], make: Callable[[Any, Any], Any]) -> Any:
    """``make(G, key[1])``, once per key within :func:`unchanged`."""
    same = _SAME.get()
    if same is None or same[0] is not G:
        return make(G, key[1])
    memo = same[1]
    if key not in memo:
        memo[key] = make(G, key[1])
    return memo[key]


def tight(part: str) -> str:
    """An operand inside a product or a power: bracketed when it is a sum.

    >>> tight("a"), tight("a + b")
    ('a', '(a + b)')
    """
    return f"({part})" if " " in part else part


def base(part: str) -> str:
    """An operand of a power, ``1/``, ``√`` or ``e^``: bracketed unless it is one name.

    >>> base("z0"), base("x[0][1]"), base("a·b"), base("−1")
    ('z0', 'x[0][1]', '(a·b)', '(−1)')
    """
    return part if _ATOM.fullmatch(part) else f"({part})"


def compose(op: str, args: list[str]) -> str | None:
    """The name of ``op`` applied to operands named ``args``; None if it has no such name.

    >>> compose("+", ["ŷ[0]", "−y[0]"]), compose("*", ["u + v", "−1"]), compose("**2", ["d"])
    ('ŷ[0] − y[0]', '−(u + v)', 'd²')
    >>> compose("+", ["−ŷ[1]", "y[1]"]), compose("+", ["−1", "x"])
    ('y[1] − ŷ[1]', 'x − 1')
    >>> compose("**2", ["a·b"]), compose("exp", ["f·f"]), compose("**-1", ["x[0]"])
    ('(a·b)²', 'e^(f·f)', '1/x[0]')
    """
    if op == "+" and len(args) == 2:
        a, b = args
        if b.startswith(MINUS) and len(b) > 1:  # a + (−b) is a − b
            return f"{a} {MINUS} {b[1:]}"
        if a.startswith(MINUS) and len(a) > 1 and " " not in a:  # −a + b is b − a
            return f"{b} {MINUS} {a[1:]}"
        return f"{a} + {b}"
    if op == "*" and len(args) == 2:
        a, b = args
        if a == f"{MINUS}1" or b == f"{MINUS}1":
            other = b if a == f"{MINUS}1" else a
            return f"{MINUS}{tight(other)}"
        return f"{tight(a)}·{tight(b)}"
    if len(args) != 1:
        return None
    (a,) = args
    if op in ("tanh", "log", "relu", "ReLU", "sigmoid"):
        return f"{op.lower()}({a})"
    if op == "exp":
        return f"e^{base(a)}" if len(a) <= 3 else f"exp({a})"
    if op.startswith("**"):
        try:
            k = float(op[2:])
        except ValueError:
            return None
        if k in _SUPERSCRIPTS:
            return f"{base(a)}{_SUPERSCRIPTS[k]}"
        if k == -1:
            return f"1/{base(a)}"
        if k == 0.5:
            return f"√{base(a)}"
        return f"{base(a)}^{fmt(k, 12, trim=True)}"
    return None


def name_nodes(nodes: NodeColumns | Sequence[Any], root: str,
               parents: list[tuple[int, ...]] | None = None) -> None:
    """Set ``name`` and ``sample`` on every node record, in place (see the module doc).

    ``nodes`` are a trace's :class:`~vizgrad.tracing.records.NodeColumns` (``parents``: their
    operands' positions, if already made by :func:`vizgrad.tracing.roles.positions`), or records
    in topological order, each with ``id``, ``label``, ``op``, ``kind``, ``data``,
    ``parents`` and ``group``. A net's wrapped numbers (not its inputs) get
    ``kind="const"``.

    >>> recs = [{"id": "a", "label": "a", "op": "", "kind": "input", "data": 2.0,
    ...          "parents": []}, {"id": "b", "label": "", "op": "**2", "kind": "output",
    ...          "data": 4.0, "parents": ["a"]}]
    >>> name_nodes(recs, "b")
    >>> [(r["name"], r["sample"]) for r in recs]
    [('a', None), ('a²', None)]
    """
    if isinstance(nodes, NodeColumns):
        name_columns(nodes, root, positions(nodes.parents) if parents is None else parents)
        return
    cols, ps = columns_of(nodes)
    name_columns(cols, root, ps)
    for r, kind, name, sample in zip(nodes, cols.kind, cols.name, cols.sample):
        r["kind"], r["name"], r["sample"] = kind, name, sample


def _position(ids: list[Any], root: str) -> int | None:
    try:
        return ids.index(root)
    except ValueError:
        return None


def name_columns(cols: Any, root: str, parents: list[tuple[int, ...]]) -> None:
    """:func:`name_nodes` on columns (``id``, ``label``, ``op``, ``kind``, ``data``,
    ``group``; ``name`` and ``sample`` are written) whose operands' positions are ``parents``."""
    top = _position(cols.id, root)
    net = _Net(cols, parents, top)
    fallback = bytearray(len(parents))  # named by id: a name made from it would be no better
    if net.params:
        if top is None:
            raise KeyError(root)
        net.name_roles(top)
        _name_net(cols, parents, net, fallback)
    else:
        _name_plain(cols, parents, fallback)
    cols.sample[:] = net.sample
    names = cols.name
    if top is not None and fallback[top]:  # the output: f, as the CLI and the lab
        taken = set(names)
        names[top] = next((o for o in OUTPUT_NAMES if o not in taken), names[top])
        fallback[top] = 0
    if any(fallback):
        _by_role(cols, fallback)


#: what a value named by its role is called: its op's word, numbered (``log₁``, ``sum₂``)
ROLE_WORDS = {"+": "sum", "*": "prod", "exp": "exp", "log": "log", "tanh": "tanh",
              "relu": "relu", "ReLU": "relu", "sigmoid": "sigmoid"}
_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def _by_role(cols: Any, fallback: bytearray) -> None:
    """Name the values that would otherwise be named by their id: by their op's word and a
    number counted in the order of the trace, an unlabelled input ``x₁``, ``x₂`` …; a name
    the graph already has is skipped, so none collides.

    >>> from vizgrad import Value
    >>> from vizgrad.tracing.recorder import trace
    >>> x = Value(2.0)
    >>> [r["name"] for r in trace((x * Value(3.0)).exp().log().tanh() + 1).nodes]
    ['x₁', 'x₂', 'prod₁', 'exp₁', 'log₁', 'tanh₁', '1', 'f']
    """
    names, counts = cols.name, {}
    taken = set(names)
    for i, flag in enumerate(fallback):
        if not flag:
            continue
        op = str(cols.op[i])
        word = ROLE_WORDS.get(op, "pow" if op.startswith("**") else "op" if op else "x")
        k = counts.get(word, 0)
        while True:
            k += 1
            made = f"{word}{str(k).translate(_SUBSCRIPTS)}"
            if made not in taken:
                break
        counts[word] = k
        names[i] = made
        taken.add(made)


def _made(cols: Any, i: int, ps: tuple[int, ...], room: int) -> str | None:
    """The name of node ``i`` from its operands' names, if it fits in ``room``."""
    args = [cols.name[p] for p in ps]
    if None in args:  # an operand after its user: records out of order
        raise KeyError(cols.id[ps[args.index(None)]])
    made = compose(cols.op[i], args)
    return made if made is not None and len(made) <= room else None


def _name_plain(cols: Any, parents: list[tuple[int, ...]], fallback: bytearray) -> None:
    """Names outside a net: label, else :func:`_unlabelled`."""
    names = cols.name
    for i, (lab, ps) in enumerate(zip(cols.label, parents)):
        if lab:
            names[i] = str(lab)
        else:
            _unlabelled(cols, i, ps, NAME_LENGTH, fallback)


def _name_net(cols: Any, parents: list[tuple[int, ...]], net: _Net, fallback: bytearray) -> None:
    """Names in a net: label, else role, else :func:`_unlabelled` (the loss's names made up
    to :data:`ROLE_LENGTH`); a wrapped number is an input or a constant."""
    kinds, names = cols.kind, cols.name
    role, leaf, where = net.roles.get, net.leaf, net.where
    for i, (lab, ps) in enumerate(zip(cols.label, parents)):
        name = str(lab) if lab else role(i)
        if leaf[i]:  # a number the net's code wrapped: an input x[s][i], else a constant
            kinds[i] = "input" if name is not None and name.startswith("x[") else "const"
        if name is not None:
            names[i] = name
        else:
            room = NAME_LENGTH if where[i] is not None else ROLE_LENGTH
            _unlabelled(cols, i, ps, room, fallback)


def _unlabelled(cols: Any, i: int, ps: tuple[int, ...], room: int, fallback: bytearray) -> None:
    """Name node ``i``, which has no label (nor role): made from its operands' names, unless
    one is named by its id or it would not fit in ``room``; else a constant's number; else
    its id (marked in ``fallback``)."""
    if ps:
        for p in ps:
            if fallback[p]:
                break
        else:
            made = _made(cols, i, ps, room)
            if made is not None:
                cols.name[i] = made
                return
    if cols.kind[i] == "const":
        cols.name[i] = fmt(cols.data[i], 12, trim=True)
    else:
        cols.name[i] = str(cols.id[i])
        fallback[i] = 1
