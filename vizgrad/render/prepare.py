"""From what a user gives to what is drawn: the graph, collapsed or focused, and its steps.

Every entry point that draws (:func:`vizgrad.draw`, the player, the frames,
the embeds, the command line) turns its input into a :class:`Prepared` with
:func:`prepare`. A step is always counted in the graph the user gave, and
:meth:`Prepared.step` maps it to the drawn graph's own step, so ``step=597``
of a 612-step MLP shows the collapsed step that holds step 597::

    >>> from vizgrad import examples
    >>> from vizgrad.options import Options
    >>> p = prepare(examples.graph("mlp"), Options(collapse="neuron"))
    >>> p.source.number_of_nodes(), p.graph.number_of_nodes()
    (40, 9)
    >>> p.last, p.view_last, p.step(30), p.step("final")
    (49, 13, 10, None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._budget import too_many_values
from ..collapse import prepare as shrink_graph
from ..collapse import transform_step
from ..exceptions import GraphTooLargeError
from ..graph import as_graph
from ..options import Options, StepArg, resolve_step

__all__ = ["Prepared", "prepare", "refuse_large"]


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

    def step(self, step: StepArg, default: int | None = None) -> int | None:
        """The drawn graph's step that shows the state after ``step`` of the graph given
        (``None``: the final view); ``None`` as ``step`` gives ``default``."""
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


def prepare(x: Any, options: Options, *, check_size: bool = True) -> Prepared:
    """``x`` (a Value, Trace or graph) as a graph, with ``options``' collapse, focus and
    merged constants applied; refused past ``max_nodes`` unless ``check_size`` is off."""
    G = as_graph(x, options.model)
    H, chain = shrink_graph(G, collapse_at=options.collapse, focus_on=options.focus,
                            radius=options.radius, constants=options.merge_constants,
                            steps=options.group_steps, max_nodes=options.max_nodes)
    if check_size:
        refuse_large(H, options.max_nodes)
    return Prepared(G, H, tuple(chain))
