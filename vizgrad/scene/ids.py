"""The shape ids of a scene: one scheme, its builders, its parser, and the JSON the scripts read.

Every shape of a scene has an id built here (``n-v3`` is node v3's box,
``t-v3-grad`` its grad text, ``e-v1-v3-0`` an edge); the SVG writers, the
player and the lab find shapes by these ids. :func:`parse` takes an id apart,
and :func:`scheme` is the part of the scheme the browser scripts use
(``player/assets/vg/ids.js``), written into the player's data and the lab's
scene answer, so that Python and JavaScript cannot disagree::

    >>> text("v3", "grad"), edge("v1", "v3", 0), caption(1)
    ('t-v3-grad', 'e-v1-v3-0', 'cap-1')
    >>> parse("t-v3-grad")
    ShapeId(kind='text', node='v3', slot='grad', line=None, target=None, end=None)
    >>> parse("e-v1-v3-0").target, parse("e-v7-op").kind
    ('v3', 'op_edge')
    >>> parse("badge").kind, parse("vg-hatch-light") is None
    ('badge', True)

A node id is letters then digits (``v12``, ``g3``): :data:`NODE`.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

__all__ = ["NODE", "PATTERNS", "ShapeId", "arrow", "badge", "badge_text", "box", "caption",
           "cell", "edge", "edge_box", "edge_label", "frame", "frame_label", "legend",
           "node_of", "op", "op_edge", "parse", "scheme", "sep", "text"]

#: what a node id looks like
NODE = r"[a-z]+\d+"

#: every kind of id, with its fields: node, target (an edge's head), slot, line
PATTERNS: dict[str, str] = {
    "box": "n-{node}",                 # a value's (or group's) box
    "op": "o-{node}",                  # the circle of the operation that computes it
    "sep": "s-{node}",                 # the line under a box's name
    "text": "t-{node}-{slot}",         # a text of a box: name, data, grad, dl, gl, op, p0, p0l …
    "cell": "c-{node}-{slot}",         # a coloured cell behind a text: grad, p0, i0 …
    "op_edge": "e-{node}-op",          # the edge from the op circle to its box
    "op_edge_head": "e-{node}-op-{end}",  # its arrowhead (end: f, the forward one)
    "edge": "e-{node}-{target}-{slot}",  # an edge (slot: which of parallel edges)
    "edge_head": "e-{node}-{target}-{slot}-{end}",  # an arrowhead: f forward, b backward
    "edge_label": "l-{node}-{target}-{slot}",  # the text on an edge
    "edge_box": "lb-{node}-{target}-{slot}",   # the box behind it
    "caption": "cap-{line}",           # a line of the picture's caption
    "legend": "legend-{line}",         # a line of the legend
    "badge": "badge",                  # the badge before the caption ("step 3", "final")
    "badge_text": "badge-t",           # its text
    "frame": "frame",                  # an opened group's halos
    "frame_label": "frame-label",      # an opened group's label (a click closes it)
}

_FIELDS = {"node": NODE, "target": NODE, "slot": r"[a-z0-9]+", "line": r"\d+", "end": "[fb]"}
#: the kinds that belong to a node's box (a click on any of them is a click on the box)
_OF_BOX = ("box", "text", "cell", "sep")
#: the texts the node table shows, in its column order
_CELLS = ("data", "grad")


# the patterns hold letters, "-" and {fields} only, so they read as regular expressions as
# they are, in Python and in JavaScript alike
# (tests/render/test_ids.py holds them to that)


def _regex(kind: str, fields: dict[str, str] | None = None) -> str:
    out = PATTERNS[kind]
    for field, rx in {**_FIELDS, **(fields or {})}.items():
        out = out.replace("{" + field + "}", f"(?P<{field}>{rx})" if fields is None else rx)
    return out


_PARSE = [(kind, re.compile(_regex(kind) + r"\Z")) for kind in PATTERNS]


class ShapeId(NamedTuple):
    """An id taken apart: its kind (a key of :data:`PATTERNS`) and its fields."""

    kind: str
    node: str | None = None
    slot: str | None = None
    line: int | None = None
    target: str | None = None
    end: str | None = None


def _build(kind: str, **fields: Any) -> str:
    return PATTERNS[kind].format(**fields)


def box(n: str) -> str:
    """Node ``n``'s box."""
    return _build("box", node=n)


