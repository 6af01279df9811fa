"""One drawing's layouts share one time budget (``timeout``), however many it tries to fit.

A graph too large to read whole is laid out again and again (the output's
neighbourhood, one radius further each time); each layout used to get the whole
``timeout``, so a drawing had no bound. The layout is replaced by one that takes
a fixed time, so the counts below do not depend on the machine.
"""

from __future__ import annotations

import time

import pytest

import vizgrad.scene.make as scene_module
from vizgrad import Value, draw
from vizgrad.exceptions import LayoutTimeoutError

STEP = 0.3  # seconds each injected layout takes


@pytest.fixture
def slow_layouts(monkeypatch):
    real, given = scene_module.run_layout, []

    def slow(dot, fmt, backend=None, timeout=60.0):
        given.append(float(timeout))
        time.sleep(STEP)
        return real(dot, fmt, backend, timeout)

    monkeypatch.setattr(scene_module, "run_layout", slow)
    return given


def _wide_sum() -> Value:
    s = sum((Value(i) * Value(-i) for i in range(60)), Value(0))
    s.backward()
    return s


def test_every_layout_of_a_drawing_gets_what_is_left_of_one_timeout(slow_layouts):
    draw(_wide_sum(), timeout=30)
    tried = list(slow_layouts)
    assert len(tried) > 3  # fitting the picture took several layouts
    assert tried[0] == 30 and tried == sorted(tried, reverse=True)
    # each layout took STEP seconds, so each later one is given that much less (the first
    # scene may lay out twice, left to right and top to bottom, with the same budget)
    assert all(t <= 30 - STEP * (i - 1) + 1e-6 for i, t in enumerate(tried) if i), tried


def test_a_small_budget_stops_the_fitting_and_keeps_the_best_so_far(slow_layouts):
    budget = 2.5 * STEP
    drawing = draw(_wide_sum(), timeout=budget)
    assert drawing.svg().startswith("<?xml") or "<svg" in drawing.svg()
    # the first layout (two directions) may each take the budget; none starts after it ran out
    assert len(slow_layouts) <= 2 + int(budget / STEP) + 1, slow_layouts


def test_a_first_layout_past_the_budget_names_the_option(monkeypatch):
    def too_slow(dot, fmt, backend=None, timeout=60.0):
        raise LayoutTimeoutError(f"the Graphviz layout ran longer than {timeout:g} s and was "
                                 "stopped; draw a smaller graph, or pass a larger timeout")

    monkeypatch.setattr(scene_module, "run_layout", too_slow)
    with pytest.raises(LayoutTimeoutError, match="larger timeout"):
        draw(_wide_sum(), timeout=1)
