"""Cost curves against node count: one animation frame, one step SVG, bytes of each.

Run: ``python benchmarks/bench_costs.py [--repeat 3] [--samples 1,2,4,8]``.
Prints a Markdown table of medians. The graphs are the micrograd course's
MLP(3, [4, 4, 1]) loss over 1, 2, 4, 8 samples (132, 220, 396, 748 values).
For each: CPU ms to draw one frame (a window of consecutive frames on one
scene), CPU ms per frame to quantise and encode them as a GIF and the GIF
bytes per frame, CPU ms per step SVG (with the system ``dot``, so that the
layout's CPU time is counted) and its bytes. These
are the figures :mod:`vizgrad.export.budget` uses to estimate a render up front;
its own estimate is printed beside them.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vizgrad import Value, to_networkx  # noqa: E402
from vizgrad.export import budget as _budget  # noqa: E402
from vizgrad.write.raster import frames as fr  # noqa: E402
from vizgrad.write.svg import draw  # noqa: E402
from vizgrad.tracing.recorder import states  # noqa: E402


def mlp_loss(samples: int):
    """The course's MLP(3, [4, 4, 1]) mean squared error over ``samples`` samples, in
    vizgrad Values (as micrograd builds it: 132 values for one sample, 88 more a sample)."""
    rng = random.Random(1337)
    sizes = [3, 4, 4, 1]
    layers = [[([Value(rng.uniform(-1, 1)) for _ in range(nin)], Value(0.0), i < 2)
               for _ in range(nout)] for i, (nin, nout) in enumerate(zip(sizes, sizes[1:]))]
    xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
    ys = [1.0, -1.0, -1.0, 1.0]
    terms = []
    for k in range(samples):
        x: list = xs[k % 4]
        for layer in layers:
            x = [(sum((w * xi for w, xi in zip(ws, x)), b)) for ws, b, _ in layer]
            x = [a.relu() if nonlin else a for a, (_, _, nonlin) in zip(x, layer)]
        terms.append((x[0] - ys[k % 4]) ** 2)
    loss = sum(terms) / samples
    loss.backward()
    return to_networkx(loss)


def cpu(fn) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def cpu_with_children(fn) -> float:
    """CPU seconds of this process and of the programs it ran and waited for (system dot)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.process_time()
    fn()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (time.process_time() - start + after.ru_utime - before.ru_utime
            + after.ru_stime - before.ru_stime)


def measure(G, window: int) -> dict[str, float]:
    _, scene, _ = fr._scene(G, {})
    images = []

    def frames() -> None:
        for state in states(G.graph["steps"]):
            if state.step >= window:
                break
            scene.show(state)
            images.append(scene.image())

    frame_s = cpu(frames) / window
    gif: list[bytes] = []
    encode_s = cpu(lambda: gif.append(fr._gif(images, [1000] * window, True))) / window
    svgs: list[str] = []
    k = len(G.graph["steps"]) - 1
    svg_s = cpu_with_children(
        lambda: svgs.extend(draw(G, s, backend="system").svg() for s in (k, k - 1, k - 2))) / 3
    return {"frame_ms": 1000 * frame_s, "encode_ms": 1000 * encode_s,
            "gif_kb": len(gif[0]) / window / 1000, "svg_ms": 1000 * svg_s,
            "svg_kb": len(svgs[0].encode("utf-8")) / 1000}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--window", type=int, default=12, help="consecutive frames per run")
    ap.add_argument("--samples", default="1,2,4,8", help="MLP samples: 132, 220, 396, 748 values")
    args = ap.parse_args()
    print("| values | frame: ms CPU | GIF encode: ms/frame | GIF: kB/frame | step SVG: ms CPU "
          "| step SVG: kB | estimate: frame+encode ms, GIF kB, SVG ms, SVG kB |")
    print("|---:|---:|---:|---:|---:|---:|---|")
    for samples in (int(s) for s in args.samples.split(",")):
        G = mlp_loss(samples)
        runs = [measure(G, args.window) for _ in range(args.repeat)]
        med = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
        n = G.number_of_nodes()
        est = (f"{1000 * _budget.frame_seconds(n):.0f}, {_budget.gif_frame_bytes(n) / 1000:.0f}, "
               f"{1000 * _budget.svg_seconds(n):.0f}, {_budget.svg_bytes(n) / 1000:.0f}")
        print(f"| {n} | {med['frame_ms']:.0f} | {med['encode_ms']:.0f} | {med['gif_kb']:.0f} | "
              f"{med['svg_ms']:.0f} | {med['svg_kb']:.0f} | {est} |", flush=True)


if __name__ == "__main__":
    main()
