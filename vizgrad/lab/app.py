"""The lab's Starlette application: the page at ``/`` and a JSON API under ``/api``.

The app keeps no state between requests (only a per-process LRU cache of
renders), so several uvicorn workers or hosts can serve it::

    >>> app = create_app(max_nodes=100)
    >>> app.state.limits.max_nodes, [r.path for r in app.routes][3:6]
    (100, ['/api/trace', '/api/render', '/api/gradcheck'])
    >>> [r.path for r in app.routes][6:9]
    ['/api/scene', '/api/words', '/static/playback.js']

Every error is JSON ``{"error": code, "detail": sentence, ...}`` with a 4xx
status: 400 malformed JSON, 413 body too large, 415 not JSON, 422 anything
the request asked for that the lab cannot do (wrong type, out of range,
unknown example, expression error with its column, graph too large).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Sequence

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__, i18n
from ..exceptions import (
    BackendError,
    DomainError,
    ExpressionError,
    GraphTooLargeError,
    LayoutTimeoutError,
    NumericOverflowError,
    VizgradError,
)
from ..render.layout import cancel_layout
from ..tracing import jsonable
from . import _service as service
from ._hosts import HostCheck, allowed_hosts
from ._admission import RETRY_AFTER, LayoutGate, busy, watch
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

__all__ = ["create_app", "STATIC"]

STATIC = Path(__file__).with_name("static")
#: the script that replays a scene, shared with the HTML step player
PLAYBACK_JS = Path(__file__).parent.parent / "render" / "playback.js"
_log = logging.getLogger("vizgrad.lab")
_SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
     b"object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
#: values up to which a render counts as quick to lay out and queues ahead of bigger ones
SMALL_GRAPH = 60
#: seconds a client may take to send its request body
BODY_TIMEOUT = 10.0
_MEDIA = {"svg": "image/svg+xml; charset=utf-8", "dot": "text/vnd.graphviz; charset=utf-8"}


def _json(payload: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    body = json.dumps(jsonable(payload), ensure_ascii=False, allow_nan=False,
                      separators=(",", ":"))
    return Response(body, status, headers, media_type="application/json")


def _error_response(err: ApiError) -> Response:
    """The JSON answer of an error; a 503 also says when to retry."""
    headers = {"Retry-After": str(RETRY_AFTER)} if err.status == 503 else None
    return _json(err.body(), err.status, headers)


def _error_for(err: VizgradError) -> ApiError:
    """Map a vizgrad error raised while serving a request to its HTTP answer."""
    if isinstance(err, ExpressionError):
        return ApiError(422, "expression_error", str(err), field="expression",
                        column=err.column, reason=err.reason)
    if isinstance(err, GraphTooLargeError):
        return ApiError(422, "graph_too_large", str(err))
    if isinstance(err, LayoutTimeoutError):
        return ApiError(422, "layout_timeout", str(err))
    if isinstance(err, BackendError):
        return ApiError(503, "layout_unavailable", str(err))
    if isinstance(err, NumericOverflowError):
        return ApiError(422, "overflow", str(err))
    if isinstance(err, DomainError):
        return ApiError(422, "domain_error", str(err))
    return ApiError(422, "invalid_input", str(err))


async def _read_body(request: Request, limit: int) -> bytes:
    # JSON only: a cross-site page cannot send application/json without a CORS preflight,
    # which this API never grants, so other sites cannot make it work for them
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json" and not ctype.endswith("+json"):
        raise ApiError(415, "unsupported_media_type",
                       "send JSON with the header Content-Type: application/json "
                       f"(got {ctype or 'no Content-Type'}); with curl use --json")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ApiError(413, "body_too_large",
                       f"the request body has {declared} bytes; the limit is {limit}", limit=limit)
    chunks, size = [], 0
    try:
        async with asyncio.timeout(BODY_TIMEOUT):  # a slow body must not hold a connection
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise ApiError(413, "body_too_large",
                                   f"the request body is over the limit of {limit} bytes",
                                   limit=limit)
                chunks.append(chunk)
    except TimeoutError:
        raise ApiError(408, "request_timeout",
                       f"the request body did not arrive within {BODY_TIMEOUT:g} s") from None
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
            return _error_response(err)
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
        raise _error_for(err) from None
    except RecursionError:
        raise ApiError(422, "graph_too_large",
                       "the expression is nested too deeply; simplify it") from None


def _trace(request: Request, q: Query) -> Response:
    from ..collapse import group_depth

    source = service.build_source(q, request.app.state.limits)
    G = service.shrink(source, q)
    return _json(service.trace_payload(G, q.lang, group_depth(source)))


def _gradcheck(request: Request, q: Query) -> Response:
    G = service.build_source(q, request.app.state.limits)  # always every value
    return _json(service.gradcheck_payload(G, q.h))


def _prepare(request: Request, q: Query) -> tuple[Any, int, tuple[Any, ...]]:
    """The graph, the step and the cache key of a render request (cheap: no layout)."""
    G = service.build_graph(q, request.app.state.limits)
    step = service.check_step(G, q.step)
    return G, step, (service.graph_key(G), step, q.theme, q.format, q.rankdir, q.caption, q.lang)


def _draw(request: Request, q: Query, G: Any, step: int, timeout: float) -> str:
    """Draw a step from the graph's cached scene (one layout serves every step)."""
    limits: Limits = request.app.state.limits
    try:
        from ..render.prepare import refuse_large
        from ..render.svg import Drawing
    except ImportError as err:
        raise BackendError(f"SVG rendering is not installed: {err}") from None
    refuse_large(G, limits.max_nodes)
    scene = service.scene_for(G, q, limits, service.scene_cache(request.app.state),
                              service.graph_key(G))
    drawing = Drawing(scene, step)
    return drawing.svg() if q.format == "svg" else drawing.dot()


