"""A Python-Markdown extension: a fenced ``vizgrad`` block becomes a picture or a player.

Works in plain Python-Markdown, in MkDocs (``markdown_extensions: [vizgrad.markdown]``)
and with pymdownx.superfences (as a custom fence, :func:`fence_format`). The block holds
the expression and ``name: value`` option lines (the options of the Sphinx directive)::

    >>> import markdown
    >>> text = "```vizgrad\\n(a*b)*(a+b)\\nvalues: a=-2, b=3\\nstep: final\\n```"
    >>> page = markdown.markdown(text, extensions=["vizgrad.markdown"])
    >>> page.startswith('<figure class="vizgrad vizgrad-svg"><img src="data:image/svg+xml;base64,')
    True

``:player:`` (or ``player: true``) gives the interactive step player. The output is
self-contained: the SVG as a data: URL, the player page inline in a sandboxed
``<iframe>``. A bad block is shown as an error box and logged as a warning
(MkDocs counts it, and ``mkdocs build --strict`` fails on it).
"""

from __future__ import annotations

import html
import logging
import re
from typing import Any

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

from ._embed import figure_html, parse_options, render
from .exceptions import OptionError, VizgradError

__all__ = ["VizgradExtension", "makeExtension", "fence_format", "block_html", "split_block"]

logger = logging.getLogger("mkdocs.extensions.vizgrad")

_FENCE = re.compile(
    r"(?P<fence>^(?:~{3,}|`{3,}))[ ]*\{?\.?vizgrad\}?[ ]*\n(?P<body>.*?)(?<=\n)(?P=fence)[ ]*$",
    re.MULTILINE | re.DOTALL,
)
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


def block_html(body: str, where: str = "") -> str:
    """The HTML of one block's body; a mistake gives an error box and a logged warning."""
    try:
        expression, options = split_block(body)
        return figure_html(render(parse_options(options, expression)))
    except VizgradError as err:
        logger.warning("vizgrad block%s: %s", where, err)
        return (f'<pre class="vizgrad-error" role="alert">vizgrad block{html.escape(where)}: '
                f"{html.escape(str(err))}</pre>")


class _FencePreprocessor(Preprocessor):
    """Replaces each top-level ```` ```vizgrad ```` block by its HTML, stashed."""

    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)

        def replace(match: re.Match[str]) -> str:
            line = text.count("\n", 0, match.start()) + 1
            stashed = self.md.htmlStash.store(block_html(match["body"], f" at line {line}"))
            return f"\n\n{stashed}\n\n"

        return _FENCE.sub(replace, text).split("\n")


class VizgradExtension(Extension):
    """Turns fenced ``vizgrad`` blocks into pictures and players."""

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Markdown's name
        # before fenced_code (25) and superfences, which would make it a code block
        md.preprocessors.register(_FencePreprocessor(md), "vizgrad", 30)


def makeExtension(**kwargs: Any) -> VizgradExtension:  # noqa: N802 - Markdown's entry point
    """Markdown's entry point: ``extensions=["vizgrad.markdown"]``."""
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
    return block_html(source if source.endswith("\n") else source + "\n")
