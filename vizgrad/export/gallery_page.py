"""The gallery's pages: ``README.md`` in English and ``README.LANG.md`` in each other language.

A page a reader scrolls on GitHub, with the chapter's numbers. Everything on
it is read from the graphs, never typed in, so the text always matches the
pictures next to it; its words come from the catalogue (:mod:`vizgrad.i18n`). Where each
file goes is :mod:`~vizgrad.export.gallery_files`; each section of the page is
:mod:`~vizgrad.export.gallery_sections`::

    >>> readme_name("en"), readme_name("zh")
    ('README.md', 'README.zh.md')
    >>> job_folder("fork", "en"), job_folder("fork", "zh")
    ('fork', 'fork/zh')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..runtime.files import write_atomic
from ..i18n import DEFAULT, languages, t
from .gallery_files import (STEPPED, TRANSLATED_FORMATS, WORDLESS, in_languages, job_folder,
                            readme_name, step_file)
from .gallery_sections import (Page, animated_section, fork_section, generic_section,
                               shared_section, softmax_section, summary_section, tanh_section)

__all__ = ["STEPPED", "TRANSLATED_FORMATS", "WORDLESS", "gallery_readme", "in_languages",
           "job_folder", "readme_name", "step_file", "write_pages"]


def write_pages(jobs: Sequence[Any], lang: str | None, root: Path,
                files: set[str], extra: Callable[[str], str] | None = None) -> dict[str, bool]:
    """Write the page of each language among ``jobs`` (a job without one is in ``lang``,
    else ``$VIZGRAD_LANG``) into ``root``; {file name: changed}. ``extra(lang)`` is Markdown
    added at the end of that language's page (the training example's section)."""
    from ..i18n import resolve

    by_lang: dict[str, list[Any]] = {}
    for job in jobs:
        by_lang.setdefault(job.lang or resolve(lang), []).append(job)
    written = {}
    for code, group in by_lang.items():
        text = gallery_readme(group, files, code, exists=lambda rel: (root / rel).is_file())
        if extra is not None:
            text = text.rstrip("\n") + "\n\n" + extra(code).strip("\n") + "\n"
        written[readme_name(code)] = write_atomic(root / readme_name(code), text.encode("utf-8"))
    return written



def gallery_readme(jobs: Sequence[Any], files: set[str], lang: str = DEFAULT,
                   exists: Callable[[str], bool] = lambda rel: False) -> str:
    """The Markdown page in ``lang`` for an export of ``jobs`` that wrote ``files``.

    ``exists(rel)`` tells whether a file without words (JSON, DOT) that this
    export did not write is in the gallery anyway; the other languages link to it.
    """
    page = Page(jobs, files, lang, exists)
    others = " · ".join(f"[{t('lang.name', o)}]({readme_name(o)})"
                        for o in languages() if o != lang)
    page.add(f"# {page.w('gallery.title')}", "", page.w("gallery.languages", links=others), "",
             page.w("gallery.intro"), "", page.w("gallery.regenerate"), "")
    summary_section(page)
    page.add(page.w("gallery.howto"), "")
    done: set[str] = set()
    g = page.graphs
    if "fork" in g:
        fork_section(page, g["fork"])
        done.add("fork")
    if "shared-node" in g and "overwrite-bug" in g:
        shared_section(page)
        done |= {"shared-node", "overwrite-bug"}
    if "tanh-native" in g and "tanh-decomposed" in g:
        tanh_section(page)
        done |= {"tanh-native", "tanh-decomposed"}
    if "softmax-nll" in g:
        softmax_section(page, g["softmax-nll"])
        done.add("softmax-nll")
    for ex, G in g.items():
        if ex not in done:
            generic_section(page, ex, G)
    animated_section(page)
    return "\n".join(page.lines).rstrip() + "\n"
