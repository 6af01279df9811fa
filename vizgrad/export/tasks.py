"""The tasks of an export: what each kind writes (pictures, gif, mp4, frames), and which
kinds and files a job has.

:func:`plan` lists an export's tasks, biggest graphs first; :data:`TASKS` runs one of a
kind (in this process or a worker of :mod:`vizgrad.export.pool`); :func:`kinds` names the
files a job writes, for the budget::

    >>> from vizgrad.export.jobs import Job, Options
    >>> from vizgrad.graph import examples
    >>> job = Job("fork", examples.graph("fork"))
    >>> [k for k, _ in plan([job], Options(formats=("svg", "gif")))]
    ['gif', 'pictures']
    >>> kinds(job, Options(formats=("svg", "json")))
    ['svg', 'steps', 'json']
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Sequence

from . import pool as _pool
from ..runtime.files import prune, via_temp, write_atomic
from .gallery_page import step_file
from .jobs import ANIMATED_SUFFIX, PICTURES, Job, Options, drawing_of, player_source, with_layouts
from .jobs import drawn as _drawn
from ..options import Options as DrawOptions

__all__ = ["TASKS", "for_print", "framed", "kinds", "plan"]


def for_print(o: DrawOptions) -> DrawOptions:
    """For png and pdf, which only the system Graphviz writes."""
    return o if o.backend != "embedded" else o.replace(backend=None)


def _pictures(job: Job, folder: Path, opts: Options) -> dict[str, bool]:
    """The SVGs (per step and animated), DOT, JSON, HTML and PNG of one graph (one layout)."""
    from ..graph.convert import to_json
    from ..player.page import player_html

    G, n, opts = job.graph, job.name, job.options(opts)
    o = opts.drawing  # drawing_of draws the job's graph as it is (already collapsed)
    written: dict[str, bool] = {}

    def put(rel: str, text: str) -> None:
        written[rel] = write_atomic(folder / rel, text.encode("utf-8"))

    steps = range(len(G.graph["steps"]))
    main = drawing_of(job, job.view_step(opts.step), o)
    if "svg" in opts.formats:
        put(f"{n}.svg", main.svg())
        for k in steps if job.steps else ():
            put(step_file(G, k), main.at(k).svg())
            _pool.report(1)
        keep = {Path(step_file(G, k)).name for k in steps} if job.steps else set()
        prune(folder / "steps", keep, "step-", ".svg")
    if "animated-svg" in opts.formats:
        put(f"{n}{ANIMATED_SUFFIX}", main.animated_svg())
        _pool.report(len(steps))
    if "dot" in opts.formats:
        put(f"{n}.dot", main.dot())
    if "json" in opts.formats:
        put(f"{n}.json", to_json(G if job.source is None else job.source, indent=1) + "\n")
    if "html" in opts.formats:
        source, how, start = player_source(job, opts)
        put(f"{n}.html", player_html(source, start, options=how, title=job.title))
        _pool.report(len(steps))
    if "png" in opts.formats:
        written[f"{n}.png"] = via_temp(
            folder / f"{n}.png", drawing_of(job, job.view_step(opts.step), for_print(o)).save)
    return written


def _animation(job: Job, folder: Path, opts: Options, suffix: str) -> dict[str, bool]:
    from ..write.raster.frames import animate

    rel = f"{job.name}.{suffix}"
    opts = job.options(opts)
    return {rel: via_temp(folder / rel, lambda p: animate(job.graph, p,
                                                          options=_drawn(opts.drawing),
                                                          progress=_pool.progress_hook()))}


def _frames(job: Job, folder: Path, opts: Options) -> dict[str, bool]:
    from ..write.raster.frames import frames

    opts = job.options(opts)
    before = {p.name: p.read_bytes() for p in (folder / "frames").glob("frame-*.png")}
    paths = frames(job.graph, folder / "frames", "png", options=_drawn(opts.drawing),
                   progress=_pool.progress_hook())
    return {f"frames/{p.name}": before.get(p.name) != p.read_bytes() for p in paths}


#: what a task of each kind writes, run by :mod:`vizgrad.export.pool` (picklable: no lambda)
TASKS = {
    "pictures": partial(with_layouts, _pictures),
    "gif": partial(with_layouts, partial(_animation, suffix="gif")),
    "mp4": partial(with_layouts, partial(_animation, suffix="mp4")),
    "frames": partial(with_layouts, _frames),
}


def framed(job: Job, opts: Options) -> bool:
    """``--frames`` writes PNG frames in an example's own folder, not in its other languages'."""
    return opts.frames and job.folder == job.name


def plan(jobs: Sequence[Job], opts: Options) -> list[tuple[str, Job]]:
    """The tasks of an export, biggest graphs first so two workers finish together."""
    tasks = []
    for j in jobs:
        formats = j.options(opts).formats
        kinds = ["pictures"] if set(formats) & PICTURES else []
        kinds += [k for k in ("gif", "mp4") if k in formats]
        if framed(j, opts):
            kinds.append("frames")
        tasks += [(k, j) for k in kinds]
    return sorted(tasks,
                  key=lambda t: -t[1].graph.number_of_nodes() * (2 if t[0] != "pictures" else 1))


def kinds(job: Job, opts: Options) -> list[str]:
    """The kinds of file (:data:`vizgrad.export.budget.KINDS`) a job writes: exactly its files."""
    kinds: list[str] = []
    for f in job.options(opts).formats:
        kinds += [f, "steps"] if f == "svg" and job.steps else [f]
    return kinds + (["frames"] if framed(job, opts) else [])
