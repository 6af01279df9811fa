"""The micrograd course's training loop body: MLP(3, [4, 4, 1]) on four samples; ``build``
zeroes the grads and calls ``backward()`` itself, as the course's loop does, so
``vizgrad train`` only moves the parameters. ``plain`` builds and returns the loss only,
leaving zeroing and ``backward()`` to vizgrad; ``forgets`` calls ``backward()`` without
zeroing (the classic bug)."""

import random

from micrograd.nn import MLP

random.seed(1337)
n = MLP(3, [4, 4, 1])
xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
ys = [1.0, -1.0, -1.0, 1.0]


def plain():
    ypred = [n(x) for x in xs]
    return sum((yout - ygt) ** 2 for ygt, yout in zip(ys, ypred))


def build():
    loss = plain()
    n.zero_grad()
    loss.backward()
    return loss


def forgets():
    loss = plain()
    loss.backward()
    return loss


def blows_up():
    """The loss of a net whose output is raised to a high power: it overflows after a few
    steps at a large learning rate."""
    return sum((n(x) - y) ** 8 for x, y in zip(xs, ys))


def nothing():
    return 3.0
