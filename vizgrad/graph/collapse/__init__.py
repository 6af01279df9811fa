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
"""

from __future__ import annotations

import math
from collections import Counter, deque
from itertools import repeat
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ..columns import distinct, in_order, namer
from .batch import batch_inputs, box_attrs
from .contract import contract
from .fold import FOLD_MIN, OUTSIDE, fold_outside
from .merge import (MAX_INPUTS, depth_of, finish, group_key, merge_constants,
                     merge_inputs)
from ..meta import LEVELS
from ..samples import pick
from ...exceptions import OptionError
from ..convert import as_graph

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["AUTO_BOXES", "AUTO_NODES", "FOLD_MIN", "LEVELS", "MAX_INPUTS", "OUTSIDE",
           "INPUTS_BOX", "auto_collapse", "batch_inputs",
           "collapse", "focus", "fold_outside", "group_depth", "map_step", "merge_constants",
           "merge_inputs", "prepare", "transform_step"]

#: a grouped graph with more nodes than this is collapsed by :func:`vizgrad.draw`
AUTO_NODES = 100
#: the most boxes an automatic collapse aims for
AUTO_BOXES = 60
_STEP_MODES = ("merge", "inside")


def group_depth(G: Any) -> int:
    """The deepest group path in the graph (0 when nothing is grouped)."""
    return max((len(str(g).split("/")) for g in distinct(G, "group") if g), default=0)


_LOOSE = "\0loose"  # a node in no box at ``depth``: in a run, if any
#: the id of the box of a batch's inputs (:mod:`.batch`)
INPUTS_BOX = "in0"


def _box_path(g: Any, depth: int, expand: frozenset[str]) -> str | None:
    """The path of the box of a node of group path ``g`` (``_LOOSE`` or ``None``: none)."""
    path = group_key(g, depth) if depth else None
    d = depth
    while path is not None and path in expand:  # an opened group shows its own groups
        d += 1
        deeper = group_key(g, d)
        path = deeper if deeper != path else None
    if path is not None:
        return path
    return _LOOSE if not depth or group_key(g, depth) is None else None


def _boxes(G: Any, depth: int, runs: int | None = None, root_apart: bool = True,
           expand: frozenset[str] = frozenset(), inputs: Any = ()
           ) -> tuple[dict[str, str], dict[str, Any]]:
    """Nodes grouped at ``depth`` into boxes ``g0, g1 …`` (in order of first member), but
    for the groups in ``expand``; with ``runs``, the other nodes but the root go into that
    many runs of the topological order; ``inputs`` (a batch's, :func:`.batch.batch_inputs`)
    go into one box of their own."""
    box_of: dict[str, str] = {}
    boxes: dict[str, dict[str, Any]] = {}
    ids: dict[str, str] = {}  # group path → its box
    loose = []
    kinds: dict[Any, str | None] = {}  # group path → its box's path, _LOOSE, or None (apart)
    data_in = set(inputs)
    for n, g in in_order(G, "group"):
        if n in data_in:  # the batch's data: one box, wherever micrograd wrapped its copies
            box_of[n] = INPUTS_BOX
            continue
        if g not in kinds:
            kinds[g] = _box_path(g, depth, expand)
        path = kinds[g]
        if path is _LOOSE:
            loose.append(n)
        elif path is not None:
            b = ids.get(path)
            if b is None:
                b = ids[path] = f"g{len(boxes)}"
                boxes[b] = {"label": path, "kind": "group", "op": "group", "group": path}
            box_of[n] = b
    if data_in:  # the same id at every level and with any group opened
        boxes[INPUTS_BOX] = box_attrs()
    if runs is None:
        loose = []
    elif root_apart:
        loose = [n for n in loose if n != G.graph["root"]]
    if loose:
        size = math.ceil(len(loose) / runs)
        named = namer(G)  # a run is called by its ends' names, never their ids
        for start in range(0, len(loose), size):
            part = loose[start:start + size]
            b = f"g{len(boxes)}"
            label = (f"{named(part[0])}…{named(part[-1])}" if len(part) > 1
                     else named(part[0]))
            boxes[b] = {"label": label, "kind": "group", "op": "group", "group": None}
            box_of.update(zip(part, repeat(b)))
    return box_of, boxes


def _check_steps(steps: Any) -> str:
    if steps not in _STEP_MODES:
        raise OptionError(f"steps must be one of {list(_STEP_MODES)}, got {steps!r}")
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
    depth, mode = depth_of(level), _check_steps(steps)
    if group_depth(G) == 0:
        raise OptionError(
            f"this graph has no groups to collapse by {level!r}. Trace a micrograd net with "
            "vizgrad.trace(loss, model=net) (or draw(loss, model=net)), make Values inside "
            "vizgrad.group(...), or use collapse='auto', which cuts any graph into runs")
    if isinstance(expand, str) or not all(isinstance(g, str) for g in expand):
        raise OptionError(f"expand must be a list of group paths, got {expand!r}")
    values = G.number_of_nodes()
    G = merge_inputs(G) if inputs else G  # same steps, fewer nodes
    box_of, boxes = _boxes(G, depth, expand=frozenset(expand),
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
    box_of, boxes = _boxes(G, depth, runs, root_apart)
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
    mode = _check_steps(steps)
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


def focus(x: Any, node: str, radius: int = 2) -> nx.MultiDiGraph:
    """The nodes within ``radius`` edges of ``node``; the rest as ``… N more`` stubs.

    Each hidden node joins the stub of the shown node it is nearest to (on the
    side it is reached from), so the stubs' ``hidden`` counts add up to every
    node left out.
    """
    G = as_graph(x)
    if not isinstance(node, str) or node not in G:
        raise OptionError(f"focus node {node!r} is not in this graph; node ids are "
                          f"{', '.join(list(G)[:3])}, … (the trace's ids, or a box's id)")
    if isinstance(radius, bool) or not isinstance(radius, int) or radius < 0:
        raise OptionError(f"radius must be a whole number ≥ 0, got {radius!r}")
    order = G.nodes

    def around(n: str) -> list[tuple[str, str]]:
        near = [(p, "in") for p in G.predecessors(n)] + [(s, "out") for s in G.successors(n)]
        return sorted(dict.fromkeys(near), key=lambda e: (order[e[0]]["order"], e[1]))

    dist = {node: 0}
    queue = deque([node])
    while queue:
        n = queue.popleft()
        if dist[n] < radius:
            for m, _ in around(n):
                if m not in dist:
                    dist[m] = dist[n] + 1
                    queue.append(m)
    stub_of: dict[str, tuple[str, str]] = {}
    for k in sorted(dist, key=lambda n: order[n]["order"]):
        for m, side in around(k):
            if m not in dist and m not in stub_of:
                stub_of[m] = (k, side)
                queue.append(m)
    for same_side in (True, False):  # first along the side a stub was reached from
        if not same_side:
            queue.extend(sorted(stub_of, key=lambda n: order[n]["order"]))
        while queue:
            n = queue.popleft()
            for m, side in around(n):
                if m not in dist and m not in stub_of and (
                        not same_side or side == stub_of[n][1]):
                    stub_of[m] = stub_of[n]
                    queue.append(m)
    for n in sorted(G, key=lambda n: order[n]["order"]):
        if n not in dist and n not in stub_of:
            stub_of[n] = ("", "apart")  # not connected to the shown part
    ids: dict[tuple[str, str], str] = {}
    for n in sorted(stub_of, key=lambda n: order[n]["order"]):
        ids.setdefault(stub_of[n], f"s{len(ids)}")
    box_of = {n: ids[stub_of[n]] for n in stub_of}
    sizes: dict[str, int] = {}
    for b in box_of.values():
        sizes[b] = sizes.get(b, 0) + 1
    boxes = {b: {"label": f"… {sizes[b]:,} more", "kind": "stub", "op": "…", "group": None,
                 "hidden": sizes[b]} for b in ids.values()}
    return finish(G, contract(G, box_of, boxes), "focus",
                   {"node": node, "radius": radius, "hidden": len(box_of)})


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
    _check_steps(steps)
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
            G = auto_collapse(fold_outside(G) if grouped else G, AUTO_BOXES, steps=steps,
                              sample=sample, inputs=constants is not False)
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
