"""From the graph given to what is drawn: the graph, collapsed or focused, and its steps.

Every entry point that draws (:func:`vizgrad.draw`, the player, the frames,
the embeds, the command line) turns what it was given into a graph
(:func:`vizgrad.graph.convert.source_graph`: a Value is traced there, at the entry) and
that graph into a :class:`Prepared` with :func:`prepare`, which takes graphs only. A
step is counted in the view drawn, as its counter reads (``step 10 / 13``), so
``--step``, ``draw(step=…)``, the player's ``#step=`` and the gallery's step files count
the same steps; :meth:`Prepared.source_step` carries a step of the graph given to the
view's step that holds it::

    >>> from vizgrad import examples
    >>> from vizgrad.options import Options
    >>> p = prepare(examples.graph("mlp"), Options(collapse="neuron"))
    >>> p.source.number_of_nodes(), p.graph.number_of_nodes()
    (40, 9)
    >>> p.last, p.view_last, p.step(10), p.source_step(30), p.step("final")
    (49, 13, 10, 10, None)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

from ..graph.lite import LiteGraph
from ..graph.collapse import AUTO_NODES, batch_inputs, fold_outside, group_depth, transform_step
from ..graph.collapse import prepare as shrink_graph
from ..exceptions import GraphTooLargeError, LayoutTimeoutError
from ..options import NO_STEP, Options, StepArg, resolve_step
from .plan import require_graph

__all__ = ["too_many_values", "Prepared", "fitted", "overview_route", "prepare", "refuse_large"]


def too_many_values(n: int, limit: int, option: str = "max_nodes") -> str:
    """The one wording of the node limit, for drawings, animations and the command line.

    >>> too_many_values(2500, 2000)
    'this graph has 2,500 values, more than max_nodes=2,000'
    >>> too_many_values(2500, 2000, "--max-nodes")
    'this graph has 2,500 values, more than --max-nodes 2,000'
    """
    sep = " " if option.startswith("--") else "="
    return f"this graph has {n:,} values, more than {option}{sep}{limit:,}"


@dataclass(frozen=True)
class Prepared:
    """The graph given (``source``), the graph drawn (``graph``) and the graphs between."""

    source: Any
    graph: Any
    chain: tuple[Any, ...] = ()

    @property
    def last(self) -> int:
        """The last step of the graph given: steps are counted in it."""
        return len(self.source.graph["steps"]) - 1

    @property
    def view_last(self) -> int:
        """The last step of the graph drawn."""
        return len(self.graph.graph["steps"]) - 1

    def step(self, step: StepArg, default: StepArg = NO_STEP["picture"]) -> int | None:
        """``step`` of the view drawn, checked (``None``: the final view); ``None`` as ``step``
        gives ``default`` (a picture's: the final view)."""
        return resolve_step(step, self.view_last, default)

    def source_step(self, step: StepArg, default: StepArg = NO_STEP["picture"]) -> int | None:
        """The drawn graph's step that shows the state after ``step`` of the graph given."""
        return transform_step(list(self.chain), resolve_step(step, self.last, default))


def refuse_large(G: Any, max_nodes: int) -> None:
    """Raise :class:`GraphTooLargeError` for a graph of more than ``max_nodes`` values."""
    n = G.number_of_nodes()
    if n > max_nodes:
        raise GraphTooLargeError(
            f"{too_many_values(n, max_nodes)}; its layout "
            f"would be slow and unreadable. Draw it collapsed (collapse='auto' or a level such "
            f"as 'neuron'), focus on a part (focus=NODE), or pass max_nodes={n} to draw it anyway"
        )


def overview_route(options: Options) -> bool:
    """True when a graph past ``max_nodes`` would be drawn as an automatic overview, which
    :class:`~vizgrad.graph.lite.LiteGraph` collapses without the full networkx graph."""
    return options.collapse == "auto" and options.focus is None


def _given(G: Any, options: Options, where: str) -> Any:
    """The graph given, as it is collapsed: a :class:`~vizgrad.graph.lite.LiteGraph` stays
    one only on the overview route (:func:`overview_route`); a Value or a Trace is refused
    with :class:`~vizgrad.exceptions.NotAGraphError` (the entry traces it)."""
    if isinstance(G, LiteGraph):
        return G if overview_route(options) else G.to_networkx()
    require_graph(G, where)
    return G


def prepare(G: Any, options: Options, *, check_size: bool = True) -> Prepared:
    """The graph ``G`` (from :func:`vizgrad.to_networkx`, or a
    :class:`~vizgrad.graph.lite.LiteGraph`) with ``options``' collapse, focus and merged
    constants applied; refused past ``max_nodes`` unless ``check_size`` is off. A Value or
    a Trace is refused (:class:`~vizgrad.exceptions.NotAGraphError`): the entry turns it
    into a graph (:func:`vizgrad.graph.convert.source_graph`), and ``options.model``, which
    names a net while a Value is traced, is not read here.

    A graph drawn as an overview past ``max_nodes`` is collapsed from its trace's columns
    (:class:`~vizgrad.graph.lite.LiteGraph`): ``source`` is then that light graph (its
    ``to_networkx()`` is the full one); ``graph`` is always a networkx graph.

    >>> from vizgrad import Value
    >>> prepare(Value(2.0) * 3, Options())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    vizgrad.exceptions.NotAGraphError: prepare takes a graph, not a Value: call vizgrad.to_...
    """
    G = _given(G, options, "prepare")
    H, chain = shrink_graph(G, collapse_at=options.collapse, focus_on=options.focus,
                            radius=options.radius, constants=options.merge_constants,
                            steps=options.group_steps, max_nodes=options.max_nodes,
                            sample=options.sample)
    if isinstance(H, LiteGraph):  # nothing was collapsed: the whole graph is drawn
        lite, G = H, H.to_networkx()
        H, chain = G, [G if c is lite else c for c in chain]
    if check_size:
        refuse_large(H, options.max_nodes)
    return Prepared(G, H, tuple(chain))


def fitted(G: Any, options: Options, *, check_size: bool = True,
           on_layout: Callable[[], None] | None = None) -> tuple[Prepared, Any]:
    """:func:`prepare` of the graph ``G``, and the scene of the graph drawn, made to fit
    where the preset's pictures are shown (a 1,400 px docs column, a 960×540 slide;
    :func:`vizgrad.scene.scene.fits`) when ``collapse="auto"``:

    - a grouped graph is collapsed by the deepest group level that fits, else the coarsest;
    - an ungrouped graph of more than :data:`~vizgrad.graph.collapse.AUTO_NODES` values is
      drawn as the output's neighbourhood, as far out as fits, with ``… N more`` stubs
      for the rest; the caption says how to see more.

    ``on_layout()`` is called once the graph drawn is known, before its first layout.
    ``check_size=False`` leaves a graph past ``max_nodes`` to the caller (the command
    line's budget check refuses it with the command line's advice).

    Every layout tried shares one budget, ``options.timeout`` seconds: each is given
    what is left, and when it runs out the best picture so far is kept (a first layout
    past it raises :class:`~vizgrad.exceptions.LayoutTimeoutError`, which says to pass
    a larger ``timeout``).

    >>> from vizgrad import Value, to_networkx
    >>> s = sum((Value(i) * Value(-i) for i in range(60)), Value(0))
    >>> s.backward()
    >>> from vizgrad.scene.scene import fits
    >>> p, scene = fitted(to_networkx(s), Options())
    >>> p.source.number_of_nodes() > 100, p.graph.graph["focus"]["auto"], fits(scene)
    (True, True, True)
    """
    from .make import make_scene
    from .scene import fits

    ends = time.monotonic() + options.timeout  # one budget for every layout tried
    p = prepare(_given(G, options, "fitted"), options, check_size=check_size)
    if on_layout is not None:  # the graph drawn is known: its layout starts
        on_layout()
    info = p.graph.graph.get("collapsed") or {}
    if options.collapse == "auto" and "runs" not in info and "collapsed" not in p.source.graph \
            and options.focus is None and group_depth(p.source) == 0 \
            and p.source.number_of_nodes() > AUTO_NODES and too_long(p.graph, options):
        # the whole graph cannot fit: its overview, without laying the whole graph out first
        best, shown = _overview(p, None, options, ends)
        return (best, shown) if shown is not None else (p, make_scene(p.graph,
                                                                       **options.scene()))
    scene = make_scene(p.graph, **options.scene())
    if options.collapse != "auto" or fits(scene) or "runs" in info \
            or "collapsed" in p.source.graph or options.focus is not None:
        return p, scene
    if group_depth(p.source) == 0:
        return _overview(p, scene, options, ends) if p.source.number_of_nodes() > AUTO_NODES \
            else (p, scene)
    return _coarser(p, scene, options, ends)


def too_long(G: Any, options: Options) -> bool:
    """True when the picture of ``G`` cannot fit where the preset's pictures are shown, known
    before any layout: drawn left to right (as a graph of more than
    :data:`~vizgrad.scene.make.TURN_NODES` values is, unless ``rankdir="TB"``), its longest
    path spans at least one rank per edge, each ``ranksep`` wide, and even the largest text
    of the preset, scaled to the fit width, would be smaller than the smallest allowed.

    >>> from vizgrad import Value
    >>> x = Value(1.0)
    >>> for _ in range(400):
    ...     x = (x * Value(0.5)).tanh()
    >>> from vizgrad.graph.convert import to_networkx
    >>> too_long(to_networkx(x), Options()), too_long(to_networkx(x), Options(preset="compact"))
    (True, False)
    """
    import networkx as nx

    from ..style.presets import get as get_preset
    from .make import TURN_NODES

    preset = get_preset(options.preset)
    if preset.fit is None or options.rankdir == "TB" or G.number_of_nodes() <= TURN_NODES:
        return False
    width, _, smallest = preset.fit
    least = nx.dag_longest_path_length(G) * preset.ranksep * 72  # points, ranks alone
    largest = max(preset.font, preset.label, preset.op, preset.caption, preset.legend)
    return least > 0 and largest * width / least < smallest


def _within(G: Any, options: Options, ends: float) -> Any:
    """Another scene of ``G`` in what is left of the drawing's layout time, else None."""
    from .make import make_scene

    left = ends - time.monotonic()
    if left <= 0:
        return None
    try:
        return make_scene(G, **options.replace(timeout=left).scene())
    except LayoutTimeoutError:
        return None


def _coarser(p: Prepared, scene: Any, options: Options, ends: float) -> tuple[Prepared, Any]:
    """Collapse one group level further until the picture fits (the coarsest stays),
    while the drawing's layout time lasts."""
    from .scene import fits

    depth = group_depth(p.source)
    now = (p.graph.graph.get("collapsed") or {}).get("level", depth + 1)
    now = {"layer": 1, "neuron": 2}.get(now, now) if isinstance(now, str) else now
    # a coarser level did not fit the inputs beside the boxes either: they stay inside, but
    # a batch's, which are one box of samples × features (graph.collapse.batch)
    keep = options.replace(merge_constants=False) if options.merge_constants is None and \
        not batch_inputs(p.source) else options
    for level in range(min(depth, int(now) - 1), 0, -1):
        q = prepare(fold_outside(p.source), keep.replace(collapse=level, model=None))
        # chosen automatically, from the folded source and with the inputs as ``keep`` says:
        # the player starts from the same, so its groups open (export.jobs.player_source)
        q.graph.graph["collapsed"].update(auto=True, folded=True)
        if keep.merge_constants is False:
            q.graph.graph["collapsed"]["inputs"] = False
        coarser = _within(q.graph, options, ends)
        if coarser is None:
            break
        p, scene = Prepared(p.source, q.graph, q.chain), coarser
        if fits(scene):
            break
    return p, scene


#: the farthest an automatic overview looks from the output, in edges
OVERVIEW_RADIUS = 12


def _overview(whole: Prepared, scene: Any, options: Options,
              ends: float) -> tuple[Prepared, Any]:
    """The output's neighbourhood with the largest radius that fits (at least 1), as far
    as the drawing's layout time lasts; ``(whole, scene)`` if none could be laid out
    (``scene`` may be None: the whole graph not laid out yet)."""
    from .scene import fits

    root, best = whole.source.graph["root"], None
    for radius in range(1, OVERVIEW_RADIUS + 1):
        q = prepare(whole.source, options.replace(collapse=False, focus=root, radius=radius))
        if not q.graph.graph["focus"]["hidden"]:
            break  # this far out is the whole graph, which did not fit
        q.graph.graph["focus"]["auto"] = True  # the caption says how to see more
        shown = _within(q.graph, options, ends)
        if shown is None or (best is not None and not fits(shown)):
            break
        best = q, shown
    return best or (whole, scene)
