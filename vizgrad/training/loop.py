"""The training loop: call ``build`` N times, record each step, move every parameter.

    >>> from vizgrad.core.nn import MLP
    >>> net = MLP(2, [3, 1], seed=1)
    >>> xs, ys = [[2.0, 3.0], [-1.0, 0.5]], [1.0, -1.0]
    >>> def build():
    ...     return sum(((net(x) - y) ** 2 for x, y in zip(xs, ys)), 0.0)
    >>> training = train(build, steps=5, lr=0.1, model=net, samples=(xs, ys))
    >>> training.steps, training.run.losses[-1] < training.run.losses[0]
    (5, True)
    >>> training.backward_by, training.run.zero_grad
    ('vizgrad', 'reset')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from .net import named_parameters, predict, structure
from .rate import rates
from .record import Run, Training
from ..core.value import Value
from ..exceptions import TrainingError
from ..tracing.walk import is_value, op_of, parents_of

__all__ = ["COMPARE", "Guard", "train"]

#: the comparisons ``compare=`` offers
COMPARE = ("no-zero-grad",)
#: how each call of ``build`` is run: ``guard(build)`` returns what ``build()`` returns.
#: The command line passes one that reports the user's own traceback frames; time and
#: memory bounds on a model's build go here too.
Guard = Callable[[Callable[[], Any]], Any]


def _plain(fn: Callable[[], Any]) -> Any:
    return fn()




def _split(result: Any, fn_name: str) -> tuple[Any, Any]:
    net = None
    if isinstance(result, (list, tuple)) and len(result) == 2 and not is_value(result[1]):
        result, net = result
    if not is_value(result):
        raise TrainingError(
            f"{fn_name}() must return the loss as a Value (or `return loss, net`), got "
            f"{type(result).__name__}; build the loss from the net's parameters and return it")
    return result, net


def _local(c: Any, p: Any, ops: tuple[Any, ...]) -> float | None:
    """d c / d p for one consumer ``c`` of ``p`` (a micrograd op), or None if unknown."""
    op, twice = op_of(c), len(ops) == 2 and ops[0] is ops[1]
    if op == "+":
        return 2.0 if twice else 1.0
    if op == "*":
        if twice:
            return 2.0 * p.data
        return float(next(o for o in ops if o is not p).data)
    if op.startswith("**"):
        n = float(op[2:])
        return n * p.data ** (n - 1)
    if op in ("ReLU", "relu"):
        return 1.0 if c.data > 0 else 0.0
    if op == "tanh":
        return 1.0 - c.data ** 2
    if op == "exp":
        return float(c.data)
    return None


def _fresh_grads(loss: Any, params: list[Any]) -> list[float] | None:
    """Each parameter's gradient of this loss alone, from its consumers' grads (which are
    fresh: they were made by this call); None where an op is not known."""
    want = {id(p): i for i, p in enumerate(params)}
    out = [0.0] * len(params)
    seen: set[int] = set()
    stack = [loss]
    while stack:
        v = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        ops = parents_of(v)
        for o in set(map(id, ops)):
            if o in want:
                p = params[want[o]]
                d = _local(v, p, ops)
                if d is None:
                    return None
                out[want[o]] += d * v.grad
        stack.extend(o for o in ops if id(o) not in want)
    return out


def _zeroed(before: list[float], after: list[float], fresh: list[float] | None) -> str:
    if fresh is None:
        return "unknown"
    scale = sum(abs(b) for b in before)
    if scale == 0:
        return "unknown"
    off = sum(abs(a - f) for a, f in zip(after, fresh))
    grown = sum(abs(a - f - b) for a, f, b in zip(after, fresh, before))
    return "zeroed" if off < grown else "accumulated"


def _one_run(build: Callable[[], Any], lrs: list[float], params: list[Any], guard: Guard,
             zero: bool, name: str, on_step: Callable[[int, Any], None] | None,
             samples: Any, shape: dict[str, Any]) -> tuple[Run, str, str]:
    run = Run()
    by, engine = "vizgrad", "vizgrad"
    for k, lr in enumerate(lrs):
        before = [p.grad for p in params]
        try:
            loss, _ = _split(guard(build), name)
        except OverflowError as err:  # a float overflowed while the loss was computed
            reason = err.args[-1] if err.args else err
            _stop(run, k, f"overflowed ({reason})", "overflow")
            break
        if k == 0:
            by = "vizgrad" if loss.grad == 0 else name
            engine = "vizgrad" if isinstance(loss, Value) else "micrograd"
            run.zero_grad = "reset" if engine == "vizgrad" else "unknown"
        if by == "vizgrad":
            if zero:
                for p in params:
                    p.grad = 0.0
            loss.backward()
            if engine != "vizgrad":
                run.zero_grad = "zeroed" if zero else "accumulated"
        elif engine != "vizgrad" and k == 1:
            run.zero_grad = _zeroed(before, [p.grad for p in params],
                                    _fresh_grads(loss, params))
        value = float(loss.data)
        if not math.isfinite(value):
            _stop(run, k, f"is {value}", str(value))
            break
        run.losses.append(value)
        data = [float(p.data) for p in params]
        run.data.append(data)
        run.grads.append([float(p.grad) for p in params])
        if samples is not None and None not in shape["activations"]:
            run.predictions.append([predict(shape, data, x) for x in samples[0]])
        if on_step is not None:
            on_step(k, loss)
        for p in params:
            p.data += -lr * p.grad
    return run, by, engine


def _stop(run: Run, k: int, what: str, value: str) -> None:
    run.stopped_at, run.stopped_value = k, value
    run.stopped = (f"the loss {what} at step {k}: training stopped there; the {k} steps "
                   "before it are kept (try a smaller learning rate)")


def train(build: Callable[[], Any], steps: int, lr: float | str, *, model: Any = None,
          samples: tuple[Sequence[Sequence[float]], Sequence[float]] | None = None,
          compare: str | None = None, detail: Sequence[int] | None = None,
          guard: Guard | None = None, title: str | None = None,
          find: Callable[[Any], Any] | None = None) -> Training:
    """Train ``model`` by gradient descent: call ``build()`` ``steps`` times and record each step.

    Args:
        build: returns the loss computed from the net's current parameters (or
            ``(loss, net)``). It may call ``loss.backward()`` itself (zeroing the grads
            first, or forgetting to, as the student's code does); if it leaves the loss's
            grad at 0, vizgrad zeroes every parameter's grad and calls ``loss.backward()``.
        steps: how many times ``build`` is called (≥ 1).
        lr: a number ≥ 0, or an expression in the step ``k`` (``"1 - 0.9*k/100"``).
            After call k every parameter moves: ``p.data += -lr * p.grad``.
        model: the net (micrograd-style: ``parameters()``, layers → neurons → w, b), unless
            ``build`` returns it beside the loss.
        samples: ``(xs, ys)``: each sample's prediction is recorded, and a net with 2-D
            inputs shows its prediction over the input plane.
        compare: ``"no-zero-grad"``: train again from the same start without zeroing the
            grads before each backward (needs micrograd's Values and a ``build`` that leaves
            ``backward()`` to vizgrad; otherwise ``compare_note`` says why not).
        detail: the steps whose forward and backward pass can be opened in the step player
            (default: the first, the last and a few between).
        guard: runs each call of ``build`` (see :data:`Guard`).
        find: given the first loss, finds the net (the command line's search in the module).

    A NaN or infinite loss stops the run there; the steps before it are kept and
    ``training.run.stopped`` says which step. Bad input raises
    :class:`~vizgrad.exceptions.TrainingError` before anything is recorded.
    """
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        raise TrainingError(f"steps must be a whole number ≥ 1, got {steps!r}")
    if compare is not None and compare not in COMPARE:
        raise TrainingError(f"compare must be one of {list(COMPARE)}, got {compare!r}")
    lrs = rates(lr, steps)
    call = guard or _plain
    name = getattr(build, "__name__", "build")
    # the first call finds the net; it is step 0 of the run, not an extra call
    try:
        first: Any = call(build)
    except OverflowError as err:  # the loss overflows at step 0: a run of no step
        if model is None:
            raise TrainingError(f"{name}() overflowed at its first call ({err}), before the "
                                "net was known: pass model=net") from None
        first, loss0, returned = err, None, None
    else:
        loss0, returned = _split(first, name)
    net = model if model is not None else returned
    if net is None and find is not None:
        net = find(loss0)
    if net is None:
        raise TrainingError(f"no net to train: pass model=net, or `return loss, net` from "
                            f"{name}()")
    if not callable(getattr(net, "parameters", None)):
        raise TrainingError(f"{type(net).__name__} is not a net: it has no parameters()")
    named = named_parameters(net)
    if not named:
        raise TrainingError(f"the net {type(net).__name__} has no parameters: nothing to train")
    params = [p for _, p in named]
    shape = structure(net)
    pending = [first]

    def calls() -> Any:
        if pending:
            got = pending.pop()
            if isinstance(got, OverflowError):
                raise got
            return got
        result = call(build)
        if returned is not None and _split(result, name)[1] is not returned:
            raise TrainingError(f"{name}() returned a new net at call 2; make the net once, "
                                "outside the function, so that training can change it")
        return result

    chosen = _detail_steps(detail, steps)
    traces: dict[int, Any] = {}

    def keep(k: int, loss: Any) -> None:
        if k in chosen:
            from ..tracing.recorder import trace

            traces[k] = trace(loss, model=net)

    start = [(p.data, p.grad) for p in params]
    xs_ys = None if samples is None else ([list(map(float, x)) for x in samples[0]],
                                          [float(y) for y in samples[1]])
    run, by, engine = _one_run(calls, lrs, params, lambda f: f(), True, name, keep, xs_ys, shape)
    training = Training([n for n, _ in named], shape, lr if isinstance(lr, str) else repr(lr),
                        lrs[:max(len(run), 1)], run, xs_ys, by, engine,
                        title=title or name, details=traces)
    if compare:
        training.compare_note = _compare_note(by, engine, name)
        training.compare_reason = (None if training.compare_note is None
                                   else "backward" if by != "vizgrad" else "engine")
        if training.compare_note is None:
            for p, (d, g) in zip(params, start):
                p.data, p.grad = d, 0.0 * g
            training.compare, _, _ = _one_run(lambda: call(build), lrs, params, _plain, False,
                                              name, None, xs_ys, shape)
    return training


def _compare_note(by: str, engine: str, name: str) -> str | None:
    if by != "vizgrad":
        return (f"cannot compare: {name}() calls backward() itself, so vizgrad cannot leave out "
                "the zeroing; return the loss without calling backward() and vizgrad will "
                "run it both ways")
    if engine == "vizgrad":
        return ("cannot compare: vizgrad's backward() resets every grad it reaches, so "
                "forgetting zero_grad changes nothing here; build the net with micrograd's "
                "Values to see the grads pile up")
    return None


def _detail_steps(detail: Sequence[int] | None, steps: int) -> set[int]:
    if detail is None:
        return {0, steps // 2, steps - 1}
    bad = [k for k in detail if isinstance(k, bool) or not isinstance(k, int)
           or not 0 <= k < steps]
    if bad:
        raise TrainingError(f"detail step {bad[0]!r} is not a step of this run; give steps "
                            f"from 0 to {steps - 1}, e.g. --detail 0,{steps - 1}")
    return set(detail)
