"""Batch export behind ``vizgrad render``: SVGs per step, animated SVG, GIF, JSON, DOT, player.

:func:`export` writes one folder per graph and spreads the work over
processes; :func:`write_one` writes a single file whose suffix names the
format. Every file is written atomically (a temporary file, then
``os.replace``) and left untouched when its bytes have not changed, so an
interrupted export leaves no half-written file and a re-run on an unchanged
tree changes nothing. What each task writes is in :mod:`.tasks`, the limits checked before
anything is written in :mod:`.checks`, and :func:`write_one` in :mod:`.one_file`::

    >>> parse_formats("svg, json")
    ('svg', 'json')
    >>> parse_formats("svg,jpg")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.OptionError: unknown format 'jpg'
        (must be one of svg, animated-svg, gif, png, mp4, json, dot, html)
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Sequence

from . import pool as _pool
from ..runtime.files import sweep, write_atomic
from .checks import check as _check
from .gallery_page import TRANSLATED_FORMATS, in_languages, write_pages
from .jobs import (ANIMATED_SUFFIX, DEFAULT_FORMATS, FORMATS, SINGLE_FILE_FORMATS, Job, Options,
                   resolve)
from .one_file import write_one
from .tasks import TASKS, plan
from ..exceptions import OptionError

__all__ = [
    "FORMATS",
    "DEFAULT_FORMATS",
    "SINGLE_FILE_FORMATS",
    "ANIMATED_SUFFIX",
    "Options",
    "Job",
    "Report",
    "parse_formats",
    "TRANSLATED_FORMATS",
    "example_jobs",
    "gallery_jobs",
    "plan",
    "resolve",
    "resolved",
    "export",
    "units",
    "write_one",
    "write_atomic",
]


@dataclass
class Report:
    """What :func:`export` did: files written (relative to ``out``), changed ones, seconds."""

    out: Path
    names: list[str]
    files: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    seconds: float = 0.0


def parse_formats(text: str | Sequence[str]) -> tuple[str, ...]:
    """``"svg,gif"`` → ``("svg", "gif")``; an unknown name raises OptionError."""
    items = text.split(",") if isinstance(text, str) else list(text)
    out: list[str] = []
    for item in (i.strip().lower() for i in items):
        if not item:
            continue
        if item not in FORMATS:
            raise OptionError(f"unknown format {item!r} (must be one of {', '.join(FORMATS)})")
        if item not in out:
            out.append(item)
    if not out:
        raise OptionError(f"no format given (choose from {', '.join(FORMATS)})")
    return tuple(out)


def example_jobs(names: Sequence[str] | None = None, **values: float) -> list[Job]:
    """Jobs for the named chapter examples (all of them by default), in the chapter's order."""
    from ..graph import examples

    chosen = examples.names() if not names else list(dict.fromkeys(names))
    return [Job(n, examples.graph(n, **values), f"{n}: {examples.describe(n)}",
                {"collapse": level} if (level := examples.collapse_level(n)) else {})
            for n in chosen]


def gallery_jobs(langs: Sequence[str], names: Sequence[str] | None = None,
                 translated: Sequence[str] = TRANSLATED_FORMATS, **values: float) -> list[Job]:
    """The chapter's examples (all of them by default) in each language of ``langs``
    (see :func:`vizgrad.export.gallery_page.in_languages`).

    >>> [(j.folder, j.steps, j.formats) for j in gallery_jobs(["en", "zh"], ["fork", "sum-square"])]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('fork', True, None), ('sum-square', True, None),
     ('fork/zh', True, ('svg', 'animated-svg', 'png', 'html')),
     ('sum-square/zh', False, ('svg', 'animated-svg', 'png', 'html'))]
    >>> gallery_jobs(["zh"], ["fork"])[0].title
    'fork：a=−2、b=3 时 q = (a*b)*(a+b)：q = −6，梯度 (−3, −8)，步骤 0..7'
    """
    return in_languages(example_jobs(names, **values), langs, translated)


def export(
    jobs: Sequence[Job],
    out: str | os.PathLike[str],
    opts: Options = Options(),
    *,
    workers: int = 2,
    readme: bool = False,
    on_done: Callable[[str], None] | None = None,
    on_step: Callable[[int], None] | None = None,
    readme_extra: Callable[[str], str] | None = None,
) -> Report:
    """Export every job into ``out/<name>/`` with ``workers`` processes.

    The files do not depend on how the work was scheduled. With ``readme``
    the gallery page ``out/README.md`` is written too (see :mod:`vizgrad.export.gallery_page`),
    ``readme_extra(lang)`` added at its end.
    ``on_done(label)`` is called in this process after each finished task
    (label: ``"fork gif"``), ``on_step(k)`` as pictures are finished (``k`` of
    them since the last call; :func:`units` gives the total). Every limit of
    :class:`Options` is checked before anything is written; if the export
    fails, no temporary file is left behind. Workers start from a fresh
    interpreter (spawn), so a script that calls this needs the usual
    ``if __name__ == "__main__":`` guard.
    """
    jobs, opts = resolved(jobs, opts)
    _check(jobs, opts)
    start = time.perf_counter()
    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    tasks = plan(jobs, opts)
    for job in jobs:
        sweep(root / job.folder)
    results: dict[str, bool] = {}
    try:
        if workers <= 1 or len(tasks) <= 1:
            _pool.set_progress(on_step)
            for kind, job in tasks:
                results.update(_pool.run_task(TASKS[kind], job, str(root), opts))
                if on_done:
                    on_done(f"{job.folder} {kind}")
        else:
            _pool.run_parallel(TASKS, tasks, root, opts, workers, results, on_done, on_step)
    except BaseException:
        for job in jobs:  # a worker stopped mid-write cannot always remove its own
            sweep(root / job.folder)
        raise
    finally:
        _pool.set_progress(None)
    if readme:
        results.update(write_pages(jobs, opts.drawing.lang, root, set(results), readme_extra))
    report = Report(root, list(dict.fromkeys(j.name for j in jobs)), sorted(results),
                    sorted(k for k, v in results.items() if v))
    report.seconds = time.perf_counter() - start
    return report


def resolved(jobs: Sequence[Job], opts: Options) -> tuple[list[Job], Options]:
    """The jobs of an export, each resolved (collapsed and laid out) once, and the options it
    runs with; :func:`units` and :func:`export` take them as they are, so a caller that asks
    for both lays out once."""
    if opts.drawing.backend is None:  # workers may outlive a change of the environment
        backend = os.environ.get("VIZGRAD_LAYOUT", "").strip().lower() or None
        if backend is not None:
            opts = replace(opts, drawing=opts.drawing.replace(backend=backend))
    return [resolve(j, opts) for j in jobs], opts


def units(jobs: Sequence[Job], opts: Options) -> int:
    """How many pictures an export makes: the length of its progress bar."""
    jobs, opts = resolved(jobs, opts)
    return _check(jobs, opts).units

