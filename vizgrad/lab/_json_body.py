"""The lab's request body as JSON, and the :class:`ApiError` every problem becomes.

A body must be UTF-8 JSON with finite numbers; a field of the wrong JSON type is a 422 that
says what it must be::

    >>> decode_json(b'{"a": 1}')
    {'a': 1}
    >>> bad_type("h", "a number", "x").body()
    {'error': 'invalid_type', 'detail': 'h must be a number, got string "x"', 'field': 'h'}
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["ApiError", "bad_type", "choice_error", "decode_json", "json_number", "type_name"]


class ApiError(Exception):
    """An HTTP error answer: status, a short machine code, a sentence for people, extras."""

    def __init__(self, status: int, error: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.error = error
        self.detail = detail
        self.extra = extra

    def body(self) -> dict[str, Any]:
        """The JSON body: ``{"error", "detail", ...extras}``."""
        return {"error": self.error, "detail": self.detail, **self.extra}



def _reject_constant(name: str) -> float:
    raise ApiError(400, "malformed_json",
                   f"{name} is not valid JSON; send finite numbers only")


def decode_json(body: bytes) -> Any:
    """Parse a request body; malformed JSON or NaN/Infinity → 400.

    >>> decode_json(b'{"a": 1}')
    {'a': 1}
    >>> try:
    ...     decode_json(b'{"a": 1')
    ... except ApiError as err:
    ...     print(err.status, err.error)
    400 malformed_json
    """
    if not body.strip():
        raise ApiError(400, "malformed_json",
                       'the request body is empty; send a JSON object such as {"example": "fork"}')
    try:
        # strictly UTF-8 (RFC 8259): no byte-order mark, no UTF-16/32 guessing
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is None or text.startswith("\ufeff"):
        raise ApiError(400, "malformed_json",
                       "the request body is not UTF-8 text (without a byte-order mark)")
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as err:
        raise ApiError(400, "malformed_json",
                       f"the request body is not valid JSON: {err.msg} at line {err.lineno} "
                       f"column {err.colno}", line=err.lineno, column=err.colno) from None
    except RecursionError:
        raise ApiError(400, "malformed_json", "the request body is nested too deeply") from None
    except ValueError as err:  # an integer literal longer than Python converts
        raise ApiError(400, "malformed_json",
                       f"the request body has a number JSON cannot carry here: {err}; "
                       "send numbers with at most a few digits") from None


def type_name(x: Any) -> str:
    """The JSON name of a decoded value's type: ``null``, ``boolean``, ``number`` ..."""
    if x is None:
        return "null"
    return {bool: "boolean", str: "string", list: "array", dict: "object",
            int: "number", float: "number"}.get(type(x), type(x).__name__)


def bad_type(name: str, want: str, got: Any) -> ApiError:
    """422 ``invalid_type``: field ``name`` must be ``want``, and what it was."""
    shown = json.dumps(got)[:60] if isinstance(got, (str, int, float, bool)) or got is None else ""
    return ApiError(422, "invalid_type",
                    f"{name} must be {want}, got {type_name(got)} {shown}".rstrip(),
                    field=name)


def json_number(name: str, x: Any) -> float:
    """Field ``name`` as a float (a JSON integer too large for one is an infinity)."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise bad_type(name, "a number", x)
    try:
        value = float(x)
    except OverflowError:
        value = math.inf if x > 0 else -math.inf
    return value


def choice_error(name: str, raw: Any, choices: tuple[Any, ...]) -> ApiError:
    """422 ``invalid_choice``: field ``name`` is none of ``choices``."""
    return ApiError(422, "invalid_choice",
                    f"{name} {json.dumps(raw)[:40]} is not supported; choose one of: "
                    f"{', '.join(map(str, choices))}", field=name, choices=list(choices))

