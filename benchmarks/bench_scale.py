"""The cost curve: time per value against values, from 10 to 1,000,000, as a log-log PNG.

For each size a grouped MLP loss (vizgrad's ``group`` per neuron, relu, squared error
summed over a batch) is built, and each stage is timed on its own, garbage collector on:

- ``trace``: :func:`vizgrad.trace` of the loss;
- ``to_networkx``: the graph of that trace;
- ``collapse``: :func:`vizgrad.scene.prepare.prepare` with the default options (past
  ``max_nodes`` the graph is collapsed: the picture is an overview);
- ``layout``: the scene of the graph drawn (Graphviz);
- ``SVG``: writing the SVG of that scene;
- ``draw(loss).svg()``: everything above from the Value, as a user calls it.

Reference lines: micrograd 0.1.0's ``backward()`` on the same network built from its own
Values, and the networkx floor (the final graph's nodes and edges into a fresh
``MultiDiGraph``). Times are CPU seconds of this process and its Graphviz worker (medians);
wall times go in the table too. Run: ``python benchmarks/bench_scale.py [--quick]
[--out docs/scale.png]``; prints the load average and a Markdown table. The PNG is
deterministic for the same figures (no timestamps in its metadata).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import floor_graph
from bench_svg import cpu_now

import vizgrad
from vizgrad import Value, group, to_networkx, trace
from vizgrad.options import Options
from vizgrad.scene.prepare import prepare
from vizgrad.scene.make import make_scene
from vizgrad.write.svg import Drawing

try:
    from micrograd.engine import Value as MicroValue
except ImportError:  # pragma: no cover
    sys.exit("install micrograd==0.1.0 to run this benchmark (pip install -e '.[test]')")

#: (network sizes, batch) per target number of values
SIZES = {10: ((2, 1), 1), 100: ((3, 4, 1), 1), 1_000: ((4, 12, 12, 1), 2),
         10_000: ((4, 12, 12, 1), 20), 100_000: ((4, 12, 12, 1), 200),
         1_000_000: ((4, 12, 12, 1), 2_000)}
STAGES = ("trace", "to_networkx", "collapse", "layout", "SVG", "draw(loss).svg()")
REFERENCES = ("micrograd backward()", "networkx floor")


def mlp_loss(V: Any, sizes: tuple[int, ...], batch: int, grouped: bool) -> Any:
    """A relu MLP's squared error summed over ``batch`` samples, built from ``V``; each
    neuron's values in ``group("L{i}/N{j}")`` when ``grouped``."""
    rng = random.Random(0)
    layers = [[([V(rng.uniform(-1, 1)) for _ in range(nin)], V(0.0)) for _ in range(nout)]
              for nin, nout in zip(sizes, sizes[1:])]
    loss = V(0.0)
    for _ in range(batch):
        x = [V(rng.uniform(-1, 1)) for _ in range(sizes[0])]
        for i, layer in enumerate(layers):
            outs = []
            for j, (w, b) in enumerate(layer):
                if grouped:
                    with group(f"L{i}/N{j}"):
                        act = sum((wi * xi for wi, xi in zip(w, x)), b)
                        outs.append(act.relu() if i < len(layers) - 1 else act)
                else:
                    act = sum((wi * xi for wi, xi in zip(w, x)), b)
                    outs.append(act.relu() if i < len(layers) - 1 else act)
            x = outs
        loss = loss + (x[0] - rng.uniform(-1, 1)) ** 2
    loss.backward()
    return loss


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float, Any]:
    """CPU and wall medians of ``fn`` (collector on, one collection before each run) and
    what its last run returned."""
    cpu, wall, out = [], [], None
    for _ in range(repeat):
        out = None
        gc.collect()
        c0, t0 = cpu_now(), time.perf_counter()
        out = fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(cpu_now() - c0)
    return statistics.median(cpu), statistics.median(wall), out


