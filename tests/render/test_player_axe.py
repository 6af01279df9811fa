"""An axe-core audit of every gallery player, in both languages, and with a group opened.

axe-core comes inside axe-playwright-python (no network); the page's own CSP does not
stop it, as Playwright evaluates it from outside the page.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from vizgrad import examples, player_html

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright",
                               reason="axe-playwright-python is not installed")


def audit(pg, context=None) -> list[str]:
    """The violations axe finds on the page (in ``context``), one line each."""
    results = axe_sync.Axe().run(pg, context=context)
    return [f"{v['id']} ({v['impact']}): " + ", ".join(str(n["target"]) for n in v["nodes"])
            for v in results.response["violations"]]


def test_axe_core_is_shipped_inside_the_package():
    from axe_playwright_python import base

    assert base.AXE_FILE_PATH.parent == Path(base.__file__).parent
    assert len(base.AXE_SCRIPT) > 100_000  # the whole of axe-core, read from the disk


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    """Every gallery example's player page, in English and in Chinese, collapsed as the
    gallery draws it (mlp: by neuron, each group can be opened)."""
    root = tmp_path_factory.mktemp("players")
    out = {}
    for name in examples.names():
        G = examples.graph(name)
        level = examples.collapse_level(name)
        for lang in ("en", "zh"):
            path = root / f"{name}-{lang}.html"
            how = {"collapse": level} if level else {}
            path.write_text(player_html(G, lang=lang, **how), encoding="utf-8")
            out[f"{name}-{lang}"] = path
    return out


def test_every_gallery_player_has_no_axe_violation(browser, pages):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    requests: list[str] = []
    try:
        pg = context.new_page()
        pg.on("request", lambda req: requests.append(req.url))
        found = {}
        for key, path in pages.items():
            pg.goto(path.as_uri())
            pg.wait_for_selector("#counter")
            found[key] = audit(pg)
        # a group opened (through the address), at the last step, in both languages
        for lang in ("en", "zh"):
            pg.goto(pages[f"mlp-{lang}"].as_uri() + "#step=final&open=L0%2FN1")
            pg.wait_for_selector("#vg-frame-label")
            found[f"mlp-{lang} opened"] = audit(pg)
    finally:
        context.close()
    assert len(found) == 2 * len(examples.names()) + 2
    assert {k: v for k, v in found.items() if v} == {}
    assert all(url.startswith("file://") for url in requests), requests  # offline


def test_a_scroll_box_of_the_player_takes_the_keyboard_focus(browser, pages):
    context = browser.new_context(viewport={"width": 700, "height": 600})
    try:
        pg = context.new_page()
        pg.goto(pages["mlp-en"].as_uri())
        pg.wait_for_selector("#counter")
        boxes = pg.evaluate("""() => [...document.querySelectorAll('#stage, .table-wrap')]
          .filter((e) => e.scrollHeight > e.clientHeight || e.scrollWidth > e.clientWidth)
          .map((e) => e.tabIndex)""")
        assert boxes and all(i == 0 for i in boxes), boxes
        table = pg.locator(".table-wrap")
        assert table.evaluate("e => e.scrollHeight > e.clientHeight")  # rows to scroll to
        table.focus()
        pg.keyboard.press("PageDown")
        # the browser may scroll smoothly: wait for the box to move, at most 3 s
        pg.wait_for_function("() => document.querySelector('.table-wrap').scrollTop > 0",
                             timeout=3000)
    finally:
        context.close()
