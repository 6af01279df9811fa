"""Up-front estimates of a render: how many bytes it writes and how long it takes.

``vizgrad render`` checks every limit before it writes anything: the node
limit, the step player's cell limit and these estimates against a budget.
The per-node costs (:mod:`vizgrad.export.costs`) come from ``benchmarks/bench_costs.py``
(rounded up); the sizes are within 2× of what is written (tests/cli/test_budget_accuracy.py).
``"svg"`` is the one picture and ``"steps"`` the SVG of every step, so ``-o q.svg`` counts
one file::

    >>> fmt_bytes(37_412_000), fmt_bytes(950), fmt_bytes(2_500_000_000)
    ('37 MB', '950 B', '2.5 GB')
    >>> parse_bytes("200M"), parse_bytes("1.5G"), parse_bytes("4096")
    (200000000, 1500000000, 4096)
    >>> e = estimate(132, 154, ("svg", "steps", "gif", "json", "dot"))
    >>> fmt_bytes(e.bytes), round(e.seconds)
    ('68 MB', 118)
    >>> fmt_bytes(estimate(132, 154, ("svg",)).bytes)
    '266 kB'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from .costs import (animated_svg_bytes, animated_svg_seconds, dot_bytes, frame_pixels,
                    frame_seconds, gif_frame_bytes, group_boxes, group_sizes, png_frame_bytes,
                    svg_bytes, svg_seconds, text_size)
from ..scene.prepare import too_many_values
from ..exceptions import GraphTooLargeError, OptionError

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_SECONDS",
    "Estimate",
    "text_size",
    "MAX_CELLS",
    "estimate",
    "fmt_bytes",
    "parse_bytes",
    "frame_pixels",
    "frame_seconds",
    "gif_frame_bytes",
    "dot_bytes",
    "group_boxes",
    "group_sizes",
    "KINDS",
    "svg_seconds",
    "svg_bytes",
    "animated_svg_bytes",
    "animated_svg_seconds",
    "too_many_values",
    "SMALLER",
    "check",
    "estimate_all",
]

#: the output a render may write unless ``--max-bytes`` allows more
DEFAULT_MAX_BYTES = 200_000_000
#: the estimated time a render may take unless ``--max-seconds`` allows more
DEFAULT_MAX_SECONDS = 600.0

#: values × steps a step player may hold unless ``--max-cells`` allows more
MAX_CELLS = 2_000_000


@dataclass(frozen=True)
class Estimate:
    """What a render is expected to write (``bytes``) and take (``seconds``);
    ``units`` counts its pictures, for a progress bar."""

    bytes: int
    seconds: float
    units: int


#: the kinds of file an estimate counts: ``"svg"`` is the one picture, ``"steps"`` the
#: SVG of every step (``vizgrad render --format svg`` writes both)
KINDS = ("svg", "steps", "animated-svg", "html", "json", "dot", "png", "gif", "mp4", "frames")
_PICTURES = {"svg", "steps", "animated-svg", "dot", "png", "html"}


def estimate(n: int, steps: int, formats: Sequence[str], frames: bool = False,
             player: Callable[..., Any] | None = None,
             size: tuple[float, float] | None = None, boxes: int = 0,
             groups: tuple[int, ...] = (), text: int = 0) -> Estimate:
    """The estimate for one graph of ``n`` values and ``steps`` steps, for the files of
    these kinds (:data:`KINDS`; ``player(n, steps, groups) -> (bytes, seconds)``: the step
    player's own estimate, :func:`vizgrad.player.page.estimate`, needed for ``"html"``;
    ``groups``: the member counts of the collapsed groups, which a player lays out opened).
    ``size`` is the picture's width and height in points when its layout is known (the
    frames of an animation are as big as the picture); ``boxes`` counts the collapsed
    groups among the ``n``; ``text`` the characters of the values' labels and names
    (:func:`text_size`), which every picture, the JSON and the DOT carry again."""
    unknown = set(formats) - set(KINDS)
    if unknown:
        raise ValueError(f"unknown kinds {sorted(unknown)}; the kinds are {', '.join(KINDS)}")
    size_b, secs, units = 0, 0.0, 0
    if set(formats) & _PICTURES:
        secs += svg_seconds(n)  # the one layout the pictures share
    if "svg" in formats:
        size_b += svg_bytes(n, boxes) + text
    if "steps" in formats:
        size_b += steps * (svg_bytes(n, boxes) + text)
        secs += steps * svg_seconds(n)
        units += steps
    if "animated-svg" in formats:
        size_b += animated_svg_bytes(n, steps, boxes) + 2 * text
        secs += animated_svg_seconds(n, steps)
        units += steps
    if "html" in formats:
        if player is None:
            raise TypeError("an estimate of the step player (html) needs its own estimate: "
                            "player=vizgrad.player.page.estimate")
        player_bytes, player_seconds = player(n, steps, groups)
        size_b += int(player_bytes) + 3 * text
        secs += float(player_seconds)
        units += steps
    if "json" in formats:
        size_b += 300 * (n + steps) + text
    if "dot" in formats:
        size_b += dot_bytes(n) + text
    if "png" in formats:
        size_b += png_frame_bytes(n)
    kinds = [*formats, *(["frames"] if frames else [])]
    for kind, per_frame in (("gif", gif_frame_bytes(n, size, boxes)), ("mp4", 20_000),
                            ("frames", png_frame_bytes(n))):
        if kind in kinds:
            shown = steps + (kind != "frames")  # an animation ends on the final view
            size_b += shown * per_frame
            secs += shown * frame_seconds(n, size)
            units += shown
    return Estimate(size_b, secs, units)


def fmt_bytes(n: float) -> str:
    """``37 MB``: two significant digits, decimal units."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            v = n / scale
            return f"{v:.1f} {unit}" if v < 10 else f"{v:.0f} {unit}"
    return f"{int(n)} B"


