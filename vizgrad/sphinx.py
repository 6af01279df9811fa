"""A Sphinx extension: the ``vizgrad`` directive draws a graph into the built pages.

Add ``"vizgrad.sphinx"`` to ``extensions`` in ``conf.py``, then write::

    .. vizgrad:: (a*b)*(a+b)
       :values: a=-2, b=3
       :step: final
       :caption: The fork graph after the backward pass.

    .. vizgrad::
       :example: fork
       :player:

Options (see :data:`vizgrad._embed.OPTIONS`): ``values``, ``example``,
``step`` (a number, ``first`` or ``final``), ``player``, ``animated``,
``preset``, ``lang``, ``caption``, ``theme``, ``rankdir``, ``decimals``,
``collapse`` (``neuron``, ``layer``, ``auto``, ``none`` or a group depth).

The HTML builders write each picture once into ``_images/`` under a name made
from its options and the vizgrad version, so a rebuild renders only new or
changed pictures. A player is its own page there, shown in a sandboxed
``<iframe>``. A bad expression or option is reported as an error at the
document's file and line; other builders show the text alternative.
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

from . import __version__
from ._embed import (
    OPTIONS,
    Rendered,
    Spec,
    alt_text,
    digest,
    figure_html,
    graph,
    kind,
    parse_options,
)
from ._embed import render as render_spec
from ._files import write_atomic
from .exceptions import VizgradError

__all__ = ["VizgradDirective", "vizgrad_figure", "setup"]

logger = logging.getLogger(__name__)


class vizgrad_figure(nodes.General, nodes.Element):  # noqa: N801 - docutils names nodes so
    """A picture or player to draw; ``node["spec"]`` holds the checked options."""


class VizgradDirective(SphinxDirective):
    """``.. vizgrad:: EXPRESSION`` with options, or ``:example: NAME`` without an argument."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {key: directives.unchanged for key in OPTIONS}

    def run(self) -> list[nodes.Node]:
        try:
            spec = parse_options(self.options, self.arguments[0] if self.arguments else None)
            graph(spec)  # build it now, so a bad expression is reported at its line
        except VizgradError as err:
            raise self.error(f"vizgrad: {err}") from None
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


def _text_elsewhere(app: Any, doctree: nodes.document, docname: str) -> None:
    """Builders other than HTML get the text alternative in place of the picture."""
    if app.builder.format == "html":
        return
    for node in list(doctree.findall(vizgrad_figure)):
        spec = node["spec"]
        node.replace_self(nodes.paragraph("", "", nodes.emphasis("", alt_text(spec))))


def setup(app: Any) -> dict[str, Any]:
    """Register the directive and its node (Sphinx calls this)."""
    app.add_node(vizgrad_figure, html=(visit_html, None))
    app.add_directive("vizgrad", VizgradDirective)
    app.connect("doctree-resolved", _text_elsewhere)
    # the doctrees hold Specs: when their fields change, Sphinx must read every document again
    shape = ",".join(f.name for f in dataclasses.fields(Spec))
    env_version = int(hashlib.sha256(shape.encode()).hexdigest()[:8], 16)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": env_version}
