"""The micrograd lecture's script: MLP(3, [4, 4, 1]) at module level, four samples, a sum of
squared errors (394 values). ``vizgrad render tests/models/course.py:build`` finds the net
by itself (the one module-level object with ``parameters()`` in the loss's graph).
"""

import random

from micrograd.nn import MLP

random.seed(1337)
n = MLP(3, [4, 4, 1])
xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
ys = [1.0, -1.0, -1.0, 1.0]


def build():
    ypred = [n(x) for x in xs]
    loss = sum((yout - ygt) ** 2 for ygt, yout in zip(ys, ypred))
    loss.backward()
    return loss
