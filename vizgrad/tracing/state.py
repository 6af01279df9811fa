"""What is known after each step of a trace: data and grads by node id, the active node.

The steps alone say it: :func:`replay` applies them up to one step, :func:`states` yields
the state after every step::

    >>> steps = [{"index": 0, "kind": "inputs", "node": None, "values": {"v0": 2.0}},
    ...          {"index": 1, "kind": "forward", "node": "v1", "value": 4.0},
    ...          {"index": 2, "kind": "seed", "node": "v1", "grad": 1.0}]
    >>> s = replay(steps, 2)
    >>> s.data, s.grad, s.active
    ({'v0': 2.0, 'v1': 4.0}, {'v1': 1.0}, 'v1')
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["State", "replay", "states"]


@dataclass
class State:
    """What is known right after one step: data and grads by node id, the active node."""

    step: int
    kind: str
    active: str | None
    data: dict[str, float] = field(default_factory=dict)
    grad: dict[str, float] = field(default_factory=dict)
    contributions: list[dict[str, Any]] = field(default_factory=list)


def _apply(state: State, step: dict[str, Any]) -> None:
    kind = step["kind"]
    state.step, state.kind, state.active = step["index"], kind, step.get("node")
    state.contributions = step.get("contributions", [])
    if kind == "inputs":
        state.data.update(step.get("values", {}))
    elif kind == "forward":
        state.data[step["node"]] = step["value"]
    elif kind == "seed":
        state.grad[step["node"]] = step["grad"]
    elif kind == "backward":
        for c in step["contributions"]:
            state.grad[c["target"]] = c["after"]


def states(steps: Sequence[dict[str, Any]]) -> Iterator[State]:
    """Yield an independent :class:`State` after each step, in order."""
    state = State(0, "inputs", None)
    for step in steps:
        _apply(state, step)
        yield State(state.step, state.kind, state.active, dict(state.data), dict(state.grad),
                    state.contributions)


def replay(steps: Sequence[dict[str, Any]], k: int) -> State:
    """The :class:`State` right after step ``k`` (0-based), from the steps alone.

    >>> from vizgrad import Value
    >>> from vizgrad.tracing.recorder import trace
    >>> a = Value(2.0, label="a")
    >>> s = replay(trace(a * a).steps, 0)
    >>> s.data, s.grad
    ({'v0': 2.0}, {})
    """
    if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < len(steps):
        raise IndexError(f"step {k!r} is out of range: this trace has steps 0..{len(steps) - 1}")
    state = State(0, "inputs", None)
    for step in steps[: k + 1]:
        _apply(state, step)
    return state
