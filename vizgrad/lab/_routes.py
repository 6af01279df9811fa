"""The lab's endpoints: read a JSON query, compute in a thread, answer JSON or a drawing.

Every route that lays a graph out (``/api/render`` and ``/api/scene``) does so
through the app's :class:`~vizgrad.lab._admission.LayoutGate` (:func:`laid_out`):
one layout at a time per process, a bounded queue, 503 ``busy`` with
``Retry-After`` beyond it. Traces and gradchecks never lay out, so they never wait::

    >>> LAYOUT_ROUTES
    ('/api/render', '/api/scene')
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, Response

from .. import __version__
from .. import i18n
from ..exceptions import BackendError, VizgradError
from ..scene.layout.run import cancel_layout
from . import _caches as caches
from . import _limits
from . import _service as service
from ._admission import RETRY_AFTER, busy, watch
from ._answers import dumps, error_for, error_response, json_response
from ._requests import (
    GRADCHECK_FIELDS,
    RENDER_FIELDS,
    SCENE_FIELDS,
    TRACE_FIELDS,
    ApiError,
    Limits,
    Query,
    decode_json,
    parse_query,
)

__all__ = ["STATIC", "SHARED_JS", "LAYOUT_ROUTES", "SMALL_GRAPH", "endpoints", "laid_out"]

STATIC = Path(__file__).with_name("static")
#: the ES modules shared with the HTML step player (playback, table, zoom …), at /static/vg/
SHARED_JS = Path(__file__).parent.parent / "player" / "assets" / "vg"
#: the routes that lay a graph out, all through the layout gate
LAYOUT_ROUTES = ("/api/render", "/api/scene")
#: values up to which a drawing counts as quick to lay out and queues ahead of bigger ones
SMALL_GRAPH = 60
_log = logging.getLogger("vizgrad.lab")
_MEDIA = {"svg": "image/svg+xml; charset=utf-8", "dot": "text/vnd.graphviz; charset=utf-8"}
#: the one media type a request body may have (parameters such as charset aside)
JSON_TYPE = "application/json"


async def _read_body(request: Request, limit: int) -> bytes:
    # JSON only: a cross-site page cannot send application/json without a CORS preflight,
    # which this API never grants, so other sites cannot make it work for them
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != JSON_TYPE:
        raise ApiError(415, "unsupported_media_type",
                       "send JSON with the header Content-Type: application/json "
                       f"(got {ctype or 'no Content-Type'}); with curl use --json")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ApiError(413, "body_too_large",
                       f"the request body has {declared} bytes; the limit is {limit}", limit=limit)
    chunks, size = [], 0
    try:
        async with asyncio.timeout(_limits.BODY_TIMEOUT):  # a slow body must not hold on
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise ApiError(413, "body_too_large",
                                   f"the request body is over the limit of {limit} bytes",
                                   limit=limit)
                chunks.append(chunk)
    except TimeoutError:
        raise ApiError(408, "request_timeout",
                       f"the request body did not arrive within {_limits.BODY_TIMEOUT:g} s"
                       ) from None
    return b"".join(chunks)


Handler = Callable[[Request], Awaitable[Response]]


def _api(work: Callable[[Request, Query], Response], fields: tuple[str, ...]) -> Handler:
    """An endpoint that reads a JSON query, runs ``work`` in a thread, answers errors as JSON."""

    async def endpoint(request: Request) -> Response:
        limits: Limits = request.app.state.limits
        try:
            data = decode_json(await _read_body(request, limits.max_body_bytes))
            query = parse_query(data, limits, fields)
            return await run_in_threadpool(_guarded, work, request, query)
        except ApiError as err:
            return error_response(err)
        except ClientDisconnect:
            return _disconnected(request)

    return endpoint


def _disconnected(request: Request) -> Response:
    """One log line for a client that went away mid-request (nobody reads the answer)."""
    client = request.client.host if request.client else "?"
    _log.info("client %s disconnected before %s was answered", client, request.url.path)
    return Response(status_code=499)


def _guarded(work: Callable[..., Any], request: Request, q: Query, *args: Any) -> Any:
    try:
        return work(request, q, *args)
    except VizgradError as err:
        raise error_for(err) from None
    except RecursionError:
        raise ApiError(422, "graph_too_large",
                       "the expression is nested too deeply; simplify it") from None


def _trace(request: Request, q: Query) -> Response:
    from ..graph.collapse import group_depth

    source = service.build_source(q, request.app.state.limits)
    G = service.shrink(source, q)
    return json_response(service.trace_payload(G, q.options.lang, group_depth(source)))


def _gradcheck(request: Request, q: Query) -> Response:
    G = service.build_source(q, request.app.state.limits)  # always every value
    return json_response(service.gradcheck_payload(G, q.h))


def _prepare(request: Request, q: Query) -> tuple[Any, int, tuple[Any, ...]]:
    """The graph, the step and the cache key of a render request (cheap: no layout)."""
    G = service.build_graph(q, request.app.state.limits)
    step = service.check_step(G, q.step)
    theme, rankdir, caption, lang = service.looks(q)
    return G, step, (service.graph_key(G), step, theme, q.format, rankdir, caption, lang)


def _draw(request: Request, q: Query, G: Any, step: int, timeout: float) -> str:
    """Draw a step from the graph's cached scene (one layout serves every step)."""
    limits: Limits = request.app.state.limits
    try:
        from ..scene.prepare import refuse_large
        from ..write.svg import Drawing
    except ImportError as err:
        raise BackendError(f"SVG rendering is not installed: {err}") from None
    refuse_large(G, limits.max_nodes)
    scene = service.scene_for(G, q, limits, service.scene_cache(request.app.state),
                              service.graph_key(G))
    drawing = Drawing(scene, step)
    return drawing.svg() if q.format == "svg" else drawing.dot()


