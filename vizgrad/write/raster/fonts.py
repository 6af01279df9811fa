"""Fonts for the matplotlib pictures: DejaVu Sans, and a CJK font when the words need one.

The layout measures DejaVu Sans widths, so Latin text is drawn in DejaVu
Sans. Characters it lacks (Chinese words, CJK labels) come from a fallback
font: the one passed as ``font=``, else the first installed family of
:data:`CJK_FAMILIES`. When no font can draw a character, a
:class:`~vizgrad.exceptions.RenderError` says how to get one; a picture
never shows empty boxes in place of glyphs::

    >>> from vizgrad import examples
    >>> from vizgrad.scene import scene_of
    >>> fonts = Fonts.find(scene_of(examples.graph("fork")))
    >>> fonts.families
    ['DejaVu Sans']
    >>> fonts.check("∂q/∂a = −3")
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ...exceptions import OptionError, RenderError
from ...scene.dot import box_texts
from ...scene.shapes import op_glyph

if TYPE_CHECKING:
    from ...scene.scene import Scene

__all__ = ["BASE", "CJK_FAMILIES", "Fonts", "scene_texts"]

BASE = "DejaVu Sans"
#: Families searched, in order, for characters DejaVu Sans lacks.
CJK_FAMILIES = ("Noto Sans CJK SC", "Source Han Sans SC", "Noto Sans SC", "Source Han Sans CN",
                "WenQuanYi Zen Hei", "WenQuanYi Micro Hei", "Sarasa Gothic SC",
                "Droid Sans Fallback", "Microsoft YaHei", "PingFang SC", "SimHei",
                "Noto Sans CJK TC", "Noto Sans CJK JP", "Source Han Sans", "Arial Unicode MS")
_HOW = ("install a CJK font (Debian/Ubuntu: apt install fonts-noto-cjk; other systems: "
        "Noto Sans CJK SC or Source Han Sans SC), or pass font='/path/to/font.ttf'")
_IGNORED = set("\n\t ")


def _charmap(family: str | None = None, path: str | None = None) -> set[int]:
    from matplotlib import font_manager as fm

    if path is not None:
        return set(fm.get_font(path).get_charmap())
    return set(fm.get_font(fm.findfont(fm.FontProperties(family=family))).get_charmap())


def _installed(family: str) -> bool:
    from matplotlib import font_manager as fm

    return any(e.name == family for e in fm.fontManager.ttflist)


def scene_texts(scene: Scene) -> list[str]:
    """Every text a scene can show at any step (names, values, words, captions, labels)."""
    out = [scene.word(w) for w in ("box.data", "box.grad", "pending")]
    out += [scene.word(f"phase.{w}") for w in ("inputs", "forward", "seed", "backward", "final")]
    for n, (name, values) in box_texts(scene.facts, scene.order, scene).items():
        out += [name, *values, op_glyph(str(scene.facts.nodes[n].get("op", "")))]
    out += [t for t in scene.edge_texts.values() if t]
    out += scene.legend_lines()
    if scene.caption:
        for k in [*range(scene.last + 1), None]:
            out += scene.caption_texts(k)
    return out


@dataclass
class Fonts:
    """The font families a picture's texts use, and every character they can draw."""

    families: list[str]
    covered: set[int]

    @classmethod
    def find(cls, scene: Scene, font: str | os.PathLike[str] | None = None) -> Fonts:
        """DejaVu Sans plus a fallback for what it lacks; RenderError when none has it."""
        families, covered = [BASE], _charmap(BASE)
        if font is not None:
            name, chars = _user_font(font)
            families.append(name)
            covered |= chars
        needed = ({ord(c) for t in scene_texts(scene) for c in t} - covered
                  - {ord(c) for c in _IGNORED})
        if needed and font is None:
            for family in CJK_FAMILIES:
                if _installed(family):
                    chars = _charmap(family)
                    if needed <= chars | covered:
                        families.append(family)
                        covered |= chars
                        break
        fonts = cls(families, covered)
        missing = needed - covered
        if missing:
            fonts._fail("".join(sorted(map(chr, missing))))
        return fonts

    def check(self, text: str) -> None:
        """Raise RenderError when ``text`` has a character no family can draw."""
        missing = {c for c in text if ord(c) not in self.covered} - _IGNORED
        if missing:
            self._fail("".join(sorted(missing)))

    def _fail(self, chars: str) -> None:
        shown = chars if len(chars) <= 12 else chars[:12] + "…"
        used = ", ".join(self.families)
        raise RenderError(f"no font can draw the characters {shown!r} (fonts in use: {used}); "
                          f"PNG, PDF, GIF and video need a font that has them: {_HOW}. "
                          f"SVG output does not need one")


def _user_font(font: str | os.PathLike[str]) -> tuple[str, set[int]]:
    """Register a font file with matplotlib; its family name and characters."""
    from matplotlib import font_manager as fm

    path = Path(font)
    if not path.is_file():
        raise OptionError(f"font must be the path of a font file (.ttf, .otf, .ttc), "
                          f"got {str(font)!r}, which is not a file")
    try:
        ft = fm.get_font(str(path))
        fm.fontManager.addfont(str(path))
    except (RuntimeError, OSError, ValueError) as err:
        raise OptionError(f"font {str(path)!r} is not a font file FreeType can read "
                          f"(.ttf, .otf, .ttc): {err}") from None
    return str(ft.family_name), set(ft.get_charmap())
