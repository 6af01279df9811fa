"""A student's net: MLP(2, [8, 8, 1]) on eight moons-like 2-D points, an SVM hinge loss plus
L2 regularisation, as in micrograd's demo notebook (seeded).
"""

import math
import random

from micrograd.nn import MLP

random.seed(3)
model = MLP(2, [8, 8, 1])
X = []
Y = []
for i in range(8):
    t = math.pi * i / 7
    if i % 2 == 0:
        X.append([round(math.cos(t), 3), round(math.sin(t), 3)])
        Y.append(1)
    else:
        X.append([round(1 - math.cos(t), 3), round(0.5 - math.sin(t), 3)])
        Y.append(-1)


def build():
    scores = [model(x) for x in X]
    losses = [(1 + -yi * si).relu() for yi, si in zip(Y, scores)]
    data_loss = sum(losses) * (1.0 / len(losses))
    alpha = 1e-4
    reg_loss = alpha * sum(p * p for p in model.parameters())
    total = data_loss + reg_loss
    total.backward()
    return total