def _render_answer(body: str, hit: bool, step: int, key: tuple[Any, ...], fmt: str) -> Response:
    headers = {"X-Vizgrad-Cache": "hit" if hit else "miss", "X-Vizgrad-Step": str(step),
               "ETag": '"' + "-".join([key[0][:16], *map(str, key[1:])]) + '"'}
    return Response(body, 200, headers, media_type=_MEDIA[fmt])


async def _render(request: Request) -> Response:
    """Render a step: cache hits answer at once; layouts queue in the app's LayoutGate,
    with the layout time limit counted from the request's arrival."""
    loop = asyncio.get_running_loop()
    limits: Limits = request.app.state.limits
    deadline = loop.time() + limits.layout_timeout
    cache: service.RenderCache = request.app.state.cache
    try:
        data = decode_json(await _read_body(request, limits.max_body_bytes))
        q = parse_query(data, limits, RENDER_FIELDS)
        G, step, key = await run_in_threadpool(_guarded, _prepare, request, q)
        found = cache.lookup(key)
        if found is not None:
            return _render_answer(found, True, step, key, q.format)
        small = G.number_of_nodes() <= SMALL_GRAPH
        async with request.app.state.gate.slot(deadline, request.is_disconnected, small) as left:
            try:
                body = await watch(run_in_threadpool(_guarded, _draw, request, q, G, step, left),
                                   request.is_disconnected, cancel_layout)
            except ApiError as err:
                if err.error == "layout_timeout" and left < 0.9 * limits.layout_timeout:
                    # most of its time went on waiting for other layouts: the lab is busy
                    raise busy("the lab is busy: this drawing waited for other layouts and "
                               f"ran out of time; try again in {RETRY_AFTER} s") from None
                raise
        if body is None:  # the client left and its layout was stopped
            return _disconnected(request)
        cache.store(key, body)
        return _render_answer(body, False, step, key, q.format)
    except ApiError as err:
        return _error_response(err)
    except ClientDisconnect:
        return _disconnected(request)
    except asyncio.CancelledError:
        # the server shuts down and cancels what still runs: answer 503, not uvicorn's 500
        return _error_response(ApiError(503, "shutting_down", "the lab is shutting down; try "
                                        f"again in {RETRY_AFTER} s"))


def _scene(request: Request, q: Query) -> Response:
    limits: Limits = request.app.state.limits
    source = service.build_source(q, limits)
    G = service.shrink(source, q)
    gkey = service.graph_key(G)
    key = ("scene", gkey, q.theme, q.rankdir, q.caption, q.lang)
    body, hit = request.app.state.cache.get(key, lambda: json.dumps(
        jsonable(service.scene_payload(G, q, limits, service.scene_cache(request.app.state),
                                       gkey, source)), ensure_ascii=False,
        allow_nan=False, separators=(",", ":")))
    return Response(body, 200, {"X-Vizgrad-Cache": "hit" if hit else "miss"},
                    media_type="application/json")


