"""``vizgrad train`` of micrograd's demo net against the same 100 steps run by plain micrograd.

Run: ``python benchmarks/bench_train.py [--steps 100] [--repeat 1]``. The net is
``benchmarks/models/demo_net.py`` (MLP(2, [16, 16, 1]), 8 samples, about 6,200 values per
step). "plain micrograd" is the loop a student writes (build, zero_grad, backward, update);
"vizgrad train → player" runs the command (recording every step, the three detailed steps'
traces and step players, the input plane) and writes the page. The ratio is the figure to
report; the targets are ≤ 30 s and a page ≤ 10 MB. Times are wall seconds, medians.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODEL = ROOT / "benchmarks" / "models" / "demo_net.py"


def _fresh():
    spec = importlib.util.spec_from_file_location("demo_net_bench", MODEL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def plain(steps: int) -> float:
    m = _fresh()
    start = time.perf_counter()
    for k in range(steps):
        loss = m.build()
        m.model.zero_grad()
        loss.backward()
        lr = 1.0 - 0.9 * k / 100
        for p in m.model.parameters():
            p.data += -lr * p.grad
    return time.perf_counter() - start


def command(steps: int, out: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "vizgrad", "train", f"{MODEL}:build", "--steps",
                    str(steps), "--lr", "1 - 0.9*k/100", "-o", str(out), "-q"], check=True,
                   env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "demo.html"
        mg = statistics.median(plain(args.steps) for _ in range(args.repeat))
        vg = statistics.median(command(args.steps, out) for _ in range(args.repeat))
        size = out.stat().st_size
    print(f"| {args.steps} steps of MLP(2, [16, 16, 1]) on 8 samples | seconds |")
    print("|---|---:|")
    print(f"| plain micrograd | {mg:.2f} |")
    print(f"| vizgrad train → player ({size / 1e6:.2f} MB) | {vg:.2f} |")
    print(f"| ratio | {vg / mg:.2f}× |")


if __name__ == "__main__":
    main()
