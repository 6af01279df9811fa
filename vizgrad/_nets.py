"""Name and group the parameters of a micrograd-style neural net inside a trace.

:func:`vizgrad.trace` calls :func:`name_model` when given ``model=``. The net
is read by duck typing: ``model.layers`` (or the model itself when it has
``neurons``, or a single neuron), each layer's ``neurons``, each neuron's
``w`` (a list) and ``b``, or else its ``parameters()``. Parameters are named
``L0.N2.w1``, ``L0.N2.b`` (or ``L0.N2.p3``) and grouped ``L0/N2``; then, in
topological order:

- an op that consumes a parameter joins that parameter's neuron;
- an op whose operands all belong to one neuron joins it (the sum chain and
  the activation), unless it is a power or uses one value twice (``out * out``,
  ``out ** 2``: a loss, not a neuron);
- a leaf that is not a parameter (a number micrograd wrapped inside a neuron)
  joins the neuron when every op using it belongs to that neuron.

Everything else (the loss) keeps the group it had, usually none::

    >>> from vizgrad import Value
    >>> from vizgrad.tracing import trace
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

from .exceptions import OperandTypeError

__all__ = ["model_parameters", "name_model"]


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


def name_model(model: Any, nodes: Sequence[Any], ids: dict[int, str]) -> None:
    """Label and group the trace's node records in place (see the module docstring)."""
    group: dict[int, str] = {}  # node position -> model group
    params: set[int] = set()
    for g, name, p in model_parameters(model):
        vid = ids.get(id(p))
        if vid is None:  # a parameter this graph does not use
            continue
        i = int(vid[1:])
        if i in group:
            continue
        rec = nodes[i]
        if not rec["label"]:
            rec["label"] = name
        group[i] = g
        params.add(i)
    if not params:
        raise OperandTypeError(
            "model=: none of the model's parameters is in this graph; pass the model "
            "whose output the traced value was computed from"
        )
    users: dict[int, set[str | None]] = {}
    for i, rec in enumerate(nodes):
        ps = [int(p[1:]) for p in rec["parents"]]
        if ps and i not in group:
            owner = next((group[p] for p in ps if p in params), None)
            if owner is None:
                owners = {group.get(p) for p in ps}
                if (len(owners) == 1 and None not in owners and len(set(ps)) == len(ps)
                        and not str(rec["op"]).startswith("**")):
                    owner = owners.pop()
            if owner is not None:
                group[i] = owner
        for p in ps:
            users.setdefault(p, set()).add(group.get(i))
    for i, rec in enumerate(nodes):
        if not rec["parents"] and i not in group:
            owners = users.get(i, set())
            if len(owners) == 1 and None not in owners:
                group[i] = str(owners.pop())
    for i, g in group.items():
        nodes[i]["group"] = g
