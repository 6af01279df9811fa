"""A million values, at a glance: the collapsed overview of a 1,000,000-value graph.

Two graphs, each built in a fresh child process (garbage collector on, as users run it):

- ``chain``: a deep chain, ``x.tanh().tanh()…`` of ``--values`` Values (vizgrad.core.value);
- ``mlp``: a wide batch, ``vizgrad.core.nn.MLP(4, [12, 12, 1])`` (tanh) and a squared error
  summed over as many samples as make about ``--values`` values (its net named and
  grouped: ``model=net``).

Two routes, each timed from the loss Value to the SVG on disk, with the child's peak
resident memory (``ru_maxrss``, the graph's own Values included) against the targets
(20 s wall, 2 GB):

- ``draw``: ``vizgrad.draw(loss, model=net)``, its ``.svg()`` written to a file;
- ``cli``: ``vizgrad render model.py:build -o overview.svg -q`` run in the child (click's
  ``main``), which also runs ``build()`` with the collector paused, as the command does:
  the median time of ``build()`` run that way in children of its own is taken off (the
  whole command's time is in brackets). Its peak memory is the whole command's, build
  included.

Run: ``python benchmarks/bench_million.py [--values 1000000] [--repeat 3]``; prints the load
average and a Markdown table of medians (and the spread).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: the model file the command line renders: build(kind, n) returns the loss (and its net)
MODEL = '''
import random
from vizgrad import Value
from vizgrad.core.nn import MLP

PER_SAMPLE = 486  # values one sample adds to MLP(4, [12, 12, 1])'s loss


def build(kind=0, n=1000000):
    """kind 0 (or "chain"): a tanh chain of n values; 1 (or "mlp"): an MLP batch's loss."""
    n = int(n)
    if kind in (0, "chain"):
        v = Value(0.5, label="x")
        for _ in range(n - 1):
            v = v.tanh()
        v.backward()
        return v
    net = MLP(4, [12, 12, 1], seed=0)
    rng = random.Random(0)
    loss = Value(0.0)
    for _ in range(max(1, n // PER_SAMPLE)):
        x = [rng.uniform(-1, 1) for _ in range(4)]
        loss = loss + (net(x) - rng.uniform(-1, 1)) ** 2
    loss.backward()
    return loss, net
'''
KINDS = {"chain": 0, "mlp": 1}
TARGET_SECONDS, TARGET_BYTES = 20.0, 2_000_000_000


def _peak() -> int:
    """This process's peak resident memory in bytes."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def child(route: str, kind: str, values: int, folder: Path) -> dict[str, float]:
    """One run, in this (fresh) process."""
    sys.path.insert(0, str(folder))
    import million_model  # written by the parent

    import vizgrad

    vizgrad.draw(vizgrad.Value(1.0) + 2).svg()  # start the layout worker before timing
    out = folder / f"{kind}-{route}.svg"
    cpu0 = time.process_time()
    build = 0.0
    if route == "build":  # build() as the command line runs it: the collector paused
        from vizgrad.runtime.gc_pause import paused_collector

        t0 = time.perf_counter()
        with paused_collector():
            million_model.build(kind, values)
        seconds = time.perf_counter() - t0
        return {"seconds": seconds, "cpu": time.process_time() - cpu0, "build": seconds,
                "peak": _peak(), "values": None, "boxes": None, "total_cpu": 0.0}
    if route == "draw":
        t0 = time.perf_counter()
        got = million_model.build(kind, values)
        build = time.perf_counter() - t0
        loss, net = got if isinstance(got, tuple) else (got, None)
        t1 = time.perf_counter()
        c1 = time.process_time()
        drawing = vizgrad.draw(loss, model=net)
        out.write_text(drawing.svg(), encoding="utf-8")
        seconds, cpu = time.perf_counter() - t1, time.process_time() - c1
        info = drawing.prepared.graph.graph.get("collapsed", {})
        n, boxes = info.get("nodes"), info.get("boxes")
    else:  # the command line builds the graph itself: its time is taken off by the parent
        from vizgrad.cli.commands import main

        t1 = time.perf_counter()
        c1 = time.process_time()
        main(["render", f"{folder / 'million_model.py'}:build", "--set",
              f"kind={KINDS[kind]}", "--set", f"n={values}", "-o", str(out), "-q"],
             standalone_mode=False)
        seconds, cpu = time.perf_counter() - t1, time.process_time() - c1
        n = boxes = None
    assert out.stat().st_size > 0
    return {"seconds": seconds, "cpu": cpu, "build": build, "peak": _peak(), "values": n,
            "boxes": boxes, "total_cpu": time.process_time() - cpu0}


def run(route: str, kind: str, values: int, folder: Path) -> dict[str, float]:
    cmd = [sys.executable, __file__, "--child", route, kind, str(values), str(folder)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    res = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if res.returncode:
        sys.exit(f"{route} {kind} failed:\n{res.stderr}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--values", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3, help="runs per graph and route")
    ap.add_argument("--routes", default="draw,cli")
    ap.add_argument("--kinds", default="chain,mlp")
    ap.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        route, kind, values, folder = args.child
        print(json.dumps(child(route, kind, int(values), Path(folder))))
        return
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "million_model.py").write_text(MODEL, encoding="utf-8")
        for kind in args.kinds.split(","):
            for route in args.routes.split(","):
                runs = [run(route, kind, args.values, folder) for _ in range(args.repeat)]
                if route == "cli":  # build() ran inside, the collector paused: take it off
                    builds = [run("build", kind, args.values, folder)["build"]
                              for _ in range(args.repeat)]
                    build = statistics.median(builds)
                    for r in runs:
                        r["build"], r["whole"] = build, r["seconds"]
                        r["seconds"] -= build
                rows.append((kind, route, runs))
                secs = [r["seconds"] for r in runs]
                print(f"{kind} {route}: {', '.join(f'{s:.1f}' for s in secs)} s; peak "
                      f"{max(r['peak'] for r in runs) / 1e9:.2f} GB", file=sys.stderr,
                      flush=True)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"Python {sys.version.split()[0]}; load average {load} on {os.cpu_count()} cores; "
          f"{args.values:,} values asked; medians of {args.repeat} runs (min–max)\n")
    print("| graph | route | values → boxes | build (not timed) | loss → SVG on disk, wall | "
          "CPU (this process) | peak RSS | targets |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for kind, route, runs in rows:
        med = {k: statistics.median(r[k] for r in runs) for k in ("seconds", "cpu", "build")}
        lo, hi = min(r["seconds"] for r in runs), max(r["seconds"] for r in runs)
        peak = max(r["peak"] for r in runs)
        size = next((f"{r['values']:,} → {r['boxes']}" for r in runs if r["values"]), "as draw")
        ok = med["seconds"] <= TARGET_SECONDS and peak <= TARGET_BYTES
        whole = (f" (whole command {statistics.median(r['whole'] for r in runs):.1f} s)"
                 if route == "cli" else "")
        print(f"| {kind} | {route} | {size} | {med['build']:.1f} s | {med['seconds']:.1f} s "
              f"({lo:.1f}–{hi:.1f}){whole} | {med['cpu']:.1f} s | {peak / 1e9:.2f} GB | "
              f"{'met' if ok else 'missed'} (≤ 20 s, ≤ 2 GB) |")


if __name__ == "__main__":
    main()
