"""``vizgrad render fork -o fork.svg`` and ``vizgrad render`` of the gallery: wall time,
layouts and modules, for this tree and (``--before DIR``) another checkout of vizgrad.

Run: ``python benchmarks/bench_render_once.py [--before /path/to/old/checkout] [--repeat 5]
[--gallery]``. Each measurement runs in a fresh process with ``PYTHONPATH`` set to the tree
measured, so the two trees are compared alike:

- wall time of ``vizgrad render fork -o fork.svg`` (median of ``--repeat`` runs, the two trees
  alternating, so load on a shared machine hits both);
- layouts: the DOT strings handed to ``vizgrad.scene.layout.run.run_layout`` during the
  command, and for ``draw(fork).save("x.svg")``;
- modules crossed: the ``vizgrad`` modules (packages included) loaded in the process by the
  end of the command (``sys.modules``);
- ``--gallery``: the wall time of ``vizgrad render --quiet --out DIR`` (the whole gallery).

Prints one Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

#: run in the measured tree: counts layouts and modules of one command, prints JSON
PROBE = r"""
import json, sys, tempfile, os
from pathlib import Path
import vizgrad.scene.layout.run as run
seen = []
real = run.run_layout
def counted(dot, *a, **k):
    seen.append(dot)
    return real(dot, *a, **k)
run.run_layout = counted
for name in ("vizgrad.scene.make", "vizgrad.scene.scene", "vizgrad.render.scene.model",
             "vizgrad.render.scene.layout"):  # where each tree's scene calls the layout
    try:
        mod = __import__(name, fromlist=["x"])
        if hasattr(mod, "run_layout"):
            mod.run_layout = counted
    except ImportError:
        pass
from click.testing import CliRunner
from vizgrad.cli.commands import main
out = Path(tempfile.mkdtemp()) / "fork.svg"
result = CliRunner().invoke(main, ["render", "fork", "-o", str(out)])
assert result.exit_code == 0, result.output
cli = len(seen)
modules = len({m for m in sys.modules if m.startswith("vizgrad")})
seen.clear()
import vizgrad
from vizgrad import examples
vizgrad.draw(examples.graph("fork")).save(out.with_name("x.svg"))
print(json.dumps({"cli_layouts": cli, "draw_layouts": len(seen), "modules": modules}))
"""


def _env(tree: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree)
    return env


def probe(tree: Path) -> dict[str, int]:
    out = subprocess.run([sys.executable, "-c", PROBE], env=_env(tree), cwd=tree,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def render_once(tree: Path) -> float:
    folder = Path(tempfile.mkdtemp())
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "vizgrad", "render", "fork", "-o",
                    str(folder / "fork.svg")], env=_env(tree), cwd=tree, check=True,
                   capture_output=True)
    return time.perf_counter() - start


def gallery(tree: Path) -> float:
    folder = Path(tempfile.mkdtemp())
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "vizgrad", "render", "--quiet", "--out",
                    str(folder / "gallery")], env=_env(tree), cwd=tree, check=True,
                   capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, help="another checkout of vizgrad to compare")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--gallery", action="store_true", help="also time the whole gallery")
    args = ap.parse_args()
    trees = {"this tree": HERE}
    if args.before is not None:
        trees = {"before": args.before.resolve(), "after": HERE}
    rows = {name: probe(tree) for name, tree in trees.items()}
    times: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(args.repeat):
        for name, tree in trees.items():
            times[name].append(render_once(tree))
    print("| tree | `render fork -o fork.svg` wall (median) | its layouts | vizgrad modules "
          "loaded | `draw().save()` layouts |" + (" gallery wall |" if args.gallery else ""))
    print("|---|---:|---:|---:|---:|" + ("---:|" if args.gallery else ""))
    for name, tree in trees.items():
        r = rows[name]
        line = (f"| {name} | {statistics.median(times[name]):.2f} s | {r['cli_layouts']} | "
                f"{r['modules']} | {r['draw_layouts']} |")
        if args.gallery:
            line += f" {gallery(tree):.1f} s |"
        print(line, flush=True)


if __name__ == "__main__":
    main()
