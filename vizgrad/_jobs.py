"""What an export renders: its formats, its options, and the jobs (one graph each).

:class:`Options` holds what applies to a whole export; a :class:`Job` is one
graph and where it goes. :func:`resolve` draws a large graph collapsed (see
:mod:`vizgrad.collapse`) and keeps the original for the JSON and the player::

    >>> from vizgrad import examples
    >>> job = resolve(Job("mlp", examples.graph("mlp"), shrink={"collapse": "neuron"}), Options())
    >>> job.source.number_of_nodes(), job.graph.number_of_nodes()
    (40, 9)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ._budget import DEFAULT_MAX_BYTES, DEFAULT_MAX_SECONDS, MAX_CELLS
from ._gallery_page import job_folder
from .render.layout import DEFAULT_TIMEOUT
from .render.svg import DEFAULT_MAX_NODES

__all__ = ["ANIMATED_SUFFIX", "DEFAULT_FORMATS", "FORMATS", "PICTURES", "SINGLE_FILE_FORMATS",
           "Job", "Options", "player_source", "resolve"]

#: every format ``vizgrad render --format`` accepts
FORMATS = ("svg", "animated-svg", "gif", "png", "mp4", "json", "dot", "html")
#: what a plain ``vizgrad render`` writes (png needs the system ``dot``, mp4 ffmpeg)
DEFAULT_FORMATS = ("svg", "animated-svg", "gif", "json", "dot", "html")
#: suffixes ``-o FILE`` accepts (``.anim.svg``: the animated SVG)
SINGLE_FILE_FORMATS = ("svg", "anim.svg", "dot", "json", "html", "gif", "mp4", "webp", "png",
                       "pdf")
#: the file name ending of an animated SVG
ANIMATED_SUFFIX = ".anim.svg"
#: the pictures task writes these formats (one layout, shared)
PICTURES = {"svg", "animated-svg", "dot", "json", "html", "png"}


@dataclass(frozen=True)
class Options:
    """How to render: formats, PNG frames, the step of the single pictures, look, layout.

    ``backend`` is the Graphviz layout (``"embedded"``, ``"system"``, or None
    for ``VIZGRAD_LAYOUT`` else embedded); png and pdf always need the system one.
    The limits are checked before anything is written: ``max_nodes`` values per
    graph, ``max_cells`` values × steps per step player, ``timeout`` seconds per
    Graphviz layout, and the estimated output (``max_bytes``) and time
    (``max_seconds``) of the whole export (see :mod:`vizgrad._budget`).
    """

    formats: tuple[str, ...] = DEFAULT_FORMATS
    frames: bool = False
    step: int | None = None
    rankdir: str = "LR"
    theme: str = "light"
    decimals: int = 4
    preset: str = "docs"
    lang: str | None = None
    backend: str | None = None
    max_nodes: int = DEFAULT_MAX_NODES
    max_cells: int = MAX_CELLS
    timeout: float = DEFAULT_TIMEOUT
    max_bytes: int = DEFAULT_MAX_BYTES
    max_seconds: float = DEFAULT_MAX_SECONDS
    #: large graphs (see :mod:`vizgrad.collapse`): None keeps each job's own setting
    #: (an example's level, else ``"auto"``); ``False`` draws every value
    collapse: Any = None
    focus: str | None = None
    radius: int = 2
    group_steps: str = "merge"
    merge_constants: Any = None


@dataclass(frozen=True)
class Job:
    """One graph to export into ``out/<name>/``; ``title`` heads its step player.

    ``shrink`` holds the job's own collapse options (an example's level);
    :func:`resolve` makes ``graph`` the graph drawn and keeps the original in
    ``source`` (its JSON is written, and the player starts from it).
    A job with a ``lang`` writes its words in that language (instead of
    :attr:`Options.lang`), into ``out/<name>/<lang>/`` unless it is English;
    ``formats`` narrows :attr:`Options.formats` for this job, and ``steps=False``
    leaves out the per-step SVGs.
    """

    name: str
    graph: Any
    title: str | None = None
    shrink: dict[str, Any] = field(default_factory=dict)
    source: Any = None
    lang: str | None = None
    formats: tuple[str, ...] | None = None
    steps: bool = True

    @property
    def folder(self) -> str:
        """Where the files go, relative to the export: ``fork``, or ``fork/zh``."""
        return job_folder(self.name, self.lang)

    def options(self, opts: Options) -> Options:
        """``opts`` with this job's language and formats."""
        formats = opts.formats if self.formats is None else tuple(
            f for f in opts.formats if f in self.formats)
        return replace(opts, formats=formats, lang=self.lang or opts.lang)


def resolve(job: Job, opts: Options) -> Job:
    """``job`` with its graph collapsed or focused as ``opts`` and the job ask; once."""
    from .render.svg import shrink

    if job.source is not None:
        return job
    wanted = {"collapse": "auto", **job.shrink}
    if opts.collapse is not None:
        wanted["collapse"] = opts.collapse
    for key in ("focus", "merge_constants"):
        if getattr(opts, key) is not None:
            wanted[key] = getattr(opts, key)
    wanted.update(radius=opts.radius, group_steps=opts.group_steps)
    G, _ = shrink(job.graph, None, max_nodes=opts.max_nodes, **wanted)
    return replace(job, graph=G, source=job.graph, shrink=wanted)


def player_source(job: Job) -> tuple[Any, dict[str, Any]]:
    """What the player gets: the source and an explicit level (so it can expand groups),
    else the drawn graph as it is."""
    level = job.shrink.get("collapse")
    if job.source is None or job.graph is job.source:
        return job.graph, {}
    if level not in ("auto", None, False) or job.shrink.get("focus") is not None:
        return job.source, {k: v for k, v in job.shrink.items() if v is not None}
    return job.graph, {}
