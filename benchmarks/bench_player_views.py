"""Player page sizes with groups that open: what one view per group costs.

Run: ``python benchmarks/bench_player_views.py [--repeat 3]``. Prints a Markdown
table: for the ``mlp`` example (40 values) and the micrograd course's
MLP(3, [4, 4, 1]) (128 values), the page's bytes drawn in full, collapsed at
``"neuron"`` without views (budget 0) and with a view per group, and the
median time to build each page (CPU of this process; the layouts run in the
embedded Graphviz worker, so wall seconds are in brackets).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import vizgrad
from vizgrad.player import views as _views
from vizgrad.player.page import player_html


def course_mlp():
    from micrograd import nn

    random.seed(0)
    net = nn.MLP(3, [4, 4, 1])
    loss = (net([2.0, 3.0, -1.0]) - 1.0) ** 2
    loss.backward()
    return vizgrad.to_networkx(vizgrad.trace(loss, model=net))


def build(G, budget, **options):
    saved = _views.VIEW_BUDGET
    _views.VIEW_BUDGET = budget
    try:
        c0, t0 = time.process_time(), time.perf_counter()
        page = player_html(G, **options)
        return page, time.process_time() - c0, time.perf_counter() - t0
    finally:
        _views.VIEW_BUDGET = saved


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    graphs = {"mlp example (40 values)": vizgrad.examples.graph("mlp"),
              "course MLP(3, [4, 4, 1]) (128 values)": course_mlp()}
    kinds = {"full": ({}, _views.VIEW_BUDGET),
             "collapsed, no views": ({"collapse": "neuron"}, 0),
             "collapsed, a view per group": ({"collapse": "neuron"}, _views.VIEW_BUDGET)}
    print("| graph | page | bytes | views | build CPU s [wall s] |")
    print("|---|---|---:|---:|---:|")
    for name, G in graphs.items():
        runs: dict[str, list[tuple[str, float, float]]] = {k: [] for k in kinds}
        for _ in range(args.repeat):  # alternately, so load hits every kind alike
            for kind, (options, budget) in kinds.items():
                runs[kind].append(build(G, budget, **options))
        for kind, results in runs.items():
            page = results[0][0]
            assert all(r[0] == page for r in results)  # the same bytes every time
            views = page.count('"open":"')
            cpu = statistics.median(r[1] for r in results)
            wall = statistics.median(r[2] for r in results)
            print(f"| {name} | {kind} | {len(page.encode()):,} | {views} | "
                  f"{cpu:.2f} [{wall:.2f}] |")


if __name__ == "__main__":
    main()
