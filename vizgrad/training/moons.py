"""The gallery's training example: two interleaving half-moons, learnt by a small
``vizgrad.nn`` MLP. The points are made here from a seeded generator (no sklearn, no
micrograd), so the example is the same on every machine::

    >>> xs, ys = moons(6)
    >>> len(xs), ys
    (6, [1.0, -1.0, 1.0, -1.0, 1.0, -1.0])
    >>> training = moons_training(steps=3)
    >>> training.steps, training.title
    (3, 'moons-train')
"""

from __future__ import annotations

import math
import random
from typing import Any

from .loop import train
from .record import Training
from ..core.nn import MLP
from ..core.value import Value

__all__ = ["NAME", "moons", "moons_net", "moons_training"]

NAME = "moons-train"


def moons(n: int = 16, noise: float = 0.1, seed: int = 2) -> tuple[list[list[float]], list[float]]:
    """``n`` points on two half-moons, alternately of class +1 (upper) and −1 (lower)."""
    rng = random.Random(seed)
    xs, ys = [], []
    for i in range(n):
        t = math.pi * rng.random()
        if i % 2 == 0:
            x, y, label = math.cos(t), math.sin(t), 1.0
        else:
            x, y, label = 1.0 - math.cos(t), 0.5 - math.sin(t), -1.0
        xs.append([round(x + rng.gauss(0, noise), 3), round(y + rng.gauss(0, noise), 3)])
        ys.append(label)
    return xs, ys


def moons_net() -> tuple[MLP, Any, tuple[list[list[float]], list[float]]]:
    """The net, its build function (a hinge loss with a little L2, as in micrograd's demo)
    and the samples."""
    xs, ys = moons()
    net = MLP(2, [8, 8, 1], activation="tanh", last="linear", seed=3)

    def build() -> Value:
        scores = [net(x) for x in xs]
        hinge = sum(((1 + -y * s).relu() for y, s in zip(ys, scores)), Value(0.0))
        reg = sum((p * p for p in net.parameters()), Value(0.0))
        return hinge * (1.0 / len(xs)) + 1e-4 * reg

    return net, build, (xs, ys)


def moons_training(steps: int = 60, detail: list[int] | None = None) -> Training:
    """The moons net trained for ``steps`` steps at a decaying rate."""
    net, build, samples = moons_net()
    return train(build, steps, "0.5 - 0.4*k/60", model=net, samples=samples,
                 detail=[0] if detail is None else detail, title=NAME)
