"""Benchmark: the whole gallery, cold, with one and with two worker processes.

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
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_S = 15.0


def render(out: Path, jobs: int) -> float:
    cmd = [sys.executable, "-m", "vizgrad", "render", "--out", str(out), "--quiet", "--jobs", str(jobs)]
    start = time.perf_counter()
    subprocess.run(cmd, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per configuration (median)")
    args = parser.parse_args()
    times: dict[str, list[float]] = {"1 process, cold": [], "2 processes, cold": [],
                                     "2 processes, unchanged tree": []}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeat):
            times["1 process, cold"].append(render(Path(tmp) / f"one-{i}", 1))
            out = Path(tmp) / f"two-{i}"
            times["2 processes, cold"].append(render(out, 2))
            times["2 processes, unchanged tree"].append(render(out, 2))
        files = sum(1 for p in (Path(tmp) / "two-0").rglob("*") if p.is_file())
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"vizgrad render, whole gallery ({files} files), {os.cpu_count()} cores, "
          f"median of {args.repeat}")
    print(f"{'configuration':<30} {'median s':>9} {'min s':>7} {'max s':>7}")
    for k, v in times.items():
        print(f"{k:<30} {med[k]:>9.2f} {min(v):>7.2f} {max(v):>7.2f}")
    speedup = med["1 process, cold"] / med["2 processes, cold"]
    print(f"speed-up of 2 processes over 1: {speedup:.2f}x")
    verdict = "meets" if med["2 processes, cold"] < TARGET_S else "misses"
    print(f"cold 2-process median {med['2 processes, cold']:.2f} s {verdict} the {TARGET_S:.0f} s target")


if __name__ == "__main__":
    main()
