"""A deep student net: MLP(2, [64, 64, 64, 1]) on three 2-D points with a hinge loss
(seeded): three hidden layers of 64, drawn by layer on slides.
"""

import random

from micrograd.nn import MLP

random.seed(7)
model = MLP(2, [64, 64, 64, 1])
X = [[1.0, 0.2], [-0.5, 0.9], [0.3, -0.4]]
y = [1, -1, 1]


def build():
    scores = [model(x) for x in X]
    loss = sum((1 + -yi * si).relu() for yi, si in zip(y, scores)) * (1.0 / len(X))
    loss.backward()
    return loss
