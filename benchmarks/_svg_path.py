"""``bench_svg.py`` section 5: vizgrad's SVG end to end against micrograd's ``draw_dot``.

Both start from the same loss Value (a chain of 330 tanh neurons, 1,651 values, after
``backward()``) and end with an SVG file on disk:

- vizgrad: ``vizgrad.draw(loss, collapse=False, max_nodes=5000).save("x.svg")`` (traced,
  laid out by the embedded Graphviz, drawn by vizgrad);
- micrograd's idiom: the lecture's ``trace``/``draw_dot`` (record nodes, an op node per
  value, the ``graphviz`` package) and ``.render()``, which runs the system ``dot``.

Then vizgrad's call again, phase by phase (each phase's own CPU and wall time, a phase
called inside another counted once), and what each picture asks of Graphviz.
"""

from __future__ import annotations

import re
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import vizgrad
from bench_svg import TIMEOUT, _worker_ticks, cpu_now, median_pair, tanh_chain
from vizgrad.scene import captions as _captions
from vizgrad.scene import dot as _dot
from vizgrad.scene.layout import geometry
from vizgrad.scene.layout import run as layout
from vizgrad.scene import make as make_module
from vizgrad.scene import scene as scene_module
from vizgrad.scene import prepare as prepare_module
from vizgrad.write import svg as svg_module

__all__ = ["draw_dot", "end_to_end"]

#: (owner, attribute, phase), in the order the call runs them
PHASES = (
    (svg_module, "source_graph", "trace + to_networkx"),
    (prepare_module, "shrink_graph", "collapse pass (nothing to collapse here)"),
    (_dot, "box_sizes", "box sizes (every value each box shows)"),
    (_dot, "dot_parts", "edge labels' room and aligned ranks for the DOT"),
    (make_module, "run_layout", "Graphviz layout (embedded, in its worker process)"),
    (geometry, "parse", "reading the layout (json0)"),
    (_captions, "wrap_caption", "caption lines of every step (the caption's size)"),
    (scene_module.Scene, "_place", "placing shapes: edges, labels on edges, boxes, legend"),
    (scene_module.Scene, "look", "looks of the final view (texts, colours)"),
    (svg_module, "svg_document", "SVG text"),
    (svg_module, "write_atomic", "writing the file"),
)


def _trace(root: Any) -> tuple[set[Any], set[Any]]:
    nodes, edges = set(), set()

    def build(v: Any) -> None:
        if v not in nodes:
            nodes.add(v)
            for child in v._prev:
                edges.add((child, v))
                build(child)

    build(root)
    return nodes, edges


def draw_dot(root: Any) -> Any:
    """micrograd's lecture idiom, as written there (it recurses: the caller raises the
    recursion limit for a deep chain)."""
    from graphviz import Digraph

    dot = Digraph(format="svg", graph_attr={"rankdir": "LR"})
    nodes, edges = _trace(root)
    for n in nodes:
        uid = str(id(n))
        dot.node(name=uid, label="{ %s | data %.4f | grad %.4f }" % (n.label, n.data, n.grad),
                 shape="record")
        if n._op:
            dot.node(name=uid + n._op, label=n._op)
            dot.edge(uid + n._op, uid)
    for n1, n2 in edges:
        dot.edge(str(id(n1)), str(id(n2)) + n2._op)
    return dot


