"""A real notebook: executed by nbclient, exported by nbconvert, stepped through in Chromium."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from .conftest import current_step, grad, player_frames

nbformat = pytest.importorskip("nbformat", reason="nbformat is not installed")
nbclient = pytest.importorskip("nbclient", reason="nbclient is not installed")
nbconvert = pytest.importorskip("nbconvert", reason="nbconvert is not installed")
pytest.importorskip("ipykernel", reason="ipykernel is not installed (pip install vizgrad[jupyter])")
bs4 = pytest.importorskip("bs4", reason="beautifulsoup4 is not installed")

CELLS = [
    "import vizgrad\nfrom vizgrad import Value\n"
    "a, b = Value(-2.0, label='a'), Value(3.0, label='b')\n"
    "u = a * b; u.label = 'u'\nv = a + b; v.label = 'v'\nq = u * v; q.label = 'q'\nq.backward()",
    "q",
    "vizgrad.trace(q)",
    "vizgrad.show('shared-node', step='final')",
    "a",
]


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """The executed notebook and its HTML export."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    folder = tmp_path_factory.mktemp("notebook")
    client = nbclient.NotebookClient(nb, timeout=240, kernel_name="python3",
                                     resources={"metadata": {"path": str(folder)}})
    client.execute()
    with pytest.MonkeyPatch.context() as mp:
        # a virtual environment made with --system-site-packages sees nbconvert but not the
        # templates it installed under the base prefix: point Jupyter there too
        shared = Path(sys.base_prefix) / "share" / "jupyter"
        if shared.is_dir():
            paths = [os.environ.get("JUPYTER_PATH", ""), str(shared)]
            mp.setenv("JUPYTER_PATH", os.pathsep.join(p for p in paths if p))
        body, _ = nbconvert.HTMLExporter().from_notebook_node(nb)
    page = folder / "graphs.html"
    page.write_text(body, encoding="utf-8")
    return nb, page


def test_the_kernel_displays_players_with_an_svg_fallback(exported):
    nb, _ = exported
    value, trace, shown, leaf = (nb.cells[i].outputs for i in range(1, 5))
    for outputs in (value, trace, shown):
        (out,) = outputs
        assert out["output_type"] == "execute_result"
        assert set(out["data"]) == {"text/html", "image/svg+xml", "text/plain"}
        assert '<iframe class="vizgrad-player" srcdoc=' in out["data"]["text/html"]
        assert out["data"]["image/svg+xml"].lstrip().startswith("<?xml")
    assert value[0]["data"]["text/plain"] == "Value(label='q', data=-6.0, grad=1.0)"
    assert trace[0]["data"]["text/plain"] == "<Trace of q: 5 values, 8 steps>"
    assert set(leaf[0]["data"]) == {"text/plain"}  # a leaf keeps its plain repr


def test_the_export_keeps_three_independent_players(exported):
    _, page = exported
    soup = bs4.BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    frames = soup.select("iframe.vizgrad-player")
    assert len(frames) == 3
    assert all(f["sandbox"] == ["allow-scripts"] for f in frames)
    assert all(f["srcdoc"].startswith("<!DOCTYPE html>") for f in frames)


def test_next_in_the_exported_html_changes_the_step(exported, open_page):
    _, page = exported
    pg = open_page(page, host_network=True)  # nbconvert's page asks for MathJax
    value, trace, shown = player_frames(pg)
    assert [current_step(f) for f in (value, trace, shown)] == ["step 0 / 7", "step 0 / 7",
                                                                "final view"]
    assert grad(value, "v0") == "—"
    value.click("button[data-go='next']")
    assert current_step(value) == "step 1 / 7"
    for _ in range(6):
        value.click("button[data-go='next']")
    assert current_step(value) == "step 7 / 7"
    assert (grad(value, "v0"), grad(value, "v1")) == ("−3", "−8")
    assert current_step(trace) == "step 0 / 7" and current_step(shown) == "final view"
    trace.locator("#slider").fill("5")
    assert current_step(trace) == "step 5 / 7" and current_step(value) == "step 7 / 7"
