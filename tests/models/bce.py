"""A student's net: MLP(4, [6, 3, 1]) with a binary cross-entropy written with exp and log
(seeded): p = 1 / (1 + exp(-score)), loss = -mean(y log p + (1 - y) log(1 - p)).
"""

import math
import random

from micrograd.engine import Value
from micrograd.nn import MLP


def exp(v):
    """e ** v as a micrograd Value (micrograd 0.1.0 has no exp): out.grad * out flows back."""
    out = Value(math.exp(v.data), (v,), "exp")

    def _backward():
        v.grad += out.data * out.grad
    out._backward = _backward
    return out


def log(v):
    """ln v as a micrograd Value: out.grad / v flows back."""
    out = Value(math.log(v.data), (v,), "log")

    def _backward():
        v.grad += out.grad / v.data
    out._backward = _backward
    return out

random.seed(11)
net = MLP(4, [6, 3, 1])
xs = [[0.5, -1.0, 2.0, 0.1], [1.5, 0.2, -0.3, -1.0],
      [-0.7, 0.8, 0.4, 1.2], [0.0, -0.5, -1.5, 0.9]]
ys = [1.0, 0.0, 1.0, 0.0]


def build():
    total = 0
    for x, y in zip(xs, ys):
        score = net(x)
        p = (1 + exp(-score)) ** -1
        total = total + -(y * log(p) + (1 - y) * log(1 - p))
    loss = total * (1.0 / len(xs))
    loss.backward()
    return loss
