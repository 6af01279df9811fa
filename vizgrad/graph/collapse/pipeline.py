"""The drawing options applied to a graph in order (constants, focus, collapse), and a step
of the graph given carried through every graph they made.

    >>> import vizgrad
    >>> G, chain = prepare(vizgrad.examples.graph("mlp"), collapse_at="neuron")
    >>> G.number_of_nodes(), len(chain), transform_step(chain, 0)
    (9, 1, 0)
"""

from __future__ import annotations

from typing import Any

from .fold import fold_outside
from .levels import AUTO_BOXES, AUTO_NODES, auto_collapse, check_steps, collapse
from .merge import merge_constants, merge_inputs
from .neighbourhood import focus
from .assign import group_depth
from ..samples import pick
from ..convert import as_graph

__all__ = ["map_step", "prepare", "transform_step"]


def map_step(H: Any, k: int) -> int:
    """The step of a transformed graph that shows the state after step ``k`` of its source:
    the last one that shows a source step up to ``k`` (a folded view's steps follow its own
    topological order, so their source steps need not rise)."""
    froms = [s.get("from", s["index"]) for s in H.graph["steps"]]
    return max((i for i, f in enumerate(froms) if f <= k), default=0)


def prepare(x: Any, *, collapse_at: Any = False, focus_on: str | None = None, radius: int = 2,
            constants: Any = None, max_nodes: int | None = None,
            steps: str = "merge", sample: int | str = 0) -> tuple[Any, list[Any]]:
    """Apply the drawing options in order (constants, focus, collapse); return the graph and
    the transformed graphs in order (for :func:`map_step`).

    ``collapse_at``: ``False``/``None`` never collapses; ``"auto"`` collapses a
    grouped graph of more than :data:`AUTO_NODES` values (unless it is already
    collapsed), and any graph of more than ``max_nodes``, with
    :func:`auto_collapse`; else a level for :func:`collapse`.

    >>> import vizgrad
    >>> G, chain = prepare(vizgrad.examples.graph("mlp"), collapse_at="auto")
    >>> G.number_of_nodes(), chain
    (40, [])
    """
    G = as_graph(x)
    values, given_collapsed = G.number_of_nodes(), "collapsed" in G.graph
    chain = []
    check_steps(steps)
    if sample != 0:  # a sample the net was not run on is said, even when nothing collapses
        pick(G, sample)
    if constants is None:  # the default: a net's inputs once per sample and feature
        merged = merge_inputs(G)
        if merged is not G:
            G = merged
            chain.append(G)
    elif constants is not False:
        G = merge_constants(G, "layer" if constants is True else constants)
        chain.append(G)
    if focus_on is not None:
        G = focus(G, focus_on, radius)
        chain.append(G)
    if collapse_at == "auto":
        n = G.number_of_nodes()
        grouped = "collapsed" not in G.graph and group_depth(G) > 0  # not collapsed yet
        if (max_nodes is not None and n > max_nodes) or (n > AUTO_NODES and grouped):
            folded = fold_outside(G) if grouped else G
            if folded is not G:  # what the groups are opened from (a page's views)
                G = folded
                chain.append(G)
            G = auto_collapse(G, AUTO_BOXES, steps=steps, sample=sample,
                              inputs=constants is not False)
            chain.append(G)
    elif collapse_at not in (None, False):
        G = collapse(G, collapse_at, steps=steps, sample=sample, inputs=constants is not False)
        chain.append(G)
    if "collapsed" in G.graph and not given_collapsed:
        G.graph["collapsed"]["nodes"] = values  # counted in the graph given
    return G, chain


def transform_step(chain: list[Any], k: int | None) -> int | None:
    """Step ``k`` of the source graph, carried through every graph of ``chain``."""
    if k is None:
        return None
    for H in chain:
        k = map_step(H, k)
    return k
