"""Frames benchmark: build-once artists vs a naive clear-and-redraw loop; GIF CPU time.

Run: ``python benchmarks/bench_frames.py [--repeat 5]``. Prints a Markdown
table of medians. Both loops draw the same scene (one Graphviz layout) with
the same artists: the build-once loop applies each step's look as a diff and
repaints only the regions that changed; the naive loop clears the figure,
creates every patch and (ordinary matplotlib) text again for each frame and
draws the whole canvas.
Times are CPU seconds of this process (``time.process_time``), so other load
on the machine matters less; wall-clock medians are printed beside them.

It also times the collapsed course MLP's GIF (the gallery's ``course-mlp``) with
the GIF quantiser before and after it looked up only changed pixels (the old one
is kept below as the reference, swapped in side by side), and plots each frame's
drawing cost against the number of shapes its step changes (``--plot``, e.g.
``docs/frames.png``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vizgrad import Value, examples, to_networkx
from vizgrad.write.raster import encode as _encode
from vizgrad.write.raster import frames as fr
from vizgrad.write.raster.picture import Picture, rc
from vizgrad.scene.make import scene_of


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
    scene = scene_of(G, timeout=600)
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


def old_quantize(images, palette):
    """The GIF quantiser before: every frame decompressed twice, every pixel looked up."""
    import numpy as np
    from PIL import Image

    def keys(image):
        a = np.asarray(image, np.uint32)
        return (a[..., 0] << 16) | (a[..., 1] << 8) | a[..., 2]

    present = np.zeros(1 << 24, bool)
    for im in images:
        present[keys(im)] = True
    colours = np.nonzero(present)[0]
    rgb = np.stack([(colours >> 16) & 255, (colours >> 8) & 255, colours & 255], 1).astype(int)
    pal = np.asarray(palette, int)
    lut = np.zeros(1 << 24, np.uint8)
    for i in range(0, len(rgb), 4096):
        d = ((rgb[i:i + 4096, None, :] - pal[None, :, :]) ** 2).sum(2)
        lut[colours[i:i + 4096]] = d.argmin(1)
    flat = [v for c in palette for v in c]
    out = []
    for im in images:
        k = keys(im)
        p = Image.frombytes("P", (k.shape[1], k.shape[0]), lut[k].tobytes())
        p.putpalette(flat)
        out.append(p)
    return out


def bench_mlp(repeat: int) -> list[str]:
    """The collapsed course MLP's GIF with the old and the new quantiser, interleaved in one
    run: whole, and its encoding alone. Encoding the same frames must give byte-identical
    GIFs."""
    G = examples.graph("course-mlp")
    new_q = _encode._quantize
    parts = ("whole", "encode")
    runs = {(w, n): [] for w in parts for n in ("before", "after")}
    blobs = {}
    with tempfile.TemporaryDirectory() as tmp:
        scene, p = fr._scene(G, None, {}, "animate")
        ks = fr._steps(p, None, True)
        pic = Picture(scene)
        store = _encode.FrameStore()
        store.blobs = fr._draw(pic, ks, lambda: store.pack(pic.image()))
        ms = fr.durations(scene, ks)
        for i in range(repeat + 1):  # the first round warms up and is not counted
            for name, q in (("before", old_quantize), ("after", new_q)):
                _encode._quantize = q
                try:
                    c0 = time.process_time()
                    fr.animate(G, Path(tmp) / f"{name}.gif")
                    c1 = time.process_time()
                    blobs[name] = _encode.gif(store, ms, True)
                    c2 = time.process_time()
                finally:
                    _encode._quantize = new_q
                if i:
                    for w, t in zip(parts, (c1 - c0, c2 - c1)):
                        runs[w, name].append(t)
    assert blobs["before"] == blobs["after"], "the quantisers disagree"
    what = {"whole": "whole GIF (layout, drawing, palette, encoding)",
            "encode": "encoding alone (palette, quantising, GIF writer)"}
    rows = []
    for w in parts:
        b, a = statistics.median(runs[w, "before"]), statistics.median(runs[w, "after"])
        rows.append(f"| course MLP collapsed ({len(ks)} frames, {store.size[0]}×{store.size[1]}): "
                    f"{what[w]} | {b:.2f} s | {a:.2f} s | {b / a:.2f}× |")
    return rows


def frame_costs(G, repeat: int, options: dict | None = None) -> tuple[list[int], list[float],
                                                                       float]:
    """Per step: shapes its look changes and the median CPU ms to show and draw it;
    and the median ms of one whole-figure draw of the same picture."""
    scene, _ = fr._scene(G, None, dict(options or {}), "animate")
    looks = [scene.looks.all(k, st) for k, st in enumerate(scene.states())]
    pic = Picture(scene)
    changed = [0] * len(looks)
    times: list[list[float]] = [[] for _ in looks]
    full: list[float] = []
    with rc():
        for r in range(repeat + 1):
            pic.redraw.invalidate()
            pic.show(scene.look(None))
            c0 = time.process_time()
            pic.image()
            if r:
                full.append((time.process_time() - c0) * 1000)
            for k, look in enumerate(looks):
                c0 = time.process_time()
                pic.show(look)
                n = len(pic.redraw.dirty)
                pic.image()
                if r:
                    times[k].append((time.process_time() - c0) * 1000)
                    changed[k] = n
    return changed, [statistics.median(t) for t in times], statistics.median(full)


def plot(path: Path, repeat: int) -> list[str]:
    """Frame cost against changed shapes, for the neuron and the collapsed course MLP."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    graphs = (("neuron, 200 values", neuron(), "#1f77b4"),
              ("course MLP, collapsed", examples.graph("course-mlp"), "#d62728"))
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    rows = []
    for name, G, colour in graphs:
        n, ms, full = frame_costs(G, repeat)
        ax.scatter([max(v, 1) for v in n], ms, s=14, color=colour, alpha=0.7,
                   label=f"{name}: one frame")
        ax.axhline(full, color=colour, ls="--", lw=1,
                   label=f"{name}: whole-figure draw ({full:.0f} ms)")
        rows.append(f"| {name} ({len(ms)} frames) | {statistics.median(n)} (max {max(n)}) "
                    f"| {statistics.median(ms):.1f} (max {max(ms):.1f}) | {full:.1f} |")
    ax.set_xscale("log")
    ax.set_xlabel("shapes the step changes (artists set; 0 drawn at 1)")
    ax.set_ylabel("CPU ms to show and draw the frame")
    ax.set_title("Frame cost against the shapes its step changes (medians)")
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--window", type=int, default=24, help="consecutive frames per run")
    ap.add_argument("--plot", type=Path, help="write frame cost against changed shapes here")
    args = ap.parse_args()
    if args.plot:
        print("| graph | shapes changed per step: median | CPU ms per frame: median "
              "| whole-figure draw, ms |")
        print("|---|---:|---:|---:|")
        print("\n".join(plot(args.plot, args.repeat)))
        print()
    print("| GIF | before: CPU | after: CPU | ratio |")
    print("|---|---:|---:|---:|")
    print("\n".join(bench_mlp(args.repeat)), flush=True)
    print()
    gif = bench_gif(args.repeat)
    print("| graph | build once: ms/frame CPU (wall) | naive redraw: ms/frame CPU (wall) "
          "| speed-up |")
    print("|---|---:|---:|---:|")
    for name, make in (("fork", fork), ("neuron", neuron)):
        for line in bench_graph(name, make(), args.repeat, args.window):
            print(line, flush=True)
    print()
    print("| 9 frames (8 steps, final view): layout, drawing, palette, encoding "
          "| CPU, warm process | CPU, fresh process (imports, Graphviz start) |")
    print("|---|---:|---:|")
    print("\n".join(gif))


if __name__ == "__main__":
    main()
