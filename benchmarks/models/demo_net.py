"""micrograd's demo notebook net: MLP(2, [16, 16, 1]) on 8 points, its SVM hinge loss with a
little L2 regularisation, as ``vizgrad train`` reads it (``build`` returns the loss and leaves
zeroing and ``backward()`` to vizgrad). About 6,200 values per step."""

import random

from micrograd.engine import Value
from micrograd.nn import MLP

random.seed(1337)
model = MLP(2, [16, 16, 1])
rng = random.Random(3)
xs = [[rng.uniform(-2, 2), rng.uniform(-2, 2)] for _ in range(8)]
ys = [1.0 if x[0] * x[1] > 0 else -1.0 for x in xs]


def build():
    scores = [model(list(map(Value, x))) for x in xs]
    losses = [(1 + -yi * si).relu() for yi, si in zip(ys, scores)]
    data_loss = sum(losses) * (1.0 / len(losses))
    reg = 1e-4 * sum(p * p for p in model.parameters())
    return data_loss + reg
