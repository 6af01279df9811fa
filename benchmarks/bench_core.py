"""Core benchmarks: backward(), trace + to_networkx, its cost per node from 10k to 1M
values, memory per node.

trace + to_networkx is compared twice: with building the same graph directly from
the Values (attributes included), and with the floor, inserting the finished
graph's own node and edge tuples into a fresh ``MultiDiGraph``. Everything runs with
the garbage collector on, as users run it (one ``gc.collect()`` before each timing).

Run: ``python benchmarks/bench_core.py [--quick]``. Every ratio is measured
side by side in one run (medians over repeats), so a noisy machine affects
both sides alike; times are CPU seconds of this process (wall in brackets), as the
machine the figures come from is shared. Prints the load average and a Markdown table.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
import tracemalloc
from typing import Any, Callable

import networkx as nx

from vizgrad import Value, to_networkx, trace
from vizgrad.core.value import topological_order

try:
    from micrograd.engine import Value as MicroValue
except ImportError:  # pragma: no cover
    sys.exit("install micrograd==0.1.0 to run this benchmark (pip install -e '.[test]')")


def mlp_graph(V: Any, samples: int, seed: int = 0) -> Any:
    """A micrograd-style MLP 8-32-32-1 with relu, squared loss summed over samples."""
    rng = random.Random(seed)
    sizes = [8, 32, 32, 1]
    layers = [
        [([V(rng.uniform(-1, 1)) for _ in range(nin)], V(0.0)) for _ in range(nout)]
        for nin, nout in zip(sizes, sizes[1:])
    ]
    loss = V(0.0)
    for _ in range(samples):
        x = [V(rng.uniform(-1, 1)) for _ in range(sizes[0])]
        for i, layer in enumerate(layers):
            outs = []
            for w, b in layer:
                act = sum((wi * xi for wi, xi in zip(w, x)), b)
                outs.append(act.relu() if i < len(layers) - 1 else act)
            x = outs
        loss = loss + (x[0] - rng.uniform(-1, 1)) ** 2
    return loss


def count_nodes(root: Any) -> int:
    seen, stack = {id(root)}, [root]
    while stack:
        for p in stack.pop()._prev:
            if id(p) not in seen:
                seen.add(id(p))
                stack.append(p)
    return len(seen)


WALL: dict[int, float] = {}  # id of a CPU median -> the wall median measured with it


def _timed(fn: Callable[[], Any]) -> tuple[float, float]:
    """(CPU s, wall s) of one call, the garbage collector on; what ``fn`` returns is freed
    after the clock stops, so a graph's deallocation is in neither side's time."""
    gc.collect()
    c0, t0 = time.process_time(), time.perf_counter()
    keep = fn()
    c1, t1 = time.process_time(), time.perf_counter()
    del keep
    return c1 - c0, t1 - t0


def _median(runs: list[tuple[float, float]]) -> float:
    cpu = statistics.median(r[0] for r in runs)
    WALL[id(cpu)] = statistics.median(r[1] for r in runs)
    return cpu


def wall(cpu: float) -> str:
    """The wall median measured beside a CPU median, in brackets."""
    return f" ({WALL[id(cpu)] * 1e3:.0f})" if id(cpu) in WALL else ""


def median_time(fn: Callable[[], Any], repeats: int) -> float:
    """Median CPU time of ``fn`` over ``repeats`` runs."""
    return _median([_timed(fn) for _ in range(repeats)])


def paired(ours: Callable[[], Any], theirs: Callable[[], Any], repeats: int) -> tuple[float, float]:
    """Medians of two functions timed alternately, so load on the machine hits both alike."""
    a, b = [], []
    for _ in range(repeats):
        a.append(_timed(ours))
        b.append(_timed(theirs))
    return _median(a), _median(b)


def direct_graph(root: Value) -> nx.MultiDiGraph:
    """The baseline: the same MultiDiGraph built directly from the Values."""
    order = topological_order(root)
    ids = {id(v): f"v{i}" for i, v in enumerate(order)}
    G = nx.MultiDiGraph()
    G.add_nodes_from(
        (ids[id(v)], {"label": v.label or "", "data": v.data, "grad": v.grad, "op": v.op,
                      "kind": "op" if v.parents else "input", "order": i})
        for i, v in enumerate(order)
    )
    G.add_edges_from(
        (ids[id(p)], ids[id(v)], slot, {"slot": slot})
        for v in order for slot, p in enumerate(v.parents)
    )
    return G


def floor_graph(G: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """The floor: the finished graph's own node and edge tuples inserted into a fresh graph."""
    H = nx.MultiDiGraph()
    H.add_nodes_from(G.nodes(data=True))
    H.add_edges_from(G.edges(keys=True, data=True))
    return H


