"""What a step means: a whole number, ``"final"``, ``"first"`` or ``"last"``, read in one place.

A step is a whole number, ``"final"`` (the final view: every contribution on its edge,
every grad final), ``"first"`` (step 0) or ``"last"`` (the last step); :func:`resolve_step`
is the one place that reads it. ``None`` means the entry point's own default
(:data:`NO_STEP`).
"""

from __future__ import annotations

from typing import Any

from ..exceptions import OptionError

__all__ = ["FINAL", "NO_STEP", "StepArg", "parse_step", "resolve_step"]

#: the step that means the final view
FINAL = "final"
#: what a caller may pass as a step: a number, ``"final"``, ``"first"``, ``"last"`` or None
StepArg = int | str | None
_WORDS = {"first", "last", FINAL}
#: what a step left out means, per medium (the table "No step given" in docs/drawing.md): a
#: picture shows the final view, the step player opens at step 0, the lab answers the last step
NO_STEP: dict[str, StepArg] = {"picture": FINAL, "player": "first", "lab": "last"}


def parse_step(raw: Any) -> StepArg:
    """A step as written (``"7"``, ``"final"``, ``"first"``, ``"last"``) in its typed form.

    >>> parse_step("7"), parse_step(" Final "), parse_step(None)
    (7, 'final', None)
    """
    if raw is None or (isinstance(raw, int) and not isinstance(raw, bool)):
        return raw
    text = str(raw).strip().lower()
    if text in _WORDS:
        return text
    if text.isdigit():
        return int(text)
    raise OptionError(f"step must be a step number, first, last or final, got {raw!r}")


def resolve_step(step: StepArg, last: int, default: StepArg = None) -> int | None:
    """The step to show, as a number, or ``None`` for the final view.

    ``None`` gives ``default``, read as a step (:data:`NO_STEP` says each medium's: pictures
    the final view, the player step 0, the lab the last step).

    >>> resolve_step("final", 7), resolve_step("last", 7), resolve_step(None, 7, 0)
    (None, 7, 0)
    >>> resolve_step(None, 7, NO_STEP["lab"]), resolve_step(None, 7, NO_STEP["picture"])
    (7, None)
    >>> resolve_step(8, 7)  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.OptionError: step must be a whole number from 0 to 7, first, last or final
        for this graph, got 8
    """
    step = parse_step(step) if isinstance(step, str) else step
    if step is None:
        if default is None:
            return None
        return resolve_step(default, last)
    if step == FINAL:
        return None
    if step == "first":
        return 0
    if step == "last":
        return last
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= last:
        raise OptionError(f"step must be a whole number from 0 to {last}, first, last or final "
                          f"for this graph, got {step!r}")
    return step
