"""Batch export behind ``vizgrad render``: SVGs per step, animated SVG, GIF, JSON, DOT, player.

:func:`export` writes one folder per graph and spreads the work over
processes; :func:`write_one` writes a single file whose suffix names the
format. Every file is written atomically (a temporary file, then
``os.replace``) and left untouched when its bytes have not changed, so an
interrupted export leaves no half-written file and a re-run on an unchanged
tree changes nothing::

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
from functools import partial
from pathlib import Path
from typing import Any, Callable, Sequence

from . import pool as _pool
from .budget import Estimate
from .budget import check as budget_check
from .slide_budget import check_slides
from ..runtime.files import prune, sweep, sweep_one, via_temp, write_atomic
from .gallery_page import TRANSLATED_FORMATS, in_languages, step_file, write_pages
from .jobs import (ANIMATED_SUFFIX, DEFAULT_FORMATS, FORMATS, PICTURES, SINGLE_FILE_FORMATS,
                    Job, Options, drawing_of, player_source, resolve, with_layouts)
from .jobs import drawn as _drawn
from ..exceptions import OptionError, RenderError
from ..options import Options as DrawOptions
from ..style.presets import get as get_preset

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


def _print(o: DrawOptions) -> DrawOptions:
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
        written[f"{n}.png"] = via_temp(folder / f"{n}.png",
                                       drawing_of(job, job.view_step(opts.step), _print(o)).save)
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


def _framed(job: Job, opts: Options) -> bool:
    """``--frames`` writes PNG frames in an example's own folder, not in its other languages'."""
    return opts.frames and job.folder == job.name


def plan(jobs: Sequence[Job], opts: Options) -> list[tuple[str, Job]]:
    """The tasks of an export, biggest graphs first so two workers finish together."""
    tasks = []
    for j in jobs:
        formats = j.options(opts).formats
        kinds = ["pictures"] if set(formats) & PICTURES else []
        kinds += [k for k in ("gif", "mp4") if k in formats]
        if _framed(j, opts):
            kinds.append("frames")
        tasks += [(k, j) for k in kinds]
    return sorted(tasks,
                  key=lambda t: -t[1].graph.number_of_nodes() * (2 if t[0] != "pictures" else 1))


def _check(jobs: Sequence[Job], opts: Options, one_file: bool = False) -> Estimate:
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
    _check_tools(opts.formats)
    from ..player import page as html

    return budget_check([(j.folder, j.graph) for j in jobs], opts.formats, frames=opts.frames,
                        max_nodes=opts.drawing.max_nodes, max_cells=opts.max_cells,
                        max_bytes=opts.max_bytes, max_seconds=opts.max_seconds,
                        player=html.estimate, each=[_kinds(j, opts) for j in jobs],
                        sizes={j.folder: j.size for j in jobs},
                        sources={j.folder: j.source for j in jobs if j.source is not None},
                        one_file=one_file)


def _kinds(job: Job, opts: Options) -> list[str]:
    """The kinds of file (:data:`vizgrad.export.budget.KINDS`) a job writes: exactly its files."""
    kinds: list[str] = []
    for f in job.options(opts).formats:
        kinds += [f, "steps"] if f == "svg" and job.steps else [f]
    return kinds + (["frames"] if _framed(job, opts) else [])


def _check_tools(formats: Sequence[str]) -> None:
    """mp4 needs ffmpeg: say so before anything is written."""
    if "mp4" in formats:
        from ..write.raster.frames import find_ffmpeg

        if find_ffmpeg() is None:
            raise RenderError(
                "mp4 needs ffmpeg: pip install 'vizgrad[mp4]' (it ships a binary), or install "
                "ffmpeg so that it is on your PATH (apt install ffmpeg, brew install ffmpeg); "
                "or write a gif instead")


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


def write_one(G: Any, path: str | os.PathLike[str], opts: Options = Options(),
              title: str | None = None, name: str | None = None,
              on_step: Callable[[int], None] | None = None,
              on_phase: Callable[[str], None] | None = None, force: bool = False) -> list[Path]:
    """Write one file; its suffix names the format (see :data:`SINGLE_FILE_FORMATS`).

    ``name`` is what messages call the graph (default: the file's stem);
    ``on_step(1)`` is called after each frame of an animation; ``on_phase(name)`` as each
    phase starts: ``"collapse"``, ``"layout"``, ``"write"``. Returns the paths written:
    one, except an SVG with the ``slides`` preset too big for one slide, written as
    ``NAME-1.svg``, ``NAME-2.svg`` … (:meth:`~vizgrad.write.svg.Drawing.slides`): every
    slide is counted by the budget before any is drawn, and the set replaces no
    ``NAME-k.svg`` vizgrad did not write unless ``force``.
    """
    phase = on_phase or (lambda name: None)
    target = Path(path)
    fmt = target.suffix.lower().lstrip(".")
    if target.name.lower().endswith(ANIMATED_SUFFIX):
        fmt = ANIMATED_SUFFIX.lstrip(".")
    if fmt not in SINGLE_FILE_FORMATS:
        raise OptionError(f"cannot tell the format of {target.name!r} from its suffix "
                          f"(must be one of {', '.join('.' + f for f in SINGLE_FILE_FORMATS)})")
    kind = {"webp": "gif", "pdf": "png", "anim.svg": "animated-svg"}.get(fmt, fmt)
    phase("collapse")
    job = resolve(Job(name or target.stem, G, title, steps=False), opts,
                  on_layout=lambda: phase("layout"))  # one file
    G = job.graph
    _check([job], replace(opts, formats=(kind,)), one_file=True)
    phase("write")
    parent = target.parent
    for folder in (parent, *parent.parents):
        if folder.exists() and not folder.is_dir():
            raise RenderError(f"cannot write {target}: {folder} is a file, not a folder")
    if not parent.is_dir():
        raise RenderError(f"cannot write {target}: the folder {parent} does not exist; "
                          "create it first")
    sweep_one(target)
    # the player and the frames reuse the layout resolve ran: no second Graphviz run
    return with_layouts(partial(_write_one, target=target, fmt=fmt, title=title,
                                on_step=on_step, force=force), job, None, opts)


def _write_one(job: Job, folder: None, opts: Options, *, target: Path, fmt: str,
               title: str | None, on_step: Callable[[int], None] | None,
               force: bool = False) -> list[Path]:
    G = job.graph
    if fmt in ("gif", "mp4", "webp"):
        from ..write.raster.frames import animate

        via_temp(target, lambda p: animate(G, p, options=_drawn(opts.drawing), progress=on_step))
        return [target]
    from ..graph.convert import to_json
    from ..player.page import player_html

    o = opts.drawing  # drawing_of draws the job's graph as it is (already collapsed)
    drawing = drawing_of(job, job.view_step(opts.step), _print(o) if fmt in ("png", "pdf") else o)
    if fmt == "svg" and get_preset(o.preset).name == "slides":
        check_slides(job.name, G, drawing.slide_count(), opts.max_bytes, opts.max_seconds)
        return drawing.save_slides(target, force=force)
    if fmt == "svg":
        write_atomic(target, drawing.svg().encode("utf-8"))
    elif fmt == "anim.svg":
        write_atomic(target, drawing.animated_svg().encode("utf-8"))
    elif fmt == "dot":
        write_atomic(target, drawing.dot().encode("utf-8"))
    elif fmt == "json":
        write_atomic(target, (to_json(job.source, indent=1) + "\n").encode("utf-8"))
    elif fmt == "html":
        source, how, start = player_source(job, opts)
        page = player_html(source, start, options=how, title=title)
        write_atomic(target, page.encode("utf-8"))
    else:
        via_temp(target, drawing.save)
    return [target]
