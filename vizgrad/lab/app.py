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

import json
import logging
from pathlib import Path
from typing import Any, Awaitable, Callable, Sequence

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
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
from ..tracing import jsonable
from . import _service as service
from ._hosts import HostCheck, allowed_hosts
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
_MEDIA = {"svg": "image/svg+xml; charset=utf-8", "dot": "text/vnd.graphviz; charset=utf-8"}


def _json(payload: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    body = json.dumps(jsonable(payload), ensure_ascii=False, allow_nan=False,
                      separators=(",", ":"))
    return Response(body, status, headers, media_type="application/json")


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
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, "body_too_large",
                           f"the request body is over the limit of {limit} bytes", limit=limit)
        chunks.append(chunk)
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
            return _json(err.body(), err.status)

    return endpoint


def _guarded(work: Callable[[Request, Query], Response], request: Request, q: Query) -> Response:
    try:
        return work(request, q)
    except VizgradError as err:
        raise _error_for(err) from None
    except RecursionError:
        raise ApiError(422, "graph_too_large",
                       "the expression is nested too deeply; simplify it") from None


def _trace(request: Request, q: Query) -> Response:
    G = service.build_graph(q, request.app.state.limits)
    return _json(service.trace_payload(G, q.lang))


def _gradcheck(request: Request, q: Query) -> Response:
    G = service.build_graph(q, request.app.state.limits)
    return _json(service.gradcheck_payload(G, q.h))


def _render(request: Request, q: Query) -> Response:
    limits: Limits = request.app.state.limits
    G = service.build_graph(q, limits)
    step = service.check_step(G, q.step)
    key = (service.graph_key(G), step, q.theme, q.format, q.rankdir, q.caption, q.lang)

    def compute() -> str:
        from ..render.svg import Drawing, check_common

        check_common(G, limits.max_nodes, None, limits.layout_timeout)
        scene = service.scene_for(G, q, limits, service.scene_cache(request.app.state), key[0])
        drawing = Drawing(scene, step)
        return drawing.svg() if q.format == "svg" else drawing.dot()

    body, hit = request.app.state.cache.get(key, compute)
    headers = {"X-Vizgrad-Cache": "hit" if hit else "miss", "X-Vizgrad-Step": str(step),
               "ETag": '"' + "-".join([key[0][:16], *map(str, key[1:])]) + '"'}
    return Response(body, 200, headers, media_type=_MEDIA[q.format])


def _scene(request: Request, q: Query) -> Response:
    limits: Limits = request.app.state.limits
    G = service.build_graph(q, limits)
    gkey = service.graph_key(G)
    key = ("scene", gkey, q.theme, q.rankdir, q.caption, q.lang)
    body, hit = request.app.state.cache.get(key, lambda: json.dumps(
        jsonable(service.scene_payload(G, q, limits, service.scene_cache(request.app.state),
                                       gkey)), ensure_ascii=False,
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


def create_app(
    *,
    max_body_bytes: int | None = None,
    max_expression_length: int | None = None,
    max_nodes: int | None = None,
    layout_timeout: float | None = None,
    value_limit: float | None = None,
    cache_size: int | None = None,
    allow_hosts: Sequence[str] = (),
) -> Starlette:
    """Build the lab app; every argument is a limit on what one request may ask for.

    A limit not given comes from the environment variable ``VIZGRAD_LAB_<NAME>``
    (``VIZGRAD_LAB_MAX_NODES=500``), else its default: 16384 body bytes,
    500 expression characters, 300 nodes, 10 s of layout, values in [-20, 20],
    512 cached renders. Requests must name the server as ``127.0.0.1``, ``localhost`` or
    ``[::1]`` (any port) in their ``Host`` header, or as one of ``allow_hosts`` or of the
    comma-separated ``VIZGRAD_LAB_ALLOWED_HOSTS``; others get 400 ``invalid_host``
    (a guard against DNS rebinding). Use it with ``uvicorn --factory vizgrad.lab.app:create_app``
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
        Route("/api/render", _api(_render, RENDER_FIELDS), methods=["POST"]),
        Route("/api/gradcheck", _api(_gradcheck, GRADCHECK_FIELDS), methods=["POST"]),
        Route("/api/scene", _api(_scene, SCENE_FIELDS), methods=["POST"]),
        Route("/api/words", _words, methods=["GET"]),
        Route("/static/playback.js", _playback_js, methods=["GET", "HEAD"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: _http_error,
                                                       Exception: _server_error})
    app.state.limits = limits
    app.state.cache = service.RenderCache(limits.cache_size)
    app.add_middleware(HostCheck, hosts=allowed_hosts(allow_hosts))
    app.add_middleware(_SecurityHeaders)
    return app
