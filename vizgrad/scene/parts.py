"""What the scene's helpers read of a scene while it is built: one interface, no cycle.

:class:`~vizgrad.scene.scene.Scene` builds itself with the helpers of this folder
(``dot``, ``captions``, ``groups``, ``shapes``, ``looks``, ``pacing``). They read the
fields set so far through :class:`Drawn`, so none of them imports the Scene's module and
the folder's imports run one way: the helpers below, ``scene`` above them.
"""

from __future__ import annotations

from typing import Any, Mapping, Protocol

from ..style.presets import Preset
from ..style.theme import Theme

__all__ = ["Drawn"]

Edge = tuple[str, str, int]
Size = tuple[float, float]


class Drawn(Protocol):
    """The fields and methods of a scene that its helpers read (see the module doc)."""

    graph: Any
    preset: Preset
    theme: Theme
    rankdir: str
    decimals: int
    trim: bool
    lang: str
    caption: bool
    legend: bool
    order: tuple[str, ...]
    last: int
    collapsed: bool
    contributions: Any
    scale: float
    params: Mapping[str, tuple[tuple[str, float | None], ...]]
    params_done: Mapping[str, int]
    matrices: Mapping[str, Any]
    edge_texts: Mapping[Edge, str | None]
    inrows: Mapping[str, tuple[tuple[Edge, tuple[str, str]], ...]]
    box_sizes: Mapping[str, Size]
    op_sizes: Mapping[str, Size]
    to_output: Mapping[str, int]
    free: frozenset[Edge]
    dot: str
    notes: tuple[str, ...]
    badge_width: float
    wrap_at: float
    reading: Mapping[str, tuple[float, float]]
    captions: Mapping[int | None, tuple[str, ...]]
    caption_rows: int
    width: float

    def num(self, x: float | None, missing: str = ...) -> str: ...

    def word(self, key: str, **values: Any) -> str: ...

    def kind(self, n: str) -> str: ...

    def caption_texts(self, k: int | None) -> list[str]: ...

    def caption_lines(self, k: int | None) -> list[str]: ...

    def legend_lines(self) -> list[str]: ...
