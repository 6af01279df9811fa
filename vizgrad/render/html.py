"""A self-contained HTML step player: every step's SVG inline, one file, no server.

The page holds one section per step (caption, chain rule with numbers, the
Graphviz picture and a node table) and first/back/next/last buttons, a play
button, a slider, arrow keys and a step counter. It loads nothing from the
network (a Content-Security-Policy forbids it), so it works from ``file://``,
in an ``<iframe>`` and offline. Without JavaScript every step is shown in turn::

    >>> from vizgrad import examples
    >>> page = player_html(examples.graph("fork"))
    >>> page.startswith("<!DOCTYPE html>"), page.count('class="step')
    (True, 8)
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
import xml.etree.ElementTree as ET
from importlib import resources
from typing import Any

from ..exceptions import GraphTooLargeError, OptionError, RenderError
from ..graph import as_graph, graph_state
from .theme import get as get_theme
from .text import NOT_REACHED, caption, chain_rule, fmt, formula, name

__all__ = ["player_html", "node_rows", "MAX_CELLS"]

#: default limit of values × steps in one player page
MAX_CELLS = 10_000

_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK_NS = "http://www.w3.org/1999/xlink"
_URL_REF = re.compile(r"url\(#([^)]+)\)")
_KINDS = {"input": "input", "const": "constant", "op": "operation", "output": "output"}


def _asset(filename: str) -> str:
    return resources.files(__package__).joinpath(filename).read_text(encoding="utf-8")


def _inline_svg(svg: str, prefix: str, label: str) -> str:
    """The SVG as an inline ``<svg>`` element with ids prefixed, so steps never clash."""
    ET.register_namespace("", _SVG_NS)
    ET.register_namespace("xlink", _XLINK_NS)
    try:
        root = ET.fromstring(svg)
    except ET.ParseError as err:
        raise RenderError(f"the SVG renderer produced malformed XML: {err}") from None
    for el in root.iter():
        for key, value in list(el.attrib.items()):
            if key == "id":
                el.set(key, prefix + value)
            elif key in ("href", f"{{{_XLINK_NS}}}href") and value.startswith("#"):
                el.set(key, "#" + prefix + value[1:])
            elif "url(#" in value:
                el.set(key, _URL_REF.sub(lambda m: f"url(#{prefix}{m.group(1)})", value))
    root.set("role", "img")
    root.set("aria-label", label)
    return ET.tostring(root, encoding="unicode")


def node_rows(G: Any, k: int, decimals: int = 4) -> list[dict[str, Any]]:
    """The node table after step ``k``: one dict per node in topological order.

    Keys: ``id``, ``name``, ``kind``, ``formula``, ``data`` and ``grad`` (text;
    ``"pending"`` before a value is computed, ``"—"`` before a grad arrives),
    ``active`` and ``on_path``.

    >>> from vizgrad import examples
    >>> rows = node_rows(examples.graph("fork"), 7)
    >>> [(r["name"], r["data"], r["grad"]) for r in rows[:2]]
    [('a', '-2.0000', '-3.0000'), ('b', '3.0000', '-8.0000')]
    >>> node_rows(examples.graph("fork"), 0)[2]["data"]
    'pending'
    """
    state = graph_state(G, k)
    nodes = sorted(G.nodes(data=True), key=lambda n: n[1].get("order", 0))
    rows = []
    for node, attrs in nodes:
        rows.append({
            "id": node,
            "name": name(G, node),
            "kind": attrs.get("kind", "op"),
            "formula": formula(G, node),
            "data": fmt(state.data.get(node), decimals, missing="pending"),
            "grad": fmt(state.grad.get(node), decimals, missing=NOT_REACHED),
            "active": node == state.active,
            "on_path": bool(attrs.get("on_path", True)),
        })
    return rows


def _table(G: Any, k: int, decimals: int) -> str:
    e = html.escape
    root = e(name(G, G.graph["root"]))
    out = [
        '<table class="nodes">',
        f"<caption>Nodes after step {k}: forward value and ∂{root}/∂node</caption>",
        '<thead><tr><th scope="col">node</th><th scope="col">computed as</th>'
        f'<th scope="col">value</th><th scope="col">∂{root}/∂node</th></tr></thead><tbody>',
    ]
    for r in node_rows(G, k, decimals):
        classes = [r["kind"]] + (["active"] if r["active"] else []) + ([] if r["on_path"] else ["off-path"])
        how = _KINDS.get(r["kind"], r["kind"]) if r["formula"] == r["name"] else r["formula"]
        if not r["on_path"]:
            how += " (off the backward path)"
        data_cls = "num pending" if r["data"] == "pending" else "num"
        grad_cls = "num unreached" if r["grad"] == NOT_REACHED else "num"
        out.append(
            f'<tr data-node="{e(r["id"])}" class="{" ".join(classes)}">'
            f'<th scope="row">{e(r["name"])}</th><td>{e(how)}</td>'
            f'<td class="{data_cls} data">{e(r["data"])}</td>'
            f'<td class="{grad_cls} grad">{e(r["grad"])}</td></tr>'
        )
    out.append("</tbody></table>")
    return "\n".join(out)


def _csp(script: str) -> str:
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return (f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
            f"script-src 'sha256-{digest}' 'sha256-{_HEAD_HASH}'")


_HEAD_SCRIPT = 'document.documentElement.classList.add("js");'
_HEAD_HASH = base64.b64encode(hashlib.sha256(_HEAD_SCRIPT.encode()).digest()).decode("ascii")


def player_html(
    x: Any,
    *,
    rankdir: str = "LR",
    theme: str = "light",
    decimals: int = 4,
    backend: str | None = None,
    title: str | None = None,
    start: int = 0,
    interval_ms: int = 1200,
    max_cells: int = MAX_CELLS,
    fit: bool = False,
) -> str:
    """One self-contained HTML page that steps through the graph's trace.

    Args:
        x: a Value, a Trace or a graph from :func:`vizgrad.to_networkx`.
        rankdir, theme, decimals, backend: passed to :func:`vizgrad.draw`.
        title: the page heading (default: the root's formula).
        start: the step shown first (``#step=K`` in the URL overrides it).
        interval_ms: the delay between steps of the Play button.
        fit: start with wide pictures shrunk to the page width (a button
            toggles it); otherwise they keep their size and scroll.
        max_cells: refuse when values × steps exceeds this (the page holds a
            picture and a table row of every value at every step); the
            default allows about 20 MB of HTML.

    Returns:
        The page as text; the same graph and options give the same bytes.
    """
    from .svg import draw

    G = as_graph(x)
    steps = G.graph["steps"]
    last = len(steps) - 1
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= last:
        raise OptionError(f"start step {start!r} is out of range: this trace has steps 0..{last}")
    look = get_theme(theme)
    cells = G.number_of_nodes() * len(steps)
    if cells > max_cells:
        raise GraphTooLargeError(
            f"a step player of this graph would hold {len(steps)} pictures of "
            f"{G.number_of_nodes()} values ({cells:,} node states, more than max_cells="
            f"{max_cells:,}): too big a page. Leave html out of the formats, step through it in "
            f"the lab (vizgrad serve), or pass max_cells={cells} to build it anyway"
        )
    e = html.escape
    heading = title if title is not None else formula(G, G.graph["root"])
    sections = []
    for k in range(len(steps)):
        cap = caption(G, k)
        svg = draw(G, k, rankdir=rankdir, theme=theme, decimals=decimals, backend=backend,
                   caption=False).svg()
        lines = "".join(f"<li>{e(line)}</li>" for line in chain_rule(G, k, decimals))
        chain = f'<ul class="chain" aria-label="chain rule">{lines}</ul>' if lines else ""
        sections.append(
            f'<section class="step" id="step-{k}" data-step="{k}" aria-label="{e(cap)}">\n'
            f'<p class="caption">{e(cap)}</p>\n{chain}\n'
            f"<figure>{_inline_svg(svg, f's{k}-', cap)}</figure>\n"
            f"{_table(G, k, decimals)}\n</section>"
        )
    script = _asset("player.js")
    page = f"""<!DOCTYPE html>
<html lang="en"{' class="dark"' if look.name == "dark" else ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{_csp(script)}">
<meta name="generator" content="vizgrad">
<title>{e(heading)} · vizgrad step player</title>
<script>{_HEAD_SCRIPT}</script>
<style>
{_asset("player.css")}:root {{ --bg: {look.background}; --fg: {look.text}; }}
</style>
</head>
<body>
<main id="player"{' class="fit"' if fit else ''} data-start="{start}" data-interval="{int(interval_ms)}">
<h1>{e(heading)}</h1>
<nav class="controls" aria-label="step controls">
<button type="button" data-go="first" title="first step (Home)"><span aria-hidden="true">|◀</span> First</button>
<button type="button" data-go="prev" title="previous step (←)"><span aria-hidden="true">◀</span> Back</button>
<output id="counter" aria-live="polite">step {start} / {last}</output>
<button type="button" data-go="next" title="next step (→)">Next <span aria-hidden="true">▶</span></button>
<button type="button" data-go="last" title="last step (End)">Last <span aria-hidden="true">▶|</span></button>
<button type="button" data-go="play" aria-pressed="false">Play</button>
<button type="button" data-go="fit" aria-pressed="{'true' if fit else 'false'}" title="shrink wide pictures to the page width">Fit width</button>
<label for="slider">step</label>
<input type="range" id="slider" min="0" max="{last}" step="1" value="{start}">
</nav>
<p class="hint">Keys: ← → step, Home and End jump. Pending values are not computed yet;
“{NOT_REACHED}” marks a gradient that has not arrived.</p>
{chr(10).join(sections)}
</main>
<script>{script}</script>
</body>
</html>
"""
    return page
