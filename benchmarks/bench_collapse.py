"""Collapse benchmark: drawing large grouped graphs collapsed, and collapsed against full.

Run: ``python benchmarks/bench_collapse.py [--repeat 3] [--quick]``. Prints a
Markdown table of medians (CPU s of this process and its Graphviz children,
wall s in brackets; see ``bench_svg.py``).

1. ``vizgrad.draw(loss).svg()`` of an MLP(4, [12, 12, 1]) loss summed over 10
   and 100 samples (about 5,000 and 50,000 values), collapsed automatically:
   the whole time from the Value, its parts (trace and graph, collapse,
   drawing the boxes) and the time per value.
2. The same ~1,000-value graph drawn in full and collapsed at ``"neuron"``,
   timed alternately.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_svg import cpu_now, median_pair

import vizgrad
from vizgrad import Value
from vizgrad.graph.collapse import auto_collapse
from vizgrad.core.nn import MLP


def mlp_loss(samples: int, sizes: tuple[int, ...] = (4, 12, 12, 1)) -> Value:
    """vizgrad's grouped MLP, squared error summed over random samples; backward() run."""
    net = MLP(sizes[0], list(sizes[1:]), seed=3)
    rng = random.Random(1)
    loss: Value = Value(0.0, label="zero")
    for _ in range(samples):
        loss = loss + (net([rng.uniform(-1, 1) for _ in range(sizes[0])]) - 1.0) ** 2
    loss.label = "loss"
    loss.backward()
    return loss


def timed(f, repeat: int) -> tuple[float, float]:
    """CPU and wall medians of ``f``."""
    cpu, wall = [], []
    for _ in range(repeat):
        c0, t0 = cpu_now(), time.perf_counter()
        f()
        wall.append(time.perf_counter() - t0)
        cpu.append(cpu_now() - c0)
    return statistics.median(cpu), statistics.median(wall)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="only the 5,000-value graph, once")
    args = ap.parse_args()
    repeat = 1 if args.quick else args.repeat
    sizes = (10,) if args.quick else (10, 100)
    vizgrad.draw(mlp_loss(1)).svg()  # start the layout backend

    print(f"## Collapsed drawing from a Value (median of {repeat}; CPU s, wall s in brackets)\n")
    print("| values | boxes | draw(loss).svg() | per value | trace + graph | collapse | "
          "draw the boxes |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for samples in sizes:
        loss = mlp_loss(samples)
        G = vizgrad.to_networkx(loss)
        H = auto_collapse(G)
        whole = timed(lambda loss=loss: vizgrad.draw(loss).svg(), repeat)
        graph = timed(lambda loss=loss: vizgrad.to_networkx(loss), repeat)
        shrink = timed(lambda G=G: auto_collapse(G), repeat)
        boxes = timed(lambda H=H: vizgrad.draw(H).svg(), repeat)
        n = G.number_of_nodes()
        print(f"| {n:,} | {H.number_of_nodes()} | {whole[0]:.2f} ({whole[1]:.2f}) | "
              f"{whole[0] / n * 1e6:.0f} µs | {graph[0]:.2f} ({graph[1]:.2f}) | "
              f"{shrink[0]:.2f} ({shrink[1]:.2f}) | {boxes[0]:.2f} ({boxes[1]:.2f}) |")

    G = vizgrad.to_networkx(mlp_loss(11, (3, 4, 4, 1)))
    full, boxed, w_full, w_boxed = median_pair(
        lambda: vizgrad.draw(G, collapse=False).svg(),
        lambda: vizgrad.draw(G, collapse="neuron").svg(), repeat)
    n_boxes = vizgrad.draw(G, collapse="neuron").graph.number_of_nodes()
    print(f"\n## The same graph in full and collapsed (median of {repeat}, alternating)\n")
    print("| graph | values | full draw().svg() | collapse='neuron' | boxes | collapsed / full |")
    print("|---|---:|---:|---:|---:|---:|")
    print(f"| MLP(3, [4, 4, 1]), 11 samples | {G.number_of_nodes():,} | "
          f"{full:.2f} ({w_full:.2f}) | "
          f"{boxed:.2f} ({w_boxed:.2f}) | {n_boxes} | {boxed / full:.3f} |")


if __name__ == "__main__":
    main()
