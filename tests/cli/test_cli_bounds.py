"""One rule for numbers (NaN, infinities, out of range: exit 2 naming the range) and the
bounds of a model file's own code, ``--build-seconds`` and ``--build-memory`` (issue 31)."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from vizgrad.exceptions import ModelLimitError, OptionError
from vizgrad.options import number_in_range
from vizgrad.runtime.watchdog import bounded


@pytest.mark.parametrize("args, said", [
    (["check", "fork", "--h", "1e-320"], "--h must be a number from 1e-12 to 1, got 1e-320"),
    (["check", "fork", "--h", "nan"], "--h must be a number from 1e-12 to 1, got nan"),
    (["check", "fork", "--h", "inf"], "from 1e-12 to 1"),
    (["check", "fork", "--tol", "nan"], "--tol must be a number from 0 to 1e+06, got nan"),
    (["check", "fork", "--tol", "-1"], "from 0 to 1e+06"),
    (["check", "fork", "--build-seconds", "nan"], "above 0 up to 86400"),
    (["render", "fork", "-o", "x.svg", "--max-seconds", "nan"], "above 0 up to 86400, got nan"),
    (["render", "fork", "-o", "x.svg", "--max-seconds", "inf"], "above 0 up to 86400, got inf"),
    (["render", "fork", "-o", "x.svg", "--max-seconds", "0"], "above 0 up to 86400, got 0"),
    (["render", "fork", "-o", "x.svg", "--max-bytes", "2000T"], "from 1 to 1e+15"),
    (["render", "fork", "-o", "x.svg", "--build-memory", "10k"], "from 1e+06 to 1e+15"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_a_number_outside_its_range_is_refused_with_the_range(run, tmp_path, monkeypatch,
                                                             args, said):
    monkeypatch.chdir(tmp_path)
    result = run(*args, code=2)
    assert said in result.output
    assert not (tmp_path / "x.svg").exists()


def test_the_lab_reads_h_by_the_same_rule():
    from vizgrad.lab._limits import H_RANGE

    assert H_RANGE == (1e-12, 1.0)
    with pytest.raises(OptionError):
        number_in_range("h", float("nan"))
    assert number_in_range("h", 1e-12) == 1e-12 and number_in_range("h", 1) == 1.0


SPIN = "def build():\n    while True:\n        pass\n"


@pytest.mark.parametrize("limit", [["--build-seconds", "5"], ["--max-seconds", "5"]],
                         ids=["build-seconds", "max-seconds"])
def test_a_build_that_never_returns_is_stopped(model, tmp_path, limit):
    path = model(SPIN)
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "vizgrad", "render", f"{path}:build", "-o",
                           str(tmp_path / "x.svg"), *limit], capture_output=True, text=True,
                          timeout=60)
    took = time.monotonic() - start
    assert proc.returncode == 1, proc.stderr
    assert took < 10, took
    assert "model.py:build() ran past its time limit of 5 s" in proc.stderr
    assert "--build-seconds SECONDS" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "x.svg").exists()


def test_check_stops_a_build_that_allocates(model):
    path = model("def build():\n    x = []\n    while True:\n"
                 "        x.append(bytearray(10 ** 7))\n")
    proc = subprocess.run([sys.executable, "-m", "vizgrad", "check", str(path),
                           "--build-memory", "600M"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert "held more than 600 MB of memory" in proc.stderr
    assert "--build-memory SIZE" in proc.stderr and "Traceback" not in proc.stderr


def test_the_watchdog_restores_the_alarm_and_lets_a_quick_block_through():
    import signal

    before = signal.getsignal(signal.SIGALRM)
    with bounded(5.0, 10 ** 12, "x()", ("--a", "--b")):
        total = sum(range(1000))
    assert total == 499500
    after = signal.getsignal(signal.SIGALRM)
    assert after is before or (not callable(before) and callable(after))
    signal.raise_signal(signal.SIGALRM)  # a late alarm: harmless (the default would end us)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    with pytest.raises(ModelLimitError, match=r"x\(\) ran past its time limit of 0.1 s"):
        with bounded(0.1, None, "x()", ("--a", "--b")):
            while True:
                try:
                    time.sleep(0.01)
                except Exception:  # user code that swallows errors does not swallow the stop
                    pass


def test_train_bounds_each_call_of_the_users_function(model, tmp_path):
    path = model("from micrograd.nn import MLP\n\nn = MLP(2, [2, 1])\ncalls = [0]\n\n\n"
                 "def build():\n    calls[0] += 1\n    if calls[0] == 3:\n"
                 "        while True:\n            pass\n"
                 "    return (n([1.0, 2.0]) - 1.0) ** 2\n")
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "vizgrad", "train", str(path), "--steps", "5",
                           "--build-seconds", "2", "-o", str(tmp_path / "t.json")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert "model.py:build() ran past its time limit of 2 s" in proc.stderr
    assert time.monotonic() - start < 30 and not (tmp_path / "t.json").exists()
