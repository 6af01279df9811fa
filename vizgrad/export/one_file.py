"""One file of one graph, its format named by its suffix: ``vizgrad render ... -o FILE``.

:func:`write_one` resolves the graph once (collapsed and laid out), checks the budget of
that one file, and writes it atomically; an SVG with the ``slides`` preset may become a set
of slides. The suffixes it reads are :data:`~vizgrad.export.jobs.SINGLE_FILE_FORMATS`::

    >>> import tempfile
    >>> from vizgrad.graph import examples
    >>> with tempfile.TemporaryDirectory() as d:
    ...     [p.name for p in write_one(examples.graph("fork"), f"{d}/fork.dot")]
    ['fork.dot']
"""

from __future__ import annotations

import os
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, Callable

from .checks import check
from .slide_budget import check_slides
from ..runtime.files import sweep_one, via_temp, write_atomic
from .jobs import ANIMATED_SUFFIX, SINGLE_FILE_FORMATS, Job, Options, drawing_of, player_source
from .jobs import drawn as _drawn
from .jobs import resolve, with_layouts
from .tasks import for_print
from ..exceptions import OptionError, RenderError
from ..style.presets import get as get_preset

__all__ = ["write_one"]


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
    check([job], replace(opts, formats=(kind,)), one_file=True)
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
    drawing = drawing_of(job, job.view_step(opts.step),
                         for_print(o) if fmt in ("png", "pdf") else o)
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
