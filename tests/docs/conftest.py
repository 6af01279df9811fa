"""Shared by the docs tests: headless Chromium, and pages watched for script errors."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest




@pytest.fixture
def open_page(browser) -> Iterator[Any]:
    """``open_page(path)`` opens a local file; afterwards no script error and no network use.

    ``open_page(path, host_network=True)`` lets the page itself (not its players) ask for
    web resources, as nbconvert's template asks for MathJax; they are refused, never fetched.
    """
    ctx = browser.new_context()
    ctx.route(lambda url: not url.startswith(("file:", "data:", "about:")),
              lambda route: route.abort())
    problems: list[str] = []
    requests: list[tuple[str, str]] = []
    hosts: list[str] = []

    def on_console(m: Any) -> None:
        if m.type == "error":
            problems.append(f"{m.text} @ {m.location['url']}")

    def open_(path: Path, host_network: bool = False) -> Any:
        pg = ctx.new_page()
        pg.on("pageerror", lambda err: problems.append(str(err)))
        pg.on("console", on_console)
        pg.on("request", lambda req: requests.append((req.frame.url, req.url)))
        if host_network:
            hosts.append(path.as_uri())
        pg.goto(path.as_uri())
        return pg

    yield open_
    ctx.close()
    # a refused request also logs "Failed to load resource"; the requests are checked below
    assert [p for p in problems if not p.startswith("Failed to load resource")] == []
    local = ("file://", "data:", "about:")
    assert all(u.startswith(local) or frame in hosts for frame, u in requests), requests


def player_frames(pg: Any) -> list[Any]:
    """The frames of the page that hold a vizgrad player, in page order."""
    frames = []
    for handle in pg.query_selector_all("iframe.vizgrad-player"):
        handle.scroll_into_view_if_needed()  # the frames load lazily
        frame = handle.content_frame()
        frame.wait_for_selector("#player #counter")
        frames.append(frame)
    return frames


def current_step(frame: Any) -> str:
    return frame.locator("#counter").inner_text()


def grad(frame: Any, node: str) -> str:
    return frame.locator(f"#player tr[data-node='{node}'] td.grad").inner_text()
