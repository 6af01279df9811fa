"""Cost curves against node count: one animation frame, one step SVG, bytes of each.

Run: ``python benchmarks/bench_costs.py [--repeat 3] [--sizes 50,100,200,400,800]``.
Prints a Markdown table of medians. The graphs are neurons
``tanh(b + Σ wᵢxᵢ) × 2`` grown to about the given number of values. For each
size: CPU ms to draw one frame (a window of consecutive frames on one
scene), CPU ms per frame to quantise and encode them as a GIF and the GIF
bytes per frame, wall-clock ms per step SVG (the layout runs in
another process) and its bytes. These
are the figures :mod:`vizgrad._budget` uses to estimate a render up front;
its own estimate is printed beside them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vizgrad import Value, to_networkx  # noqa: E402
from vizgrad import _budget  # noqa: E402
from vizgrad.render import frames as fr  # noqa: E402
from vizgrad.render.svg import draw  # noqa: E402
from vizgrad.tracing import states  # noqa: E402


def neuron(values: int):
    """A neuron with about ``values`` nodes (4 per input, plus a few)."""
    k = max(1, (values - 6) // 4)
    xs = [Value(0.1 * i, label=f"x{i}") for i in range(k)]
    ws = [Value(0.3 - 0.05 * i, label=f"w{i}") for i in range(k)]
    s = Value(0.5, label="b")
    for x, w in zip(xs, ws):
        s = s + x * w
    return to_networkx(s.tanh() * 2)


def cpu(fn) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def wall(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


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
    svg_s = wall(lambda: svgs.extend(draw(G, s).svg() for s in (k, k - 1, k - 2))) / 3
    return {"frame_ms": 1000 * frame_s, "encode_ms": 1000 * encode_s,
            "gif_kb": len(gif[0]) / window / 1000, "svg_ms": 1000 * svg_s,
            "svg_kb": len(svgs[0].encode("utf-8")) / 1000}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--window", type=int, default=12, help="consecutive frames per run")
    ap.add_argument("--sizes", default="50,100,200,400,800")
    args = ap.parse_args()
    print("| values | frame: ms CPU | GIF encode: ms/frame | GIF: kB/frame | step SVG: ms wall "
          "| step SVG: kB | estimate: frame+encode ms, GIF kB, SVG ms, SVG kB |")
    print("|---:|---:|---:|---:|---:|---:|---|")
    for size in (int(s) for s in args.sizes.split(",")):
        G = neuron(size)
        runs = [measure(G, args.window) for _ in range(args.repeat)]
        med = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
        n = G.number_of_nodes()
        est = (f"{1000 * _budget.frame_seconds(n):.0f}, {_budget.gif_frame_bytes(n) / 1000:.0f}, "
               f"{1000 * _budget.svg_seconds(n):.0f}, {_budget.svg_bytes(n) / 1000:.0f}")
        print(f"| {n} | {med['frame_ms']:.0f} | {med['encode_ms']:.0f} | {med['gif_kb']:.0f} | "
              f"{med['svg_ms']:.0f} | {med['svg_kb']:.0f} | {est} |", flush=True)


if __name__ == "__main__":
    main()
