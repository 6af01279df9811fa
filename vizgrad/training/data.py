"""What a training run recorded, and how it is saved.

A :class:`TrainingData` (the numbers of a :class:`~vizgrad.training.record.Training`,
which also writes them) holds one :class:`Run` (or two, with ``compare="no-zero-grad"``): per
step the loss the build function returned, and per parameter its ``data`` before the update
and its ``grad``. :meth:`~vizgrad.training.record.Training.save` writes it by the file's
suffix: ``.json``,
``.html`` (the training player), ``.svg`` (a summary for docs and slides), ``.gif`` or
``.mp4``. The JSON::

    {"format": "vizgrad-training", "version": 1, "lr": "0.05", "net": {...},
     "parameters": ["L0.N0.w0", ...], "samples": {"x": [...], "y": [...]},
     "steps": [{"k": 0, "lr": 0.05, "loss": 4.2, "predictions": [...],
                "parameters": [{"name": "L0.N0.w0", "data": 0.52, "grad": 1.24}, ...]}, ...],
     "zero_grad": "zeroed", "stopped": null, "compare": null}
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

__all__ = ["FORMAT", "Run", "TrainingData", "SUFFIXES"]

FORMAT = "vizgrad-training"
#: what :meth:`~vizgrad.training.record.Training.save` writes, by suffix
SUFFIXES = (".json", ".html", ".svg", ".gif", ".mp4")


def _num(x: float) -> float | None:
    """JSON has no NaN or infinity: they are written as null."""
    return x if math.isfinite(x) else None


@dataclass
class Run:
    """One training run: per step the loss, the parameters' data (before the update) and grads,
    and each sample's prediction (empty when the net's output could not be read).

    ``zero_grad`` says what happened to the grads before each backward pass: ``"zeroed"``
    (vizgrad or the build function zeroed them), ``"accumulated"`` (nobody did, and the
    engine adds to ``.grad``), ``"reset"`` (vizgrad's engine resets every grad it reaches),
    or ``"unknown"``. ``stopped`` says why the run ended early (a NaN or infinite loss)."""

    losses: list[float] = field(default_factory=list)
    data: list[list[float]] = field(default_factory=list)
    grads: list[list[float]] = field(default_factory=list)
    predictions: list[list[float]] = field(default_factory=list)
    zero_grad: str = "unknown"
    stopped: str | None = None
    stopped_at: int | None = None
    #: what the loss was where the run stopped: ``"nan"``, ``"inf"``, ``"-inf"`` or
    #: ``"overflow"`` (a float overflowed while it was computed)
    stopped_value: str | None = None

    def __len__(self) -> int:
        return len(self.losses)


@dataclass
class TrainingData:
    """A recorded training: the parameters' names, the net's structure, the learning rate
    (as given, and per step), the run, and the second run of a comparison (or why there is
    none). ``details`` maps the steps that can be opened to their traces."""

    names: list[str]
    net: dict[str, Any]
    lr: str
    lrs: list[float]
    run: Run
    samples: tuple[list[list[float]], list[float]] | None = None
    backward_by: str = "vizgrad"
    engine: str = "vizgrad"
    compare: Run | None = None
    compare_note: str | None = None
    #: why there is no comparison: ``"backward"`` (build calls it) or ``"engine"`` (vizgrad's)
    compare_reason: str | None = None
    details: dict[int, Any] = field(default_factory=dict)
    title: str = "training"

    @property
    def steps(self) -> int:
        """How many steps were recorded."""
        return len(self.run)

    def _run_json(self, run: Run) -> list[dict[str, Any]]:
        out = []
        for k in range(len(run)):
            step: dict[str, Any] = {
                "k": k, "lr": self.lrs[k], "loss": _num(run.losses[k]),
                "parameters": [{"name": n, "data": _num(d), "grad": _num(g)}
                               for n, d, g in zip(self.names, run.data[k], run.grads[k])]}
            if run.predictions:
                step["predictions"] = [_num(p) for p in run.predictions[k]]
            out.append(step)
        return out

    def as_dict(self) -> dict[str, Any]:
        """The JSON document as Python data (see the module docstring)."""
        samples = None
        if self.samples is not None:
            samples = {"x": self.samples[0], "y": self.samples[1]}
        compare = None
        if self.compare is not None:
            compare = {"zero_grad": self.compare.zero_grad, "stopped": self.compare.stopped,
                       "steps": self._run_json(self.compare)}
        return {"format": FORMAT, "version": 1, "title": self.title, "lr": self.lr,
                "net": self.net, "parameters": self.names, "samples": samples,
                "backward_by": self.backward_by, "engine": self.engine,
                "zero_grad": self.run.zero_grad, "stopped": self.run.stopped,
                "stopped_at": self.run.stopped_at, "stopped_value": self.run.stopped_value,
                "steps": self._run_json(self.run), "compare": compare,
                "compare_note": self.compare_note, "compare_reason": self.compare_reason,
                "details": sorted(self.details)}

    def to_json(self, indent: int | None = None) -> str:
        """The record as JSON text (NaN and infinity as ``null``), the same bytes each time."""
        return json.dumps(self.as_dict(), ensure_ascii=False, indent=indent, sort_keys=True,
                          allow_nan=False)

    def __repr__(self) -> str:
        last = self.run.losses[-1] if self.run.losses else math.nan
        return (f"<Training {self.title}: {self.steps} steps, {len(self.names)} parameters, "
                f"loss {self.run.losses[0]:.4g} → {last:.4g}>" if self.run.losses
                else f"<Training {self.title}: no step>")
