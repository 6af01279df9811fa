"""Numbers as every picture writes them: a true minus sign, ``decimals`` digits, and
scientific notation where fixed digits would hide a value. Standard library only, so the
trace's names (:mod:`vizgrad.tracing.names`) and the renderers (:mod:`vizgrad.style.text`)
write a number the same way.
"""

from __future__ import annotations

import math
from functools import lru_cache

__all__ = ["MAX_DECIMALS", "MINUS", "NOT_REACHED", "PLAIN", "SCIENTIFIC", "fmt", "parse",
           "product"]

MINUS = "\u2212"
#: from this magnitude on, :func:`fmt` writes numbers in scientific notation (a float holds
#: about 16 significant digits, so more digits before the point would be noise)
SCIENTIFIC = 1e16
NOT_REACHED = "—"
#: the most digits :func:`product` prints to make its factors multiply to its product
MAX_DECIMALS = 12
#: from this magnitude on, a number is a plain decimal whatever ``decimals`` says (a slide's
#: two decimals write 0.057 as 0.0570, not 5.7e−2); smaller ones are in scientific notation
PLAIN = 1e-3


def fmt(x: float | None, decimals: int = 4, missing: str = NOT_REACHED, trim: bool = False) -> str:
    """A number with ``decimals`` digits and a true minus; ``None`` becomes ``missing``.

    ``trim`` drops trailing zeros (``3.0000`` → ``3``). nan and inf stay words. A
    number from :data:`PLAIN` on that ``decimals`` would show with fewer than three
    significant digits gets three, a plain decimal (a slide's ``0.0570`` and ``0.707``). A
    smaller nonzero number is written in scientific notation with two significant digits
    (``8.5e−5``), so no nonzero value reads as 0, small terms still add up, and a column
    never mixes 0.00067 with 0.000085; below 1e−12 it is rounding noise and shows as 0.
    From :data:`SCIENTIFIC` on, a number is shown with ``decimals`` digits after the point
    in scientific notation, so ``exp(709)`` is not 308 digits long.

    >>> fmt(8.5e-5), fmt(0.0019, 2, trim=True), fmt(0.0067), fmt(-3e-15, trim=True)
    ('8.5e−5', '0.0019', '0.00670', '0')
    >>> fmt(-0.0572, 2), fmt(0.0572, 4), fmt(0.00072, 2)
    ('−0.0572', '0.0572', '7.2e−4')
    >>> fmt(float("-inf")), fmt(3.0, 2, trim=True), fmt(0.25, 2), fmt(0.7071, 2)
    ('−inf', '3', '0.250', '0.707')
    >>> fmt(8.218407461554972e307), fmt(-1e300, trim=True), fmt(1e15, 0)
    ('8.2184e307', '−1e300', '1000000000000000')
    """
    try:  # the same number is written again and again: in its box, on edges, in captions
        return _written(x, decimals, missing, trim)
    except TypeError:  # x cannot be a key: written afresh (or float() refuses it)
        return _write(x, decimals, missing, trim)


def _write(x: float | None, decimals: int, missing: str, trim: bool) -> str:
    if x is None:
        return missing
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else MINUS + "inf"
    big = abs(x) >= SCIENTIFIC
    if not big and PLAIN <= abs(x) < 10.0 ** (2 - decimals):  # few decimals (a slide's)
        decimals = 2 - math.floor(math.log10(abs(x)))  # three significant digits, no e
    elif big or 1e-12 <= abs(x) < 10.0 ** (1 - decimals):  # huge, or under two digits
        mantissa, _, exponent = f"{x:.{decimals if big else 1}e}".partition("e")
        if trim:
            mantissa = mantissa.rstrip("0").rstrip(".")
        return f"{mantissa}e{int(exponent)}".replace("-", MINUS)
    text = f"{x:.{decimals}f}"
    if trim and "." in text:
        text = text.rstrip("0").rstrip(".")
    if text.startswith("-"):
        text = text[1:] if float(text) == 0 else MINUS + text[1:]
    return text


#: what :func:`fmt` wrote, by its arguments and their types (``-0.0`` and ``0.0`` are one
#: key, and :func:`_write` writes both as ``0``)
_written = lru_cache(maxsize=1 << 16, typed=True)(_write)


def parse(text: str) -> float:
    """The number :func:`fmt` wrote (its true minus and scientific notation read back).

    >>> parse("−0.0017"), parse("8.5e−5"), parse("(−2)")
    (-0.0017, 8.5e-05, -2.0)
    """
    return float(text.strip("()").replace(MINUS, "-"))


def _places(x: float, significant: int, decimals: int) -> int:
    """Digits after the point that show ``significant`` digits of ``x``, at least
    ``decimals`` and at most :data:`MAX_DECIMALS`."""
    if x == 0:
        return decimals
    need = significant - 1 - math.floor(math.log10(abs(x)))
    return min(max(decimals, need), MAX_DECIMALS)


def product(a: float, b: float, c: float, decimals: int = 4,
            trim: bool = False) -> tuple[str, str, str]:
    """``a``, ``b`` and their product ``c`` as texts whose numbers agree: each factor gets
    the significant digits it needs beyond ``decimals`` (a minimum; at most
    :data:`MAX_DECIMALS` after the point) until the product of the printed factors, rounded
    as the product is printed, is the printed product.

    >>> a, b = -0.0017475, -23.9392
    >>> product(a, b, a * b, 4)
    ('−0.001747', '−23.9392', '0.0418')
    >>> product(3.0, 1.0, 3.0, 4, trim=True)
    ('3', '1', '3')
    """
    fc = fmt(c, decimals, trim=trim)
    fa, fb = fmt(a, decimals, trim=trim), fmt(b, decimals, trim=trim)
    if not all(map(math.isfinite, (a, b, c))) or abs(c) >= SCIENTIFIC:
        return fa, fb, fc
    for significant in range(1, 18):
        fa = fmt(a, _places(a, significant, decimals), trim=trim)
        fb = fmt(b, _places(b, significant, decimals), trim=trim)
        if fmt(parse(fa) * parse(fb), decimals, trim=trim) == fc:
            return fa, fb, fc
    return fa, fb, fmt(parse(fa) * parse(fb), MAX_DECIMALS, trim=trim)
