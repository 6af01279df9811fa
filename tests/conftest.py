"""Shared fixtures; in CI (VIZGRAD_REQUIRE_OPTIONAL=1) no test may skip."""

from __future__ import annotations

import os

import pytest

REQUIRE_OPTIONAL = os.environ.get("VIZGRAD_REQUIRE_OPTIONAL") == "1"


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
    """The chapter's fork graph q = (a*b)*(a+b) at a=-2, b=3: (q, a, b)."""
    from vizgrad import Value

    a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    u = a * b
    u.label = "u"
    v = a + b
    v.label = "v"
    q = u * v
    q.label = "q"
    return q, a, b
