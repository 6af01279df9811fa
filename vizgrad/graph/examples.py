"""The chapter's examples, by name.

    >>> names()[:4]
    ['shared-node', 'overwrite-bug', 'sum-square', 'fork']
    >>> t = trace("fork")
    >>> len(t.steps), t.state().grad["v0"], t.state().grad["v1"]
    (8, -3.0, -8.0)

Each example builds a fresh graph, runs ``backward()`` on it, and can take
other input values: ``build("fork", a=1, b=2)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from ..core.value import Value, add_with_overwrite_bug
from ..exceptions import ExpressionError, UnknownExampleError
from ..tracing.recorder import Trace
from ..tracing.recorder import trace as _trace

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["COURSE_XS", "COURSE_YS", "Example", "names", "describe", "defaults",
           "collapse_level", "build", "trace", "graph", "EXAMPLES"]

Built = tuple[Value, list[Value]]


def _named(value: Value, label: str) -> Value:
    value.label = label
    return value


def _shared_node(a: float = 3.0) -> Built:
    x = Value(a, label="a")
    return _named(x + x, "b"), []


def _overwrite_bug(a: float = 3.0) -> Built:
    x = Value(a, label="a")
    return _named(add_with_overwrite_bug(x, x), "b"), []


def _sum_square(x: float = 3.0) -> Built:
    v = Value(x, label="x")
    return _named(v + v + v * v, "y"), []


def _fork(a: float = -2.0, b: float = 3.0) -> Built:
    va, vb = Value(a, label="a"), Value(b, label="b")
    u = _named(va * vb, "u")
    v = _named(va + vb, "v")
    return _named(u * v, "q"), []


def _neuron(x1: float, x2: float, w1: float, w2: float, b: float) -> Value:
    vx1, vx2 = Value(x1, label="x1"), Value(x2, label="x2")
    vw1, vw2 = Value(w1, label="w1"), Value(w2, label="w2")
    vb = Value(b, label="b")
    s = _named(_named(vx1 * vw1, "x1w1") + _named(vx2 * vw2, "x2w2"), "x1w1+x2w2")
    return _named(s + vb, "n")


_NEURON = {"x1": 2.0, "x2": 0.0, "w1": -3.0, "w2": 1.0, "b": 6.8813735870195432}


def _tanh_native(**v: float) -> Built:
    return _named(_neuron(**{**_NEURON, **v}).tanh(), "o"), []


def _tanh_decomposed(**v: float) -> Built:
    n = _neuron(**{**_NEURON, **v})
    e = _named((2 * n).exp(), "e")
    return _named((e - 1) / (e + 1), "o"), []


def _torch_crosscheck(x: float = 1.5, y: float = -0.5) -> Built:
    vx, vy = Value(x, label="x"), Value(y, label="y")
    m = _named(vx * vy, "m")
    e = _named(m.exp(), "e")
    s = _named((vx + vy) ** 2, "s")
    return _named((e + s).log(), "f"), []


def _softmax_nll(z0: float = 0.0, z1: float = 3.0, z2: float = -2.0, z3: float = 1.0) -> Built:
    logits = [Value(z, label=f"z{i}") for i, z in enumerate((z0, z1, z2, z3))]
    counts = [_named(z.exp(), f"e{i}") for i, z in enumerate(logits)]
    denominator = _named(sum(counts), "s")
    probs = [_named(c / denominator, f"p{i}") for i, c in enumerate(counts)]
    loss = _named(-probs[3].log(), "L")
    return loss, probs[:3]


def _mlp(x0: float = 2.0, x1: float = 3.0) -> Built:
    from ..core.nn import MLP

    net = MLP(2, [3, 1], seed=1337)
    xs = [Value(x0, label="x0"), Value(x1, label="x1")]
    y = -1.0  # the target
    loss = (net(xs) - y) ** 2  # the course's squared error on one sample
    loss.backward()
    for p in net.parameters():  # one step of gradient descent, learning rate 0.1
        p.data -= 0.1 * p.grad
    loss = _named((net(xs) - y) ** 2, "loss")
    return loss, []


#: the micrograd lecture's four samples and their targets
COURSE_XS = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
COURSE_YS = [1.0, -1.0, -1.0, 1.0]


def _course_mlp() -> Built:
    from ..core.nn import MLP

    n = MLP(3, [4, 4, 1], seed=1337)
    ypred = [n(x) for x in COURSE_XS]
    loss = sum((yout - ygt) ** 2 for ygt, yout in zip(COURSE_YS, ypred))  # as the lecture
    return _named(loss, "loss"), []


@dataclass(frozen=True)
class Example:
    """One chapter example: how to build it and what it shows."""

    name: str
    description: str
    builder: Callable[..., Built]
    defaults: dict[str, float]
    #: the level its pictures are collapsed at (see :mod:`vizgrad.graph.collapse`), or None
    collapse: str | None = None


EXAMPLES: dict[str, Example] = {
    e.name: e
    for e in [
        Example("shared-node", "b = a + a at a=3: two contributions add up, a.grad = 2",
                _shared_node, {"a": 3.0}),
        Example("overwrite-bug",
                "b = a + a with = in place of +=: the second write wins, a.grad = 1",
                _overwrite_bug, {"a": 3.0}),
        Example("sum-square",
                "y = x + x + x*x at x=3: dy/dx = 8, and 8 again after a second backward()",
                _sum_square, {"x": 3.0}),
        Example("fork", "q = (a*b)*(a+b) at a=-2, b=3: q = -6, grads (-3, -8), steps 0..7",
                _fork, {"a": -2.0, "b": 3.0}),
        Example("tanh-native",
                "the lecture's neuron o = tanh(x1*w1 + x2*w2 + b) with tanh as one node",
                _tanh_native, dict(_NEURON)),
        Example("tanh-decomposed",
                "the same neuron through (exp(2n) - 1) / (exp(2n) + 1): same grads, "
                "bigger graph",
                _tanh_decomposed, dict(_NEURON)),
        Example("torch-crosscheck",
                "f = log(exp(x*y) + (x+y)**2): values and grads match PyTorch float64",
                _torch_crosscheck, {"x": 1.5, "y": -0.5}),
        Example("softmax-nll",
                "L = -log softmax(z)[3] for z = (0, 3, -2, 1); p0..p2 are off the backward "
                "path",
                _softmax_nll, {"z0": 0.0, "z1": 3.0, "z2": -2.0, "z3": 1.0}),
        Example("mlp", "a small MLP(2, [3, 1]) built as in the course, after one "
                "gradient-descent step on one sample: each neuron is a group, drawn as one box",
                _mlp, {"x0": 2.0, "x1": 3.0}, collapse="neuron"),
        Example("course-mlp", "the lecture's MLP(3, [4, 4, 1]) on its four samples, loss = "
                "sum of (ŷ − y)²: drawn by default one box per neuron, the loss as one box",
                _course_mlp, {}),
    ]
}


def names() -> list[str]:
    """The example names, in the chapter's order."""
    return list(EXAMPLES)


