"""Slides are budgeted before any is drawn and written as one marked set: no file of yours
replaced, no stale slide left, and a kill leaves the old set or the new one (issue 31, 2)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from vizgrad.write.slide_set import marked, recover, write_set

CHAIN = '''
from vizgrad import Value


def build(n={n}):
    y = Value(0.5, label="x")
    for i in range(int(n) - 1):
        y = y * 1.0 if i % 2 else y + 0.0
    y.backward()
    return y
'''


def _slides(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_set_over_the_budget_is_refused_before_any_file(run, model, tmp_path):
    path = model(CHAIN.format(n=601))
    out = tmp_path / "out"
    out.mkdir()
    for limit in ("1M", "5M"):
        result = run("render", str(path), "--collapse", "none", "--preset", "slides", "-o",
                     str(out / "deck.svg"), "--max-bytes", limit, code=1)
        assert "more than --max-bytes" in result.output
        assert _slides(out) == []
    assert "slides would write about" in result.output  # 5M: the slides, each counted


def test_a_file_of_yours_survives_and_a_smaller_run_leaves_no_stale_slide(run, model, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    mine = out / "deck-9.svg"
    mine.write_text("<svg>mine</svg>", encoding="utf-8")
    big = model(CHAIN.format(n=90), "big.py")
    result = run("render", str(big), "--collapse", "none", "--preset", "slides", "-o",
                 str(out / "deck.svg"), code=1)
    assert "deck-9.svg is not a slide vizgrad wrote" in result.output
    assert "--force" in result.output
    assert _slides(out) == ["deck-9.svg"] and mine.read_text() == "<svg>mine</svg>"
    run("render", str(big), "--collapse", "none", "--preset", "slides", "-o",
        str(out / "deck.svg"), "--force")
    first = _slides(out)
    assert len(first) > 9 and all(marked(out / n) for n in first)
    small = model(CHAIN.format(n=16), "small.py")
    run("render", str(small), "--collapse", "none", "--preset", "slides", "-o",
        str(out / "deck.svg"))
    left = _slides(out)
    ids = {marked(out / n)[0] for n in left}
    assert len(ids) == 1 and len(left) == marked(out / left[0])[2], left  # one whole set


def _complete(folder: Path) -> tuple[str, int]:
    """The set id and size of the one complete set in ``folder`` (fails on a mix)."""
    names = sorted(p.name for p in folder.iterdir())
    assert not [n for n in names if n.startswith(".")], names  # nothing hidden left
    marks = [marked(folder / n) for n in names]
    assert all(marks), names
    ids = {m[0] for m in marks}
    assert len(ids) == 1, names
    n = marks[0][2]
    assert sorted(m[1] for m in marks) == list(range(1, n + 1)), names
    return ids.pop(), n


WRITER = '''
import os, sys, time
from pathlib import Path
from vizgrad.write import slide_set
real = os.replace
def slow(a, b):
    time.sleep(0.01)
    real(a, b)
os.replace = slow
slide_set.os.replace = slow
print("go", flush=True)
slide_set.write_set(Path(sys.argv[1]), ["<svg>" + "x" * 20000 + "</svg>"] * 30)
'''


def test_a_kill_at_a_random_moment_leaves_a_complete_set(tmp_path):
    rng = random.Random(31)
    seen = set()
    for attempt in range(12):
        folder = tmp_path / f"k{attempt}"
        folder.mkdir()
        out = folder / "deck.svg"
        old_id, _ = write_set(out, ["<svg>old</svg>"] * 5), None
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(out)],
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "go"
        time.sleep(rng.uniform(0.0, 0.6))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        proc.stdout.close()
        recover(out)  # what the next run does first
        set_id, n = _complete(folder)
        assert n in (5, 30)
        seen.add(n)
    assert seen == {5, 30}, seen  # kills landed before and after the commit
