"""Notebook display: vizgrad.show(), a Trace and a Value after backward() show a step player."""

from __future__ import annotations

import functools
import html
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import vizgrad
from vizgrad.embed import notebook
from vizgrad.exceptions import OptionError

from .helpers import build_fork

ROOT = Path(__file__).resolve().parents[1]
SRCDOC = re.compile(r'srcdoc="([^"]*)"')


def _page(bundle: dict[str, str]) -> str:
    match = SRCDOC.search(bundle["text/html"])
    assert match is not None
    return html.unescape(match.group(1))


def test_show_gives_the_player_the_static_svg_and_text():
    q, _, _ = build_fork()
    bundle = vizgrad.show(q)._repr_mimebundle_()
    assert bundle["text/plain"] == "<Stepper of q: 5 nodes, 8 steps>"
    assert _page(bundle) == vizgrad.player_html(q)
    frame = bundle["text/html"]
    assert frame.startswith('<div class="vizgrad-frame" ') and frame.endswith('</iframe></div>')
    assert '<iframe class="vizgrad-player" srcdoc="' in frame
    assert 'sandbox="allow-scripts"' in frame and "allow-same-origin" not in frame
    assert ET.fromstring(bundle["image/svg+xml"]).tag == "{http://www.w3.org/2000/svg}svg"
    assert bundle["image/svg+xml"] == vizgrad.draw(q, 0).svg()


def test_show_starts_at_the_step_asked_for_and_passes_options():
    bundle = vizgrad.show("fork", step="final", theme="dark")._repr_mimebundle_()
    page = _page(bundle)
    assert 'data-start="8"' in page and '<html lang="en" class="dark">' in page  # the final view
    assert bundle["image/svg+xml"] == vizgrad.draw(vizgrad.examples.graph("fork"),
                                                   theme="dark").svg()
    assert "every gradient is final" in bundle["image/svg+xml"]
    assert 'data-start="7"' in _page(vizgrad.show("fork", step="last")._repr_mimebundle_())
    assert 'data-start="3"' in _page(vizgrad.show("fork", step=3)._repr_mimebundle_())


@pytest.mark.parametrize("step", [8, -1, "latest", True, 1.0])
def test_show_refuses_a_step_outside_the_trace(step):
    with pytest.raises(OptionError, match="step must be a (whole|step) number"):
        vizgrad.show("fork", step=step)


def test_show_refuses_an_unknown_option():
    with pytest.raises(OptionError, match="show\\(\\) has no option 'colour'"):
        vizgrad.show("fork", colour="red")


def test_the_same_graph_gives_the_same_bytes():
    assert (vizgrad.show("fork")._repr_mimebundle_()
            == vizgrad.show("fork")._repr_mimebundle_())


def test_a_trace_displays_as_a_player():
    q, _, _ = build_fork()
    bundle = vizgrad.trace(q)._repr_mimebundle_()
    assert bundle["text/plain"] == "<Trace of q: 5 values, 8 steps>"
    assert _page(bundle) == vizgrad.player_html(q)


def test_a_large_trace_keeps_a_plain_summary(monkeypatch):
    q, _, _ = build_fork()
    monkeypatch.setattr(notebook, "DISPLAY_MAX_NODES", 4)
    bundle = vizgrad.trace(q)._repr_mimebundle_()
    assert bundle == {"text/plain": "<Trace of q: 5 values, 8 steps>\n(more than 4 nodes: "
                                    "vizgrad.show(trace) draws its step player)"}


def test_a_trace_the_player_refuses_falls_back_to_text(monkeypatch):
    q, _, _ = build_fork()
    monkeypatch.setattr(notebook, "show", functools.partial(notebook.show, theme="neon"))
    bundle = vizgrad.trace(q)._repr_mimebundle_()
    assert list(bundle) == ["text/plain"]
    assert "no step player: theme must be one of light, dark, got 'neon'" in bundle["text/plain"]


def test_a_value_after_backward_displays_as_a_player():
    q, _, _ = build_fork()
    bundle = q._repr_mimebundle_()
    assert bundle["text/plain"] == repr(q)
    assert _page(bundle) == vizgrad.player_html(q)


def test_a_value_before_backward_or_a_leaf_keeps_its_repr():
    q, a, _ = build_fork(backward=False)
    assert q._repr_mimebundle_() is None
    q.backward()
    assert a._repr_mimebundle_() is None


def test_a_value_with_more_nodes_than_the_limit_keeps_its_repr(monkeypatch):
    q, _, _ = build_fork()
    monkeypatch.setattr(notebook, "DISPLAY_MAX_NODES", 4)
    assert q._repr_mimebundle_() is None
    monkeypatch.setattr(notebook, "DISPLAY_MAX_NODES", 5)
    assert "text/html" in q._repr_mimebundle_()


def test_a_value_displays_as_a_player_before_anything_imports_the_notebook_module():
    # the engine does not import vizgrad.embed.notebook: the first display loads it
    # (vizgrad.core.display)
    probe = ("import sys, vizgrad\n"
             "a, b = vizgrad.Value(-2.0), vizgrad.Value(3.0); q = (a * b) * (a + b)\n"
             "q.backward(); before = 'vizgrad.embed.notebook' in sys.modules\n"
             "print(before, sorted(q._repr_mimebundle_()))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True,
                         timeout=60)
    assert out.stdout.split("\n")[0] == (
        "False ['image/svg+xml', 'text/html', 'text/plain']")


def test_show_is_exported_lazily():
    assert vizgrad.show is notebook.show and "show" in vizgrad.__all__


def test_show_takes_a_micrograd_value():
    engine = pytest.importorskip("micrograd.engine", reason="micrograd is not installed")
    a, b = engine.Value(-2.0), engine.Value(3.0)
    q = (a * b) * (a + b)
    q.backward()
    page = _page(vizgrad.show(q, step="final")._repr_mimebundle_())
    assert 'data-start="8"' in page
    for n, grad in (("v0", "−3"), ("v1", "−8")):  # the picture shows the final view
        assert re.search(rf'<text id="vg-t-{n}-grad"[^>]*>{grad}</text>', page)


def test_show_collapses_a_grouped_graph_before_the_player():
    from vizgrad import show

    s = show("mlp", collapse="neuron", step="final")
    assert "L1/N0 · " in s.page() and "L1/N0 · " in s.svg()
    assert "L1/N0 · " not in show("mlp", step="final").page()
    with pytest.raises(OptionError, match="collapse must be auto, none, layer, neuron"):
        show("mlp", collapse="synapse")


def test_show_names_a_micrograd_nets_parameters_with_model():
    """show() traces the Value at the entry with model=, and the scene below is given the
    graph (it once traced again and refused the graph with model= set)."""
    import random

    from micrograd.nn import MLP  # the test extra's

    random.seed(1)
    net = MLP(2, [2, 1])
    y = net([1.0, 2.0])
    y.backward()
    named, plain = vizgrad.show(y, model=net), vizgrad.show(y)
    assert repr(named) == "<Stepper of loss: 27 nodes, 30 steps>"
    assert repr(plain) == "<Stepper of f: 27 nodes, 30 steps>"
    assert "L0.N0.w0" in named.page() and "L0.N0.w0" not in plain.page()
