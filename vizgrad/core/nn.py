"""The course's small neural net, built from vizgrad Values, each neuron in its own group.

``Neuron``, ``Layer`` and ``MLP`` mirror micrograd's ``nn`` module (``layers``
→ ``neurons`` → ``w``, ``b``, and ``parameters()``). Calling the net records
every Value of neuron j of layer i in the group ``L{i}/N{j}``, and the
parameters are labelled ``L{i}.N{j}.w{k}`` and ``L{i}.N{j}.b``, so drawings can
collapse a neuron or a layer into one box::

    >>> from vizgrad import Value
    >>> net = MLP(2, [3, 1], seed=1)
    >>> out = net([Value(2.0, label="x0"), Value(3.0, label="x1")])
    >>> out.group, len(net.parameters()), net.layers[0].neurons[2].b.label
    ('L1/N0', 13, 'L0.N2.b')

Weights come from ``random.Random(seed)``, so the same seed gives the same net.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .value import Value, group
from ..exceptions import OptionError

__all__ = ["MLP", "Layer", "Neuron"]

_ACTIVATIONS = ("tanh", "relu", "linear")


class Neuron:
    """``activation(w · x + b)``, summed as micrograd does (``b`` first)."""

    def __init__(self, nin: int, *, activation: str = "tanh", rng: random.Random,
                 name: str = "N0") -> None:
        if activation not in _ACTIVATIONS:
            raise OptionError(f"activation must be one of {list(_ACTIVATIONS)}, got {activation!r}")
        self.w = [Value(rng.uniform(-1, 1), label=f"{name}.w{k}") for k in range(nin)]
        self.b = Value(0.0, label=f"{name}.b")
        self.activation = activation

    def __call__(self, x: Sequence[Value | float]) -> Value:
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        if self.activation == "tanh":
            return act.tanh()
        return act.relu() if self.activation == "relu" else act

    def parameters(self) -> list[Value]:
        return [*self.w, self.b]


class Layer:
    """``nout`` neurons on the same inputs."""

    def __init__(self, nin: int, nout: int, *, activation: str = "tanh", rng: random.Random,
                 name: str = "L0") -> None:
        self.name = name
        self.neurons = []
        with group(name):  # parameters belong to their neuron's group too
            for j in range(nout):
                with group(f"N{j}"):
                    self.neurons.append(Neuron(nin, activation=activation, rng=rng,
                                               name=f"{name}.N{j}"))

    def __call__(self, x: Sequence[Value | float]) -> list[Value]:
        out = []
        with group(self.name):
            for j, n in enumerate(self.neurons):
                with group(f"N{j}"):
                    out.append(n(x))
        return out

    def parameters(self) -> list[Value]:
        return [p for n in self.neurons for p in n.parameters()]


class MLP:
    """Layers of sizes ``nouts`` on ``nin`` inputs; returns a Value when the last layer has one."""

    def __init__(self, nin: int, nouts: Sequence[int], *, activation: str = "tanh",
                 last: str | None = None, seed: int = 0) -> None:
        rng = random.Random(seed)
        sizes = [nin, *nouts]
        self.layers = [Layer(sizes[i], sizes[i + 1], rng=rng, name=f"L{i}",
                             activation=last if last and i == len(nouts) - 1 else activation)
                       for i in range(len(nouts))]

    def __call__(self, x: Sequence[Value | float]) -> Any:
        """The output Value, or the list of outputs when the last layer has several."""
        out: Sequence[Value | float] = x
        for layer in self.layers:
            out = layer(out)
        return out[0] if len(out) == 1 else list(out)

    def parameters(self) -> list[Value]:
        return [p for layer in self.layers for p in layer.parameters()]
