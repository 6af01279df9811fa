"""The lab's answers: JSON bodies that always encode, and every error mapped to its status.

Every error is JSON ``{"error": code, "detail": sentence, ...}``. Text a request
sent (a field name, a focus id) can come back inside it; a lone UTF-16 surrogate
there, which JSON can carry but UTF-8 cannot, is written as its escape::

    >>> err = ApiError(422, "invalid_name", "bad name", field="values.\\ud800")
    >>> print(json.loads(error_response(err).body)["field"])
    values.\\ud800
    >>> error_response(busy("wait")).headers["retry-after"]
    '2'
"""

from __future__ import annotations

import json
import logging
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ..exceptions import (
    BackendError,
    DomainError,
    ExpressionError,
    GraphTooLargeError,
    LayoutTimeoutError,
    NumericOverflowError,
    VizgradError,
)
from ..tracing.recorder import jsonable
from ._admission import RETRY_AFTER, busy
from ._requests import ApiError

__all__ = ["encodable", "dumps", "json_response", "error_response", "error_for",
           "http_error", "server_error", "shutting_down", "busy"]

_log = logging.getLogger("vizgrad.lab")


def encodable(x: Any) -> Any:
    """``x`` with every string made UTF-8-safe (a lone surrogate becomes its ``\\uXXXX`` text).

    >>> encodable({"k\\udfff": ["ok", "\\ud800x"]})
    {'k\\\\udfff': ['ok', '\\\\ud800x']}
    """
    if isinstance(x, str):
        return x.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(x, dict):
        return {encodable(k): encodable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [encodable(v) for v in x]
    return x


def dumps(payload: Any) -> bytes:
    """Compact JSON as UTF-8 bytes; strings that UTF-8 cannot carry are escaped first."""
    text = json.dumps(jsonable(payload), ensure_ascii=False, allow_nan=False,
                      separators=(",", ":"))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return dumps(encodable(payload))


def json_response(payload: Any, status: int = 200,
                  headers: dict[str, str] | None = None) -> Response:
    """A JSON answer."""
    return Response(dumps(payload), status, headers, media_type="application/json")


def error_response(err: ApiError) -> Response:
    """The JSON answer of an error (its text escaped); a 503 also says when to retry."""
    headers = {"Retry-After": str(RETRY_AFTER)} if err.status == 503 else None
    return json_response(encodable(err.body()), err.status, headers)


def shutting_down() -> ApiError:
    """The 503 for a request the server stopped because it shuts down."""
    return ApiError(503, "shutting_down",
                    f"the lab is shutting down; try again in {RETRY_AFTER} s",
                    retry_after=RETRY_AFTER)


def error_for(err: VizgradError) -> ApiError:
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


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's HTTP errors (404, 405, ...) as the lab's JSON."""
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    if status == 404:
        err = ApiError(404, "not_found", f"no such page: {request.url.path}; the API is under /api")
    elif status == 405:
        err = ApiError(405, "method_not_allowed",
                       f"{request.method} is not allowed on {request.url.path}")
    else:
        err = ApiError(status, "http_error", str(getattr(exc, "detail", "")))
    headers = getattr(exc, "headers", None)
    return json_response(encodable(err.body()), status, dict(headers) if headers else None)


async def server_error(request: Request, exc: Exception) -> Response:
    """A bug: logged with its traceback, answered 500 in JSON without one."""
    _log.exception("unexpected error on %s", request.url.path)
    return json_response({"error": "internal_error",
                          "detail": f"the server failed: {type(exc).__name__}; please report this"},
                         500)