_SIZE = re.compile(r"\s*(\d+(?:\.\d*)?)\s*([kmgt]?)b?\s*", re.IGNORECASE)


def parse_bytes(text: str) -> int:
    """``"200M"`` → 200000000; decimal units k, M, G, T (an optional B)."""
    m = _SIZE.fullmatch(text)
    if m is None:
        raise OptionError(f"{text!r} is not a size; write e.g. 500M, 2G or 100000")
    value = float(m.group(1)) * 1000 ** " kmgt".index(m.group(2).lower() or " ")
    if not math.isfinite(value) or value < 1:
        raise OptionError(f"{text!r} is not a size of at least 1 byte")
    return int(value)


_FORMAT_NAMES = {"svg": "SVG", "steps": "step SVGs", "animated-svg": "animated SVG",
                 "html": "step player", "gif": "GIF", "mp4": "MP4", "frames": "PNG frames",
                 "json": "JSON", "dot": "DOT", "png": "PNG"}


#: how a graph is drawn smaller, for the refusals
SMALLER = ("draw it smaller (--collapse auto, neuron or layer; --focus NODE; for a model file "
           "--model NAME reads its net, drawn one box per neuron)")


def check(graphs: Sequence[tuple[str, Any]], formats: Sequence[str], *, frames: bool,
          max_nodes: int, max_cells: int, max_bytes: int, max_seconds: float,
          player: Callable[..., Any] | None = None,
          each: Sequence[Sequence[str]] | None = None,
          sizes: Mapping[str, tuple[float, float] | None] | None = None,
          sources: Mapping[str, Any] | None = None, one_file: bool = False) -> Estimate:
    """Check every limit of an export of ``(name, graph)`` pairs before anything is written.

    ``formats`` are kinds of :data:`KINDS`. ``each`` gives each graph its own kinds,
    ``"frames"`` included (a gallery's other languages write fewer), instead of
    ``formats`` and ``frames`` for all; ``sizes`` the pictures' sizes in points, by name,
    where their layout is known; ``sources`` the graphs given, by name, when the graphs
    drawn are collapsed or focused (the JSON holds the graph given). ``one_file``: the
    export is ``-o FILE``, whose advice is another suffix rather than fewer formats.

    Raises :class:`~vizgrad.exceptions.GraphTooLargeError` naming the graph, the
    limit and the command-line options that make it fit; returns the estimate.
    """
    kinds = [*formats, *(["frames"] if frames else [])]
    mine = {name: kinds if each is None else each[i] for i, (name, _) in enumerate(graphs)}
    for name, G in graphs:
        n = G.number_of_nodes()
        if n > max_nodes:
            raise GraphTooLargeError(
                f"{name}: {too_many_values(n, max_nodes, '--max-nodes')}; its layout would be "
                f"slow and unreadable. Render a smaller graph or {SMALLER}, or pass "
                f"--max-nodes {n} to render it anyway")
        cells = n * len(G.graph["steps"])
        if "html" in mine[name] and cells > max_cells:
            raise GraphTooLargeError(
                f"{name}: a step player of {len(G.graph['steps']):,} steps of {n:,} values would "
                f"hold {cells:,} node states, more than --max-cells {max_cells:,}. Leave html out "
                "of --format, step through the graph in the lab (vizgrad serve), or pass "
                f"--max-cells {cells} to build it anyway")
    all_kinds = list(dict.fromkeys(k for name, _ in graphs for k in mine[name]))
    given = [(name, (sources or {}).get(name, G)) for name, G in graphs]
    parts = {k: estimate_all([g for g in (given if k == "json" else graphs) if k in mine[g[0]]],
                             [k], player, sizes) for k in all_kinds}
    total = Estimate(sum(e.bytes for e in parts.values()), sum(e.seconds for e in parts.values()),
                     sum(e.units for e in parts.values()))
    heavy = sorted(parts, key=lambda k: -parts[k].bytes)
    if total.bytes > max_bytes:
        detail = ", ".join(f"{_FORMAT_NAMES.get(k, k)} {fmt_bytes(parts[k].bytes)}"
                           for k in heavy[:3] if parts[k].bytes)
        raise GraphTooLargeError(
            f"this export would write about {fmt_bytes(total.bytes)} ({detail}), more than "
            f"--max-bytes {fmt_bytes(max_bytes)}. {_fewer(heavy[0], one_file)}, {SMALLER}, or pass "
            f"--max-bytes {_round_up(total.bytes)} to write it anyway")
    if total.seconds > max_seconds:
        slow = sorted(parts, key=lambda k: -parts[k].seconds)
        detail = ", ".join(f"{_FORMAT_NAMES.get(k, k)} {parts[k].seconds:,.0f} s"
                           for k in slow[:3] if parts[k].seconds >= 1)
        raise GraphTooLargeError(
            f"this export would take about {total.seconds:,.0f} s ({detail}), more than "
            f"--max-seconds {max_seconds:,.0f}. {_fewer(slow[0], one_file)}, {SMALLER}, or pass "
            f"--max-seconds {math.ceil(total.seconds)} to render it anyway")
    return total