def _get(name: str) -> Example:
    if name not in EXAMPLES:
        raise UnknownExampleError(f"unknown example {name!r}; choose one of: {', '.join(EXAMPLES)}")
    return EXAMPLES[name]


def describe(name: str) -> str:
    """A one-line description of an example."""
    return _get(name).description


def collapse_level(name: str) -> str | None:
    """The level the gallery draws an example collapsed at (``"neuron"`` for ``mlp``), or None."""
    return _get(name).collapse


def defaults(name: str) -> dict[str, float]:
    """The example's input names and default values."""
    return dict(_get(name).defaults)


def build(name: str, **values: float) -> Built:
    """Build an example (inputs may be overridden), run ``backward()``, return (root, also)."""
    ex = _get(name)
    unknown = sorted(set(values) - set(ex.defaults))
    if unknown:
        raise ExpressionError(
            f"example {name!r} has no input {', '.join(map(repr, unknown))}; "
            f"its inputs are: {', '.join(ex.defaults)}"
        )
    root, also = ex.builder(**values)
    root.backward()
    return root, also


def trace(name: str, **values: float) -> Trace:
    """Build an example and return its :class:`~vizgrad.tracing.recorder.Trace`."""
    root, also = build(name, **values)
    return _trace(root, also)


def graph(name: str, **values: Any) -> nx.MultiDiGraph:
    """Build an example and return its graph (see :func:`vizgrad.to_networkx`)."""
    from .convert import to_networkx

    return to_networkx(trace(name, **values))
