"""Frames benchmark: build-once artists vs a naive clear-and-redraw loop; GIF CPU time.

Run: ``python benchmarks/bench_frames.py [--repeat 5]``. Prints a Markdown
table of medians. Both loops draw the same scene (one Graphviz layout) with
the same artists: the build-once loop applies each step's look as a diff and
repaints only the regions that changed; the naive loop clears the figure,
creates every patch and (ordinary matplotlib) text again for each frame and
draws the whole canvas.
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
from vizgrad.render._picture import Picture, rc
from vizgrad.render.scene import Scene


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


def naive_frame(pic: Picture, look) -> None:
    """Clear the figure, create every artist again and draw it all, as a first attempt would."""
    pic.figure.clear()
    pic._build()
    pic.show(look)
    pic.canvas.draw()
    pic.rgb()


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
    scene = Scene(G, timeout=600)
    looks = [scene.looks.all(k, st) for k, st in enumerate(scene.states())]
    seed = next(i for i, s in enumerate(G.graph["steps"]) if s["kind"] == "seed")
    lo = max(0, min(seed - window // 2, len(looks) - window))
    chosen = looks[lo: lo + window]
    pic, slow = Picture(scene), Picture(scene, real_text=True)

    def fast():
        with rc():
            pic.redraw.invalidate()  # each run starts with one full draw
            for look in chosen:
                pic.show(look)
                pic.image()

    def naive():
        with rc():
            for look in chosen:
                naive_frame(slow, look)

    fast()  # warm caches (fonts, glyph outlines)
    naive()
    f_cpu, f_wall = per_frame(fast, len(chosen), repeat)
    n_cpu, n_wall = per_frame(naive, len(chosen), repeat)
    return [(f"| {name} ({G.number_of_nodes()} nodes, {len(chosen)} frames) | {f_cpu:.1f} "
             f"({f_wall:.1f}) | {n_cpu:.1f} ({n_wall:.1f}) | {n_cpu / f_cpu:.1f}× |")]


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
    print("| 9 frames (8 steps, final view): layout, drawing, palette, encoding | CPU, warm process | "
          "CPU, fresh process (imports, Graphviz start) |")
    print("|---|---:|---:|")
    print("\n".join(gif))


if __name__ == "__main__":
    main()
