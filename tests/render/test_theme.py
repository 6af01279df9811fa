"""Themes and the colour-blind-safe gradient palette."""

from __future__ import annotations

import pytest

from vizgrad.exceptions import OptionError
from vizgrad.style.theme import THEMES, edge_color, get, grad_color, mix


def luminance(color: str) -> float:
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_contrast_of_this_file_gives_wcags_figures():
    assert contrast("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.005)  # the AA grey
    assert contrast("#ffffff", "#767676") == contrast("#767676", "#ffffff")


@pytest.mark.parametrize("name", sorted(THEMES))
def test_sign_picks_the_side_and_size_the_strength(name):
    th = get(name)
    assert grad_color(0.0, 1.0, th) == th.node_fill
    assert grad_color(None, 1.0, th) == th.node_fill
    assert grad_color(float("nan"), 1.0, th) == th.nan_fill
    neg = [grad_color(-x, 4.0, th) for x in (0.1, 1.0, 4.0)]
    pos = [grad_color(x, 4.0, th) for x in (0.1, 1.0, 4.0)]
    assert len(set(neg)) == 3 and len(set(pos)) == 3 and not set(neg) & set(pos)
    # stronger = further from the plain fill
    dist = [contrast(c, th.node_fill) for c in pos]
    assert dist == sorted(dist)
    assert grad_color(float("inf"), 4.0, th) == grad_color(4.0, 4.0, th)
    assert grad_color(-1e9, 4.0, th) == grad_color(-4.0, 4.0, th)


@pytest.mark.parametrize("name", sorted(THEMES))
def test_text_stays_readable_on_every_fill(name):
    th = get(name)
    for v in (-1.0, -0.5, 0.0, 0.5, 1.0):
        assert contrast(th.text, grad_color(v, 1.0, th)) >= 4.5
    assert contrast(th.text, th.background) >= 7
    assert contrast(th.muted, th.background) >= 3


def test_palette_is_colorbrewer_puor():
    light = get("light")
    assert (light.fill_negative, light.fill_positive) == ("#e66101", "#5e3c99")
    # edges and label text use the darker PuOr orange, for 4.5:1 on white
    assert (light.negative, light.positive) == ("#b35806", "#5e3c99")
    assert edge_color(-1.0) == "#b35806" and edge_color(2.0) == "#5e3c99"
    assert edge_color(float("nan")) == light.edge


def test_unknown_theme():
    with pytest.raises(OptionError, match=r"unknown theme 'neon'.*\['dark', 'light'\]"):
        get("neon")


def test_mix_endpoints():
    assert mix("#102030", "#f0e0d0", 0) == "#102030"
    assert mix("#102030", "#f0e0d0", 1) == "#f0e0d0"
