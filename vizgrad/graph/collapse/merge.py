"""Draw repeated leaves once: a net's input copies, and the numbers every subgroup wraps.

The helpers every transform of :mod:`vizgrad.graph.collapse` shares live here too: a level
as a depth, a group path cut to a depth, and the note a transformed graph carries.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, Any

from .contract import contract
from ..meta import LEVELS
from ...exceptions import OptionError
from ..convert import as_graph

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["MAX_INPUTS", "depth_of", "finish", "group_key", "merge_constants", "merge_inputs"]


def depth_of(level: Any) -> int:
    """A collapse level as a group depth: ``"layer"`` is 1, ``"neuron"`` 2, or a depth ≥ 1."""
    if isinstance(level, str) and level in LEVELS:
        return LEVELS[level]
    if isinstance(level, int) and not isinstance(level, bool) and level >= 1:
        return level
    raise OptionError(f"collapse level must be one of {list(LEVELS)} or a group depth ≥ 1, "
                      f"got {level!r}")


def group_key(group: Any, depth: int) -> str | None:
    """The group path cut to ``depth`` parts (``None`` outside every group)."""
    if not group:
        return None
    return "/".join(str(group).split("/")[:depth])


def finish(G: Any, H: Any, what: str, info: dict[str, Any]) -> Any:
    """``H`` with ``H.graph[what]`` saying what was done to ``G`` and how much it shrank."""
    H.graph[what] = {**info, "nodes": G.number_of_nodes(), "boxes": H.number_of_nodes()}
    return H


#: the most inputs (samples × features) :func:`merge_inputs` draws by default: past it,
#: the inputs stay inside their neurons' boxes (``merge_constants=True`` draws them all)
MAX_INPUTS = 24


def merge_inputs(x: Any) -> nx.MultiDiGraph:
    """A net's inputs drawn once per sample and feature: the copies of ``x[s][i]`` that
    micrograd wraps in every neuron merged into one node (:func:`merge_constants` with
    ``inputs_only=True``); a graph with no such copies, or with more than
    :data:`MAX_INPUTS` inputs, comes back as it is.

    >>> import vizgrad
    >>> from micrograd.nn import MLP
    >>> import random; random.seed(0); net = MLP(2, [2, 1])
    >>> G = vizgrad.to_networkx(vizgrad.trace(net([1.0, -2.0]), model=net))
    >>> H = merge_inputs(G)
    >>> G.number_of_nodes() - H.number_of_nodes(), merge_inputs(H) is H
    (2, True)
    """
    G = as_graph(x)
    seen: set[str] = set()
    copies = False
    for n, name in filter(itemgetter(1), G.nodes(data="name")):  # the named nodes
        name = str(name)
        if name.startswith("x[") and not G.in_degree(n) and not G.nodes[n].get("label"):
            copies = copies or name in seen
            seen.add(name)
            if len(seen) > MAX_INPUTS:  # too many to draw apart: the graph stays as it is
                return G
    return merge_constants(G, inputs_only=True) if copies else G


def merge_constants(x: Any, level: str | int = "layer", *,
                    inputs_only: bool = False) -> nx.MultiDiGraph:
    """Draw once per group the wrapped numbers that repeat across its subgroups.

    micrograd wraps each float input in every neuron, so ``MLP(3, [4, 1])``
    holds four copies of each ``x_i``. The copies of a net's input ``x[s][i]`` (named
    by :mod:`vizgrad.tracing.names`: the copy multiplied by ``w[i]`` in the s-th forward pass)
    become one node ``x[s][i]``; other unlabelled leaves merge within each group at
    ``level``: the k-th leaf of value v of every subgroup becomes one node. A merged
    node's grad is the sum of the copies' grads (the grad of that input). It joins
    no group, so collapsed neurons show it as a shared input. ``inputs_only`` merges
    only a net's inputs.

    >>> import vizgrad
    >>> from micrograd.nn import MLP
    >>> import random; random.seed(0); net = MLP(2, [2, 1])
    >>> G = merge_constants(vizgrad.to_networkx(vizgrad.trace(net([1.0, -2.0]), model=net)))
    >>> sorted(G.nodes[n]["name"] for n in G if G.nodes[n].get("members"))
    ['x[0][0]', 'x[0][1]']
    """
    G = as_graph(x)
    depth = depth_of(level)
    seen: dict[tuple[Any, ...], int] = {}
    key: dict[str, tuple[Any, ...]] = {}
    for n in sorted(G, key=lambda n: G.nodes[n]["order"]):
        a = G.nodes[n]
        if G.in_degree(n) or a.get("label") or a.get("kind") not in ("input", "const"):
            continue
        g = a.get("group")
        if str(a.get("name", "")).startswith("x["):  # a net's input: one node per name
            key[n] = (a["name"], a["kind"], a["data"], 0)
            continue
        if inputs_only:
            continue
        k = (g, a["kind"], a["data"])
        seen[k] = seen.get(k, 0) + 1
        key[n] = (group_key(g, depth), a["kind"], a["data"], seen[k])
    copies: dict[tuple[Any, ...], list[str]] = {}
    for n, k in key.items():
        copies.setdefault(k, []).append(n)
    box_of: dict[str, str] = {}
    boxes: dict[str, dict[str, Any]] = {}
    for k, ns in copies.items():
        if len(ns) > 1:
            b = f"c{len(boxes)}"
            own = {G.nodes[n].get("group") for n in ns}  # one group, or none when they differ
            first = G.nodes[ns[0]]
            boxes[b] = {"label": "", "kind": k[1], "op": "", "data": k[2],
                        "group": own.pop() if len(own) == 1 else None,
                        "name": first.get("name") if isinstance(k[0], str) and k[0].startswith(
                            "x[") else None, "sample": first.get("sample")}
            box_of.update((n, b) for n in ns)
    return finish(G, contract(G, box_of, boxes), "merged", {"level": level})
