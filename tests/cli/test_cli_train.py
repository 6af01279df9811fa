"""``vizgrad train``: the files it writes, and bad input that writes nothing (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("micrograd", reason="micrograd is not installed")

COURSE = str(Path(__file__).resolve().parents[1] / "models" / "train_course.py")


def test_train_writes_the_json_of_the_course_net(run, tmp_path):
    out = tmp_path / "t.json"
    result = run("train", COURSE, "--steps", "20", "--lr", "0.05", "-o", str(out))
    doc = json.loads(out.read_text("utf-8"))
    assert len(doc["steps"]) == 20 and doc["samples"]["y"] == [1.0, -1.0, -1.0, 1.0]
    assert doc["steps"][-1]["loss"] < doc["steps"][0]["loss"]
    assert "wrote" in result.output


def test_compare_of_a_build_that_calls_backward_says_why_not(run, tmp_path):
    out = tmp_path / "t.json"
    result = run("train", COURSE, "--steps", "3", "--compare", "no-zero-grad", "-o", str(out))
    assert "cannot compare" in result.output and "calls backward() itself" in result.output
    assert json.loads(out.read_text("utf-8"))["compare"] is None


def test_compare_of_a_plain_build_trains_twice(run, tmp_path):
    out = tmp_path / "t.json"
    run("train", f"{COURSE}:plain", "--steps", "5", "--compare", "no-zero-grad", "-o", str(out))
    doc = json.loads(out.read_text("utf-8"))
    assert doc["compare"]["zero_grad"] == "accumulated" and doc["zero_grad"] == "zeroed"


@pytest.mark.parametrize("args, words", [
    (["--steps", "0"], "steps must be a whole number"),
    (["--lr", "-0.5"], "a learning rate must be a number ≥ 0"),
    (["--lr", "quick"], "cannot be read"),
    ([":nothing"], "must return the loss as a Value"),
    ([":missing"], "has no function 'missing'"),
    (["--model", "xs"], "has no net called 'xs'"),
    (["--detail", "0,x"], "give step numbers"),
], ids=["steps-0", "negative-lr", "words-lr", "no-value", "no-function", "not-a-net", "detail"])
def test_bad_input_writes_nothing(run, tmp_path, args, words):
    out = tmp_path / "t.html"
    target = COURSE + (args[0] if args[0].startswith(":") else "")
    rest = [a for a in args if not a.startswith(":")]
    result = run("train", target, *rest, "-o", str(out), code=2)
    assert words in result.output
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_a_net_without_parameters_writes_nothing(run, model, tmp_path):
    path = model("""
        from micrograd.engine import Value

        class Net:
            def parameters(self):
                return []

        net = Net()
        w = Value(1.0)

        def build():
            return w * w
    """)
    out = tmp_path / "t.json"
    result = run("train", str(path), "--model", "net", "-o", str(out), code=2)
    assert "has no parameters" in result.output and not out.exists()


def test_an_overflowing_loss_writes_the_steps_before_it_and_names_the_step(run, tmp_path):
    out = tmp_path / "t.json"
    result = run("train", f"{COURSE}:blows_up", "--steps", "30", "--lr", "0.5", "-o", str(out))
    assert "at step 2" in result.output
    doc = json.loads(out.read_text("utf-8"))
    assert len(doc["steps"]) == 2 and doc["stopped_at"] == 2


def test_a_film_over_the_budget_is_refused_before_training(run, tmp_path):
    out = tmp_path / "t.gif"
    result = run("train", f"{COURSE}:nothing", "--steps", "300", "--max-bytes", "1M", "-o",
                 str(out), code=2)  # refused before FUNC (which returns no Value) is called
    assert "over the budget of 1.0 MB" in result.output and not out.exists()


def test_the_gif_plays_the_training(run, tmp_path):
    from PIL import Image

    out = tmp_path / "t.gif"
    run("train", COURSE, "--steps", "12", "-o", str(out))
    with Image.open(out) as im:
        assert im.n_frames == 12 and im.size == (960, 540)
