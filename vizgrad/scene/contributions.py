"""A graph's contributions, read once for a drawing, and the final view's state.

:class:`Contributions` holds each contribution by its edge, the step that made it, the
grad colour scale, the edges whose observed derivative disagrees with its op's rule and the
final check of the input gradients; the plan reads it from the graph before any layout::

    >>> from vizgrad import examples
    >>> c = Contributions.of(examples.graph("fork"))
    >>> len(c.by_edge), c.made[("v2", "v0", 0)], c.final["status"]
    (6, 7, 'agree')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from ..graph.gradcheck import final_check
from ..style.theme import robust_scale
from ..tracing.recorder import State, replay
from ..tracing.rules import check_contribution

__all__ = ["Contributions", "final_state"]


def final_state(G: Any) -> State:
    """The final view: the state after the last step, nothing active, every contribution."""
    steps = G.graph["steps"]
    if not G.graph.get("backward_ran", True):
        st = replay(steps, int(G.graph["default_step"]))
        st.active, st.contributions = None, []
        return st
    st = replay(steps, len(steps) - 1)
    st.active, st.kind = None, "final"
    st.contributions = [c for s in steps for c in s.get("contributions", ())]
    return st


@dataclass(frozen=True)
class Contributions:
    """A graph's contributions, read once: each by its edge ``(source, target, slot)``,
    the step that made it, and the grad colour scale of the values the steps show."""

    by_edge: Mapping[tuple[str, str, int], dict[str, Any]]
    made: Mapping[tuple[str, str, int], int]
    scale: float
    #: the edges whose observed local derivative disagrees with the op's rule, and the
    #: boxes (the ops' outputs) whose backward code they came from, by the step that ran it
    warned: frozenset[tuple[str, str, int]] = frozenset()
    warned_boxes: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    #: the final view's check of the input gradients (:func:`~vizgrad.graph.gradcheck.final_check`)
    final: Mapping[str, Any] | None = None

    @classmethod
    def of(cls, G: Any) -> Contributions:
        contrib: dict[tuple[str, str, int], dict[str, Any]] = {}
        made: dict[tuple[str, str, int], int] = {}
        shown: list[float] = []
        warned: set[tuple[str, str, int]] = set()
        boxes: dict[str, int] = {}
        for s in G.graph["steps"]:
            if s["kind"] == "seed":
                shown.append(s["grad"])
            for c in s.get("contributions", ()):
                contrib[(c["source"], c["target"], c["slot"])] = c
                made[(c["source"], c["target"], c["slot"])] = s["index"]
                shown.append(c["after"])
                verdict = check_contribution(G, c) if c.get("observed") else None
                if verdict is not None and not verdict.agrees:
                    warned.add((c["source"], c["target"], c["slot"]))
                    boxes.setdefault(c["source"], s["index"])
        scale = robust_scale([v for v in shown if isinstance(v, (int, float))])
        checked = final_check(G)
        return cls(MappingProxyType(contrib), MappingProxyType(made), scale,
                   frozenset(warned), MappingProxyType(boxes),
                   None if checked is None else MappingProxyType(checked))
