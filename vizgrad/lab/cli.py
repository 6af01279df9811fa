"""``vizgrad serve``: run the lab with uvicorn and print its URL.

    >>> from click.testing import CliRunner
    >>> result = CliRunner().invoke(serve, ["--port", "70000"])
    >>> result.exit_code, "70000 is not in the range" in result.output
    (2, True)
"""

from __future__ import annotations

import os
import shutil
import socket

import click

from ..exceptions import DomainError, OptionError
from . import _limits as lim
from ._disk import (DEFAULT_MB, ENV_CACHE_DIR, ENV_CACHE_MB, check_folder, sweep_dead,
                    temporary_folder)
from ._hosts import ENV_ALLOWED_HOSTS, check_host_name
from ._limits import ENV_PREFIX, SERVER_LIMITS, Limits
from ._workers import run_workers, tcp_listener

__all__ = ["serve", "url_for", "check_root_path", "tcp_listener", "APP", "SERVER_LIMITS",
           "PROTOCOL"]

#: the import string uvicorn loads in every worker
APP = "vizgrad.lab.app:create_app"
#: the lab's connection protocol (header deadline, bound per client), as uvicorn imports it
PROTOCOL = "vizgrad.lab._protocol:LabProtocol"

_DEFAULTS = Limits()
_EPILOG = (
    f"Limits of the server (in vizgrad/lab/_limits.py): a connection must send its request "
    f"line and headers within {lim.HEADER_TIMEOUT:g} s, headers may have {lim.MAX_HEADER_BYTES} "
    f"bytes (431 past that), a request body must arrive within {lim.BODY_TIMEOUT:g} s (408), "
    f"idle keep-alive connections close after {lim.KEEP_ALIVE} s, one client address may "
    f"hold {lim.MAX_CONNECTIONS_PER_CLIENT} connections and each worker "
    f"{lim.MAX_CONNECTIONS} in all (past either, a connection idle for "
    f"{lim.EVICT_AFTER:g} s gives way; 503 with Retry-After when none can), and SIGTERM stops "
    f"requests still running after {lim.GRACEFUL_SHUTDOWN} s (503 shutting_down)."
)

_LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def url_for(host: str, port: int) -> str:
    """The URL a browser on this machine opens for ``host:port``.

    >>> url_for("127.0.0.1", 8000), url_for("::1", 8080), url_for("0.0.0.0", 80)
    ('http://127.0.0.1:8000/', 'http://[::1]:8080/', 'http://127.0.0.1:80/')
    """
    shown = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


@click.command("serve", epilog=_EPILOG)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind; the default accepts connections from this machine only. "
                   "With 0.0.0.0, name the host clients use with --allow-host.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535),
              help="TCP port to listen on.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Worker processes; the app is stateless, so any worker answers any request.")
@click.option("--max-nodes", type=click.IntRange(1, 100_000), default=None,
              help=f"Largest graph a request may build (default {_DEFAULTS.max_nodes}).")
@click.option("--layout-timeout", type=click.FloatRange(0, 600, min_open=True), default=None,
              help=f"Seconds one Graphviz layout may run (default {_DEFAULTS.layout_timeout:g}).")
@click.option("--cache-size", type=click.IntRange(0, 1_000_000), default=None,
              help="Renders kept per worker; 0 disables the cache "
                   f"(default {_DEFAULTS.cache_size}).")
@click.option("--allow-host", "allow_host", multiple=True, metavar="NAME",
              help="Also answer requests whose Host header is NAME (any port), e.g. behind a "
                   "proxy; repeatable. 127.0.0.1, localhost and [::1] are always answered.")
@click.option("--forwarded-allow-ips", default=None, metavar="ADDRESSES",
              help="Comma-separated addresses or networks of proxies whose X-Forwarded-For "
                   "header names the client (for logs and the bound per client); without it "
                   "the header is ignored.")
@click.option("--root-path", default="", metavar="PREFIX",
              help="The path prefix a reverse proxy serves the lab under, e.g. /vizgrad "
                   "(the proxy strips it before passing requests on).")
@click.option("--cache-dir", type=click.Path(file_okay=False, writable=True), default=None,
              help="Folder of renders shared by the workers and kept between runs (default "
                   "with --workers above 1: a temporary folder removed when the server stops).")
@click.option("--cache-mb", type=click.IntRange(1, 1_000_000), default=DEFAULT_MB,
              show_default=True, help="Megabytes the cache folder may hold; the least "
                                      "recently used renders are removed past it.")
@click.option("--no-disk-cache", is_flag=True,
              help="Keep renders in each worker's memory only.")
@click.option("--log-level", default="info", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]),
              help="uvicorn's log level.")
