"""Where the gallery's files go, per language, and which formats each language gets.

English keeps every format in ``NAME/`` and its page in ``README.md``; another language
goes into ``NAME/LANG/`` with the formats that hold words, and its page is
``README.LANG.md``::

    >>> readme_name("en"), readme_name("zh")
    ('README.md', 'README.zh.md')
    >>> job_folder("fork", "en"), job_folder("fork", "zh")
    ('fork', 'fork/zh')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..i18n import DEFAULT, catalogue, t

__all__ = ["LINKS", "STEPPED", "TRANSLATED_FORMATS", "WORDLESS", "in_languages", "job_folder",
           "readme_name", "step_file"]

#: the examples a page walks through step by step (every language has their per-step SVGs)
STEPPED = ("fork",)
#: what the gallery in another language than English writes by default: the pictures and
#: the step player. Not the GIF: its frames would need a CJK font on the machine, and their
#: bytes would depend on that font.
TRANSLATED_FORMATS = ("svg", "animated-svg", "png", "html")

#: the formats a page links to, in this order
LINKS = ("svg", "anim.svg", "gif", "mp4", "png", "html", "json", "dot")
#: formats without words: one copy, in the example's own folder, serves every language
WORDLESS = ("json", "dot")


def step_file(G: Any, k: int) -> str:
    """The per-step SVG's path inside an example folder: ``steps/step-07.svg``."""
    pad = max(2, len(str(len(G.graph["steps"]) - 1)))
    return f"steps/step-{k:0{pad}d}.svg"


def job_folder(name_: str, lang: str | None) -> str:
    """An example's folder in a language: English at ``NAME``, another one at ``NAME/LANG``."""
    return name_ if lang in (None, DEFAULT) else f"{name_}/{lang}"


def readme_name(lang: str) -> str:
    """The page of a language: ``README.md`` for English, ``README.LANG.md`` for the others."""
    return "README.md" if lang == DEFAULT else f"README.{lang}.md"


def in_languages(jobs: Sequence[Any], langs: Sequence[str],
                 translated: Sequence[str] = TRANSLATED_FORMATS) -> list[Any]:
    """The export jobs (:class:`vizgrad.export.batch.Job`) once per language of ``langs``.

    English keeps every format in ``NAME/``; another language goes into
    ``NAME/LANG/`` with the ``translated`` formats (not JSON and DOT: they hold no
    words, one copy serves every page), its own player title, and per-step SVGs only
    for the examples its page walks through step by step (:data:`STEPPED`).
    """
    out = []
    for lang in langs:
        for j in jobs:
            if lang == DEFAULT:
                out.append(replace(j, lang=lang))
                continue
            key = f"example.{j.name}"
            title = (t("gallery.row", lang, label=j.name, value=t(key, lang))
                     if key in catalogue(lang) else j.title)
            out.append(replace(j, title=title, lang=lang, steps=j.name in STEPPED,
                               formats=tuple(f for f in translated if f not in WORDLESS)))
    return out
