"""A student's net: MLP(3, [5, 5, 1]) on six samples with a sum of squared errors (seeded).

``vizgrad render tests/models/squares.py`` draws it with no options.
"""

import random

from micrograd.nn import MLP

random.seed(7)
n = MLP(3, [5, 5, 1])
xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0],
      [1.0, 1.0, -1.0], [-1.5, 0.5, 2.0], [0.0, -2.0, 1.0]]
ys = [1.0, -1.0, -1.0, 1.0, -1.0, 1.0]


def build():
    ypred = [n(x) for x in xs]
    loss = sum((yout - ygt) ** 2 for ygt, yout in zip(ys, ypred))
    loss.backward()
    return loss