def _fewer(kind: str, one_file: bool = False) -> str:
    """How to leave out the heaviest kind of file."""
    if one_file:
        return "Write a lighter format (-o NAME.svg, NAME.html)"
    if kind == "steps":
        return "Choose fewer formats (--format without svg; -o FILE.svg writes one picture)"
    name = {"animated-svg": "animated-svg", "frames": "--frames"}.get(kind, kind)
    if kind == "frames":
        return "Leave out --frames"
    return f"Choose fewer formats (--format without {name})"


def estimate_all(graphs: Sequence[tuple[str, Any]], formats: Sequence[str],
                 player: Callable[..., Any] | None = None,
                 sizes: Mapping[str, tuple[float, float] | None] | None = None,
          sources: Mapping[str, Any] | None = None, one_file: bool = False) -> Estimate:
    """The sum of :func:`estimate` over the graphs (``"frames"`` in formats: PNG frames)."""
    sizes = sizes or {}
    parts = [estimate(G.number_of_nodes(), len(G.graph["steps"]), formats, player=player,
                      size=sizes.get(name), boxes=group_boxes(G), groups=group_sizes(G),
                      text=text_size(G))
             for name, G in graphs]
    return Estimate(sum(e.bytes for e in parts), sum(e.seconds for e in parts),
                    sum(e.units for e in parts))



def _round_up(n: int) -> str:
    """A ``--max-bytes`` value a little above ``n``: ``4.5G``, ``40M``."""
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= scale:
            return f"{math.ceil(n / scale * 10) / 10:g}{unit}"
    return str(n)