def _known(request: Request) -> service.KeyMemo:
    """The app's memo of render requests to their step and cache key (made by create_app)."""
    memo: service.KeyMemo = request.app.state.known
    return memo


def _render_answer(body: str, hit: bool, step: int, key: tuple[Any, ...], fmt: str) -> Response:
    headers = {"X-Vizgrad-Cache": "hit" if hit else "miss", "X-Vizgrad-Step": str(step),
               "ETag": '"' + "-".join([key[0][:16], *map(str, key[1:])]) + '"'}
    return Response(body, 200, headers, media_type=_MEDIA[fmt])


async def laid_out(request: Request, deadline: float, small: bool,
                   work: Callable[..., Any], *args: Any) -> Any | None:
    """Run ``work(request, *args, seconds_left)`` in a thread once the layout gate lets it;
    None when the client left (and its layout was stopped)."""
    limits: Limits = request.app.state.limits
    async with request.app.state.gate.slot(deadline, request.is_disconnected, small) as left:
        try:
            return await watch(run_in_threadpool(_guarded, work, request, *args, left),
                               request.is_disconnected, cancel_layout)
        except ApiError as err:
            if err.error == "layout_timeout" and left < 0.9 * limits.layout_timeout:
                # most of its time went on waiting for other layouts: the lab is busy
                raise busy("the lab is busy: this drawing waited for other layouts and "
                           f"ran out of time; try again in {RETRY_AFTER} s") from None
            raise


def _gated(prepare: Callable[[Request, Query], Awaitable[Response]],
           fields: tuple[str, ...]) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint that lays out, answering errors as JSON (a request the server cancels
    when it shuts down is answered 503 by :class:`~vizgrad.lab._middleware.Guard`)."""

    async def endpoint(request: Request) -> Response:
        limits: Limits = request.app.state.limits
        try:
            data = decode_json(await _read_body(request, limits.max_body_bytes))
            return await prepare(request, parse_query(data, limits, fields))
        except ApiError as err:
            return error_response(err)
        except ClientDisconnect:
            return _disconnected(request)

    return endpoint


def _arrival(request: Request) -> float:
    """The event-loop time by which a layout must be done, counted from the request's arrival."""
    return asyncio.get_running_loop().time() + request.app.state.limits.layout_timeout


