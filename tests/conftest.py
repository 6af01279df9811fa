"""Shared fixtures; in CI (VIZGRAD_REQUIRE_OPTIONAL=1) no test may skip."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest

from .helpers import build_fork

REQUIRE_OPTIONAL = os.environ.get("VIZGRAD_REQUIRE_OPTIONAL") == "1"
CHROMIUM = os.environ.get("VIZGRAD_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if REQUIRE_OPTIONAL and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid} skipped, but VIZGRAD_REQUIRE_OPTIONAL=1 requires every test to run: "
            f"{report.longrepr}"
        )


@pytest.fixture
def fork():
    """The chapter's fork graph q = (a*b)*(a+b) at a=-2, b=3: (q, a, b), before backward()."""
    return build_fork(backward=False)


@pytest.fixture
def layouts(monkeypatch) -> list[str]:
    """Every DOT handed to Graphviz, counted where every layout goes
    (:func:`vizgrad.scene.layout.run.run_layout`)."""
    import vizgrad.scene.layout.run as layout_run
    import vizgrad.scene.make as scene_module

    seen: list[str] = []
    real = layout_run.run_layout

    def counted(dot: str, *args, **kwargs):
        seen.append(dot)
        return real(dot, *args, **kwargs)

    monkeypatch.setattr(layout_run, "run_layout", counted)
    monkeypatch.setattr(scene_module, "run_layout", counted)
    return seen


# model files that tests render through the command line, not test modules
collect_ignore = ["models"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium through Playwright (skips without them, fails so in CI)."""
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="Playwright for Python is not installed")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium not found at {CHROMIUM} (apt install chromium, "
                    "or set VIZGRAD_CHROMIUM)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
