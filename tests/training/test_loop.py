"""vizgrad.train against a training loop written by hand with micrograd (the oracle)."""

from __future__ import annotations

import importlib.util
import math
import random
from pathlib import Path

import pytest

from vizgrad.exceptions import TrainingError
from vizgrad.training import train
from vizgrad.training.rate import rates

pytest.importorskip("micrograd", reason="micrograd is not installed")
from micrograd.nn import MLP  # noqa: E402

MODELS = Path(__file__).resolve().parents[1] / "models"
XS = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
YS = [1.0, -1.0, -1.0, 1.0]


def course():
    """A fresh import of tests/models/train_course.py (its net starts from seed 1337)."""
    spec = importlib.util.spec_from_file_location("train_course_fresh", MODELS / "train_course.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def by_hand(steps=20, lr=0.05, zero=True):
    """The course's loop, written out with micrograd: losses and the grads of L1.N2.w3."""
    random.seed(1337)
    n = MLP(3, [4, 4, 1])
    losses, grads = [], []
    for _ in range(steps):
        ypred = [n(x) for x in XS]
        loss = sum((yout - ygt) ** 2 for ygt, yout in zip(YS, ypred))
        if zero:
            n.zero_grad()
        loss.backward()
        losses.append(loss.data)
        grads.append(n.layers[1].neurons[2].w[3].grad)
        for p in n.parameters():
            p.data += -lr * p.grad
    return losses, grads


def test_the_recorded_losses_are_the_hand_written_loops_and_fall():
    m = course()
    t = train(m.build, 20, 0.05, model=m.n, samples=(m.xs, m.ys), detail=[])
    losses, _ = by_hand()
    assert t.steps == 20
    assert max(abs(a - b) for a, b in zip(t.run.losses, losses)) <= 1e-12
    assert t.run.losses[-1] < t.run.losses[0]
    assert t.backward_by == "build" and t.run.zero_grad == "zeroed"


@pytest.mark.parametrize("k", [0, 10, 19])
def test_one_parameters_grads_are_micrograds(k):
    m = course()
    t = train(m.build, 20, 0.05, model=m.n, detail=[])
    _, grads = by_hand()
    i = t.names.index("L1.N2.w3")
    assert abs(t.run.grads[k][i] - grads[k]) <= 1e-12


def test_predictions_are_the_nets_outputs():
    m = course()
    t = train(m.build, 3, 0.05, model=m.n, samples=(m.xs, m.ys), detail=[])
    random.seed(1337)
    n = MLP(3, [4, 4, 1])
    assert t.run.predictions[0] == [n(x).data for x in XS]


def test_without_zeroing_the_second_runs_grads_differ_from_step_1_on():
    m = course()
    t = train(m.plain, 20, 0.05, model=m.n, compare="no-zero-grad", detail=[])
    assert t.backward_by == "vizgrad" and t.compare_note is None
    assert t.run.zero_grad == "zeroed" and t.compare.zero_grad == "accumulated"
    assert t.compare.grads[0] == pytest.approx(t.run.grads[0], abs=1e-12)
    for k in range(1, 20):
        gap = max(abs(a - b) for a, b in zip(t.compare.grads[k], t.run.grads[k]))
        assert gap > 1e-6, k
    losses, _ = by_hand()
    lost, _ = by_hand(zero=False)
    assert max(abs(a - b) for a, b in zip(t.run.losses, losses)) <= 1e-12
    assert max(abs(a - b) for a, b in zip(t.compare.losses, lost)) <= 1e-12


def test_a_build_that_calls_backward_cannot_be_compared_and_says_why():
    m = course()
    t = train(m.build, 3, 0.05, model=m.n, compare="no-zero-grad", detail=[])
    assert t.compare is None
    assert "calls backward() itself" in t.compare_note


def test_a_build_that_forgets_zero_grad_is_seen_accumulating():
    m = course()
    t = train(m.forgets, 4, 0.05, model=m.n, detail=[])
    assert t.run.zero_grad == "accumulated"
    _, grads = by_hand(steps=4, zero=False)
    i = t.names.index("L1.N2.w3")
    assert [g[i] for g in t.run.grads] == pytest.approx(grads, abs=1e-12)


def test_a_loss_that_overflows_stops_the_run_and_keeps_the_steps_before():
    m = course()
    t = train(m.blows_up, 30, 0.5, model=m.n, detail=[])
    assert t.run.stopped_at == 2 and t.steps == 2
    assert "at step 2" in t.run.stopped
    assert all(math.isfinite(v) for v in t.run.losses)


def test_a_nan_loss_stops_the_run_and_names_the_step():
    from micrograd.engine import Value as MgValue

    m = course()
    calls = []

    def build():
        calls.append(1)
        loss = m.plain()
        return loss * MgValue(math.nan) if len(calls) == 4 else loss

    t = train(build, 10, 0.05, model=m.n, detail=[])
    assert t.steps == 3 and t.run.stopped_at == 3
    assert "the loss is nan at step 3" in t.run.stopped
    losses, _ = by_hand(steps=3)
    assert t.run.losses == pytest.approx(losses, abs=1e-12)


def test_a_loss_that_overflows_at_the_first_call_is_a_run_of_no_step():
    from vizgrad import Value

    w = Value(3.0, label="w")

    class Net:
        def parameters(self):
            return [w]

    t = train(lambda: w * 1e200 * 1e200, 5, 0.1, model=Net(), detail=[])
    assert t.steps == 0 and t.run.stopped_at == 0 and "overflowed" in t.run.stopped


@pytest.mark.parametrize("kwargs, words", [
    ({"steps": 0}, "steps must be a whole number ≥ 1"),
    ({"lr": -0.1}, "a learning rate must be a number ≥ 0"),
    ({"lr": "fast"}, "cannot be read"),
    ({"lr": "0.1 - k"}, "at step k = 1"),
    ({"compare": "twice"}, "compare must be one of"),
    ({"detail": [50]}, "not a step of this run"),
], ids=["no-steps", "negative-lr", "words-lr", "lr-turns-negative", "compare", "detail"])
def test_bad_input_is_refused_before_any_step(kwargs, words):
    m = course()
    calls = []

    def build():
        calls.append(1)
        return m.build()

    args = {"steps": 5, "lr": 0.05, **kwargs}
    with pytest.raises(TrainingError, match=words):
        train(build, args.pop("steps"), args.pop("lr"), model=m.n, **args)
    assert calls == [] or "detail" in kwargs


def test_a_function_that_returns_no_value_or_a_net_without_parameters_is_refused():
    m = course()
    with pytest.raises(TrainingError, match="must return the loss as a Value"):
        train(m.nothing, 3, 0.1, model=m.n)

    class Empty:
        def parameters(self):
            return []

    with pytest.raises(TrainingError, match="has no parameters"):
        train(m.plain, 3, 0.1, model=Empty())


def test_the_learning_rate_expression_is_read_by_the_safe_parser():
    assert rates("1 - 0.9*k/100", 3) == [1.0, 1 - 0.9 / 100, 1 - 0.9 * 2 / 100]
    with pytest.raises(TrainingError):
        rates("__import__('os')", 2)
