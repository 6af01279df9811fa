"""Core benchmarks: backward(), trace + to_networkx, memory per node.

trace + to_networkx is compared twice: with building the same graph directly from
the Values (attributes included), and with the floor, inserting the finished
graph's own node and edge tuples into a fresh ``MultiDiGraph``.

Run: ``python benchmarks/bench_core.py [--quick]``. Every ratio is measured
side by side in one run (medians over repeats), so a noisy machine affects
both sides alike. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
import tracemalloc
from typing import Any, Callable

import networkx as nx

from vizgrad import Value, to_networkx, trace
from vizgrad.engine import topological_order

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


def _timed(fn: Callable[[], Any]) -> float:
    gc.collect()
    gc.disable()  # paused while timing, as timeit does
    try:
        t0 = time.perf_counter()
        fn()
        return time.perf_counter() - t0
    finally:
        gc.enable()


def median_time(fn: Callable[[], Any], repeats: int) -> float:
    """Median wall time of ``fn`` over ``repeats`` runs."""
    return statistics.median(_timed(fn) for _ in range(repeats))


def paired(ours: Callable[[], Any], theirs: Callable[[], Any], repeats: int) -> tuple[float, float]:
    """Medians of two functions timed alternately, so load on the machine hits both alike."""
    a, b = [], []
    for _ in range(repeats):
        a.append(_timed(ours))
        b.append(_timed(theirs))
    return statistics.median(a), statistics.median(b)


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
    samples, repeats, chain = (4, 5, 100_000) if args.quick else (36, 11, 1_000_000)
    sys.setrecursionlimit(10_000)
    rows = []

    ours = mlp_graph(Value, samples)
    theirs = mlp_graph(MicroValue, samples)
    n = count_nodes(ours)
    assert n == count_nodes(theirs)
    t_ours, t_theirs = paired(ours.backward, theirs.backward, repeats)
    rows.append((f"backward(), MLP graph of {n:,} nodes", f"{t_ours * 1e3:.1f} ms",
                 f"micrograd 0.1.0: {t_theirs * 1e3:.1f} ms", f"{t_ours / t_theirs:.2f}", "≤ 1.0"))

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
    rows.append((f"backward(), chain {chain:,} deep", f"{t_chain * 1e3:.0f} ms",
                 f"micrograd 0.1.0: {micro}", "—", "works"))
    del x, y
    gc.collect()

    t_trace, t_direct = paired(lambda: to_networkx(trace(ours)), lambda: direct_graph(ours), repeats)
    rows.append((f"trace + to_networkx, {n:,} nodes", f"{t_trace * 1e3:.0f} ms",
                 f"direct add_nodes_from/add_edges_from: {t_direct * 1e3:.0f} ms",
                 f"{t_trace / t_direct:.2f}", "≤ 2.0"))

    G = to_networkx(trace(ours))
    t_trace, t_floor = paired(lambda: to_networkx(trace(ours)), lambda: floor_graph(G), repeats)
    rows.append((f"trace + to_networkx, {n:,} nodes", f"{t_trace * 1e3:.0f} ms",
                 f"floor: the final graph's nodes and edges into a fresh MultiDiGraph: "
                 f"{t_floor * 1e3:.0f} ms", f"{t_trace / t_floor:.2f}", "≤ 2.0"))
    del G
    gc.collect()

    m_ours = peak_per_node(lambda: mlp_graph(Value, samples), n)
    m_theirs = peak_per_node(lambda: mlp_graph(MicroValue, samples), n)
    rows.append(("engine memory per node (peak, building the MLP)", f"{m_ours:.0f} B",
                 f"micrograd 0.1.0: {m_theirs:.0f} B", f"{m_ours / m_theirs:.2f}", "—"))
    m_trace = peak_per_node(lambda: trace(ours), n)
    m_graph = peak_per_node(lambda: to_networkx(trace(ours)), n)
    rows.append(("trace memory per node (peak)", f"{m_trace:.0f} B",
                 f"trace + to_networkx: {m_graph:.0f} B", "—", "—"))

    print(f"Python {sys.version.split()[0]}, networkx {nx.__version__}, medians of {repeats}\n")
    print("| measurement | vizgrad | compared with | ratio | target |")
    print("|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
