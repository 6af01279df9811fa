"""A Python-Markdown extension: a fenced ``vizgrad`` block becomes a picture or a player.

Works in plain Python-Markdown, in MkDocs (``markdown_extensions: [vizgrad.embed.markdown]``)
and with pymdownx.superfences (as a custom fence, :func:`fence_format`). The block holds
the expression and ``name: value`` option lines (the options of the Sphinx directive)::

    >>> import markdown
    >>> text = "```vizgrad\\n(a*b)*(a+b)\\nvalues: a=-2, b=3\\nstep: final\\n```"
    >>> page = markdown.markdown(text, extensions=["vizgrad.embed.markdown"])
    >>> page.startswith('<figure class="vizgrad vizgrad-svg"><img src="data:image/svg+xml;base64,')
    True

``:player:`` (or ``player: true``) gives the interactive step player. The output is
self-contained: the SVG as a data: URL, the player page inline in a sandboxed
``<iframe>``. Pictures are drawn for a docs column ``column_width`` CSS px wide (640 by
default; ``markdown_extensions: [{vizgrad.embed.markdown: {column_width: 800}}]``).

A bad block is shown as an error box and logged as a warning (MkDocs counts it, and
``mkdocs build --strict`` fails on it); in MkDocs both name the page's file and the
block's line in it, with superfences too.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

from .blocks import COLUMN, error_html, figure_html, parse_options, render
from ..exceptions import OptionError, VizgradError

__all__ = ["VizgradExtension", "makeExtension", "fence_format", "block_html", "split_block",
           "block_line", "train_html"]

logger = logging.getLogger("mkdocs.extensions.vizgrad")

#: a line that opens a fenced block (up to 3 spaces in), and a vizgrad block's info string
_OPEN = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")
_INFO = re.compile(r"[ ]*\{?\.?vizgrad\}?[ ]*")
_OPTION = re.compile(r"\s*:?(?P<key>[A-Za-z_-]+):(?:\s+(?P<value>.*?)|)\s*$")


def split_block(body: str) -> tuple[str, dict[str, str | None]]:
    """A block's expression and its options (``name: value`` or ``:name: value`` lines).

    >>> split_block("(a*b)*(a+b)\\n:values: a=-2, b=3\\n:player:\\n")
    ('(a*b)*(a+b)', {'values': 'a=-2, b=3', 'player': None})
    """
    expression: list[str] = []
    options: dict[str, str | None] = {}
    for line in body.splitlines():
        match = _OPTION.fullmatch(line)
        if match is None:
            if line.strip():
                expression.append(line.strip())
            continue
        key = match["key"]
        if key in options:
            raise OptionError(f"option {key!r} is given twice")
        options[key] = match["value"] or None
    return " ".join(expression), options


def block_html(body: str, where: str = "", column: float | None = COLUMN) -> str:
    """The HTML of one block's body; a mistake gives an error box and a logged warning.

    ``where`` says where the block is (`` in index.md at line 3``)."""
    try:
        expression, options = split_block(body)
        if "train" in options:
            return train_html(options.get("train"), options)
        return figure_html(render(parse_options(options, expression, column)))
    except VizgradError as err:
        logger.warning("vizgrad block%s: %s", where, err)
        return error_html(f"vizgrad block{where}: {err}")


def train_html(name: str | None, options: dict[str, str | None]) -> str:
    """``train: moons-train``: the gallery's training example drawn as its SVG summary
    (``lang: zh`` for Chinese)."""
    import base64
    import html

    from ..training.moons import NAME, moons_training
    from ..training.summary import summary_svg

    if name != NAME:
        raise OptionError(f"train: {name!r} is not a training example; the one there is is "
                          f"{NAME}")
    extra = sorted(set(options) - {"train", "lang"})
    if extra:
        raise OptionError(f"a train block takes only lang, not {', '.join(extra)}")
    svg = summary_svg(moons_training(detail=[]), options.get("lang"))
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    alt = html.escape(f"{NAME}: the loss curve and the net at three steps of its training")
    return (f'<figure class="vizgrad vizgrad-svg"><img src="data:image/svg+xml;base64,{data}" '
            f'alt="{alt}"></figure>')


_OPENING = re.compile(r"^(?P<indent>[ \t>]*)(?:[-*+][ ]+|\d+[.)][ ]+)?(?P<fence>`{3,}|~{3,})[ ]*"
                      r"\{?\.?vizgrad\b")


def _page_file(md: Markdown) -> Any:
    """The MkDocs file being converted (MkDocs gives its link processor the page's file)."""
    try:
        return getattr(md.treeprocessors["relpath"], "file", None)
    except KeyError:
        return None


def block_line(source: str, body: str, skip: int = 0) -> int | None:
    """The line (from 1) of the fence that opens the block with ``body`` in a page's
    ``source``, also indented in a list or a quote; with ``skip``, the (skip+1)-th such block.

    >>> block_line("text\\n\\n- item\\n\\n    ```vizgrad\\n    a*a\\n    ```\\n", "a*a\\n")
    5
    """
    lines = source.splitlines()
    want = [w.strip() for w in body.strip("\n").splitlines()]
    for i, line in enumerate(lines):
        m = _OPENING.match(line)
        if m is None:
            continue
        got = [g.strip().lstrip(">").strip() for g in lines[i + 1:i + 1 + len(want)]]
        if got == want:
            if skip == 0:
                return i + 1
            skip -= 1
    return None


def _where(md: Markdown, body: str, line: int | None) -> str:
    """`` in FILE at line N`` for a block in a MkDocs page (found in the page's source, which
    MkDocs hands over without its front matter), else `` at line N`` or nothing."""
    page = _page_file(md)
    name = getattr(page, "src_uri", None)
    if page is not None and getattr(page, "abs_src_path", None):
        try:
            source = Path(page.abs_src_path).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError):
            source = None
        if source is not None:
            seen = md.__dict__.setdefault("_vizgrad_seen", {})
            key = (page.abs_src_path, body)
            found = block_line(source, body, seen.get(key, 0))
            seen[key] = seen.get(key, 0) + 1
            line = found if found is not None else line
    at = f" at line {line}" if line is not None else ""
    return f" in {name}{at}" if name else at


