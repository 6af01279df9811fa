"""Collapse and focus, at their documented path: :mod:`vizgrad.graph.collapse`.

    >>> from vizgrad.collapse import collapse, focus
    >>> callable(collapse) and callable(focus)
    True
"""

from .graph.collapse import (AUTO_BOXES, AUTO_NODES, FOLD_MIN, LEVELS, MAX_INPUTS, OUTSIDE,
                             auto_collapse, collapse, focus, fold_outside, group_depth,
                             map_step, merge_constants, merge_inputs, prepare, transform_step)

__all__ = ["AUTO_BOXES", "AUTO_NODES", "FOLD_MIN", "LEVELS", "MAX_INPUTS", "OUTSIDE",
           "auto_collapse", "collapse", "focus", "fold_outside", "group_depth", "map_step",
           "merge_constants", "merge_inputs", "prepare", "transform_step"]
