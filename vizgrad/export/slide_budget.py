"""The budget of a slide set: every slide counted before any is drawn.

Each slide of ``--preset slides -o NAME.svg`` carries up to the whole picture (every
edge, cut at its windows), so a set of ``k`` slides writes up to ``k`` times the picture: a
1,951-value chain with ``--collapse none`` made 400 slides, 1.4 GB, under a 200 MB budget
before the preset was counted. :func:`check_slides` refuses such a set before anything is written::

    >>> import vizgrad
    >>> G = vizgrad.to_networkx(vizgrad.Value(1.0) * 2)
    >>> check_slides("x", G, 3, 10 ** 9, 600.0) > 0
    True
    >>> check_slides("x", G, 10 ** 6, 10 ** 6, 600.0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.GraphTooLargeError: x: these 1,000,000 slides would write about ...
"""

from __future__ import annotations

import math
from typing import Any

from ..exceptions import GraphTooLargeError
from .budget import fmt_bytes, group_boxes, svg_bytes, svg_seconds, text_size

__all__ = ["check_slides"]


def check_slides(name: str, G: Any, slides: int, max_bytes: int, max_seconds: float) -> int:
    """The bytes ``slides`` slides of ``G`` are estimated to write; past ``max_bytes`` or
    ``max_seconds`` a :class:`~vizgrad.exceptions.GraphTooLargeError` names the figure and
    the options that make it fit."""
    n = G.number_of_nodes()
    each = svg_bytes(n, group_boxes(G)) + text_size(G)
    size, seconds = slides * each, slides * svg_seconds(n) / 4
    if size > max_bytes:
        raise GraphTooLargeError(
            f"{name}: these {slides:,} slides would write about {fmt_bytes(size)} (each "
            f"carries the picture, about {fmt_bytes(each)}), more than --max-bytes "
            f"{fmt_bytes(max_bytes)}. Draw it smaller (--collapse auto, neuron or layer; "
            "--focus NODE), write one picture (drop --preset slides), or pass --max-bytes "
            f"{math.ceil(size / 1e6)}M to write them anyway")
    if seconds > max_seconds:
        raise GraphTooLargeError(
            f"{name}: these {slides:,} slides would take about {seconds:,.0f} s, more than "
            f"--max-seconds {max_seconds:,.0f}; draw it smaller or pass --max-seconds "
            f"{math.ceil(seconds)}")
    return size
