"""What an export renders: its formats, its options, and the jobs (one graph each).

:class:`Options` holds what applies to a whole export; a :class:`Job` is one
graph and where it goes. :func:`resolve` draws a large graph collapsed (see
:mod:`vizgrad.graph.collapse`) and keeps the original for the JSON and the player::

    >>> from vizgrad import examples
    >>> job = resolve(Job("mlp", examples.graph("mlp"), shrink={"collapse": "neuron"}), Options())
    >>> job.view_step(10), job.view_step(None)  # counted in the view drawn, as its counter
    (10, None)
    >>> job.source.number_of_nodes(), job.graph.number_of_nodes()
    (40, 9)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, TypeVar

from .budget import DEFAULT_MAX_BYTES, DEFAULT_MAX_SECONDS, MAX_CELLS
from .gallery_page import job_folder
from ..options import Options as DrawOptions
from ..options import StepArg
from ..scene.layout.run import recording, reusing
from ..scene.prepare import Prepared, fitted, prepare
from ..scene.make import make_scene

__all__ = ["ANIMATED_SUFFIX", "DEFAULT_FORMATS", "FORMATS", "LAID_OUT", "PICTURES",
           "SINGLE_FILE_FORMATS",
           "Job", "Options", "drawing_of", "drawn", "player_source", "resolve", "with_layouts"]

_T = TypeVar("_T")

#: every format ``vizgrad render --format`` accepts
FORMATS = ("svg", "animated-svg", "gif", "png", "mp4", "json", "dot", "html")
#: what a plain ``vizgrad render`` writes (png needs the system ``dot``, mp4 ffmpeg)
DEFAULT_FORMATS = ("svg", "animated-svg", "gif", "json", "dot", "html")
#: suffixes ``-o FILE`` accepts (``.anim.svg``: the animated SVG)
SINGLE_FILE_FORMATS = ("svg", "anim.svg", "dot", "json", "html", "gif", "mp4", "webp", "png",
                       "pdf")
#: the file name ending of an animated SVG
ANIMATED_SUFFIX = ".anim.svg"
#: a graph drawn with at most this many values (or boxes) is laid out before the budget
#: check, which then knows the size of its frames (a layout of more would take seconds)
LAID_OUT = 300
#: the pictures task writes these formats (one layout, shared)
PICTURES = {"svg", "animated-svg", "dot", "json", "html", "png"}


@dataclass(frozen=True)
class Options:
    """How to export: formats, PNG frames, the step of the single pictures, the limits, and
    the drawing options (:class:`vizgrad.options.Options`).

    ``step`` counts the steps of the view drawn, as :func:`vizgrad.draw` does.
    The limits are checked before anything is written: ``drawing.max_nodes``
    values per graph, ``max_cells`` values × steps per step player, and the
    estimated output (``max_bytes``) and time (``max_seconds``) of the whole
    export (see :mod:`vizgrad.export.budget`). A job's own collapse level (the ``mlp``
    example's ``"neuron"``) applies while ``drawing.collapse`` is ``"auto"``.
    """

    formats: tuple[str, ...] = DEFAULT_FORMATS
    frames: bool = False
    step: StepArg = None
    max_cells: int = MAX_CELLS
    max_bytes: int = DEFAULT_MAX_BYTES
    max_seconds: float = DEFAULT_MAX_SECONDS
    drawing: DrawOptions = DrawOptions()


@dataclass(frozen=True)
class Job:
    """One graph to export into ``out/<name>/``; ``title`` heads its step player.

    ``shrink`` holds the job's own collapse options (an example's level);
    :func:`resolve` makes ``graph`` the graph drawn, keeps the original in
    ``source`` (its JSON is written, and the player starts from it) and the way
    between in ``prepared`` (steps are counted in the source).
    A job with a ``lang`` writes its words in that language (instead of
    the drawing options' ``lang``), into ``out/<name>/<lang>/`` unless it is English;
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
    prepared: Prepared | None = None
    #: the picture's width and height in points, once its layout is known (for the budget)
    size: tuple[float, float] | None = None
    #: (the drawing options' ``scene()``, the scene of ``graph`` laid out with them) when
    #: :func:`resolve` laid it out, so the writers draw it without a second layout; kept in
    #: this process only (a worker process gets the job without it)
    laid_out: tuple[dict[str, Any], Any] | None = field(default=None, compare=False, repr=False)
    #: every layout :func:`resolve` ran, ((DOT, format, backend), output): a worker process
    #: reuses them (:func:`vizgrad.scene.layout.run.reusing`) instead of laying out again
    layouts: tuple[tuple[Any, bytes], ...] = field(default=(), compare=False, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled for a worker process without the scene (it holds read-only mappings)."""
        state = dict(self.__dict__)
        state["laid_out"] = None
        return state

    def scene(self, scene_options: dict[str, Any]) -> Any:
        """The scene :func:`resolve` laid out, if it was laid out with ``scene_options``."""
        if self.laid_out is not None and self.laid_out[0] == scene_options:
            return self.laid_out[1]
        return None

    @property
    def folder(self) -> str:
        """Where the files go, relative to the export: ``fork``, or ``fork/zh``."""
        return job_folder(self.name, self.lang)

    def options(self, opts: Options) -> Options:
        """``opts`` with this job's language and formats (``opts`` itself when they are its
        own: options are built once per entry)."""
        formats = opts.formats if self.formats is None else tuple(
            f for f in opts.formats if f in self.formats)
        lang = self.lang or opts.drawing.lang
        if formats == opts.formats and lang == opts.drawing.lang:
            return opts
        return replace(opts, formats=formats, drawing=opts.drawing.replace(lang=lang))

    def view_step(self, step: StepArg) -> int | None:
        """``step`` of the drawn graph, checked (``None``: the final view)."""
        p = self.prepared or Prepared(self.graph, self.graph)
        return p.step(step)


def resolve(job: Job, opts: Options, on_layout: Callable[[], None] | None = None) -> Job:
    """``job`` with its graph collapsed or focused as ``opts`` and the job ask; once.
    ``on_layout()`` is called when the collapse is done and the layout starts."""
    if job.prepared is not None:
        return job
    from ..write.svg import graph_to_draw

    o = job.options(opts).drawing  # fitted in the job's own language
    if o.collapse == "auto" and job.shrink.get("collapse") is not None:
        o = o.replace(collapse=job.shrink["collapse"])
    scene, G = None, graph_to_draw(job.graph, o)
    with recording() as made:
        if o.collapse == "auto" and o.focus is None:  # what draw() draws: made to fit the page
            p, scene = fitted(G, o, check_size=False,  # the budget refuses, with advice
                              on_layout=on_layout)
        else:
            p = prepare(G, o, check_size=False)
            if on_layout is not None:
                on_layout()
            if p.graph.number_of_nodes() <= LAID_OUT:
                scene = make_scene(p.graph, **o.scene())
    return replace(job, graph=p.graph, source=job.graph, prepared=p,
                   size=None if scene is None else scene.size,
                   laid_out=None if scene is None else (o.scene(), scene),
                   layouts=tuple(made.items()),
                   shrink={"collapse": o.collapse, "focus": o.focus})


def drawn(o: DrawOptions) -> DrawOptions:
    """A job's graph is already collapsed or focused: draw it as it is."""
    return o.replace(collapse=False, focus=None, merge_constants=None, model=None)


def drawing_of(job: Job, step: int | None, o: DrawOptions) -> Any:
    """The :class:`~vizgrad.write.svg.Drawing` of the job's graph, as it is, at its own
    ``step``: on the scene :func:`resolve` laid out when ``o`` draws it alike (no new options
    are built then), else laid out now."""
    from ..write.svg import Drawing, draw

    scene = job.scene(o.scene())
    return Drawing(scene, step, Prepared(job.graph, job.graph)) if scene is not None else draw(
        job.graph, step, options=drawn(o))


def with_layouts(work: Callable[..., _T], job: Job, folder: Any, opts: Options) -> _T:
    """``work``, with the layouts :func:`resolve` ran answered without Graphviz (a worker
    process writes from the parent's layouts: each graph is laid out once)."""
    with reusing(dict(job.layouts)):
        return work(job, folder, opts)


def _group_level(job: Job) -> int | None:
    """The group depth an automatic collapse drew ``job`` at, when the player can start from
    the source at that depth: boxes are groups (not runs of the order, which do not open)
    and the source is a networkx graph (a light graph past ``max_nodes`` is drawn as is)."""
    import networkx as nx

    info = job.graph.graph.get("collapsed") or {}
    level = info.get("level")
    if not info.get("auto") or "runs" in info or not isinstance(level, int):
        return None
    return level if isinstance(job.source, nx.MultiDiGraph) or hasattr(
        job.source, "to_networkx") else None


def _auto_source(job: Job, o: DrawOptions, level: int) -> tuple[Any, DrawOptions]:
    """The source and options that give the player the boxes an automatic collapse drew at
    ``level``: a light graph as its networkx graph, folded as the picture was
    (:func:`_folded_like`), and the batch's inputs kept inside the boxes when the collapse
    went a level coarser to fit (:func:`vizgrad.scene.prepare.fitted`)."""
    info = job.graph.graph.get("collapsed") or {}
    source = job.source
    if hasattr(source, "to_networkx"):
        source = source.to_networkx()
    if info.get("inputs", True) is False and o.merge_constants is None:
        o = o.replace(merge_constants=False)
    return _folded_like(job, source), o.replace(collapse=level)


def _folded_like(job: Job, source: Any = None) -> Any:
    """The source as the drawn graph was collapsed from it: with the values after every
    group in one box (:func:`~vizgrad.graph.collapse.fold.fold_outside`) when the picture
    drew them so, so the player has the same boxes and steps as the pictures (the same
    nodes and steps as the source: its step numbers are the source's)."""
    from ..graph.collapse.fold import OUTSIDE, fold_outside

    source = job.source if source is None else source
    folded = any(a.get("kind") == "group" and a.get("group") == OUTSIDE
                 for _, a in job.graph.nodes(data=True))
    mine = any(g == OUTSIDE for _, g in source.nodes(data="group"))
    return fold_outside(source) if folded and not mine else source


def player_source(job: Job, opts: Options) -> tuple[Any, DrawOptions, StepArg]:
    """What the player gets: the source with a level (given, or the one an automatic collapse
    chose, so it can open groups; steps count the source) or a focus, else the drawn graph
    as it is (steps count it)."""
    o = opts.drawing
    level, plain = job.shrink.get("collapse"), o.replace(collapse=False, focus=None,
                                                         merge_constants=None)
    if job.prepared is None or not job.prepared.chain:
        return job.graph, plain, opts.step
    if level not in ("auto", False) or job.shrink.get("focus") is not None:
        return job.source, o.replace(collapse=level), opts.step
    chosen = _group_level(job)
    if chosen is not None:  # the level the automatic collapse chose: its groups open
        return (*_auto_source(job, o, chosen), opts.step)
    k = job.view_step(opts.step)
    return job.graph, plain, "final" if k is None and opts.step is not None else k