class _Phases:
    """Wraps each phase's function; keeps each phase's own time (callees' time left out)."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = defaultdict(float)
        self.wall: dict[str, float] = defaultdict(float)
        self._stack: list[list[float]] = []
        self._saved: list[tuple[Any, str, Any]] = []

    def _wrap(self, name: str, f: Callable[..., Any], worker: bool) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            c0 = time.process_time() + (_worker_ticks() if worker else 0.0)
            t0 = time.perf_counter()
            self._stack.append([0.0, 0.0])
            try:
                return f(*args, **kwargs)
            finally:
                inner = self._stack.pop()
                dc = time.process_time() + (_worker_ticks() if worker else 0.0) - c0
                dt = time.perf_counter() - t0
                self.cpu[name] += dc - inner[0]
                self.wall[name] += dt - inner[1]
                if self._stack:
                    self._stack[-1][0] += dc
                    self._stack[-1][1] += dt
        return timed

    def __enter__(self) -> _Phases:
        for owner, attr, name in PHASES:
            f = getattr(owner, attr)
            self._saved.append((owner, attr, f))
            setattr(owner, attr, self._wrap(name, f, attr == "run_layout"))
        return self

    def __exit__(self, *exc: Any) -> None:
        for owner, attr, f in reversed(self._saved):
            setattr(owner, attr, f)
        self._saved.clear()


def _phase_table(loss: Any, out: Path, repeat: int) -> None:
    runs: list[tuple[float, float, dict[str, float], dict[str, float]]] = []
    for _ in range(repeat):
        with _Phases() as ph:
            c0, t0 = cpu_now(), time.perf_counter()
            vizgrad.draw(loss, collapse=False, max_nodes=5000, timeout=TIMEOUT).save(out)
            runs.append((cpu_now() - c0, time.perf_counter() - t0, dict(ph.cpu), dict(ph.wall)))
    m = statistics.median
    total, wall = m(r[0] for r in runs), m(r[1] for r in runs)
    print(f"\nWhere `draw(loss).save()` spends its time (median of {repeat} per phase; CPU s "
          "of this process, and of the worker for the layout; wall s in brackets):\n")
    print("| phase | CPU s (wall s) | share of CPU |")
    print("|---|---:|---:|")
    shown = 0.0
    for _, _, name in PHASES:
        c, w = m(r[2].get(name, 0.0) for r in runs), m(r[3].get(name, 0.0) for r in runs)
        shown += c
        print(f"| {name} | {c:.3f} ({w:.3f}) | {100 * c / total:.0f} % |")
    print(f"| the rest (options, titles, Python around the phases) | {total - shown:.3f} | "
          f"{100 * (total - shown) / total:.0f} % |")
    print(f"| **whole call** | **{total:.3f} ({wall:.3f})** | 100 % |")


def _asks(loss: Any, repeat: int) -> None:
    """What each picture asks of Graphviz: its DOT, and the same layout engine on each."""
    from bench_svg import in_process

    ours = vizgrad.draw(loss, collapse=False, max_nodes=5000, timeout=TIMEOUT).dot()
    bare = re.sub(r' label="[^"]*"', "", ours)  # every edge kept, its label placeholder not
    theirs = draw_dot(loss).source
    rows = [("vizgrad's DOT (sized boxes, op circles, a label on every operand edge)",
             ours, "json0"),
            ("vizgrad's DOT without the edge labels", bare, "json0"),
            ("draw_dot's DOT (record nodes, op nodes, no edge labels)", theirs, "svg")]
    print(f"\nThe same embedded Graphviz (in this process) on each DOT (median of {repeat}; "
          "CPU s):\n")
    print("| DOT | nodes | edges | edge labels | layout CPU s |")
    print("|---|---:|---:|---:|---:|")
    for name, dot, fmt in rows:
        run = in_process(dot, fmt)
        run()
        times = []
        for _ in range(repeat):
            c0 = time.process_time()
            run()
            times.append(time.process_time() - c0)
        edges = dot.count("->")
        labels = len(re.findall(r'->[^\n]* label="', dot))
        nodes = sum(1 for line in dot.splitlines() if "[" in line and "->" not in line
                    and not line.strip().startswith(("graph", "node", "edge")))
        print(f"| {name} | {nodes:,} | {edges:,} | {labels:,} | "
              f"{statistics.median(times):.2f} |", flush=True)


def end_to_end(repeat: int) -> None:
    """Section 5 of ``bench_svg.py``."""
    try:
        import graphviz  # noqa: F401  (the idiom's package)
    except ImportError:
        print("\n(section 5 needs the graphviz package: pip install graphviz)")
        return
    if "system" not in layout.available_backends():
        print("\n(section 5 needs the system Graphviz `dot`: the draw_dot idiom runs it)")
        return
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))  # draw_dot recurses
    loss = tanh_chain(330)
    n = vizgrad.to_networkx(loss).number_of_nodes()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "x.svg"

        def ours(backend: str | None = None) -> None:
            vizgrad.draw(loss, collapse=False, max_nodes=5000, backend=backend,
                         timeout=TIMEOUT).save(out)

        def theirs() -> None:
            draw_dot(loss).render(Path(tmp) / "m", format="svg")

        print(f"\n## End to end, chain of 330 tanh neurons ({n:,} values), loss Value to SVG "
              f"file (median of {repeat}; CPU s with Graphviz's processes, wall s in "
              "brackets)\n")
        print("| vizgrad | micrograd's draw_dot idiom (graphviz package, system dot) "
              "| ratio (target ≤ 1.3) |")
        print("|---|---:|---:|")
        for name, f in (("`draw(loss).save()`, embedded Graphviz", ours),
                        ("`draw(loss, backend=\"system\").save()`, system dot",
                         lambda: ours("system"))):
            a, b, wa, wb = median_pair(f, theirs, repeat)
            print(f"| {name}: {a:.2f} ({wa:.2f}) | {b:.2f} ({wb:.2f}) | {a / b:.2f} |",
                  flush=True)
        sizes = (out.stat().st_size, (Path(tmp) / "m.svg").stat().st_size)
        print(f"\nSVG written: vizgrad {sizes[0]:,} bytes, draw_dot {sizes[1]:,} bytes.")
        if layout.available_backends()[:1] == ["embedded"]:
            _phase_table(loss, out, repeat)
    _asks(loss, repeat)