def peak_per_node(fn: Callable[[], Any], n: int) -> float:
    gc.collect()
    tracemalloc.start()
    keep = fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del keep
    return peak / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller graphs, fewer repeats")
    args = parser.parse_args()
    samples, repeats, chain = (4, 5, 100_000) if args.quick else (37, 7, 1_000_000)
    scale = (4, 37) if args.quick else (4, 37, 370)  # MLP samples: ~12k, ~100k, ~1M values
    sys.setrecursionlimit(10_000)
    rows = []

    ours = mlp_graph(Value, samples)
    theirs = mlp_graph(MicroValue, samples)
    n = count_nodes(ours)
    assert n == count_nodes(theirs)
    t_ours, t_theirs = paired(ours.backward, theirs.backward, repeats)
    rows.append((f"backward(), MLP graph of {n:,} nodes", ms(t_ours),
                 f"micrograd 0.1.0: {ms(t_theirs)}", f"{t_ours / t_theirs:.2f}", "≤ 1.0"))

    x = Value(0.5)
    for _ in range(chain):
        x = x * 1.0
    t_chain = median_time(x.backward, 3)
    y = MicroValue(0.5)
    for _ in range(chain):
        y = y * 1.0
    try:
        y.backward()
        micro = "ran"
    except RecursionError:
        micro = "RecursionError"
    rows.append((f"backward(), chain {chain:,} deep", ms(t_chain),
                 f"micrograd 0.1.0: {micro}", "—", "works"))
    del x, y
    gc.collect()

    t_trace, t_direct = paired(lambda: to_networkx(trace(ours)), lambda: direct_graph(ours),
                               repeats)
    rows.append((f"trace + to_networkx, {n:,} nodes", ms(t_trace),
                 f"direct add_nodes_from/add_edges_from: {ms(t_direct)}",
                 f"{t_trace / t_direct:.2f}", "≤ 2.0"))

    G = to_networkx(trace(ours))
    t_trace, t_floor = paired(lambda: to_networkx(trace(ours)), lambda: floor_graph(G), repeats)
    rows.append((f"trace + to_networkx, {n:,} nodes", ms(t_trace),
                 f"floor: the final graph's nodes and edges into a fresh MultiDiGraph: "
                 f"{ms(t_floor)}", f"{t_trace / t_floor:.2f}", "≤ 1.5"))
    del G
    gc.collect()

    m_ours = peak_per_node(lambda: mlp_graph(Value, samples), n)
    m_theirs = peak_per_node(lambda: mlp_graph(MicroValue, samples), n)
    rows.append(("engine memory per node (peak, building the MLP)", f"{m_ours:.0f} B",
                 f"micrograd 0.1.0: {m_theirs:.0f} B", f"{m_ours / m_theirs:.2f}", "—"))
    m_trace = peak_per_node(lambda: trace(ours), n)
    m_graph = peak_per_node(lambda: to_networkx(trace(ours)), n)
    rows.append(("trace memory per node (peak)", f"{m_trace:.0f} B",
                 f"trace + to_networkx: {m_graph:.0f} B", "—", "trace ≤ 2006 B"))
    del ours, theirs
    gc.collect()

    per_node, floors = [], []
    for k in scale:
        root = mlp_graph(Value, k)
        size = count_nodes(root)
        G = to_networkx(trace(root))
        t, t_floor = paired(lambda: to_networkx(trace(root)), lambda: floor_graph(G),
                            repeats if size < 500_000 else 3)
        per_node.append((size, t / size))
        floors.append(t_floor / size)
        rows.append((f"trace + to_networkx per node, {size:,} nodes", f"{t / size * 1e6:.2f} µs",
                     f"the {per_node[0][0]:,}-node graph: {per_node[0][1] * 1e6:.2f} µs "
                     f"(the floor per node here: {t_floor / size * 1e6:.2f} µs, "
                     f"{t_floor / size / floors[0]:.2f}× its own at {per_node[0][0]:,})",
                     f"{t / size / per_node[0][1]:.2f}", "≤ 1.3"))
        del root, G
        gc.collect()
    spread = max(p for _, p in per_node) / min(p for _, p in per_node)
    rows.append(("trace + to_networkx per node, largest / smallest", "—", "—", f"{spread:.2f}",
                 "≤ 1.3"))

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"Python {sys.version.split()[0]}, networkx {nx.__version__}, medians of {repeats}, "
          f"CPU ms (wall ms), garbage collector on; load average {load} on "
          f"{os.cpu_count()} cores\n")
    print("| measurement | vizgrad | compared with | ratio | target |")
    print("|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


def ms(cpu: float) -> str:
    """A CPU median in ms, with the wall median beside it."""
    return f"{cpu * 1e3:.0f}{wall(cpu)} ms"


if __name__ == "__main__":
    main()
