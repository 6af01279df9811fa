"""The HTML player in a real browser: headless Chromium through Playwright, from file://.

Skips with a reason when Playwright or Chromium is missing; in CI
(VIZGRAD_REQUIRE_OPTIONAL=1) a skip counts as a failure.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from vizgrad import examples
from vizgrad.render.html import player_html

CHROMIUM = os.environ.get("VIZGRAD_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium not found at {CHROMIUM} (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, tmp_path):
    path = tmp_path / "fork.html"
    path.write_text(player_html(examples.graph("fork")), encoding="utf-8")
    ctx = browser.new_context()
    pg = ctx.new_page()
    problems: list[str] = []
    requests: list[str] = []
    pg.on("pageerror", lambda err: problems.append(str(err)))
    pg.on("console", lambda msg: problems.append(msg.text) if msg.type in ("error", "warning") else None)
    pg.on("request", lambda req: requests.append(req.url))
    pg.goto(path.as_uri())
    yield pg
    assert problems == []  # no script error, nothing blocked by the CSP
    assert all(url.startswith("file://") for url in requests), requests
    ctx.close()


def _grad(pg, node: str) -> str:
    return pg.locator(f"section.step.current tr[data-node='{node}'] td.grad").inner_text()


def _visible_steps(pg) -> list[str]:
    return pg.eval_on_selector_all(
        "section.step", "els => els.filter(e => e.offsetParent !== null).map(e => e.dataset.step)")


def test_next_seven_times_reads_the_chapters_grads(page):
    assert page.locator("#counter").inner_text() == "step 0 / 7"
    assert _visible_steps(page) == ["0"]
    assert _grad(page, "v0") == "—"
    next_button = page.get_by_role("button", name="Next")
    for _ in range(7):
        next_button.click()
    assert page.locator("#counter").inner_text() == "step 7 / 7"
    assert _visible_steps(page) == ["7"]
    assert _grad(page, "v0") == "-3.0000"
    assert _grad(page, "v1") == "-8.0000"
    assert next_button.is_disabled()
    assert page.get_by_role("button", name="Last").is_disabled()
    # the inline SVG of the shown step carries the same totals as text
    svg_text = page.locator("section.step.current svg").text_content()
    assert "-3.0000" in svg_text and "-8.0000" in svg_text


def test_keys_and_the_other_buttons(page):
    page.keyboard.press("End")
    assert page.locator("#counter").inner_text() == "step 7 / 7"
    page.keyboard.press("ArrowLeft")
    assert page.locator("#counter").inner_text() == "step 6 / 7"
    assert _grad(page, "v0") == "-6.0000"  # a has its first contribution, through v
    page.keyboard.press("Home")
    assert page.locator("#counter").inner_text() == "step 0 / 7"
    assert page.locator("section.step.current tr[data-node='v2'] td.data").inner_text() == "pending"
    assert page.get_by_role("button", name="Back").is_disabled()
    page.keyboard.press("ArrowRight")
    page.get_by_role("button", name="Last").click()
    page.get_by_role("button", name="Back").click()
    page.get_by_role("button", name="First").click()
    assert page.locator("#counter").inner_text() == "step 0 / 7"
    fit = page.get_by_role("button", name="Fit width")
    fit.click()
    assert fit.get_attribute("aria-pressed") == "true"
    assert "fit" in page.locator("#player").get_attribute("class")
    page.get_by_label("step", exact=True).fill("5")
    assert page.locator("#counter").inner_text() == "step 5 / 7"
    assert page.evaluate("location.hash") == "#step=5"


def test_a_step_in_the_url_opens_that_step(browser, tmp_path):
    path = tmp_path / "fork.html"
    path.write_text(player_html(examples.graph("fork")), encoding="utf-8")
    pg = browser.new_page()
    pg.goto(path.as_uri() + "#step=4")
    assert pg.locator("#counter").inner_text() == "step 4 / 7"
    assert _visible_steps(pg) == ["4"]
    pg.close()


def test_without_javascript_every_step_is_shown_in_turn(browser, tmp_path):
    path = tmp_path / "fork.html"
    path.write_text(player_html(examples.graph("fork")), encoding="utf-8")
    ctx = browser.new_context(java_script_enabled=False)
    pg = ctx.new_page()
    pg.goto(path.as_uri())
    assert pg.locator("section.step").count() == 8
    assert all(pg.locator("section.step").nth(k).is_visible() for k in range(8))
    assert not pg.locator("nav.controls").is_visible()
    ctx.close()
