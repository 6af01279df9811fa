"""The shortcuts of the whole-chain drawing path give what the long ways gave: text widths
learnt for characters outside the table, numbers written from a cache, caption lines that
fit kept whole, curves cut with weights worked out once, SVG numbers trimmed only when they
end in 0, and only a caption's id parsed as one. Each expected value here is a literal or a
second implementation written in this file."""

from __future__ import annotations

import random

import pytest

from vizgrad import examples
from vizgrad.core.numerals import fmt
from vizgrad.scene.captions import wrap, wrap_caption
from vizgrad.scene.labels import curve, curve_points
from vizgrad.scene.make import scene_of
from vizgrad.scene.shapes import Shape
from vizgrad.style.metrics import units, width
from vizgrad.write.svgout import shape_element


# -- text widths -------------------------------------------------------------------------

def test_a_character_outside_the_table_counts_the_same_every_time():
    # x is 592 units in DejaVu Sans; ₄ and ₉ are not in the table: 0.7 em each; 梯 is wide
    for _ in range(3):  # the first call learns them, the later ones look them up
        assert units("x₄") == 592 + 700
        assert units("x₄₉") == 592 + 700 + 700
        assert units("梯x") == 1000 + 592
        assert units("x\u0301") == 592  # a combining accent takes no room
    assert units("x₄", True) == 645 + 700  # bold x is 645
    assert width("x₄", 10) == pytest.approx(12.92)


def test_widths_add_up_over_pieces_with_unknown_characters():
    text = "w₁₂₄ = tanh(sum₃₂₉) × 0.5"
    pieces = text.split(" ")
    assert units(text) == sum(units(p) for p in pieces) + units(" ") * (len(pieces) - 1)


# -- numbers ------------------------------------------------------------------------------

def test_equal_numbers_of_other_types_are_written_as_their_own():
    assert [fmt(1, 2), fmt(1.0, 2), fmt(True, 2)] == ["1.00", "1.00", "1.00"]
    assert fmt(-0.0) == fmt(0.0) == "0.0000"
    assert fmt(-0.0, trim=True) == fmt(0.0, trim=True) == "0"
    assert fmt(None) == "—" and fmt(None, missing="?") == "?"
    nan = float("nan")
    assert fmt(nan) == fmt(float("nan")) == "nan"


def test_a_decimals_that_is_no_whole_number_still_fails_after_a_cached_one():
    assert fmt(0.5, 4) == "0.5000"
    with pytest.raises(ValueError):
        fmt(0.5, 4.0)  # type: ignore[arg-type]


def test_a_number_that_cannot_be_a_key_is_still_written():
    class Unhashable(float):
        __hash__ = None  # type: ignore[assignment]

    assert fmt(Unhashable(-2.5), 2) == "−2.50"
    with pytest.raises(TypeError):
        fmt([1.0])  # type: ignore[arg-type]


def test_the_cache_writes_what_a_fresh_call_writes():
    rnd = random.Random(3)
    values = [rnd.uniform(-5, 5) * 10 ** rnd.randint(-14, 17) for _ in range(300)]
    for v in values:
        for decimals in (0, 2, 4):
            for trim in (False, True):
                first = fmt(v, decimals, trim=trim)
                assert fmt(v, decimals, trim=trim) == first
                assert fmt(str(v), decimals, trim=trim) == first  # another key, same number


# -- caption lines --------------------------------------------------------------------------

def _wrapped_the_long_way(lines: list[str], c: float, room: float) -> list[str]:
    """The caption lines as wrapped before the shortcut: every line cut, then joined."""
    room -= c
    out = [lines[0]]
    for line in lines[1:]:
        sep = " = " if "=" in line.split("   ")[0].split(" = ", 1)[-1] else "   "
        sep = sep if sep in line and not line.startswith("⚠") else " "
        for piece in wrap(line, room, c, sep):
            wide = units(piece) * c / 1000 > room and " " in piece.strip()
            out += wrap(piece, room, c, " ") if wide else [piece]
    return out


@pytest.mark.parametrize("name, preset, steps_wrapped", [
    ("fork", "docs", 0), ("mlp", "slides", 5), ("softmax-nll", "compact", 0),
    ("softmax-nll", "slides", 2), ("tanh-native", "slides", 0)])
def test_caption_lines_wrap_as_every_line_cut_would(name, preset, steps_wrapped):
    scene = scene_of(examples.graph(name), preset=preset)
    room = scene.wrap_at - scene.badge_width
    wrapped = 0
    for k in [*range(scene.last + 1), None]:
        texts = scene.caption_texts(k)
        got = wrap_caption(texts, scene.preset, room)
        assert got == _wrapped_the_long_way(texts, scene.preset.caption, room), k
        assert got == scene.caption_lines(k)
        wrapped += len(got) > len(texts)
    assert wrapped == steps_wrapped  # where lines did not fit, the long way ran too


# -- curves -------------------------------------------------------------------------------

def _bezier_the_long_way(points):
    out = [points[0]]
    for i in range(1, len(points) - 2, 3):
        p0, p1, p2, p3 = points[i - 1], points[i], points[i + 1], points[i + 2]
        for k in range(1, 9):
            t = k / 8
            u = 1 - t
            a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
            out.append((a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0],
                        a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]))
    return out


def test_a_curve_is_cut_at_the_same_points_to_the_last_bit():
    rnd = random.Random(7)
    for n in (1, 2, 3, 5):
        pts = tuple((rnd.uniform(-500, 900), rnd.uniform(-300, 300)) for _ in range(3 * n + 1))
        assert curve(pts) == _bezier_the_long_way(pts)
    line = curve(((0.0, 0.0), (0.0, 0.0), (8.0, 0.0), (8.0, 0.0)))
    assert len(line) == 9 and line[0] == (0.0, 0.0) and line[-1] == (8.0, 0.0)
    assert line[4] == (4.0, 0.0)


def test_a_moved_curve_walked_point_by_point_is_the_moved_polyline():
    rnd = random.Random(11)
    pts = tuple((rnd.uniform(-500, 900), rnd.uniform(-300, 300)) for _ in range(10))
    dx, dy = 37.25, -12.5
    moved = [(x + dx, y + dy) for x, y in _bezier_the_long_way(pts)]
    assert list(curve_points(pts, dx, dy)) == moved


# -- SVG ------------------------------------------------------------------------------------

def test_svg_numbers_keep_two_decimals_and_drop_trailing_zeros():
    sh = Shape("e-v0-v1-0", "path", ((-0.001, 2.5), (10.0, 0.004), (1.234, -3.1), (-7.0, 0.1),
                                     (120.0, -0.004)), "vg-edge")
    got = shape_element(sh, {"stroke": "#000"}, 'id="x"', "h")
    assert 'd="M0,2.5C10,0 1.23,-3.1 -7,0.1 120,0"' in got
    rect = Shape("n-v0", "rect", (0.125, 99.999, 12.345, 1e16, 0.5), "vg-box")
    got = shape_element(rect, {"fill": "#fff"}, 'id="y"', "h")
    assert 'x="0.12" y="100" width="12.35" height="10000000000000000" rx="0.5"' in got


def test_only_a_captions_text_keeps_its_spaces():
    def element(sid: str) -> str:
        return shape_element(Shape(sid, "text", (1.0, 2.0), "vg-rule", 12.0), {"text": "a   b"},
                             f'id="{sid}"', "h")

    assert 'style="white-space:pre"' in element("cap-0")
    assert 'style="white-space:pre"' in element("cap-12")
    for sid in ("t-v3-grad", "legend-0", "cap-x", "capx-1", "badge-t"):
        assert "white-space" not in element(sid), sid
