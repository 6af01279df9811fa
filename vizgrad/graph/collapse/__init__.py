"""Make large graphs readable: collapse groups into boxes, focus on a neighbourhood.

Every function here maps a vizgrad graph to a smaller vizgrad graph, steps
included, so every renderer draws the result as it is::

    >>> import vizgrad
    >>> from vizgrad.graph.collapse import collapse, focus
    >>> G = vizgrad.examples.graph("mlp")
    >>> H = collapse(G, "neuron")
    >>> G.number_of_nodes(), H.number_of_nodes()
    (40, 9)
    >>> [H.nodes[b]["label"] for b in H if H.nodes[b]["kind"] == "group"]
    ['L0/N0', 'L0/N1', 'L0/N2', 'L1/N0']
    >>> F = focus(G, G.graph["root"], radius=1)
    >>> sorted(F.nodes[s]["label"] for s in F if F.nodes[s]["kind"] == "stub")
    ['… 38 more']

Groups come from :func:`vizgrad.group` or from ``vizgrad.trace(..., model=net)``;
a level is a depth of the group path (``"layer"`` is 1, ``"neuron"`` is 2).
Nodes outside every group stay as they are. :func:`auto_collapse` picks the
deepest level that fits a number of boxes, or cuts an ungrouped graph into
runs of its topological order. See ``vizgrad.graph.collapse.contract`` for how boxes' values,
grads, edges and steps are made.

The modules: ``assign`` (which node goes into which box), ``levels`` (:func:`collapse`,
:func:`auto_collapse`), ``neighbourhood`` (:func:`focus`), ``pipeline`` (:func:`prepare`,
the steps carried through), ``merge`` and ``fold`` (inputs and constants drawn once, the
values outside every group), ``batch`` (a batch's inputs), ``contract``, ``steps``,
``boxes`` and ``cells`` (the collapsed graph built).
"""

from __future__ import annotations

from .assign import INPUTS_BOX, group_depth
from .batch import batch_inputs
from .fold import FOLD_MIN, OUTSIDE, fold_outside
from .levels import AUTO_BOXES, AUTO_NODES, auto_collapse, collapse
from .merge import MAX_INPUTS, merge_constants, merge_inputs
from .neighbourhood import focus
from .pipeline import map_step, prepare, transform_step
from ..meta import LEVELS

__all__ = ["AUTO_BOXES", "AUTO_NODES", "FOLD_MIN", "LEVELS", "MAX_INPUTS", "OUTSIDE",
           "INPUTS_BOX", "auto_collapse", "batch_inputs",
           "collapse", "focus", "fold_outside", "group_depth", "map_step", "merge_constants",
           "merge_inputs", "prepare", "transform_step"]
