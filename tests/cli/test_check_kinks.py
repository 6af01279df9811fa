"""``vizgrad check`` on a student's ReLU net: a kink is said and is no failure, a buggy backward
elsewhere still fails, and no row or JSON field names an input by its id."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("micrograd.nn", reason="micrograd==0.1.0 is a test dependency")

STUDENT = """
    import math, random
    from micrograd.nn import MLP
    from micrograd.engine import Value

    def build(bug=False):
        random.seed(3)
        net = MLP(2, [5, 3, 1])          # relu hidden layers, zero biases
        for n in net.layers[0].neurons:  # a dead first layer on positive inputs
            n.w = [Value(-abs(w.data) - 0.1) for w in n.w]
        loss = (net([Value(1.0), Value(2.0)]) - 1.0) ** 2
        if bug:
            c = Value(0.5)
            th = Value(math.tanh(c.data), (c,), "tanh")
            def backward():
                c.grad += (1 - th.data) * th.grad   # should be 1 - t**2
            th._backward = backward
            loss = loss + th
        loss.backward()
        return loss

    def buggy():
        return build(bug=True)
"""

_ID = re.compile(r"\bv\d+\b")


def _table(output: str) -> list[list[str]]:
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("input "))
    rows = []
    for line in lines[start + 1:]:
        if not line or line.startswith("kink:"):
            break
        rows.append(line.split())
    return rows


def test_kinks_are_said_and_exit_0(run, model):
    path = model(STUDENT)
    out = run("check", f"{path}:build").output
    rows = _table(out)
    assert len(rows) == 40 and not _ID.search(out)  # 37 parameters, 2 inputs, the −1
    marked = [r for r in rows if r[-1] == "kink"]
    assert len(marked) == 3  # the three L1 biases, on relu's kink at 0
    assert all(r[1] == "0.0000000000" and r[2] != "0.0000000000" for r in marked)
    assert "kink: 3 inputs not checked and not counted as disagreeing:" in out
    notes = out.split("kink: 3 inputs", 1)[1].splitlines()[1:]
    assert len(notes) == 3
    for note, row in zip(notes, marked):
        assert note.strip().startswith(f"{row[0]}: relu")
        assert "'s input is 0: ReLU's slope is 0 on one side and 1 on the other" in note
        assert "the difference gives 0, as backprop does (0)" in note


def test_a_buggy_backward_elsewhere_still_fails(run, model):
    path = model(STUDENT)
    result = run("check", f"{path}:buggy", code=1)
    rows = _table(result.output)
    assert [r[-1] for r in rows].count("kink") == 3
    assert "1 input differs by more than 0.0001 × max(1, |numeric|): " in result.output
    assert "the backward of tanh" in result.output and not _ID.search(result.output)


def test_the_json_names_every_input_and_says_its_status(run, model):
    path = model(STUDENT)
    doc = json.loads(run("check", f"{path}:build", "--json").output)
    rows = doc["rows"]
    for r in rows:  # the keys it had, then the name, the status and a kink's note
        assert {"input", "id", "backprop", "numeric", "error", "name", "status"} <= set(r)
        assert r["input"] == r["name"] and not _ID.fullmatch(r["input"])
        assert _ID.fullmatch(r["id"])
    kinks = [r for r in rows if r["status"] == "kink"]
    assert len(kinks) == 3 and all(r["note"].startswith(r["name"] + ": ") for r in kinks)
    assert {r["status"] for r in rows} == {"agree", "kink"}


def test_an_unlabelled_expression_graph_names_its_inputs(run, model):
    path = model("""
        from vizgrad import Value
        def build():
            x1, x2, w1, w2, b = Value(2.0), Value(0.0), Value(-3.0), Value(1.0), Value(6.88)
            o = (x1 * w1 + x2 * w2 + b).tanh()
            o.backward()
            return o
    """)
    out = run("check", f"{path}:build").output
    assert [r[0] for r in _table(out)] == ["x₁", "x₂", "x₃", "x₄", "x₅"]
    assert not _ID.search(out)
