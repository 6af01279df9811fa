"""What a training run reads from a micrograd-style net: its named parameters, its structure,
and, for nets of tanh, ReLU or linear neurons, the same net computed on plain numbers (numpy)
over many inputs at once: the prediction over the input plane.

    >>> from vizgrad.core.nn import MLP
    >>> net = MLP(2, [3, 1], seed=1)
    >>> [n for n, _ in named_parameters(net)][:3], len(named_parameters(net))
    (['L0.N0.w0', 'L0.N0.w1', 'L0.N0.b'], 13)
    >>> s = structure(net)
    >>> s["inputs"], [len(layer["neurons"]) for layer in s["layers"]], s["activations"]
    (2, [3, 1], ['tanh', 'tanh'])
    >>> out = forward(s, [p.data for _, p in named_parameters(net)], [[2.0, 3.0]])
    >>> abs(out[0] - net([2.0, 3.0]).data) < 1e-12
    True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..tracing.nets import model_parameters

__all__ = ["activation_of", "forward", "named_parameters", "predict", "structure"]


def named_parameters(net: Any) -> list[tuple[str, Any]]:
    """``(name, Value)`` of every parameter, named as the drawings name them (``L0.N1.w0``)."""
    return [(name, p) for _, name, p in model_parameters(net)]


def activation_of(neuron: Any) -> str | None:
    """``tanh``, ``relu`` or ``linear`` for vizgrad's and micrograd's neurons, else None."""
    act = getattr(neuron, "activation", None)
    if act in ("tanh", "relu", "linear"):
        return str(act)
    nonlin = getattr(neuron, "nonlin", None)
    if isinstance(nonlin, bool):
        return "relu" if nonlin else "linear"
    return None


def _neurons(net: Any) -> list[list[Any]]:
    if hasattr(net, "layers"):
        return [list(getattr(layer, "neurons", [])) for layer in net.layers]
    if hasattr(net, "neurons"):
        return [list(net.neurons)]
    return [[net]]


def structure(net: Any) -> dict[str, Any]:
    """The net's layers, neurons and which parameter is which (as lists of names), its input
    size and each layer's activation (``None`` where it cannot be read)."""
    names = [n for n, _ in named_parameters(net)]
    layers: dict[str, dict[str, list[str]]] = {}
    for name in names:
        layer, neuron, _ = name.split(".")
        layers.setdefault(layer, {}).setdefault(f"{layer}.{neuron}", []).append(name)
    acts: list[str | None] = []
    for neurons in _neurons(net):
        found = {activation_of(n) for n in neurons}
        acts.append(found.pop() if len(found) == 1 else None)
    first = next(iter(layers.values()), {})
    nin = sum(1 for n in next(iter(first.values()), []) if n.rsplit(".", 1)[1].startswith("w"))
    return {"inputs": nin, "activations": acts,
            "layers": [{"name": ln, "neurons": [{"name": nn, "parameters": ps}
                                                for nn, ps in ns.items()]}
                       for ln, ns in layers.items()]}


def _act(name: str | None, x: Any) -> Any:
    import numpy as np

    if name == "tanh":
        return np.tanh(x)
    if name == "relu":
        return np.maximum(x, 0.0)
    return x


def forward(shape: dict[str, Any], data: Sequence[float], inputs: Any) -> list[float]:
    """The net's first output for each row of ``inputs``, from the parameters' values
    ``data`` (in :func:`named_parameters` order), on plain numbers. Needs every layer's
    activation (see :func:`structure`) and neurons named ``w0 … wn, b``."""
    import numpy as np

    if any(a is None for a in shape["activations"]):
        raise ValueError("forward() needs each layer's activation (tanh, relu or linear)")
    x = np.asarray(inputs, dtype=float)
    i = 0
    for layer, act in zip(shape["layers"], shape["activations"]):
        size = len(layer["neurons"][0]["parameters"])
        block = np.asarray(data[i:i + size * len(layer["neurons"])], dtype=float)
        block = block.reshape(len(layer["neurons"]), size)
        i += block.size
        with np.errstate(all="ignore"):
            x = _act(act, block[:, -1] + x @ block[:, :-1].T)
    return [float(v) if math.isfinite(v) else math.nan for v in x[:, 0]]


def _py_act(name: str | None, x: float) -> float:
    if name == "tanh":
        return math.tanh(x)
    if name == "relu":
        return x if x > 0 else 0.0
    return x


def predict(shape: dict[str, Any], data: Sequence[float], x: Sequence[float]) -> float:
    """:func:`forward` for one sample, summed in the engines' order (``b`` first, then each
    ``w·x`` in turn), so it equals the net's own output to the last bit."""
    i = 0
    row = [float(v) for v in x]
    for layer, act in zip(shape["layers"], shape["activations"]):
        out = []
        for neuron in layer["neurons"]:
            size = len(neuron["parameters"])
            w, b = data[i:i + size - 1], data[i + size - 1]
            i += size
            total = b
            for wi, xi in zip(w, row):
                total = total + wi * xi
            try:
                out.append(_py_act(act, total))
            except OverflowError:
                out.append(math.nan)
        row = out
    return row[0]