def measure(target: int, repeat: int) -> tuple[int, dict[str, tuple[float, float]]]:
    """(values, {line: (CPU s, wall s)}) for one size."""
    sizes, batch = SIZES[target]
    loss = mlp_loss(Value, sizes, batch, grouped=True)
    o = Options()
    got: dict[str, tuple[float, float]] = {}
    c, w, t = timed(lambda: trace(loss), repeat)
    got["trace"] = (c, w)
    c, w, G = timed(lambda: to_networkx(t), repeat)
    got["to_networkx"] = (c, w)
    del t
    n = G.number_of_nodes()
    c, w, p = timed(lambda: prepare(G, o, check_size=False), repeat)
    got["collapse"] = (c, w)
    c, w, scene = timed(lambda: make_scene(p.graph, **o.scene()), repeat)
    got["layout"] = (c, w)
    c, w, _ = timed(lambda: Drawing(scene, p.step(None), p).svg(), repeat)
    got["SVG"] = (c, w)
    c, w, _ = timed(lambda: floor_graph(G), repeat)
    got["networkx floor"] = (c, w)
    del G, p, scene
    c, w, _ = timed(lambda: vizgrad.draw(loss).svg(), repeat)
    got["draw(loss).svg()"] = (c, w)
    del loss
    micro = mlp_loss(MicroValue, sizes, batch, grouped=False)
    c, w, _ = timed(micro.backward, repeat)
    got["micrograd backward()"] = (c, w)
    del micro
    gc.collect()
    return n, got


def plot(rows: list[tuple[int, dict[str, tuple[float, float]]]], out: Path) -> None:
    """The log-log PNG of CPU time per value."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "vizgrad"
    fig, ax = plt.subplots(figsize=(9.5, 5.2), dpi=110)
    xs = [n for n, _ in rows]
    for name in STAGES + REFERENCES:
        ys = [got[name][0] / n for n, got in rows]
        style = {"linestyle": "--", "color": "0.45" if "floor" in name else "0.2"} \
            if name in REFERENCES else {"marker": "o", "markersize": 4}
        ax.plot(xs, ys, label=name, linewidth=1.6, **style)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(6, 1.6e6)
    ax.set_xticks([10, 100, 1_000, 10_000, 100_000, 1_000_000],
                  ["10", "100", "1k", "10k", "100k", "1M"])
    ax.set_xlabel("values in the graph (a grouped relu MLP's loss over a batch)")
    ax.set_ylabel("CPU seconds per value (median)")
    ax.set_title("vizgrad: time per value, 10 to 1,000,000 values (collector on)")
    ax.grid(True, which="major", linewidth=0.5, alpha=0.5)
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, metadata={"Software": None})
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="10 to 10,000 values, once each")
    ap.add_argument("--repeat", type=int, default=3, help="runs per stage below 1M values")
    ap.add_argument("--out", type=Path, default=Path("docs/scale.png"))
    args = ap.parse_args()
    sys.setrecursionlimit(50_000)  # micrograd's recursive topological sort, 2,000 samples deep
    targets = [t for t in SIZES if t <= 10_000] if args.quick else list(SIZES)
    vizgrad.draw(Value(1.0) + 2).svg()  # start the layout backend
    rows = []
    for target in targets:
        repeat = 1 if args.quick or target >= 1_000_000 else args.repeat
        n, got = measure(target, repeat)
        rows.append((n, got))
        print(f"measured {n:,} values: " + ", ".join(
            f"{k} {c / n * 1e6:.2f} µs" for k, (c, _) in got.items()), file=sys.stderr, flush=True)
    plot(rows, args.out)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"Python {sys.version.split()[0]}; load average {load} on {os.cpu_count()} cores; "
          f"µs per value, CPU (wall in brackets); medians of {args.repeat} (1 at 1M)\n")
    names = STAGES + REFERENCES
    print("| values | " + " | ".join(names) + " |")
    print("|---:|" + "---:|" * len(names))
    for n, got in rows:
        cells = [f"{got[k][0] / n * 1e6:.1f} ({got[k][1] / n * 1e6:.1f})" for k in names]
        print(f"| {n:,} | " + " | ".join(cells) + " |")
    print(f"\nwrote {args.out}")


if __name__ == "__main__":
    main()