async def _render(request: Request, q: Query) -> Response:
    """Render a step: cache hits answer at once; layouts queue in the app's LayoutGate,
    with the layout time limit counted from the request's arrival."""
    deadline = _arrival(request)
    cache: service.RenderCache = request.app.state.cache
    asked = caches.query_key(q)
    known = _known(request).get(asked)
    if known is not None:  # asked before: its drawing may be cached, with no graph to build
        found = await caches.cached(cache, known[1])
        if found is not None:
            return _render_answer(found, True, known[0], known[1], q.format)
    G, step, key = await run_in_threadpool(_guarded, _prepare, request, q)
    _known(request)[asked] = (step, key)
    found = await caches.cached(cache, key)
    if found is not None:
        return _render_answer(found, True, step, key, q.format)
    body, shared = await request.app.state.flights.share(key, lambda: laid_out(
        request, deadline, G.number_of_nodes() <= SMALL_GRAPH, _draw, q, G, step))
    if body is None:
        return _disconnected(request)
    if not shared:
        await caches.keep(cache, key, body)
    return _render_answer(body, shared, step, key, q.format)


def _scene_graph(request: Request, q: Query) -> tuple[Any, Any, tuple[Any, ...]]:
    """The source graph, the graph drawn and the cache key of a scene (cheap: no layout)."""
    source = service.build_source(q, request.app.state.limits)
    G = service.shrink(source, q)
    return source, G, ("scene", service.graph_key(G), *service.looks(q))


def _scene_body(request: Request, q: Query, G: Any, source: Any, key: tuple[Any, ...],
                timeout: float) -> str:
    limits: Limits = request.app.state.limits
    return dumps(service.scene_payload(G, q, limits, service.scene_cache(request.app.state),
                                       key[1], source)).decode("utf-8")


async def _scene(request: Request, q: Query) -> Response:
    """A scene: its SVG once and every step's changes (one layout, through the gate)."""
    deadline = _arrival(request)
    cache: service.RenderCache = request.app.state.cache
    source, G, key = await run_in_threadpool(_guarded, _scene_graph, request, q)
    found = await caches.cached(cache, key)
    hit = found is not None
    if found is None:
        found, hit = await request.app.state.flights.share(key, lambda: laid_out(
            request, deadline, G.number_of_nodes() <= SMALL_GRAPH, _scene_body, q, G, source,
            key))
        if found is None:
            return _disconnected(request)
        if not hit:
            await caches.keep(cache, key, found)
    return Response(found, 200, {"X-Vizgrad-Cache": "hit" if hit else "miss"},
                    media_type="application/json")


async def _words(request: Request) -> Response:
    asked = request.query_params.get("lang")
    try:
        lang = i18n.resolve(asked) if asked else _accepted(request.headers.get("accept-language"))
    except VizgradError as err:
        return json_response(ApiError(422, "invalid_choice", str(err), field="lang",
                              choices=list(i18n.languages())).body(), 422)
    return json_response({"lang": lang, "languages": list(i18n.languages()),
                  "words": i18n.catalogue(lang)})


def _accepted(header: str | None) -> str:
    """The first language of an Accept-Language header that has a catalogue, else English."""
    ranked = []
    for i, part in enumerate((header or "").split(",")):
        tag, _, q = part.strip().partition(";q=")
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            continue
        code = tag.split("-")[0].lower()
        if code in i18n.languages():
            ranked.append((-weight, i, code))
    return min(ranked)[2] if ranked else i18n.DEFAULT


async def _index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")


async def _health(request: Request) -> Response:
    cache = request.app.state.cache
    disk = cache.disk
    return json_response({"status": "ok", "version": __version__,
                          "cache": {"size": len(cache), "hits": cache.hits,
                                    "misses": cache.misses},
                          "disk_cache": None if disk is None else {"hits": disk.hits,
                                                                   "misses": disk.misses}})


async def _examples(request: Request) -> Response:
    return json_response({"examples": service.examples_payload(),
                          "limits": request.app.state.limits.public()})


def endpoints() -> list[Any]:
    """The lab's routes: the page, the JSON API and the static files."""
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    return [
        Route("/", _index, methods=["GET", "HEAD"]),
        Route("/api/health", _health, methods=["GET"]),
        Route("/api/examples", _examples, methods=["GET"]),
        Route("/api/trace", _api(_trace, TRACE_FIELDS), methods=["POST"]),
        Route("/api/render", _gated(_render, RENDER_FIELDS), methods=["POST"]),
        Route("/api/gradcheck", _api(_gradcheck, GRADCHECK_FIELDS), methods=["POST"]),
        Route("/api/scene", _gated(_scene, SCENE_FIELDS), methods=["POST"]),
        Route("/api/words", _words, methods=["GET"]),
        Mount("/static/vg", StaticFiles(directory=SHARED_JS), name="shared"),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
