"""micrograd's demo-notebook net: MLP(2, [16, 16, 1]) on eight 2-D points, an SVM hinge loss
plus L2 regularisation (seeded).
"""

import random

from micrograd.nn import MLP

random.seed(1337)
model = MLP(2, [16, 16, 1])
X = [[1.0, 0.2], [-0.5, 0.9], [0.3, -0.4], [1.6, -0.3],
     [-0.9, 0.1], [0.8, 0.6], [0.1, 0.95], [1.9, 0.4]]
y = [1, 1, -1, -1, 1, 1, 1, -1]


def build():
    scores = [model(x) for x in X]
    losses = [(1 + -yi * si).relu() for yi, si in zip(y, scores)]
    data_loss = sum(losses) * (1.0 / len(losses))
    reg_loss = 1e-4 * sum(p * p for p in model.parameters())
    total = data_loss + reg_loss
    total.backward()
    return total
