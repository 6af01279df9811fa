"""Draw one step of a traced graph as a standalone SVG with Graphviz.

:func:`draw` accepts a Value, a :class:`~vizgrad.Trace` or a graph from
:func:`vizgrad.to_networkx` and returns a :class:`Drawing`, which shows
inline in Jupyter and saves to svg, dot, json (the Graphviz layout), and to
png or pdf when the system ``dot`` is installed::

    >>> from vizgrad import Value
    >>> a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    >>> q = (a * b) * (a + b); q.label = "q"
    >>> d = draw(q, step=7)
    >>> d
    <Drawing of q, step 7/7, 5 nodes>
    >>> import xml.etree.ElementTree as ET
    >>> root = ET.fromstring(d.svg())
    >>> root.get("viewBox") is not None, root[0].tag.endswith("title")
    (True, True)
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path
from typing import Any

from .._budget import too_many_values
from .._files import write_atomic
from ..exceptions import GraphTooLargeError, OptionError, RenderError
from ..graph import as_graph
from . import text
from .dot import check_options, to_dot
from .layout import BACKENDS, DEFAULT_TIMEOUT, available_backends, run_layout
from .theme import Theme, get

__all__ = [
    "DEFAULT_MAX_NODES",
    "SAVE_FORMATS",
    "Drawing",
    "draw",
    "postprocess",
    "scalable",
    "system_available",
]

#: Value nodes a drawing accepts unless ``max_nodes`` is raised.
DEFAULT_MAX_NODES = 2000
#: File suffix → what :meth:`Drawing.save` writes.
SAVE_FORMATS = {".svg": "svg", ".dot": "dot", ".gv": "dot", ".json": "json", ".png": "png",
                ".pdf": "pdf"}

_COMMENT = re.compile(r"<!--.*?-->\n?", re.DOTALL)
_DOCTYPE = re.compile(r"<!DOCTYPE[^>]*>\n?", re.DOTALL)
_SVG_OPEN = re.compile(r"<svg\b[^>]*>", re.DOTALL)


def _xml_text(s: str) -> str:
    s = "".join(c if c in "\n\t" or (ord(c) >= 0x20 and not 0xD800 <= ord(c) <= 0xDFFF
                                     and c not in "\ufffe\uffff") else "\ufffd" for c in s)
    return html.escape(s, quote=False)


def postprocess(svg: str, title: str, desc: str = "", css_class: str = "vizgrad") -> str:
    """Make Graphviz's SVG standalone and stable.

    Drops comments (they carry the Graphviz version) and the DOCTYPE, turns
    the no-break spaces Graphviz writes for double spaces back into spaces
    (kept by ``xml:space="preserve"``), and adds a ``<title>``, an optional
    ``<desc>``, ``role="img"`` and a CSS class to the root element.

    >>> out = postprocess('<?xml version="1.0"?>\\n<!-- x -->\\n<svg viewBox="0 0 1 1">'
    ...                   '<text>a&#160;b</text></svg>', "a < b")
    >>> print(out)
    <?xml version="1.0" encoding="UTF-8"?>
    <svg viewBox="0 0 1 1" class="vizgrad" role="img" xml:space="preserve"><title>a &lt; b</title>
    <text>a b</text></svg>
    """
    svg = _COMMENT.sub("", svg)
    svg = _DOCTYPE.sub("", svg)
    svg = svg.replace("&#160;", " ")
    match = _SVG_OPEN.search(svg)
    if match is None:
        raise RenderError("Graphviz returned no <svg> element")
    head = match.group(0)[:-1].rstrip("/ \n")
    head += f' class="{html.escape(css_class)}" role="img" xml:space="preserve">'
    extra = f"<title>{_xml_text(title)}</title>\n"
    if desc:
        extra += f"<desc>{_xml_text(desc)}</desc>\n"
    body = svg[match.end():].lstrip("\n")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + head + extra + body


class Drawing:
    """One picture of a graph at one step; made by :func:`draw`.

    ``.svg()`` and ``.dot()`` return text; ``.save(path)`` writes a file;
    Jupyter displays it inline.
    """

    def __init__(self, G: Any, step: int | None, *, rankdir: str, theme: str | Theme,
                 decimals: int, backend: str | None, timeout: float, caption: bool) -> None:
        self.graph = G
        self.step = check_options(G, step, rankdir, decimals)
        self._requested = step
        self.theme = get(theme)
        self.decimals = decimals
        self.options: dict[str, Any] = {"rankdir": rankdir, "theme": self.theme,
                                        "decimals": decimals, "caption": caption}
        self.backend = backend
        self.timeout = timeout
        self._dot: str | None = None
        self._svg: str | None = None

    def __repr__(self) -> str:
        G = self.graph
        last = len(G.graph["steps"]) - 1
        return (f"<Drawing of {text.name(G, G.graph['root'])}, step {self.step}/{last}, "
                f"{G.number_of_nodes()} nodes>")

    def dot(self) -> str:
        """The DOT source given to Graphviz."""
        if self._dot is None:
            self._dot = to_dot(self.graph, self._requested, **self.options)
        return self._dot

    def title(self) -> str:
        """The text of the SVG's ``<title>``: the output's formula and the step caption."""
        G = self.graph
        return f"{text.formula(G, G.graph['root'])} · {text.caption(G, self.step)}"

    def svg(self) -> str:
        """The standalone SVG text (same graph, options and backend → same bytes)."""
        if self._svg is None:
            raw = run_layout(self.dot(), "svg", self.backend, self.timeout)
            desc = "\n".join(text.chain_rule(self.graph, self.step, self.decimals))
            self._svg = postprocess(raw.decode("utf-8"), self.title(), desc,
                                    f"vizgrad vg-theme-{self.theme.name}")
        return self._svg

    def layout(self, fmt: str, *, dpi: float | None = None) -> bytes:
        """Graphviz output in another format: ``json``, ``dot`` (with positions), ``png``
        or ``pdf``; png and pdf always come from the system ``dot``."""
        if fmt in ("png", "pdf"):
            if not system_available():
                raise RenderError(
                    f"saving {fmt} needs the Graphviz `dot` program, which is not installed: "
                    "install Graphviz (apt install graphviz, brew install graphviz or conda "
                    "install graphviz), or save as .svg, which needs no install"
                )
            source = self.dot()
            if dpi is not None:
                source = source.replace("graph [", f'graph [dpi="{dpi:g}" ', 1)
            return run_layout(source, fmt, "system", self.timeout)
        return run_layout(self.dot(), fmt, self.backend, self.timeout)

    def save(self, path: str | os.PathLike[str], *, dpi: float | None = None) -> Path:
        """Write the format the suffix names (.svg, .dot/.gv, .json, .png, .pdf); return the path.

        ``dpi`` sets a png's resolution (Graphviz's default is 96; 192 or more
        suits slides). The file appears complete or not at all (written to a
        temporary file first).
        """
        out = Path(path)
        if dpi is not None and (isinstance(dpi, bool) or not isinstance(dpi, (int, float))
                                or not 24 <= dpi <= 1200):
            raise OptionError(f"dpi must be a number from 24 to 1200, got {dpi!r}")
        suffix = out.suffix.lower()
        if suffix not in SAVE_FORMATS:
            raise RenderError(
                f"cannot save {str(out)!r}: unknown format {suffix or '(no suffix)'!r}; "
                f"use one of {', '.join(sorted(SAVE_FORMATS))}"
            )
        if not out.parent.is_dir():
            raise RenderError(f"cannot save {str(out)!r}: the folder {str(out.parent)!r} "
                              "does not exist")
        fmt = SAVE_FORMATS[suffix]
        if dpi is not None and fmt != "png":
            raise OptionError(f"dpi applies to png only, not to {suffix}")
        if fmt == "svg":
            data = self.svg().encode("utf-8")
        elif fmt == "dot" and suffix in (".dot", ".gv"):
            data = self.dot().encode("utf-8")
        else:
            data = self.layout(fmt, dpi=dpi)
        write_atomic(out, data)
        return out

    def _repr_svg_(self) -> str:
        return scalable(self.svg())

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return {"image/svg+xml": scalable(self.svg()), "text/plain": repr(self)}


_SIZE_ATTR = re.compile(r'\s(width|height)="([^"]*)"')


def scalable(svg: str) -> str:
    """The SVG for a notebook cell: its root's fixed ``width``/``height`` become a style
    that keeps the natural width but shrinks to the cell (``max-width:100%``), scaled
    by the ``viewBox``.

    >>> print(scalable('<svg width="879pt" height="60pt"\\n viewBox="0 0 879 60"><g/></svg>'))
    <svg viewBox="0 0 879 60" style="width:879pt;max-width:100%;height:auto"><g/></svg>
    """
    match = _SVG_OPEN.search(svg)
    if match is None or "viewBox=" not in match.group(0):
        return svg
    head = match.group(0)
    sizes = dict(_SIZE_ATTR.findall(head))
    head = _SIZE_ATTR.sub("", head).replace("\n ", " ").replace("<svg ", "<svg ", 1)
    head = re.sub(r"\s+", " ", head)
    width = f"width:{sizes['width']};" if "width" in sizes else ""
    head = head[:-1].rstrip("/ ") + f' style="{width}max-width:100%;height:auto">'
    return svg[:match.start()] + head + svg[match.end():]


def system_available() -> bool:
    """True when the system Graphviz ``dot`` (needed for png and pdf) is installed."""
    return "system" in available_backends()


def draw(x: Any, step: int | None = None, *, rankdir: str = "LR", theme: str | Theme = "light",
         decimals: int = 4, backend: str | None = None, max_nodes: int = DEFAULT_MAX_NODES,
         timeout: float = DEFAULT_TIMEOUT, caption: bool = True) -> Drawing:
    """A :class:`Drawing` of ``x`` (Value, Trace or graph) right after ``step``.

    Args:
        x: what to draw; a Value is traced first.
        step: the step to show; ``None`` shows the state after ``backward()``
            (or after the forward pass, grads not computed, if it had not run).
        rankdir: ``"LR"`` (left to right, the default) or ``"TB"``.
        theme: ``"light"`` or ``"dark"``.
        decimals: digits after the decimal point (default 4).
        backend: ``"embedded"``, ``"system"`` or ``None`` (``VIZGRAD_LAYOUT``,
            else the embedded Graphviz).
        max_nodes: refuse graphs with more Values than this
            (:class:`~vizgrad.exceptions.GraphTooLargeError`).
        timeout: seconds a layout may run.
        caption: show the step caption and the chain rule above the graph.
    """
    G = as_graph(x)
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
        raise OptionError(f"max_nodes must be a positive whole number, got {max_nodes!r}")
    if backend is not None and backend not in BACKENDS:
        raise OptionError(f"backend must be one of {list(BACKENDS)} or None, got {backend!r}")
    if (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
            or not timeout > 0 or timeout == float("inf")):
        raise OptionError(f"timeout must be a positive number of seconds, got {timeout!r}")
    n = G.number_of_nodes()
    if n > max_nodes:
        raise GraphTooLargeError(
            f"{too_many_values(n, max_nodes)}; its layout "
            f"would be slow and unreadable. Draw a smaller part of the expression, or pass "
            f"max_nodes={n} to draw it anyway"
        )
    return Drawing(G, step, rankdir=rankdir, theme=theme, decimals=decimals, backend=backend,
                   timeout=timeout, caption=caption)
