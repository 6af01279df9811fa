"""Name and group the parameters of a micrograd-style neural net inside a trace.

:func:`vizgrad.trace` calls :func:`name_model` when given ``model=``. The net
is read by duck typing: ``model.layers`` (or the model itself when it has
``neurons``, or a single neuron), each layer's ``neurons``, each neuron's
``w`` (a list) and ``b``, or else its ``parameters()``. Parameters are named
``L0.N2.w1``, ``L0.N2.b`` (or ``L0.N2.p3``) and grouped ``L0/N2``; then, in
topological order:

- an op that consumes a parameter joins that parameter's neuron, but for a parameter's
  square (``p * p``, ``p ** 2``: an L2 penalty, which no neuron computes);
- an op whose operands all belong to one neuron joins it (the sum chain and
  the activation), unless it is a power or uses one value twice (``out * out``,
  ``out ** 2``: a loss, not a neuron);
- a leaf that is not a parameter (a number micrograd wrapped inside a neuron)
  joins the neuron when every op using it belongs to that neuron.

Everything else (the loss) keeps the group it had, usually none::

    >>> from vizgrad import Value
    >>> from vizgrad.tracing.recorder import trace
    >>> class Neuron:
    ...     def __init__(self): self.w, self.b = [Value(0.5), Value(-1.0)], Value(0.1)
    ...     def __call__(self, x):
    ...         return sum((wi * xi for wi, xi in zip(self.w, x)), self.b).tanh()
    >>> n = Neuron()
    >>> loss = (n([2.0, 3.0]) - 1.0) ** 2
    >>> t = trace(loss, model=n)
    >>> [(r["label"], r["group"]) for r in t.nodes if r["group"]][:3]
    [('L0.N0.b', 'L0/N0'), ('L0.N0.w0', 'L0/N0'), ('', 'L0/N0')]
    >>> [r["op"] for r in t.nodes if r["group"] is None]
    ['', '+', '**2']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .records import NodeColumns
from .roles import positions
from ..exceptions import OperandTypeError

__all__ = ["group_columns", "model_parameters", "name_model"]


def _neuron_parameters(neuron: Any) -> list[tuple[str, Any]]:
    w, b = getattr(neuron, "w", None), getattr(neuron, "b", None)
    if isinstance(w, (list, tuple)) and b is not None:
        return [(f"w{k}", p) for k, p in enumerate(w)] + [("b", b)]
    params = getattr(neuron, "parameters", None)
    if callable(params):
        return [(f"p{k}", p) for k, p in enumerate(params())]
    raise OperandTypeError(
        f"model=: a neuron ({type(neuron).__name__}) needs w and b, or parameters(); "
        "pass a micrograd-style MLP, Layer or Neuron"
    )


def model_parameters(model: Any) -> list[tuple[str, str, Any]]:
    """``(group, name, value)`` for every parameter of a micrograd-style net, in order.

    >>> from vizgrad import Value
    >>> class Neuron:
    ...     w, b = [Value(1.0), Value(2.0)], Value(0.0)
    >>> [(g, name) for g, name, _ in model_parameters(Neuron())]
    [('L0/N0', 'L0.N0.w0'), ('L0/N0', 'L0.N0.w1'), ('L0/N0', 'L0.N0.b')]
    """
    layers: list[Any]
    if hasattr(model, "layers"):
        layers = list(model.layers)
    elif hasattr(model, "neurons"):
        layers = [model]
    else:
        layers = [None]
    out: list[tuple[str, str, Any]] = []
    for i, layer in enumerate(layers):
        neurons: Any
        if layer is None:
            neurons = [model]
        else:
            neurons = getattr(layer, "neurons", None)
            if neurons is None:
                raise OperandTypeError(
                    f"model=: layer {i} ({type(layer).__name__}) has no neurons; pass a "
                    "micrograd-style model (layers → neurons → w, b)"
                )
        for j, neuron in enumerate(neurons):
            group = f"L{i}/N{j}"
            out.extend((group, f"L{i}.N{j}.{name}", p)
                       for name, p in _neuron_parameters(neuron))
    return out


def name_model(model: Any, nodes: NodeColumns | Sequence[Any], ids: dict[int, str],
               parents: list[tuple[int, ...]] | None = None) -> None:
    """Label and group the trace's nodes in place (see the module docstring): its
    :class:`~vizgrad.tracing.records.NodeColumns` (``parents``: their operands' positions, if
    already made), or its node records; ``ids`` maps ``id()`` of each Value to its id."""
    if isinstance(nodes, NodeColumns):
        ps = positions(nodes.parents) if parents is None else parents
        group_columns(model, nodes.label, nodes.op, nodes.group, ps, ids)
        return
    labels = [r["label"] for r in nodes]
    groups = [r.get("group") for r in nodes]
    group_columns(model, labels, [str(r["op"]) for r in nodes], groups,
                  positions([r["parents"] for r in nodes]), ids)
    for r, label, group in zip(nodes, labels, groups):
        if label is not r["label"]:
            r["label"] = label
        if group is not r.get("group"):
            r["group"] = group


def group_columns(model: Any, labels: list[Any], ops: list[str], groups: list[Any],
                  parents: list[tuple[int, ...]], ids: dict[int, str]) -> None:
    """:func:`name_model` on the columns ``labels`` and ``groups`` (written in place), with
    ``ops`` and the operands' positions ``parents``.

    >>> from vizgrad import Value
    >>> class Neuron:
    ...     w, b = [Value(1.0)], Value(0.0)
    >>> n, x = Neuron(), Value(2.0)  # (b + w0·x)²: v0 w0, v1 x, v2 b, v3 w0·x, v4 sum, v5 ²
    >>> labels, groups = [""] * 6, [None] * 6
    >>> ids = {id(n.w[0]): "v0", id(x): "v1", id(n.b): "v2"}
    >>> ops, ps = ["", "", "", "*", "+", "**2"], [(), (), (), (0, 1), (2, 3), (4,)]
    >>> group_columns(n, labels, ops, groups, ps, ids)
    >>> labels[:3], groups
    (['L0.N0.w0', '', 'L0.N0.b'], ['L0/N0', 'L0/N0', 'L0/N0', 'L0/N0', 'L0/N0', None])
    """
    n = len(parents)
    mine: list[str | None] = [None] * n  # node position -> model group
    param = bytearray(n)
    found = False
    for g, name, p in model_parameters(model):
        vid = ids.get(id(p))
        if vid is None:  # a parameter this graph does not use
            continue
        i = int(vid[1:])
        if mine[i] is not None:
            continue
        if not labels[i]:
            labels[i] = name
        mine[i] = g
        param[i] = found = True
    if not found:
        raise OperandTypeError(
            "model=: none of the model's parameters is in this graph; pass the model "
            "whose output the traced value was computed from"
        )
    free = bytearray(not ps for ps in parents)  # leaves that are not parameters
    for i, flag in enumerate(param):
        if flag:
            free[i] = 0
    users: dict[int, Any] = {}  # a free leaf's users' group, or _MIXED
    for i, ps in enumerate(parents):
        if not ps:
            continue
        owner = mine[i]
        if owner is None:
            if len(ps) == 2:  # most ops: inlined
                a, b = ps
                if a == b and param[a]:  # p * p: a penalty on the parameter, no neuron's
                    owner = None
                elif param[a]:
                    owner = mine[a]
                elif param[b]:
                    owner = mine[b]
                else:
                    owner = mine[a]
                    if owner is not None and (a == b or mine[b] != owner
                                              or ops[i].startswith("**")):
                        owner = None
            elif len(ps) == 1 and param[ps[0]] and ops[i].startswith("**"):
                owner = None  # p ** 2: a penalty on the parameter, no neuron's
            else:
                for p in ps:
                    if param[p]:
                        owner = mine[p]
                        break
                else:
                    owner = _shared(mine, ps, ops[i])
            mine[i] = owner
        for p in ps:
            if free[p]:
                seen = users.get(p, _NONE)
                if seen is _NONE:
                    users[p] = owner
                elif seen != owner:
                    users[p] = _MIXED
    for p, owner in users.items():
        if owner is not None and owner is not _MIXED:
            mine[p] = owner
    for i, g in enumerate(mine):
        if g is not None:
            groups[i] = g


_NONE: Any = object()  # no user seen yet
_MIXED: Any = object()  # users of several groups


def _shared(mine: list[str | None], ps: tuple[int, ...], op: str) -> str | None:
    """The group of all the operands, if one and the op is no power and no operand is used
    twice (``out * out``, ``out ** 2``: a loss, not a neuron)."""
    g = mine[ps[0]]
    if g is None or op.startswith("**"):
        return None
    return g if len(set(ps)) == len(ps) and {mine[p] for p in ps} == {g} else None
