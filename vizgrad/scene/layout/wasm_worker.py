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

from .wasi_session import WASM_STACK, make_backend, render, renew

__all__ = ["THREAD_STACK", "WASM_STACK", "make_backend", "render_on_big_stack", "serve"]

#: native stack of the thread that runs a layout, with room for the wasm stack
THREAD_STACK = 16 << 20
_HEAD = struct.Struct("!I")
_STACK_LOCK = threading.Lock()


def render_on_big_stack(backend: Any, dot: str, fmt: str, timeout: float | None = None,
                        on_timeout: Any = None) -> tuple[bytes | None, BaseException | None, bool]:
    """Run one layout in a thread with a large stack; return (output, error, timed_out).

    Past ``timeout`` seconds ``on_timeout()`` is called (it must make the layout
    stop) and the thread is awaited.
    """
    result: dict[str, Any] = {}

    def work() -> None:
        try:
            result["out"] = render(backend, dot, fmt)
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
            renew(backend)  # a trap leaves the session unusable
            msg = _message(err or RuntimeError("no output")).encode("utf-8")
            stdout.write(b"\x01" + _HEAD.pack(len(msg)) + msg)
        stdout.flush()


if __name__ == "__main__":  # pragma: no cover - runs in the child process
    from ...runtime.children import exit_with_parent

    exit_with_parent()  # a killed parent cannot close our stdin while a layout runs
    serve(sys.stdin.buffer, sys.stdout.buffer)
