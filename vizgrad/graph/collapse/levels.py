"""Collapse a graph at a group level (:func:`collapse`), or at the deepest level that fits
a number of boxes (:func:`auto_collapse`), with runs of the topological order for the rest.

    >>> import vizgrad
    >>> H = collapse(vizgrad.examples.graph("mlp"), "layer")
    >>> sorted(H.nodes[b]["label"] for b in H if H.nodes[b]["kind"] == "group")
    ['L0', 'L1']
"""

from __future__ import annotations

from collections import Counter
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from .assign import box_assignment, group_depth
from .batch import batch_inputs
from .contract import contract
from .merge import depth_of, finish, merge_inputs
from ..samples import pick
from ...exceptions import OptionError
from ..convert import as_graph

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["AUTO_BOXES", "AUTO_NODES", "STEP_MODES", "auto_collapse", "check_steps", "collapse"]

#: a grouped graph with more nodes than this is collapsed by :func:`vizgrad.draw`
AUTO_NODES = 100
#: the most boxes an automatic collapse aims for
AUTO_BOXES = 60
#: how a box's backward steps are shown: as one step, or one per member
STEP_MODES = ("merge", "inside")


def check_steps(steps: Any) -> str:
    if steps not in STEP_MODES:
        raise OptionError(f"steps must be one of {list(STEP_MODES)}, got {steps!r}")
    return str(steps)


def collapse(x: Any, level: str | int, *, steps: str = "merge",
             expand: Any = (), sample: int | str = 0, inputs: bool = True) -> nx.MultiDiGraph:
    """Draw each group at ``level`` as one box (``kind="group"``).

    Args:
        x: a graph (or a Value or Trace) whose nodes carry ``group``.
        level: ``"layer"``, ``"neuron"`` or a depth of the group path.
        steps: ``"merge"`` shows a box's backward pass as one step,
            ``"inside"`` keeps one step per member (each names its ``member``).
        expand: group paths to leave open: a group at ``level`` shows the groups one level
            down inside it (a layer its neurons) as boxes, unless they are opened too
            (their values drawn one by one).
        sample: of a net run on several samples (:mod:`vizgrad.graph.samples`), the one
            whose values the boxes show (``"all"``: their sum); grads are always totals.
        inputs: draw a net's inputs once per sample and feature (:func:`merge_inputs`),
            so that the first layer's boxes have their inputs; False keeps the copies
            inside the boxes that wrap them. A batch's inputs, merged or not, are one box
            of samples × features (:mod:`.batch`).

    >>> import vizgrad
    >>> G = vizgrad.examples.graph("mlp")
    >>> collapse(G, "neuron", expand=["L1/N0"]).number_of_nodes()
    19
    """
    G = as_graph(x)
    depth, mode = depth_of(level), check_steps(steps)
    if group_depth(G) == 0:
        raise OptionError(
            f"this graph has no groups to collapse by {level!r}. Trace a micrograd net with "
            "vizgrad.trace(loss, model=net) (or draw(loss, model=net)), make Values inside "
            "vizgrad.group(...), or use collapse='auto', which cuts any graph into runs")
    if isinstance(expand, str) or not all(isinstance(g, str) for g in expand):
        raise OptionError(f"expand must be a list of group paths, got {expand!r}")
    values = G.number_of_nodes()
    G = merge_inputs(G) if inputs else G  # same steps, fewer nodes
    box_of, boxes = box_assignment(G, depth, expand=frozenset(expand),
                           inputs=batch_inputs(G) if inputs else ())
    chosen = pick(G, sample)
    H = finish(G, contract(G, box_of, boxes, steps=mode, pick=chosen), "collapsed",
                {"level": level, "steps": mode, **_sample_info(chosen, sample)})
    H.graph["collapsed"]["nodes"] = values  # the values of the graph given
    if not inputs:  # said, so that a group opened later keeps the copies too
        H.graph["collapsed"]["inputs"] = False
    return H


def _sample_info(chosen: Any, sample: Any) -> dict[str, Any]:
    return {"sample": sample, "samples": len(set(chosen[0].values()))} if chosen else {}


def _runs(G: Any, depth: int, runs: int, mode: str, root_apart: bool, sample: Any) -> Any:
    box_of, boxes = box_assignment(G, depth, runs, root_apart)
    chosen = pick(G, sample)
    return finish(G, contract(G, box_of, boxes, steps=mode, pick=chosen), "collapsed",
                   {"level": depth or "order", "runs": runs, "steps": mode,
                    **_sample_info(chosen, sample)})


def auto_collapse(x: Any, max_boxes: int = AUTO_BOXES, *, steps: str = "merge",
                  sample: int | str = 0, inputs: bool = True) -> Any:
    """The deepest group level with at most ``max_boxes`` boxes.

    When no level fits, the deepest level whose groups fit keeps them, and the
    values outside every group go into runs of the topological order (without
    groups, everything does). A graph that already fits comes back unchanged.

    >>> import vizgrad
    >>> G = vizgrad.examples.graph("mlp")
    >>> auto_collapse(G, 20).graph["collapsed"]["level"], auto_collapse(G, 5).number_of_nodes()
    (2, 5)
    """
    G = as_graph(x)
    if isinstance(max_boxes, bool) or not isinstance(max_boxes, int) or max_boxes < 1:
        raise OptionError(f"max_boxes must be a whole number ≥ 1, got {max_boxes!r}")
    mode = check_steps(steps)
    if G.number_of_nodes() <= max_boxes:
        return G
    sizes = Counter(map(itemgetter(1), G.nodes(data="group")))  # nodes per group path
    parts = {g: str(g).split("/") for g in sizes if g}  # distinct group paths, split once
    ungrouped = sum(k for g, k in sizes.items() if not g)
    deepest = group_depth(G)
    counts = {d: len({"/".join(p[:d]) for p in parts.values()}) for d in range(1, deepest + 1)}
    fits = [d for d in counts if counts[d] + ungrouped <= max_boxes]
    if fits:
        H = collapse(G, max(fits), steps=mode, sample=sample, inputs=inputs)
    else:  # the groups fit, the rest (a loss over many samples) goes into runs, the root apart
        some = [d for d in counts if counts[d] + 2 <= max_boxes]
        d = max(some) if some else 0
        H = _runs(G, d, max(1, max_boxes - counts.get(d, 0) - 1), mode, max_boxes > 1, sample)
    H.graph["collapsed"]["auto"] = True
    return H
