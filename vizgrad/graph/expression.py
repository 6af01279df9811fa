"""An expression becomes a graph here, and nowhere else.

The command line's ``--expr``, the embeds' expressions and the lab's ``"expression"`` all
call :func:`expression_graph`: the expression is parsed safely
(:func:`vizgrad.core.expr.parse`, never evaluated) with its input values, its output is
named ``f`` (:func:`~vizgrad.core.expr.name_output`) unless it is one of the inputs,
``backward()`` runs, and the traced graph is returned (not collapsed: steps count its own).

    >>> G = expression_graph("(a*b)*(a+b)", {"a": -2.0, "b": 3.0})
    >>> G.nodes[G.graph["root"]]["label"], G.nodes[G.graph["root"]]["data"]
    ('f', -6.0)
"""

from __future__ import annotations

from collections.abc import Mapping

import networkx as nx

from ..core.expr import name_output, parse
from .convert import to_networkx

__all__ = ["expression_graph"]


def expression_graph(expression: str, values: Mapping[str, float]) -> nx.MultiDiGraph:
    """The graph of ``expression`` at ``values``, after ``backward()``."""
    root = name_output(parse(expression, **values), dict(values))
    root.backward()
    return to_networkx(root)