class _FencePreprocessor(Preprocessor):
    """Replaces each top-level ```` ```vizgrad ```` block by its HTML, stashed."""

    column: float = COLUMN

    def run(self, lines: list[str]) -> list[str]:
        """Walk the fences: a top-level ``vizgrad`` fence becomes its HTML; any other fenced
        block, a ``vizgrad`` fence quoted inside it included, is copied as it is."""
        out: list[str] = []
        i = 0
        while i < len(lines):
            m = _OPEN.match(lines[i])
            if m is None:
                out.append(lines[i])
                i += 1
                continue
            mark = m["fence"]
            close = re.compile(rf"^ {{0,3}}{re.escape(mark[0])}{{{len(mark)},}}[ ]*$")
            end = next((j for j in range(i + 1, len(lines)) if close.match(lines[j])), None)
            if end is None:  # never closed: the rest of the page is its body
                out.extend(lines[i:])
                break
            if not m["indent"] and _INFO.fullmatch(m["info"]):
                body = "".join(line + "\n" for line in lines[i + 1:end])
                html = block_html(body, _where(self.md, body, i + 1), self.column)
                out.extend(["", self.md.htmlStash.store(html), ""])
            else:
                out.extend(lines[i:end + 1])
            i = end + 1
        return out


class VizgradExtension(Extension):
    """Turns fenced ``vizgrad`` blocks into pictures and players."""

    def __init__(self, **kwargs: Any) -> None:
        self.config = {"column_width": [COLUMN, "the width (CSS px) of the docs column"]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Markdown's name
        # before fenced_code (25) and superfences, which would make it a code block
        prep = _FencePreprocessor(md)
        try:
            prep.column = float(self.getConfig("column_width"))
        except (TypeError, ValueError):
            raise OptionError(f"vizgrad.embed.markdown: column_width must be a number of CSS px, "
                              f"got {self.getConfig('column_width')!r}") from None
        md.preprocessors.register(prep, "vizgrad", 30)


def makeExtension(**kwargs: Any) -> VizgradExtension:  # noqa: N802 - Markdown's entry point
    """Markdown's entry point: ``extensions=["vizgrad.embed.markdown"]``."""
    return VizgradExtension(**kwargs)


def fence_format(source: str, language: str, class_name: str, options: dict[str, Any],
                 md: Markdown, **kwargs: Any) -> str:
    """A pymdownx.superfences custom fence formatter (also inside lists and admonitions)::

        markdown_extensions:
          - pymdownx.superfences:
              custom_fences:
                - name: vizgrad
                  class: vizgrad
                  format: !!python/name:vizgrad.markdown.fence_format
    """
    body = source if source.endswith("\n") else source + "\n"
    return block_html(body, _where(md, body, None))
