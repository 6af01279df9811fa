"""Benchmark: the whole gallery, cold, with one and with two worker processes.

CPU seconds add up every process of the run (the workers and their layout
processes are waited for, so the operating system accounts them to the
render); other work on the machine disturbs that figure less than the wall
clock.

Each run is a fresh ``python -m vizgrad render --out <empty folder> --quiet``
process (imports, the embedded Graphviz start-up and every file included),
so the figure is what a user waits for. The one- and two-process runs are
interleaved so both see the same machine load. Also timed: a re-run on the
unchanged tree (every file compared, none rewritten).

    python benchmarks/bench_gallery.py [--repeat 3]

Target: the cold two-process run under 15 s on a 2-core machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_S = 15.0


def render(out: Path, jobs: int) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one render (CPU: every process it started)."""
    cmd = [sys.executable, "-m", "vizgrad", "render", "--out", str(out), "--quiet",
           "--jobs", str(jobs)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per configuration (median)")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    times: dict[str, list[tuple[float, float]]] = {
        "1 process, cold": [], "2 processes, cold": [], "2 processes, unchanged tree": []}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeat):
            times["1 process, cold"].append(render(Path(tmp) / f"one-{i}", 1))
            out = Path(tmp) / f"two-{i}"
            times["2 processes, cold"].append(render(out, 2))
            times["2 processes, unchanged tree"].append(render(out, 2))
        files = sum(1 for p in (Path(tmp) / "two-0").rglob("*") if p.is_file())
    med = {k: statistics.median(w for w, _ in v) for k, v in times.items()}
    print(f"vizgrad render, whole gallery ({files} files), {os.cpu_count()} cores, "
          f"median of {args.repeat}; load average before: {load:.1f}")
    print(f"{'configuration':<30} {'wall s':>7} {'min s':>7} {'max s':>7} {'CPU s':>7}")
    for k, v in times.items():
        cpu = statistics.median(c for _, c in v)
        print(f"{k:<30} {med[k]:>7.2f} {min(w for w, _ in v):>7.2f} "
              f"{max(w for w, _ in v):>7.2f} {cpu:>7.2f}")
    speedup = med["1 process, cold"] / med["2 processes, cold"]
    print(f"speed-up of 2 processes over 1: {speedup:.2f}x")
    verdict = "meets" if med["2 processes, cold"] < TARGET_S else "misses"
    print(f"cold 2-process median {med['2 processes, cold']:.2f} s {verdict} "
          f"the {TARGET_S:.0f} s target")


if __name__ == "__main__":
    main()
