"""Every error vizgrad raises on purpose.

Each class derives from :class:`VizgradError` and from the builtin that a
caller would expect, so ``except ValueError`` keeps working::

    >>> from vizgrad import Value
    >>> try:
    ...     Value(-1.0).log()
    ... except ValueError as err:
    ...     print(err)
    log(-1.0): log is only defined for x > 0; shift or clip the input first
"""

from __future__ import annotations

__all__ = [
    "VizgradError",
    "DomainError",
    "NumericOverflowError",
    "OperandTypeError",
    "ExpressionError",
    "GraphFormatError",
    "GraphTooLargeError",
    "GraphCycleError",
    "UnknownExampleError",
    "BackendError",
    "LayoutTimeoutError",
    "RenderError",
    "OptionError",
    "NotAGraphError",
    "ModelLoadError",
    "ModelRunError",
    "TrainingError",
    "ModelLimitError",
    "LabelCutWarning",
]


class VizgradError(Exception):
    """Base class of all vizgrad errors."""


class DomainError(VizgradError, ValueError):
    """An operation was asked for outside the inputs where it is defined."""


class NumericOverflowError(VizgradError, OverflowError):
    """A result does not fit in a float."""


class OperandTypeError(VizgradError, TypeError):
    """An operand is not a number or a Value."""


class ExpressionError(VizgradError, ValueError):
    """A user expression could not be accepted.

    ``column`` is the 1-based column where the problem starts (or ``None``).
    ``values`` is True when the expression is fine but the variables' values
    are not (``log(a)`` at a = -1).
    """

    def __init__(self, message: str, column: int | None = None, source: str = "",
                 values: bool = False):
        self.column = column
        self.source = source
        self.reason = message
        self.values = values
        text = message if column is None else f"column {column}: {message}"
        if source and column is not None and "\n" not in source and len(source) <= 200:
            text += f"\n  {source}\n  {' ' * (column - 1)}^"
        super().__init__(text)


class GraphFormatError(VizgradError, ValueError):
    """Serialised graph or trace data is malformed."""


class GraphTooLargeError(VizgradError, ValueError):
    """A graph has more nodes than a limit allows."""


class GraphCycleError(VizgradError, ValueError):
    """A graph of Values in which a value is its own ancestor (or its own parent)."""


class UnknownExampleError(VizgradError, ValueError):
    """An example name that is not one of :func:`vizgrad.examples.names`."""


class BackendError(VizgradError, RuntimeError):
    """No layout backend could run, or the chosen one failed."""


class LayoutTimeoutError(BackendError):
    """A Graphviz layout ran past its time limit."""


class RenderError(VizgradError, RuntimeError):
    """Writing an output failed (unsupported format, missing tool, ...)."""


class OptionError(VizgradError, ValueError):
    """An option has a value that is not allowed (a theme, a step, a direction, ...)."""


class NotAGraphError(VizgradError, TypeError):
    """A scene or its plan was given a Value or a Trace: they take a graph (trace it at the
    entry with :func:`vizgrad.to_networkx`, or draw it with :func:`vizgrad.draw`)."""


class ModelLoadError(VizgradError, ValueError):
    """A user's ``model.py:build`` could not be loaded or returned no Value."""


class ModelRunError(VizgradError, RuntimeError):
    """A user's model file raised an exception while it was imported or built.

    The message carries the frames of the user's code, since the mistake is there.
    """


class TrainingError(VizgradError, ValueError):
    """A training run was asked for with input it cannot use (no steps, a negative or
    non-numeric learning rate, a build function that returns no Value, a net without
    parameters). Nothing is written."""


class ModelLimitError(VizgradError, RuntimeError):
    """A user's model code ran past its time limit or held more memory than allowed
    (``--build-seconds``, ``--build-memory``)."""


class LabelCutWarning(VizgradError, UserWarning):
    """A label, name or op longer than :data:`vizgrad.core.labels.MAX_LABEL` characters was
    cut (to that many and an ellipsis) to keep the picture and its files bounded."""
