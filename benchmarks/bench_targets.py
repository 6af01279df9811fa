"""The three ratio targets of the tree issue (item 5), measured side by side in one run.

Run: ``python benchmarks/bench_targets.py [--repeat 5]``. The garbage collector is on
throughout; each pair is timed alternately (medians), so load on a shared machine hits
both sides alike. Prints one Markdown table.

1. The 1,651-value tanh chain drawn by default (``draw(loss).save()``, folded) against the
   same chain with all its boxes (``collapse=False``). Target ≤ 1.0.
2. The chain drawn whole (``collapse=False``, embedded Graphviz) against micrograd's
   ``draw_dot`` idiom with the system ``dot`` (``bench_svg.py`` section 5). Target ≤ 1.3.
3. ``trace`` + ``to_networkx`` of an MLP batch of about 89,000 plain ``vizgrad.Value``\\ s
   against inserting the finished graph's node and edge lists (attributes included) into an
   empty ``networkx.MultiDiGraph``: in a fresh process, and with a second graph of the same
   size alive (as in a notebook session). Target ≤ 1.5 both.

Times: CPU seconds of this process and its Graphviz processes (sections 1, 2) or of this
process (3), wall in brackets.

``--split`` adds where target 2's time goes, in the same run: each side's Python and its
Graphviz apart (vizgrad's embedded Graphviz runs in a worker process, the idiom's system
``dot`` in a child process), and each Graphviz on the other side's DOT.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import vizgrad  # noqa: E402
from bench_core import mlp_graph, paired, wall  # noqa: E402
from bench_svg import TIMEOUT, _worker_ticks, median_pair, tanh_chain  # noqa: E402
from _svg_path import draw_dot  # noqa: E402

#: an MLP 8-32-32-1 batch of this many samples has 90,478 values (about 89,000)
SAMPLES = 33


def chain_rows(repeat: int) -> list[str]:
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))  # draw_dot recurses
    loss = tanh_chain(330)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "x.svg"

        def folded() -> None:
            vizgrad.draw(loss, timeout=TIMEOUT).save(out)

        def whole() -> None:
            vizgrad.draw(loss, collapse=False, max_nodes=5000, timeout=TIMEOUT).save(out)

        def theirs() -> None:
            draw_dot(loss).render(Path(tmp) / "m", format="svg")

        a, b, wa, wb = median_pair(folded, whole, repeat)
        rows.append(f"| 1,651-value tanh chain, default (folded) `draw().save()` | {a:.2f} "
                    f"({wa:.2f}) | all its boxes (`collapse=False`) {b:.2f} ({wb:.2f}) | "
                    f"{a / b:.2f} | ≤ 1.0 |")
        a, b, wa, wb = median_pair(whole, theirs, repeat)
        rows.append(f"| the same chain whole (`collapse=False`) | {a:.2f} ({wa:.2f}) | "
                    f"micrograd's `draw_dot` + system `dot` {b:.2f} ({wb:.2f}) | {a / b:.2f} "
                    "| ≤ 1.3 |")
    return rows


def _apart(f: object, repeat: int) -> tuple[float, float]:
    """Medians of ``f``'s CPU seconds in this process and in Graphviz's processes (the
    embedded worker, finished ``dot`` children), after a warm-up."""
    import resource  # Linux and macOS: the finished children's CPU

    def graphviz() -> float:
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return children.ru_utime + children.ru_stime + _worker_ticks()

    f()  # type: ignore[operator]
    here, there = [], []
    for _ in range(repeat):
        c0, g0 = time.process_time(), graphviz()
        f()  # type: ignore[operator]
        here.append(time.process_time() - c0)
        there.append(graphviz() - g0)
    return statistics.median(here), statistics.median(there)


def split_rows(repeat: int) -> list[str]:
    """Target 2 taken apart: Python and Graphviz of each side, and each Graphviz on both DOTs."""
    from vizgrad.scene.layout.run import run_layout

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    loss = tanh_chain(330)
    ours_dot = vizgrad.draw(loss, collapse=False, max_nodes=5000, timeout=TIMEOUT).dot()
    their_dot = draw_dot(loss).source
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "x.svg"
        sides = [
            ("vizgrad `draw(loss, collapse=False).save()`: Python | embedded Graphviz (json0)",
             lambda: vizgrad.draw(loss, collapse=False, max_nodes=5000,
                                  timeout=TIMEOUT).save(out)),
            ("micrograd's `draw_dot(loss).render()`: Python | system `dot` (svg)",
             lambda: draw_dot(loss).render(Path(tmp) / "m", format="svg")),
            ("vizgrad's DOT: the embedded Graphviz (json0)",
             lambda: run_layout(ours_dot, "json0", "embedded", TIMEOUT)),
            ("vizgrad's DOT: the system `dot` (json0)",
             lambda: run_layout(ours_dot, "json0", "system", TIMEOUT)),
            ("`draw_dot`'s DOT: the embedded Graphviz (svg)",
             lambda: run_layout(their_dot, "svg", "embedded", TIMEOUT)),
            ("`draw_dot`'s DOT: the system `dot` (svg)",
             lambda: run_layout(their_dot, "svg", "system", TIMEOUT)),
        ]
        for name, f in sides:
            here, there = _apart(f, repeat)
            rows.append(f"| {name} | {here:.3f} | {there:.3f} | {here + there:.3f} |")
    return rows


def _floor(G: object) -> object:
    import networkx as nx

    H = nx.MultiDiGraph()
    H.add_nodes_from(G.nodes(data=True))  # type: ignore[attr-defined]
    H.add_edges_from(G.edges(keys=True, data=True))  # type: ignore[attr-defined]
    return H


def mlp_row(repeat: int, alive: bool) -> str:
    from vizgrad import Value, to_networkx, trace

    loss = mlp_graph(Value, SAMPLES)
    loss.backward()
    G = to_networkx(trace(loss))
    other = to_networkx(trace(mlp_graph(Value, SAMPLES, seed=1))) if alive else None
    gc.collect()
    ours, floor = paired(lambda: to_networkx(trace(loss)), lambda: _floor(G), repeat)
    del other
    where = "a second graph of that size alive" if alive else "a fresh process"

    def shown(cpu: float) -> str:
        return f"{cpu:.2f} ({int(wall(cpu).strip(' ()')) / 1e3:.2f})"

    return (f"| `trace` + `to_networkx`, MLP batch of {G.number_of_nodes():,} values, {where} | "
            f"{shown(ours)} | node and edge lists into an empty `MultiDiGraph` {shown(floor)} "
            f"| {ours / floor:.2f} | ≤ 1.5 |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--split", action="store_true",
                    help="also take target 2 apart: Python and Graphviz of each side")
    ap.add_argument("--mlp-only", choices=("fresh", "alive"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.mlp_only:  # one row in a fresh interpreter
        print(mlp_row(args.repeat, args.mlp_only == "alive"), flush=True)
        return
    print("| measurement | vizgrad | compared with | ratio | target |")
    print("|---|---:|---:|---:|---|", flush=True)
    for row in chain_rows(args.repeat):
        print(row, flush=True)
    for how in ("fresh", "alive"):
        subprocess.run([sys.executable, __file__, "--repeat", str(args.repeat),
                        "--mlp-only", how], check=True)
    if args.split:
        print("\n| target 2 apart (CPU s, medians) | this process | Graphviz | sum |")
        print("|---|---:|---:|---:|", flush=True)
        for row in split_rows(args.repeat):
            print(row, flush=True)


if __name__ == "__main__":
    main()
