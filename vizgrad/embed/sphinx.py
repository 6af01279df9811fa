"""A Sphinx extension: the ``vizgrad`` directive draws a graph into the built pages.

Add ``"vizgrad.embed.sphinx"`` to ``extensions`` in ``conf.py``, then write::

    .. vizgrad:: (a*b)*(a+b)
       :values: a=-2, b=3
       :step: final
       :caption: The fork graph after the backward pass.

    .. vizgrad::
       :example: fork
       :player:

Options (see :data:`vizgrad.embed.blocks.OPTIONS`): ``values``, ``example``,
``step`` (a number, ``first`` or ``final``), ``player``, ``animated``,
``preset``, ``lang``, ``caption``, ``theme``, ``rankdir``, ``decimals``,
``collapse`` (``neuron``, ``layer``, ``auto``, ``none`` or a group depth).

The HTML builders write each picture once into ``_images/`` under a name made
from its options and the vizgrad version, so a rebuild renders only new or
changed pictures. A player is its own page there, shown in a sandboxed
``<iframe>``. Pictures are drawn for the theme's body column,
``vizgrad_column_width`` CSS px wide (``conf.py``; 640 by default, Alabaster's
is 660 at most): a graph too wide for it turns top to bottom when that reads better.

A bad expression or option is reported as an error at the document's file and
line, and the page shows the same message in an error box where the picture
would be (not when warnings are errors: that build fails). Other builders show
the text alternative.
"""

from __future__ import annotations

import dataclasses
import hashlib
import posixpath
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from .. import __version__
from .blocks import (
    COLUMN,
    OPTIONS,
    Rendered,
    Spec,
    alt_text,
    digest,
    error_html,
    figure_html,
    graph,
    kind,
    parse_options,
)
from .blocks import render as render_spec
from ..runtime.files import write_atomic
from ..exceptions import VizgradError

__all__ = ["VizgradDirective", "vizgrad_figure", "vizgrad_error", "setup"]

logger = logging.getLogger(__name__)


class vizgrad_figure(nodes.General, nodes.Element):  # noqa: N801 - docutils names nodes so
    """A picture or player to draw; ``node["spec"]`` holds the checked options."""


class vizgrad_error(nodes.General, nodes.Element):  # noqa: N801
    """A block that could not be drawn; ``node["message"]`` says why and where."""


class _AnyOption(dict):  # type: ignore[type-arg]
    """Every option is read as text: :func:`parse_options` names an unknown one, with the
    list of options, and the page shows it like any other mistake."""

    def __missing__(self, key: str) -> Any:
        return directives.unchanged


class VizgradDirective(SphinxDirective):
    """``.. vizgrad:: EXPRESSION`` with options, or ``:example: NAME`` without an argument."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = False
    option_spec: ClassVar[dict[str, Any]] = _AnyOption((key, directives.unchanged)
                                                       for key in OPTIONS)

    def run(self) -> list[nodes.Node]:
        column = self.config.vizgrad_column_width
        try:
            spec = parse_options(self.options, self.arguments[0] if self.arguments else None,
                                 column)
            graph(spec)  # build it now, so a bad expression is reported at its line
        except VizgradError as err:
            app = self.env.app
            if getattr(app, "_fail_on_warnings", app.warningiserror):  # the build fails
                raise self.error(f"vizgrad: {err}") from None
            _, line = self.get_source_info()
            logger.error("vizgrad: %s", err, location=(self.env.docname, line))
            box = vizgrad_error()
            where = self.env.doc2path(self.env.docname, False)
            box["message"] = f"vizgrad: {where}:{line}: {err}"
            self.set_source_info(box)
            return [box]
        node = vizgrad_figure()
        node["spec"] = spec
        self.set_source_info(node)
        return [node]


def _output(translator: Any, node: vizgrad_figure) -> tuple[Rendered, str]:
    """The node's output and its src: rendered once, then read back from ``_images``."""
    builder = translator.builder
    spec = node["spec"]
    what = kind(spec)
    name = f"vizgrad-{digest(spec)}{'.html' if what == 'player' else '.svg'}"
    path = Path(builder.outdir) / builder.imagedir / name
    if path.is_file():
        out = Rendered(what, path.read_text(encoding="utf-8"), alt_text(spec), spec.caption)
    else:
        out = render_spec(spec)
        write_atomic(path, out.text.encode("utf-8"))
        logger.verbose("vizgrad: wrote %s", name, location=node)
    return out, posixpath.join(builder.imgpath, name)


def visit_html(translator: Any, node: vizgrad_figure) -> None:
    """Write the picture (or player page) into ``_images`` and show it in a ``<figure>``."""
    try:
        out, src = _output(translator, node)
    except VizgradError as err:
        logger.error("vizgrad: %s", err, location=node)
        raise nodes.SkipNode from None
    translator.body.append(figure_html(out, src=src))
    raise nodes.SkipNode


def visit_error_html(translator: Any, node: vizgrad_error) -> None:
    """The error box, where the picture would be."""
    translator.body.append(error_html(node["message"]))
    raise nodes.SkipNode


def _text_elsewhere(app: Any, doctree: nodes.document, docname: str) -> None:
    """Builders other than HTML get the text alternative in place of the picture, and the
    message in place of an error box."""
    if app.builder.format == "html":
        return
    for node in list(doctree.findall(vizgrad_figure)):
        spec = node["spec"]
        node.replace_self(nodes.paragraph("", "", nodes.emphasis("", alt_text(spec))))
    for node in list(doctree.findall(vizgrad_error)):
        node.replace_self(nodes.literal_block(node["message"], node["message"]))


def setup(app: Any) -> dict[str, Any]:
    """Register the directive and its node (Sphinx calls this)."""
    app.add_node(vizgrad_figure, html=(visit_html, None))
    app.add_node(vizgrad_error, html=(visit_error_html, None))
    app.add_config_value("vizgrad_column_width", COLUMN, "env", [int, float])
    app.add_directive("vizgrad", VizgradDirective)
    app.connect("doctree-resolved", _text_elsewhere)
    # the doctrees hold Specs: when their fields change, Sphinx must read every document again
    shape = ",".join(f.name for f in dataclasses.fields(Spec))
    env_version = int(hashlib.sha256(shape.encode()).hexdigest()[:8], 16)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": env_version}
