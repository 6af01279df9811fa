"""A graph's Scene in three stages: its plan, its layout, the Scene.

:func:`scene_of` runs them once: :func:`~vizgrad.scene.plan.plan` (pure: texts, sizes,
DOT), :func:`lay_out` (Graphviz: the only stage that runs a program), and
:class:`~vizgrad.scene.scene.Scene` (pure: the shapes placed). :func:`make_scene` picks the
direction too. Both take a graph: a Value or a Trace is traced by the entry that got it
(:func:`vizgrad.draw`, :func:`vizgrad.player_html`, :func:`vizgrad.show`, the command line,
the embeds, the lab)::

    >>> from vizgrad import Value, examples
    >>> scene_of(examples.graph("fork")).look(7)["t-v0-grad"]["text"]
    '−3'
    >>> make_scene(Value(2.0))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    vizgrad.exceptions.NotAGraphError: make_scene takes a graph, not a Value: call ...
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .layout import geometry as gm
from .layout.run import DEFAULT_TIMEOUT, run_layout
from .edges import label_spots
from .plan import Plan, label_nodes, plan, require_graph, turned
from .scene import Scene, fits, readable, slides_of

__all__ = ["TURN_NODES", "lay_out", "make_scene", "placed", "scene_of"]

#: the most values for which a second direction is laid out to compare
TURN_NODES = 500


def lay_out(p: Plan, backend: str | None = None,
            timeout: float = DEFAULT_TIMEOUT) -> gm.Geometry:
    """Where Graphviz puts every box, op circle and edge of the plan's DOT."""
    # json0: the positions without Graphviz's drawing operations (a third of json)
    return gm.parse(run_layout(p.dot, "json0", backend, timeout))


def placed(p: Plan, backend: str | None = None,
           timeout: float = DEFAULT_TIMEOUT) -> Scene:
    """The Scene of plan ``p``, laid out once; or, when its DOT left the edge labels out
    (past :data:`~vizgrad.scene.labels.MANY_LABELS`) and they would lie on top of each
    other in the gaps between ranks, laid out again with a node for each label."""
    geo = lay_out(p, backend, timeout)
    if "joined" in p.dot_parts:
        spots, crowded = label_spots(p, p.edge_texts, p.op_sizes, geo)
        if crowded:
            p = label_nodes(p)
            geo = lay_out(p, backend, timeout)
        else:  # the Scene draws each label where it was found room
            for eid, spot in spots.items():
                if eid in geo.edges:
                    geo.edges[eid] = replace(geo.edges[eid], label=spot)
    return Scene(p, geo)


def scene_of(G: Any, *, backend: str | None = None, timeout: float = DEFAULT_TIMEOUT,
             **options: Any) -> Scene:
    """The :class:`~vizgrad.scene.scene.Scene` of graph ``G`` (from
    :func:`vizgrad.to_networkx`) with these options (:func:`~vizgrad.scene.plan.plan`'s:
    ``preset``, ``theme``, ``rankdir``, ``decimals``, ``trim``, ``lang``, ``caption``,
    ``legend``, ``scale``), laid out once by ``backend`` within ``timeout`` seconds."""
    require_graph(G, "scene_of")
    p = plan(G, **options)
    return placed(p, backend, timeout)


def make_scene(G: Any, *, rankdir: str | None = None, **options: Any) -> Scene:
    """:func:`scene_of`; ``rankdir=None`` picks the direction: left to right, unless that
    does not fit where the preset's picture is shown (a 1,400 px docs column, a 960×540
    slide) and top to bottom is more readable there (on slides: takes fewer). On slides a
    picture of layer matrices that takes more than one slide is also drawn *dense* (a
    matrix too wide to print its grads at 14 pt compact, :mod:`.matrix`), kept if that
    takes fewer slides."""
    require_graph(G, "make_scene")
    backend, timeout = options.pop("backend", None), options.pop("timeout", DEFAULT_TIMEOUT)
    p = plan(G, rankdir=rankdir or "LR", **options)
    scene = _directed(p, rankdir, backend, timeout)
    fit = scene.preset.fit
    if (fit is not None and fit[1] is not None and p.matrices and not fits(scene)
            and len(scene.facts) <= TURN_NODES):
        q = plan(G, rankdir=rankdir or "LR", dense=True, **options)
        if any(q.matrices[n][1] != g for n, (_, g) in p.matrices.items()):
            dense = _directed(q, rankdir, backend, timeout)
            if slides_of(dense) < slides_of(scene):
                return dense
    return scene


def _directed(p: Plan, rankdir: str | None, backend: str | None, timeout: float) -> Scene:
    """Plan ``p`` laid out left to right, or top to bottom when ``rankdir`` is None and
    that fits better (see :func:`make_scene`)."""
    scene = placed(p, backend, timeout)
    if rankdir is None and not fits(scene) and len(scene.facts) <= TURN_NODES:
        q = turned(p, "TB")  # the same plan, the other way: only the DOT is written again
        tall = placed(q, backend, timeout)
        fit = scene.preset.fit
        if fit is not None and fit[1] is not None:  # slides: the fewer, the better
            return tall if slides_of(tall) < slides_of(scene) else scene
        if readable(tall) > readable(scene):
            return tall
    return scene
