"""Every limit of an export checked before anything is written: folders, steps, tools, budget.

:func:`check` raises :class:`~vizgrad.exceptions.OptionError`,
:class:`~vizgrad.exceptions.RenderError` or
:class:`~vizgrad.exceptions.GraphTooLargeError` and returns the budget's
:class:`~vizgrad.export.budget.Estimate` (bytes, seconds and the progress bar's length)::

    >>> from vizgrad.export.jobs import Job, Options
    >>> from vizgrad.graph import examples
    >>> fork = examples.graph("fork")
    >>> check([Job("fork", fork)], Options(formats=("svg",))).units  # an SVG per step, 0..7
    8
    >>> check([Job("fork", fork)], Options(formats=("gif",))).units  # a frame more: the final view
    9
    >>> check([Job("fork", fork), Job("fork", fork)], Options())
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.OptionError: two graphs would be written to the same folder: fork
"""

from __future__ import annotations

from typing import Sequence

from .budget import Estimate
from .budget import check as budget_check
from .jobs import Job, Options
from .tasks import kinds
from ..exceptions import OptionError, RenderError

__all__ = ["check", "check_tools"]


def check(jobs: Sequence[Job], opts: Options, one_file: bool = False) -> Estimate:
    """Check the options and every limit before anything is written; return the estimate."""
    names = [j.folder for j in jobs]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise OptionError(f"two graphs would be written to the same folder: {', '.join(dupes)}")
    if opts.step is not None:
        for j in jobs:
            try:
                j.view_step(opts.step)
            except OptionError:
                last = len(j.source.graph["steps"]) - 1 if j.source is not None else "?"
                raise OptionError(f"--step {opts.step} is out of range for {j.name}: its steps "
                                  f"are 0..{last} (or first, last, final)") from None
    check_tools(opts.formats)
    from ..player import page as html

    return budget_check([(j.folder, j.graph) for j in jobs], opts.formats, frames=opts.frames,
                        max_nodes=opts.drawing.max_nodes, max_cells=opts.max_cells,
                        max_bytes=opts.max_bytes, max_seconds=opts.max_seconds,
                        player=html.estimate, each=[kinds(j, opts) for j in jobs],
                        sizes={j.folder: j.size for j in jobs},
                        sources={j.folder: j.source for j in jobs if j.source is not None},
                        one_file=one_file)


def check_tools(formats: Sequence[str]) -> None:
    """mp4 needs ffmpeg: say so before anything is written."""
    if "mp4" in formats:
        from ..write.raster.frames import find_ffmpeg

        if find_ffmpeg() is None:
            raise RenderError(
                "mp4 needs ffmpeg: pip install 'vizgrad[mp4]' (it ships a binary), or install "
                "ffmpeg so that it is on your PATH (apt install ffmpeg, brew install ffmpeg); "
                "or write a gif instead")
