"""A student's net: MLP(3, [7, 5, 1]) on four samples with a sum of squared errors (seeded):
four layer boxes by layer, which once took four slides, the first holding L0 alone.
"""

import random

from micrograd.nn import MLP

random.seed(2)
n = MLP(3, [7, 5, 1])
xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
ys = [1.0, -1.0, -1.0, 1.0]


def build():
    ypred = [n(x) for x in xs]
    loss = sum((yout - ygt) ** 2 for ygt, yout in zip(ys, ypred))
    loss.backward()
    return loss
