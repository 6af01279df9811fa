"""Frames benchmark: build-once artists vs a naive clear-and-redraw loop; GIF CPU time.

Run: ``python benchmarks/bench_frames.py [--repeat 5]``. Prints a Markdown
table of medians. Both loops draw the same picture on the same Graphviz
layout; the naive loop clears the figure and creates every patch and text
again for each frame (ordinary matplotlib text), then draws the whole canvas.
Times are CPU seconds of this process (``time.process_time``), so other load
on the machine matters less; wall-clock medians are printed beside them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vizgrad import Value, to_networkx
from vizgrad.render import frames as fr
from vizgrad.render import text as tx
from vizgrad.render import theme as th
from vizgrad.render._positions import LINE_EM
from vizgrad.render._scene import Options, Scene
from vizgrad.tracing import states


def fork():
    a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    u = a * b
    u.label = "u"
    v = a + b
    v.label = "v"
    q = u * v
    q.label = "q"
    return to_networkx(q)


def neuron(n: int = 49):
    """tanh(b + Σ wᵢxᵢ) × 2 with 49 inputs: exactly 200 nodes."""
    xs = [Value(0.1 * i, label=f"x{i}") for i in range(n)]
    ws = [Value(0.3 - 0.05 * i, label=f"w{i}") for i in range(n)]
    s = Value(0.5, label="b")
    for x, w in zip(xs, ws):
        s = s + x * w
    G = to_networkx(s.tanh() * 2)
    assert G.number_of_nodes() == 200
    return G


def naive_frame(sc: Scene, fig, canvas, state):
    """Clear the figure and create every artist again, as a first attempt would."""
    from matplotlib.patches import FancyBboxPatch, PathPatch, Polygon
    from matplotlib.path import Path as MPath
    from PIL import Image

    G, t, d, s, k = sc.G, sc.theme, sc.opts.decimals, sc.s, state.step
    fig.clear()
    ax = fig.add_axes(sc.graph_rect, frameon=False)
    ax.set_axis_off()
    ax.set_xlim(0, sc.geo.width)
    ax.set_ylim(0, sc.geo.height)
    hot = set(sc.in_edges.get(state.active, ())) if state.kind in ("forward", "backward") else set()
    for eid, e in sc.geo.edges.items():
        color = t.active if eid in hot else t.edge
        codes = [MPath.MOVETO] + [MPath.CURVE4] * (len(e.points) - 1)
        width = (2.2 if eid in hot else 1) * s
        ax.add_patch(PathPatch(MPath(e.points, codes), fill=False, lw=width, ec=color))
        (x0, y0), (x1, y1) = e.points[-1], e.tip
        nx_, ny_ = (y0 - y1) * 0.35, (x1 - x0) * 0.35
        ax.add_patch(Polygon([(x1, y1), (x0 + nx_, y0 + ny_), (x0 - nx_, y0 - ny_)], fc=color))
    for eid, first, total, amount in sc.labels[k]:
        if sc.show_text:
            ax.text(*sc.geo.edges[eid].label, f"{first}\n{total}", ha="center", va="center",
                    family="DejaVu Sans Mono", fontsize=9 * s, color=th.edge_color(amount, t),
                    bbox=dict(fc=t.background, ec="none", pad=1))
    lh = LINE_EM * 10
    for n in sc.order:
        x, y, w, h = sc.geo.nodes[n]
        grad = state.grad.get(n)
        fill = th.grad_color(grad, sc.scale, t) if grad is not None else t.node_fill
        ax.add_patch(FancyBboxPatch((x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0",
                                    fc=fill, ec=t.active if n == state.active else t.border,
                                    lw=(2.6 if n == state.active else 1) * s))
        if sc.show_text:
            kw = dict(ha="center", va="center", family="DejaVu Sans Mono", fontsize=10 * s)
            ax.text(x, y + lh, sc.titles[n], weight="bold", **kw)
            ax.text(x, y, f"data {tx.fmt(state.data.get(n), d, tx.PENDING)}", **kw)
            ax.text(x, y - lh, f"grad {tx.fmt(grad, d)}", **kw)
    W, H, m = sc.W, sc.H, sc.m
    fig.text(m / W, 1 - m / H, tx.caption(G, k), va="top", fontsize=13)
    fig.text(m / W, (m + sc.chain) / H, "\n".join(tx.chain_rule(G, k, d)), va="top",
             family="DejaVu Sans Mono", fontsize=10)
    x0 = (W - m - sc.table_w) / W
    for i, n in enumerate(sc.order[: sc.rows]):
        row = f"{tx.name(G, n):<6}{tx.fmt(state.data.get(n), d, tx.PENDING):>10}" \
              f"{tx.fmt(state.grad.get(n), d):>10}"
        fig.text(x0, (sc.table_top - (i + 1.5) * sc.row_h) / H, row, family="DejaVu Sans Mono",
                 fontsize=10)
    canvas.draw()
    w, h = canvas.get_width_height()
    image = Image.frombuffer("RGBA", (w, h), canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
    return image.convert("RGB")


def per_frame(run, n_frames: int, repeat: int) -> tuple[float, float]:
    """Median CPU and wall milliseconds per frame over ``repeat`` runs."""
    cpu, wall = [], []
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        run()
        cpu.append((time.process_time() - c0) / n_frames * 1000)
        wall.append((time.perf_counter() - w0) / n_frames * 1000)
    return statistics.median(cpu), statistics.median(wall)


def bench_graph(name: str, G, repeat: int, window: int) -> list[str]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    all_states = list(states(G.graph["steps"]))
    seed = next(i for i, s in enumerate(all_states) if s.kind == "seed")
    lo = max(0, min(seed - window // 2, len(all_states) - window))
    chosen = all_states[lo: lo + window]
    sc = Scene(G, Options.make())
    fig = Figure(figsize=(sc.W, sc.H), dpi=sc.dpi, facecolor=sc.theme.background)
    canvas = FigureCanvasAgg(fig)

    def fast():
        sc.redraw.invalidate()  # each run starts with one full draw
        for st in chosen:
            sc.show(st)
            sc.image()

    def naive():
        for st in chosen:
            naive_frame(sc, fig, canvas, st)

    fast()  # warm caches (fonts, glyph outlines)
    naive()
    f_cpu, f_wall = per_frame(fast, len(chosen), repeat)
    n_cpu, n_wall = per_frame(naive, len(chosen), repeat)
    return [f"| {name} ({G.number_of_nodes()} nodes, {len(chosen)} frames) | {f_cpu:.1f} "
            f"({f_wall:.1f}) | {n_cpu:.1f} ({n_wall:.1f}) | {n_cpu / f_cpu:.1f}× |"]


def cold_cpu(backend: str, out: Path) -> float:
    """CPU seconds of a fresh Python process that imports vizgrad and writes the GIF."""
    import resource
    import subprocess

    code = ("import sys; sys.path.insert(0, sys.argv[1]); from bench_frames import fork; "
            "from vizgrad import animate; animate(fork(), sys.argv[2], backend=sys.argv[3])")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent), str(out), backend],
                   check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def bench_gif(repeat: int) -> list[str]:
    import shutil

    G = fork()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for backend in ("embedded", "system"):
            if backend == "system" and not shutil.which("dot"):
                continue
            fr.animate(G, Path(tmp) / "warm.gif", backend=backend)
            runs = []
            for i in range(repeat):
                c0 = time.process_time()
                fr.animate(G, Path(tmp) / f"{i}.gif", backend=backend)
                runs.append(time.process_time() - c0)
            cold = statistics.median(cold_cpu(backend, Path(tmp) / "cold.gif")
                                     for _ in range(max(1, repeat // 2)))
            rows.append(f"| fork graph GIF, {backend} Graphviz | {statistics.median(runs):.2f} s "
                        f"| {cold:.2f} s |")
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--window", type=int, default=24, help="consecutive frames per run")
    args = ap.parse_args()
    gif = bench_gif(args.repeat)
    print("| graph | build once: ms/frame CPU (wall) | naive redraw: ms/frame CPU (wall) "
          "| speed-up |")
    print("|---|---:|---:|---:|")
    for name, make in (("fork", fork), ("neuron", neuron)):
        for line in bench_graph(name, make(), args.repeat, args.window):
            print(line, flush=True)
    print()
    print("| 8 frames: layout, drawing, palette, encoding | CPU, warm process | "
          "CPU, fresh process (imports, Graphviz start) |")
    print("|---|---:|---:|")
    print("\n".join(gif))


if __name__ == "__main__":
    main()
