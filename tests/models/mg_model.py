"""The micrograd course's small net: MLP(3, [4, 4, 1]) and its mean squared-error loss.

``vizgrad render tests/models/mg_model.py:build --set n=1`` draws the loss of one sample
(132 values); ``n`` samples give 88 more values each.
"""

import random

from micrograd.nn import MLP

XS = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
YS = [1.0, -1.0, -1.0, 1.0]


def build(n=1):
    random.seed(1337)
    model = MLP(3, [4, 4, 1])
    n = int(n)
    xs = [XS[i % 4] for i in range(n)]
    ys = [YS[i % 4] for i in range(n)]
    ypred = [model(x) for x in xs]
    loss = sum((yout - ygt) ** 2 for ygt, yout in zip(ys, ypred)) / n
    loss.backward()
    return loss
