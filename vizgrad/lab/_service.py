"""What the lab computes for a checked :class:`~vizgrad.lab._requests.Query`.

Pure functions of the request (plus the caches of :mod:`._caches`), so any
number of workers can answer any request. The graph a request names is built in
:mod:`._graphs`, the answers that need no layout in :mod:`._payloads`; this module draws
the scene (cached) and re-exports the rest::

    >>> from vizgrad.lab._requests import Limits, Query
    >>> G = build_graph(Query(expression="(a*b)*(a+b)", values={"a": -2, "b": 3}), Limits())
    >>> p = trace_payload(G)
    >>> p["last_step"], p["steps"][7]["caption"]
    (7, 'step 7 / 7 · backward through a·b')
    >>> [(m["label"], m["text"], m["known_at"]) for m in p["metrics"]]
    [('f', '−6', 3), ('∂f/∂a', '−3', 7), ('∂f/∂b', '−8', 7)]
    >>> [r["error_text"] for r in gradcheck_payload(G, 1e-6)["rows"]]
    ['4.1933e-10', '1.1182e-09']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._caches import KeyMemo, RenderCache, SceneCache
from ._graphs import build_graph, build_source, check_step, graph_key, shrink, variables
from ._payloads import examples_payload, full, gradcheck_payload, trace_payload
from ._requests import Limits, Query

if TYPE_CHECKING:
    import networkx as nx

__all__ = [
    "full",
    "variables",
    "build_graph",
    "build_source",
    "shrink",
    "graph_key",
    "check_step",
    "trace_payload",
    "gradcheck_payload",
    "examples_payload",
    "RenderCache",
    "KeyMemo",
    "SceneCache",
    "scene_cache",
    "looks",
    "scene_for",
    "scene_payload",
]


def scene_cache(app_state: Any) -> SceneCache:
    """The app's scene cache (made by create_app; a layout is the slow part of a drawing)."""
    cache: SceneCache = app_state.scenes
    return cache


def looks(q: Query) -> tuple[Any, ...]:
    """What a request's picture looks like, beyond its graph: the theme, the direction, the
    caption and the language (the lab sets every other drawing option to the model's default)."""
    return q.options.theme, q.options.rankdir, q.options.caption, q.options.lang


def scene_for(G: nx.MultiDiGraph, q: Query, limits: Limits, cache: SceneCache,
              key: str | None = None) -> Any:  # the key names the graph, collapsed or not
    """The scene of ``G`` with the query's theme, direction, caption and language (cached)."""
    from ..scene.make import scene_of

    k = (key or graph_key(G), *looks(q))
    if q.expand:  # groups opened in place of the collapsed picture's boxes
        return cache.get(k, lambda: _opened(G, q, limits, cache))
    return cache.get(k, lambda: scene_of(G, **{**q.options.scene(),
                                               "timeout": limits.layout_timeout}))


def _opened(G: nx.MultiDiGraph, q: Query, limits: Limits, cache: SceneCache) -> Any:
    """The scene of ``G`` (collapsed with ``q.expand`` open) laid out in place of the boxes
    of the collapsed picture, so every other box stays where it was."""
    from dataclasses import replace

    from ..scene.opened import open_scene

    closed = replace(q, expand=())
    source = build_source(closed, limits)
    base = scene_for(shrink(source, closed), closed, limits, cache)
    return open_scene(G, base=base, source=source, caption=q.options.caption,
                     timeout=limits.layout_timeout)


def scene_payload(G: nx.MultiDiGraph, q: Query, limits: Limits, cache: SceneCache,
                  key: str, source: nx.MultiDiGraph | None = None) -> dict[str, Any]:
    """The scene's SVG once and the changed shapes of every step (as the player has them);
    ``source``: the graph ``G`` was collapsed from (its parameters' values fill the table)."""
    from ..player.page import player_parts

    from ..player.views import opened_parts

    scene = scene_for(G, q, limits, cache, key)
    parts = opened_parts(scene, source, player_parts(scene, source))
    return {"graph_key": key, "last_step": parts["playback"]["last"], **parts}
