"""What every stage of a drawing reads besides the graph: its settings, and a node's kind.

:class:`Settings` holds the options a picture is drawn with, checked once, and says
numbers and words with them; the plan (:class:`~vizgrad.scene.plan.Plan`) and the
:class:`~vizgrad.scene.scene.Scene` are settings with more fields. The helpers of this
folder take a ``Settings`` and the fields they read, never a half-built plan or scene::

    >>> s = settings(decimals=2, lang="zh")
    >>> s.num(-0.5), s.word("pending"), s.preset.name
    ('−0.5', '待计算', 'docs')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..exceptions import OptionError
from ..i18n import resolve, t
from ..style import text as tx
from ..style.presets import Preset
from ..style.presets import get as get_preset
from ..style.theme import Theme
from ..style.theme import get as get_theme

__all__ = ["RANKDIRS", "Settings", "kind", "settings"]

RANKDIRS = ("LR", "TB")


@dataclass(frozen=True, eq=False)
class Settings:
    """The options of a picture, checked: sizes and number style, colours, direction,
    digits, language, and whether the caption and the legend are drawn."""

    preset: Preset
    theme: Theme
    rankdir: str
    decimals: int
    trim: bool
    lang: str
    caption: bool
    legend: bool

    def num(self, x: float | None, missing: str = tx.NOT_REACHED) -> str:
        return tx.fmt(x, self.decimals, missing, self.trim)

    def word(self, key: str, **values: Any) -> str:
        return t(key, self.lang, **values)


def settings(*, preset: str | Preset = "docs", theme: str | Theme = "light",
             rankdir: str = "LR", decimals: int | None = None, trim: bool | None = None,
             lang: str | None = None, caption: bool = True,
             legend: bool = True) -> Settings:
    """The :class:`Settings` of these options, checked (the preset gives what is not set)."""
    p = get_preset(preset)
    if rankdir not in RANKDIRS:
        raise OptionError(f"rankdir must be one of {list(RANKDIRS)}, got {rankdir!r}")
    d = p.decimals if decimals is None else decimals
    if isinstance(d, bool) or not isinstance(d, int) or not 0 <= d <= 12:
        raise OptionError(f"decimals must be a whole number from 0 to 12, got {decimals!r}")
    return Settings(p, get_theme(theme), rankdir, d, p.trim if trim is None else bool(trim),
                    resolve(lang), bool(caption), bool(legend))


def kind(G: Any, n: str) -> str:
    """What node ``n`` of ``G`` is drawn as: input, const, op, output, group, stub or inputs
    (a batch's inputs, :mod:`vizgrad.graph.collapse.batch`)."""
    k = G.nodes[n].get("kind")
    if k in ("input", "const", "op", "output", "group", "stub", "inputs"):
        return str(k)
    return "op" if G.in_degree(n) else "input"
