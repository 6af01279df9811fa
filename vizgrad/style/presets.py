"""Sizes for where the picture goes: ``docs`` (the default), ``slides`` and ``compact``.

A preset sets the font sizes (in points at the picture's natural size), the
spacing, and how numbers are written. ``slides`` keeps text at 14 pt or more
on a 960×540 pt slide (a larger picture is split over several,
:mod:`vizgrad.write.slides`)::

    >>> get("slides").font, get("docs").decimals
    (16.5, 4)
    >>> get("poster")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.OptionError: unknown preset 'poster';
        choose one of ['compact', 'docs', 'slides']
"""

from __future__ import annotations

from dataclasses import dataclass

from ..exceptions import OptionError

__all__ = ["PRESETS", "Preset", "get"]


@dataclass(frozen=True)
class Preset:
    """Font sizes (points), spacing (inches, as Graphviz takes it) and number style."""

    name: str
    font: float  # box text
    label: float  # edge labels
    op: float  # op glyphs
    caption: float  # caption and chain rule
    legend: float
    nodesep: float
    ranksep: float
    decimals: int
    trim: bool = True
    #: where the picture is shown: (width pt, height pt or None, smallest text pt there);
    #: None for no target. docs: a 1,400 px column (12 px text); slides: a 960×540 slide
    fit: tuple[float, float | None, float] | None = None


PRESETS = {
    "docs": Preset("docs", font=14.0, label=13.0, op=20.0, caption=14.0, legend=12.0,
                   nodesep=0.25, ranksep=0.3, decimals=4, fit=(1050.0, None, 9.0)),
    # every text at 14 pt or a little more: as much of the graph as a slide can hold
    "slides": Preset("slides", font=16.5, label=14.2, op=22.0, caption=16.5, legend=14.2,
                     nodesep=0.2, ranksep=0.25, decimals=2, fit=(960.0, 540.0, 14.0)),
    "compact": Preset("compact", font=11.0, label=10.0, op=14.0, caption=11.0, legend=10.0,
                      nodesep=0.15, ranksep=0.2, decimals=4),
}


def get(name: str | Preset) -> Preset:
    """The preset called ``name``; a :class:`Preset` passes through."""
    if isinstance(name, Preset):
        return name
    if name not in PRESETS:
        raise OptionError(f"unknown preset {name!r}; choose one of {sorted(PRESETS)}")
    return PRESETS[name]