def serve(host: str, port: int, workers: int, max_nodes: int | None,
          layout_timeout: float | None, cache_size: int | None, allow_host: tuple[str, ...],
          forwarded_allow_ips: str | None, root_path: str, cache_dir: str | None,
          cache_mb: int, no_disk_cache: bool, log_level: str) -> None:
    """Serve the interactive backprop lab and its JSON API (Ctrl+C stops it)."""
    import uvicorn

    from ._server import run as run_one

    root_path = check_root_path(root_path)
    if no_disk_cache and cache_dir is not None:
        raise click.UsageError("--cache-dir and --no-disk-cache contradict each other; "
                               "give one of them")

    hosts = _allowed(host, allow_host)
    if hosts:
        os.environ[ENV_ALLOWED_HOSTS] = ",".join(hosts)
    else:
        os.environ.pop(ENV_ALLOWED_HOSTS, None)

    # limits travel as environment variables, so every worker process gets them
    for name, value in (("max_nodes", max_nodes), ("layout_timeout", layout_timeout),
                        ("cache_size", cache_size)):
        if value is not None:
            os.environ[ENV_PREFIX + name.upper()] = str(value)

    sweep_dead()  # the temporary cache folders of servers killed before they could remove them
    _check_can_listen(host, port)
    temporary = None
    if cache_dir is None and workers > 1 and not no_disk_cache:
        cache_dir = temporary = temporary_folder()
    if cache_dir is not None:
        _check_cache_dir(cache_dir)
        os.environ[ENV_CACHE_DIR] = os.path.abspath(cache_dir)
        os.environ[ENV_CACHE_MB] = str(cache_mb)
    else:
        os.environ.pop(ENV_CACHE_DIR, None)
    shown = url_for(host, port)[:-1] + root_path + "/"
    click.echo(f"vizgrad lab: {shown}  (API under {root_path}/api, Ctrl+C to stop)")
    if host not in _LOOPBACK:
        click.echo(f"note: bound to {host}, so other machines on the network can reach the lab",
                   err=True)
        if not hosts:
            click.echo("note: only requests addressed to 127.0.0.1, localhost or [::1] are "
                       "answered; add --allow-host NAME for the name other machines use",
                       err=True)
    options = dict(factory=True, host=host, port=port, workers=workers, log_level=log_level,
                   lifespan="on", ws="none", server_header=False, http=PROTOCOL,
                   proxy_headers=forwarded_allow_ips is not None, root_path=root_path,
                   forwarded_allow_ips=forwarded_allow_ips or "", **SERVER_LIMITS)
    try:
        if workers == 1:
            run_one(APP, **options)  # uvicorn.run, whose shutdown drains the accept queue
        else:
            run_workers(uvicorn.Config(APP, **options))
    except OSError as err:  # pragma: no cover - depends on the machine
        raise click.ClickException(
            f"cannot listen on {host}:{port}: {err.strerror or err}") from None
    finally:
        os.environ.pop(ENV_CACHE_DIR, None)
        if temporary is not None:
            shutil.rmtree(temporary, ignore_errors=True)


def check_root_path(prefix: str) -> str:
    """``--root-path`` as uvicorn wants it: empty, or ``/`` and path segments, no final ``/``.

    >>> check_root_path("/vizgrad/"), check_root_path(""), check_root_path("/")
    ('/vizgrad', '', '')
    >>> check_root_path("vizgrad")
    Traceback (most recent call last):
    click.exceptions.BadParameter: 'vizgrad' must start with / (e.g. /vizgrad)
    """
    prefix = prefix.strip()
    if prefix and not prefix.startswith("/"):
        raise click.BadParameter(f"{prefix!r} must start with / (e.g. /vizgrad)",
                                 param_hint="'--root-path'")
    bad = [c for c in prefix if not (c.isascii() and (c.isalnum() or c in "/-._~"))]
    if bad:
        raise click.BadParameter(f"{prefix!r} has the character {bad[0]!r}; use letters, "
                                 "digits and - . _ ~ between the slashes",
                                 param_hint="'--root-path'")
    return prefix.rstrip("/")


def _check_cache_dir(folder: str) -> None:
    """Fail with a clear message (exit 1) when the cache folder cannot be made or written."""
    try:
        check_folder(folder)
    except OptionError as err:
        raise click.ClickException(str(err)) from None


def _allowed(host: str, names: tuple[str, ...]) -> list[str]:
    """The extra Host names to answer: ``--allow-host`` values, and a bound IP address."""
    out = []
    for name in names:
        try:
            out.append(check_host_name(name))
        except DomainError as err:
            raise click.BadParameter(str(err), param_hint="'--allow-host'") from None
    if host not in _LOOPBACK and host not in ("0.0.0.0", "::", ""):
        try:
            out.append(check_host_name(host))  # the address itself names this server
        except DomainError:
            pass
    return list(dict.fromkeys(out))


def _check_can_listen(host: str, port: int) -> None:
    """Fail with a clear message (exit 1) when the address is taken or cannot be bound."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as err:
            raise click.ClickException(
                f"cannot listen on {host}:{port}: {err.strerror or err}; "
                "choose another --port or stop the program that uses it"
            ) from None