async def _words(request: Request) -> Response:
    asked = request.query_params.get("lang")
    try:
        lang = i18n.resolve(asked) if asked else _accepted(request.headers.get("accept-language"))
    except VizgradError as err:
        return _json(ApiError(422, "invalid_choice", str(err), field="lang",
                              choices=list(i18n.languages())).body(), 422)
    return _json({"lang": lang, "languages": list(i18n.languages()),
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


async def _playback_js(request: Request) -> Response:
    return FileResponse(PLAYBACK_JS, media_type="text/javascript; charset=utf-8")


async def _index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")


async def _health(request: Request) -> Response:
    cache = request.app.state.cache
    return _json({"status": "ok", "version": __version__,
                  "cache": {"size": len(cache), "hits": cache.hits, "misses": cache.misses}})


async def _examples(request: Request) -> Response:
    return _json({"examples": service.examples_payload(),
                  "limits": request.app.state.limits.public()})


async def _http_error(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    if status == 404:
        err = ApiError(404, "not_found", f"no such page: {request.url.path}; the API is under /api")
    elif status == 405:
        err = ApiError(405, "method_not_allowed",
                       f"{request.method} is not allowed on {request.url.path}")
    else:
        err = ApiError(status, "http_error", str(getattr(exc, "detail", "")))
    headers = getattr(exc, "headers", None)
    return _json(err.body(), status, dict(headers) if headers else None)


async def _server_error(request: Request, exc: Exception) -> Response:
    _log.exception("unexpected error on %s", request.url.path)
    return _json({"error": "internal_error",
                  "detail": f"the server failed: {type(exc).__name__}; please report this"}, 500)


class _SecurityHeaders:
    """Adds a strict Content-Security-Policy (no external resources) to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *_SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


@asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    try:
        yield
    finally:  # a layout still running must not hold the shutdown up to its time limit
        from ..render.layout import stop_layouts

        stop_layouts()


def create_app(
    *,
    max_body_bytes: int | None = None,
    max_expression_length: int | None = None,
    max_nodes: int | None = None,
    layout_timeout: float | None = None,
    value_limit: float | None = None,
    cache_size: int | None = None,
    allow_hosts: Sequence[str] = (),
    max_waiting: int = 8,
) -> Starlette:
    """Build the lab app; every argument is a limit on what one request may ask for.

    A limit not given comes from the environment variable ``VIZGRAD_LAB_<NAME>``
    (``VIZGRAD_LAB_MAX_NODES=500``), else its default: 16384 body bytes,
    500 expression characters, 300 nodes, 10 s of layout, values in [-20, 20],
    512 cached renders. Requests must name the server as ``127.0.0.1``, ``localhost`` or
    ``[::1]`` (any port) in their ``Host`` header, or as one of ``allow_hosts`` or of the
    comma-separated ``VIZGRAD_LAB_ALLOWED_HOSTS``; others get 400 ``invalid_host``
    (a guard against DNS rebinding). ``max_waiting`` renders may wait for a layout while
    one runs; more get 503 with ``Retry-After``. Use it with
    ``uvicorn --factory vizgrad.lab.app:create_app``
    or ``vizgrad serve``.
    """
    limits = Limits.build(max_body_bytes=max_body_bytes,
                          max_expression_length=max_expression_length, max_nodes=max_nodes,
                          layout_timeout=layout_timeout, value_limit=value_limit,
                          cache_size=cache_size)
    routes = [
        Route("/", _index, methods=["GET", "HEAD"]),
        Route("/api/health", _health, methods=["GET"]),
        Route("/api/examples", _examples, methods=["GET"]),
        Route("/api/trace", _api(_trace, TRACE_FIELDS), methods=["POST"]),
        Route("/api/render", _render, methods=["POST"]),
        Route("/api/gradcheck", _api(_gradcheck, GRADCHECK_FIELDS), methods=["POST"]),
        Route("/api/scene", _api(_scene, SCENE_FIELDS), methods=["POST"]),
        Route("/api/words", _words, methods=["GET"]),
        Route("/static/playback.js", _playback_js, methods=["GET", "HEAD"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: _http_error,
                                                       Exception: _server_error},
                    lifespan=_lifespan)
    app.state.limits = limits
    app.state.cache = service.RenderCache(limits.cache_size)
    app.add_middleware(HostCheck, hosts=allowed_hosts(allow_hosts))
    app.state.gate = LayoutGate(active=1, waiting=max_waiting)
    app.add_middleware(_SecurityHeaders)
    return app
