"""The course's small neural net, at its documented path: :mod:`vizgrad.core.nn`.

    >>> from vizgrad.nn import MLP
    >>> len(MLP(2, [3, 1]).parameters())
    13
"""

from .core.nn import (MLP, Layer, Neuron)

__all__ = ["MLP", "Layer", "Neuron"]
