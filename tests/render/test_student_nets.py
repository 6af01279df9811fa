"""A student's own net (tests/models/), rendered by ``vizgrad render model.py -o model.html``
with no options, in a real browser: the automatic collapse's boxes open and Find finds every
named value. Uses the Chromium fixture of tests/conftest.py (a skip fails in CI).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from vizgrad.cli.commands import main

pytest.importorskip("micrograd.nn", reason="micrograd==0.1.0 is a test dependency")
expect = pytest.importorskip("playwright.sync_api",
                             reason="Playwright for Python is not installed").expect

MODELS = Path(__file__).resolve().parents[1] / "models"


def _data(page: str) -> dict:
    return json.loads(re.search(r'id="vg-data">(.*?)</script>', page, re.S).group(1))


@pytest.fixture(scope="module")
def bce(tmp_path_factory):
    """A net drawn by layer by default: the moons net, MLP(2, [8, 8, 1]) on 8 points (bce.py's
    MLP(4, [6, 3, 1]), its inputs one box beside the neurons, now fits by neuron)."""
    path = tmp_path_factory.mktemp("moons") / "moons.html"
    result = CliRunner().invoke(main, ["render", str(MODELS / "moons.py"), "-o", str(path), "-q"])
    assert result.exit_code == 0, (result.output, result.exception)
    return path.read_text(encoding="utf-8")


def test_an_auto_collapsed_page_carries_a_view_per_box(bce):
    data = _data(bce)
    opened = [v["open"] for v in data["views"]]
    assert {"L0", "L1", "L2", "L0/N1", "L1/N2"} <= set(opened)  # each layer, and its neurons
    assert set(data["boxes"]) <= set(opened) | set(data["left_out"])


def test_an_auto_collapsed_page_opens_a_layer_and_finds_a_weight(open_page, bce):
    pg = open_page(bce, "#step=final")
    box = pg.locator("svg [aria-label='Open group L0']").get_attribute("id")
    pg.locator(f"#{box.replace('n-', 't-', 1)}-name").click()
    expect(pg.locator("#vg-frame-label")).to_have_count(1)
    assert pg.locator("#vg-frame-label").text_content().startswith("L0")
    find = pg.get_by_label("Find")
    find.fill("L0.N1.w0")
    find.press("Enter")
    expect(pg.locator("#found")).to_have_text(re.compile(r"^1 of \d+: L0\.N1\.w0"))
    expect(pg).to_have_url(re.compile(r"open=L0%2FN1$"))  # its neuron opened in its layer
    assert pg.locator("rect.vg-found").count() == 1