def op(n: str) -> str:
    """The circle of the operation that computes ``n``."""
    return _build("op", node=n)


def sep(n: str) -> str:
    """The line under ``n``'s name."""
    return _build("sep", node=n)


def text(n: str, slot: str) -> str:
    """A text of ``n``'s box (``name``, ``data``, ``grad``, ``dl``, ``gl``, ``op``, ``p0`` …)."""
    return _build("text", node=n, slot=slot)


def cell(n: str, slot: str) -> str:
    """The coloured cell behind a text of ``n``'s box (``grad``, ``p0``, ``i0`` …)."""
    return _build("cell", node=n, slot=slot)


def edge(u: str, v: str, slot: int | str) -> str:
    """The edge ``u → v`` (``slot``: which of parallel edges)."""
    return _build("edge", node=u, target=v, slot=slot)


def op_edge(n: str) -> str:
    """The edge from ``n``'s op circle to its box."""
    return _build("op_edge", node=n)


def arrow(edge_id: str, end: str) -> str:
    """The arrowhead of the edge ``edge_id`` at its ``end``: ``f`` (the forward one, at
    its head) or ``b`` (the backward one, at its tail).

    >>> arrow(edge("v1", "v3", 0), "b"), parse(arrow(op_edge("v3"), "f")).kind
    ('e-v1-v3-0-b', 'op_edge_head')
    """
    return f"{edge_id}-{end}"


def edge_label(u: str, v: str, slot: int | str) -> str:
    """The text on the edge ``u → v``."""
    return _build("edge_label", node=u, target=v, slot=slot)


def edge_box(u: str, v: str, slot: int | str) -> str:
    """The box behind the text on the edge ``u → v``."""
    return _build("edge_box", node=u, target=v, slot=slot)


def caption(i: int) -> str:
    """Line ``i`` of the picture's caption."""
    return _build("caption", line=i)


def legend(i: int) -> str:
    """Line ``i`` of the legend."""
    return _build("legend", line=i)


def badge() -> str:
    """The badge before the caption."""
    return PATTERNS["badge"]


def badge_text() -> str:
    """The badge's text."""
    return PATTERNS["badge_text"]


def frame(suffix: str = "") -> str:
    """The halos of an opened group (``suffix``: ``-1``, ``-2`` … for the second and later)."""
    return PATTERNS["frame"] + suffix


def frame_label(suffix: str = "") -> str:
    """The label of an opened group."""
    return PATTERNS["frame_label"] + suffix


def parse(sid: str) -> ShapeId | None:
    """The kind and fields of id ``sid``; None for an id outside the scheme (``badge``)."""
    for kind, rx in _PARSE:
        m = rx.match(sid)
        if m:
            f = m.groupdict()
            return ShapeId(kind, f.get("node"), f.get("slot"),
                           int(f["line"]) if f.get("line") is not None else None,
                           f.get("target"), f.get("end"))
    return None


def node_of(sid: str) -> str | None:
    """The node whose box shape ``sid`` is part of (box, text, cell, separator), else None.

    >>> node_of("c-v2-p0"), node_of("o-v2"), node_of("e-v1-v2-0")
    ('v2', None, None)
    """
    p = parse(sid)
    return p.node if p is not None and p.kind in _OF_BOX else None


def scheme() -> dict[str, Any]:
    """The part of the scheme the browser scripts use: builders as patterns, parsers as
    regular expressions (the same syntax in Python and JavaScript).

    >>> s = scheme()
    >>> s["box"], s["cells"], re.match(s["cell"], "t-v3-grad").groups()
    ('n-{node}', ['data', 'grad'], ('v3', 'grad'))
    """
    cell_rx = _regex("text", {"node": f"({NODE})", "slot": "(" + "|".join(_CELLS) + ")"})
    heads = "|".join(PATTERNS[k].split("{", 1)[0] for k in _OF_BOX)
    return {"box": PATTERNS["box"], "op": PATTERNS["op"], "text": PATTERNS["text"],
            "caption": PATTERNS["caption"], "badge": PATTERNS["badge"],
            "badge_text": PATTERNS["badge_text"],
            "frame_label": PATTERNS["frame_label"], "cells": list(_CELLS),
            "cell": f"^{cell_rx}$", "node": f"^(?:{heads})({NODE})(?:-|$)"}
