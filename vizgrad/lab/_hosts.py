"""Which ``Host`` headers the lab answers: the loopback names, plus any ``--allow-host``.

A page on another site can point its own name at 127.0.0.1 (DNS rebinding) and then
drive a local server from the user's browser; the browser still sends that name in
``Host``. The lab refuses such requests with 400 ``invalid_host`` (Starlette's
``TrustedHostMiddleware`` decides; this module only answers in the lab's JSON)::

    >>> allowed_hosts(environ={})
    ['127.0.0.1', 'localhost', '[::1]']
    >>> allowed_hosts(["lab.example.org"], environ={})
    ['127.0.0.1', 'localhost', '[::1]', 'lab.example.org']
    >>> check_host_name("evil.example:80")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.DomainError: allowed host 'evil.example:80': give a host name or address
        without a port (any port is accepted), e.g. lab.example.org, 192.168.1.20 or
        *.example.org

This module does not import Starlette until a middleware is built, so the
``vizgrad serve`` command can check names without loading the web stack.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..exceptions import DomainError

__all__ = ["LOOPBACK_HOSTS", "ENV_ALLOWED_HOSTS", "allowed_hosts", "check_host_name",
           "HostCheck"]

#: Host names the lab always answers to (with any port).
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
#: Comma-separated extra host names; how ``--allow-host`` reaches every worker.
ENV_ALLOWED_HOSTS = "VIZGRAD_LAB_ALLOWED_HOSTS"

_LABEL = r"(?!-)[a-z0-9-]{1,63}(?<!-)"
_NAME = re.compile(rf"(\*\.)?{_LABEL}(\.{_LABEL})*\.?")
_HINT = "e.g. lab.example.org, 192.168.1.20 or *.example.org"


def check_host_name(name: str) -> str:
    """``name`` in the form the Host check compares (lower case, IPv6 in brackets).

    >>> check_host_name("LAB.Example.org"), check_host_name("::1"), check_host_name("10.0.0.2")
    ('lab.example.org', '[::1]', '10.0.0.2')
    """
    text = name.strip().lower()
    if text == "*":
        raise DomainError(f"allowed host {name!r}: '*' would answer any Host header and undo the "
                          f"protection against DNS rebinding; name the hosts, {_HINT}")
    bare = text[1:-1] if text.startswith("[") and text.endswith("]") else text
    try:
        address = ipaddress.ip_address(bare)
    except ValueError:
        address = None
    if address is not None:
        return f"[{address.compressed}]" if address.version == 6 else address.compressed
    if ":" in text:
        raise DomainError(f"allowed host {name!r}: give a host name or address without a port "
                          f"(any port is accepted), {_HINT}")
    if not _NAME.fullmatch(text) or len(text) > 253:
        raise DomainError(f"allowed host {name!r} is not a host name or IP address; {_HINT}")
    return text


def allowed_hosts(extra: Iterable[str] = (), environ: Mapping[str, str] | None = None,
                  ) -> list[str]:
    """The loopback names, then ``extra``, then those in ``VIZGRAD_LAB_ALLOWED_HOSTS``."""
    environ = os.environ if environ is None else environ
    from_env = [n for n in environ.get(ENV_ALLOWED_HOSTS, "").split(",") if n.strip()]
    out = list(LOOPBACK_HOSTS)
    for name in (*extra, *from_env):
        checked = check_host_name(name)
        if checked not in out:
            out.append(checked)
    return out


class HostCheck:
    """ASGI middleware: Starlette's ``TrustedHostMiddleware``, answering refusals in JSON.

    A request whose ``Host`` is not allowed gets 400
    ``{"error": "invalid_host", "detail": ...}`` and never reaches the app.
    """

    def __init__(self, app: Any, hosts: list[str]) -> None:
        from starlette.middleware.trustedhost import TrustedHostMiddleware

        self.app = app
        self.hosts = hosts
        self._check = TrustedHostMiddleware(self._through, allowed_hosts=hosts,
                                            www_redirect=False)

    async def _through(self, scope: Any, receive: Any, send: Any) -> None:
        scope["vizgrad.host_ok"] = True
        await self.app(scope, receive, send)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await (self._check if scope["type"] == "websocket" else self.app)(scope, receive, send)
            return

        async def guarded_send(message: Any) -> None:
            if scope.get("vizgrad.host_ok"):
                await send(message)  # the app's own answer; the refusal is replaced below

        await self._check(scope, receive, guarded_send)
        if not scope.get("vizgrad.host_ok"):
            await self._refuse(scope, send)

    async def _refuse(self, scope: Any, send: Any) -> None:
        host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
        detail = (f"this lab does not answer to the Host {host!r} (it accepts "
                  f"{', '.join(self.hosts)}, with any port); open it through one of those "
                  "names, or start it with --allow-host NAME when it runs behind a proxy")
        body = json.dumps({"error": "invalid_host", "detail": detail}, ensure_ascii=False,
                          separators=(",", ":")).encode("utf-8")
        await send({"type": "http.response.start", "status": 400,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode("ascii"))]})
        await send({"type": "http.response.body", "body": body})
