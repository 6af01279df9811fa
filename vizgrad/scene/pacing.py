"""How long each step is shown: one pace for the GIF, the animated SVG and the player's Play.

A frame is held at least its phase's time (:data:`LEAST`), and longer when its
caption has more to read: half a second plus the chain-rule lines at
:data:`READING` characters a second (a Chinese character counts as two), up to
:data:`LONGEST`. The step's first line (``step 7 / 7 · …``) and the notes that
every step repeats are not counted. Explicit ``duration=``, ``hold=`` and
``interval_ms=`` options win over this pace::

    >>> from vizgrad import examples
    >>> from vizgrad.scene.make import scene_of
    >>> scene = scene_of(examples.graph("tanh-native"))
    >>> scene.caption_texts(7)[1]
    'n.grad += (1 − o²) × o.grad = 0.5 × 1 = 0.5   (— → 0.5)'
    >>> reading_seconds(scene, 7), reading_seconds(scene, 1), reading_seconds(scene, None)
    (3.2, 1.4, 8.0)
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .scene import Scene

__all__ = ["LEAST", "LONGEST", "READING", "pace", "reading_seconds"]

#: the least time a frame is shown, in seconds, by phase (``final``: the final view)
LEAST = {"inputs": 1.5, "forward": 1.0, "seed": 2.0, "backward": 2.0, "final": 4.0}
#: characters of a caption read in a second
READING = 20.0
#: the longest a frame is held by default, in seconds
LONGEST = 12.0


def _length(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def reading_seconds(scene: Scene, k: int | None) -> float:
    """Seconds step ``k`` (``None``: the final view) is shown by default, to 0.1 s."""
    kind = "final" if k is None else str(scene.facts.graph["steps"][k]["kind"])
    texts = scene.caption_texts(k)
    notes = len(scene.notes)
    body = texts[1:len(texts) - notes] if notes else texts[1:]
    chars = sum(_length(t) for t in body)
    secs = 0.5 + chars / READING if chars else 0.0
    return round(min(LONGEST, max(LEAST.get(kind, 1.0), secs)), 1)


def pace(scene: Scene) -> list[float]:
    """Seconds for steps 0 … last, then the final view (see :func:`reading_seconds`)."""
    return [reading_seconds(scene, k) for k in [*range(scene.last + 1), None]]
