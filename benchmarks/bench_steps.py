"""Every step as SVG: one layout plus K scene draws, against a Graphviz layout per step.

Run: ``python benchmarks/bench_steps.py [--repeat 3]``. Prints a Markdown table of
medians, measured side by side in one run. "One layout" builds one
:class:`~vizgrad.scene.scene.Scene` and writes the SVG of each step from it;
"a layout per step" builds a new scene (so runs Graphviz) for every step, which is
what drawing each step on its own costs. Times are wall seconds with the embedded
Graphviz worker already started.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vizgrad import Value, examples, to_networkx
from vizgrad.write.svgout import svg_document
from vizgrad.scene.make import scene_of


def two_hundred() -> object:
    """A 200-node graph: a sum of 50 products x_i * w_i plus a bias, through tanh."""
    total = Value(0.0, label="b")
    for i in range(49):
        x, w = Value(0.1 * i - 2, label=f"x{i}"), Value(0.05 * (i % 7) - 0.1, label=f"w{i}")
        total = total + x * w
    out = total.tanh()
    out.label = "o"
    out.backward()
    return to_networkx(out)


def one_layout(G: object) -> int:
    scene = scene_of(G)
    return sum(len(svg_document(scene, scene.look(k), title="t"))
               for k in range(scene.last + 1))


def layout_per_step(G: object) -> int:
    total = 0
    for k in range(len(G.graph["steps"])):  # type: ignore[attr-defined]
        scene = scene_of(G)
        total += len(svg_document(scene, scene.look(k), title="t"))
    return total


def median_time(fn, G, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(G)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    scene_of(examples.graph("fork"))  # start the Graphviz worker
    print("| graph | values | steps | one layout + K draws, s | a layout per step, s | speed-up |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, G in (("softmax-nll", examples.graph("softmax-nll")), ("200 nodes", two_hundred())):
        k = len(G.graph["steps"])
        one = median_time(one_layout, G, args.repeat)
        per = median_time(layout_per_step, G, args.repeat)
        print(f"| {name} | {G.number_of_nodes()} | {k} | {one:.2f} | {per:.2f} | "
              f"{per / one:.1f}× |")


if __name__ == "__main__":
    main()
