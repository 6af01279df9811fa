"""Text widths for layout, from the advance widths of DejaVu Sans (the font drawn).

Boxes and labels are sized from these widths before Graphviz places them, so
text fits in every step. SVG viewers without DejaVu Sans fall back to narrower
fonts (Verdana aside), so text never overflows its box::

    >>> round(width("−2.5", 14), 2)
    33.99
    >>> width("梯度", 10) == 20.0
    True
    >>> width("ab", 10, bold=True) > width("ab", 10)
    True

Characters outside the table count as one em when East Asian wide or full
width, and 0.7 em otherwise.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

__all__ = ["units", "width"]

# Advance widths in 1/1000 em of the characters below, regular and bold, read from
# DejaVuSans.ttf and DejaVuSans-Bold.ttf as shipped with matplotlib.
_CHARS = (' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ'
          '[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~'
          '×−∂→←—–…·²³√∑πσΣαβγδεθλμωΔ∇≤≥≈±÷⋅•°’“”‘ₓ⁻¹₀₁₂₃ ̄')
_REGULAR = (
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636,
    636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698,
    770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732,
    684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352, 635,
    634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592,
    525, 636, 337, 636, 838, 838, 838, 517, 838, 838, 1000, 500, 1000, 318, 401, 401, 637, 674,
    602, 634, 632, 659, 638, 592, 612, 541, 612, 592, 636, 837, 684, 669, 838, 838, 838, 838,
    838, 318, 590, 500, 318, 518, 518, 318, 444, 528, 401, 401, 401, 401, 401, 318, 0,
)
_BOLD = (
    348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696,
    696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734,
    830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812,
    774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716, 678, 435, 716,
    712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652,
    582, 712, 365, 712, 838, 838, 838, 544, 838, 838, 1000, 500, 1000, 380, 438, 438, 667, 718,
    791, 779, 683, 687, 716, 681, 687, 557, 687, 633, 736, 869, 774, 697, 838, 838, 838, 838,
    838, 380, 639, 500, 380, 657, 657, 380, 413, 528, 438, 438, 438, 438, 438, 348, 0,
)

_TABLES = (dict(zip(_CHARS, _REGULAR)), dict(zip(_CHARS, _BOLD)))


def _other(c: str) -> int:
    if unicodedata.combining(c):
        return 0
    return 1000 if unicodedata.east_asian_width(c) in "WF" else 700


@lru_cache(maxsize=4096)  # a caption line is measured to wrap it, then for the block's width
def units(text: str, bold: bool = False) -> int:
    """The advance width of ``text`` in 1/1000 em: whole numbers, so the units of two
    pieces add up to the units of the pieces joined."""
    table = _TABLES[bold]
    try:
        return sum(map(table.__getitem__, text))
    except KeyError:  # a character outside the table: its width joins the table (a
        # subscript ₄ in every name of a long chain is then looked up, not worked out)
        for c in text:
            if c not in table:
                table[c] = _other(c)
        return sum(map(table.__getitem__, text))


def width(text: str, size: float, bold: bool = False) -> float:
    """The width in points of one line of ``text`` at font ``size`` points."""
    return units(text, bold) * size / 1000
