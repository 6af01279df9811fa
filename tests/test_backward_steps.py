"""The inlined one- and two-operand path of the backward steps gives the general path's records."""

from __future__ import annotations

import random

import pytest

from vizgrad import Value
from vizgrad.tracing import recorder as tracing
from vizgrad.tracing import backward as _backward
from vizgrad.core.value import add_with_overwrite_bug


def _mixed_graph(seed: int) -> Value:
    rnd = random.Random(seed)
    xs = [Value(rnd.uniform(-2, 2), label=f"x{i}") for i in range(4)]
    acc = xs[0]
    for i in range(40):
        a, b = rnd.choice(xs), rnd.choice(xs + [acc])
        op = rnd.randrange(7)
        y = [a * b, a + b, (a * 0.5).tanh(), a.relu() + b, b ** 2, a - b, a * a][op]
        acc = acc + y if i % 3 else acc * y
        xs.append(y)
    return acc


def _trace_with(monkeypatch, root, inline):
    real = _backward.backward_steps
    monkeypatch.setattr(tracing, "backward_steps",
                        lambda *args: real(*args, inline=inline))
    return tracing.trace(root)


@pytest.mark.parametrize("seed", range(5))
def test_inline_path_matches_the_general_one(monkeypatch, seed):
    root = _mixed_graph(seed)
    root.backward()
    fast = _trace_with(monkeypatch, root, True)
    slow = _trace_with(monkeypatch, root, False)
    assert fast.to_json() == slow.to_json()
    assert fast.derivatives == "exact"
    assert any(len(s["contributions"]) == 2 for s in fast.steps)  # the inlined path ran


def test_a_lying_second_operand_is_observed_on_both_paths(monkeypatch):
    a, b = Value(2.0, label="a"), Value(3.0, label="b")
    c = a * b
    c._local = (3.0, 99.0)  # slot 1 says 99, the closure adds 2
    c.backward()
    fast = _trace_with(monkeypatch, c, True)
    slow = _trace_with(monkeypatch, c, False)
    assert fast.to_json() == slow.to_json()
    assert fast.derivatives == "observed"
    assert [x["amount"] for x in fast.steps[-1]["contributions"]] == [3.0, 2.0]


def test_shared_operand_and_overwrite_take_the_general_path(monkeypatch):
    a = Value(3.0, label="a")
    for root in (a * a + a, add_with_overwrite_bug(a, a)):
        root.backward()
        assert (_trace_with(monkeypatch, root, True).to_json()
                == _trace_with(monkeypatch, root, False).to_json())
