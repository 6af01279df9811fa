"""Fixtures of the player's browser tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def open_page(browser, tmp_path):
    """Open a player page of ``G`` (an extra ``#hash`` and viewport optional); checks after."""
    contexts, problems, requests = [], [], []

    def open_(html: str, hash_: str = "", width: int = 1400, height: int = 1000, **ctx):
        path = tmp_path / f"page{len(contexts)}.html"
        path.write_text(html, encoding="utf-8")
        context = browser.new_context(viewport={"width": width, "height": height}, **ctx)
        contexts.append(context)
        pg = context.new_page()
        pg.on("pageerror", lambda err: problems.append(str(err)))
        pg.on("console",
              lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
        pg.on("request", lambda req: requests.append(req.url))
        pg.goto(path.as_uri() + hash_)
        return pg

    yield open_
    for context in contexts:
        context.close()
    assert problems == []  # no script error, nothing blocked by the CSP
    assert all(url.startswith("file://") for url in requests), requests
