"""The progress bar of one picture's phases on stderr, for ``vizgrad render -o FILE``.

``phases("collapse")`` says that a phase starts; the ones before it are done::

    >>> with Phases(False) as phases:  # --quiet: nothing is drawn
    ...     phases("trace"); phases("write")
"""

from __future__ import annotations

import sys
from typing import Any

import click

__all__ = ["Phases"]


class Phases:
    """The progress bar of one picture (``-o FILE``) on stderr, through its phases: trace
    (run the model file and trace its graph), collapse, layout, write. As the batch's bar,
    it is click's: on a terminal a bar with the phase's name; elsewhere (a pipe, a log)
    each phase's name once, as it starts. ``shown=False`` (``--quiet``) draws nothing."""

    NAMES = ("trace", "collapse", "layout", "write")

    def __init__(self, shown: bool) -> None:
        self.shown, self.done, self.bar = shown, 0, None

    def __enter__(self) -> Phases:
        if self.shown:
            self.bar = click.progressbar(length=len(self.NAMES), label=self._label(0),
                                         file=sys.stderr, show_eta=False, show_percent=False,
                                         show_pos=False).__enter__()
        return self

    def _label(self, k: int) -> str:
        return f"{self.NAMES[k]} ({k + 1}/{len(self.NAMES)})"

    def __call__(self, name: str) -> None:
        """Phase ``name`` starts: the ones before it are done."""
        k = self.NAMES.index(name)
        if self.bar is not None and k >= self.done:
            self.bar.label = self._label(k)
            self.bar.update(k - self.done)
            self.bar.render_progress()
            self.done = k

    def __exit__(self, *exc: Any) -> None:
        if self.bar is not None:
            if exc[0] is None:
                self.bar.update(len(self.NAMES) - self.done)
            self.bar.__exit__(*exc)
            self.bar = None
