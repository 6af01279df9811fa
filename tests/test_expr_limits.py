"""Expression limits: flat sums are limited by size only; look-alike letters are refused."""

from __future__ import annotations

import pytest

from vizgrad import parse
from vizgrad.exceptions import ExpressionError
from vizgrad.core.expr import MAX_DEPTH, MAX_NODES


@pytest.mark.parametrize("terms", [MAX_DEPTH - 1, MAX_DEPTH + 1, 1000, 1200])
def test_a_flat_sum_is_not_nesting(terms):
    assert parse(" + ".join(["a"] * terms), a=1).data == terms
    if terms <= 600:  # a*b - a*b - …: eight parts a term
        assert parse(" - ".join(["a*b"] * terms), a=1, b=2).data == 2 - 2 * (terms - 1)


@pytest.mark.parametrize("terms", [1300, 3500, 4900])
def test_a_flat_sum_is_refused_at_the_node_limit(terms):
    with pytest.raises(ExpressionError, match=f"parts; the limit is {MAX_NODES}"):
        parse("+".join(["a"] * terms), a=1)


def test_real_nesting_is_still_limited():
    with pytest.raises(ExpressionError, match=f"nested more than {MAX_DEPTH} deep"):
        parse("-" * (MAX_DEPTH + 5) + "a", a=1)
    assert parse("-" * (MAX_DEPTH - 5) + "a", a=1).data in (1.0, -1.0)


@pytest.mark.parametrize("src, char, plain", [
    ("ａ + 1", "ａ", "a"),
    ("2 * 𝐚", "𝐚", "a"),
    ("ｅxp(a)", "ｅ", "e"),
])
def test_letters_python_would_read_as_others_are_refused(src, char, plain):
    with pytest.raises(ExpressionError) as info:
        parse(src, a=1)
    assert info.value.column == src.index(char) + 1
    assert f"{char!r} would be read as {plain!r}" in str(info.value)
    with pytest.raises(ExpressionError, match="cannot be a variable name"):
        parse("1", **{"ａ": 1})


def test_names_in_other_scripts_still_work():
    assert parse("αβ * 變數", **{"αβ": 2, "變數": 3}).data == 6


@pytest.mark.parametrize("src, hint", [("a − 1", "-"), ("a × 2", "*"), ("a ÷ 2", "/")])
def test_look_alike_operators_say_what_to_write(src, hint):
    with pytest.raises(ExpressionError, match=f"is not an operator; write {hint}"):
        parse(src, a=1)
