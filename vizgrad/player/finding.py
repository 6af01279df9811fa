"""What the find box of a player or lab page searches, and the labels its placeholder offers.

Beside the table's rows, the find box searches the values inside closed groups
(:func:`index`); its placeholder offers the graph's own labels
(:func:`find_examples`), not a fixed string.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..scene import ids
from ..scene.matrix import read_inputs, slot
from ..style import text as tx

if TYPE_CHECKING:
    from ..scene.scene import Scene

__all__ = ["find_examples", "index", "inputs_index"]


def find_examples(scene: Scene, index: list[list[str]] | None = None) -> str:
    """What the find box offers as examples: the graph's own labels (an input, a value
    inside, and a group or the output).

    >>> from vizgrad import examples
    >>> from vizgrad.scene import scene_of
    >>> find_examples(scene_of(examples.graph("fork")))
    'a, u, q'
    """
    G = scene.facts
    kinds = {n: scene.kind(n) for n in scene.order}
    inputs = [n for n in scene.order if kinds[n] == "input"]  # an input of the graph first,
    first = next((n for n in inputs if not G.nodes[n].get("group")),  # not a parameter
                 inputs[0] if inputs else None)
    out = [tx.name(G, first)] if first else []
    groups = [str(G.nodes[n]["group"]) for n in scene.order
              if kinds[n] == "group" and G.nodes[n].get("group")]
    if index:
        out.append(index[0][0])
    else:
        mid = [n for n in scene.order if kinds[n] == "op" and n != G.graph["root"]]
        out += [tx.name(G, mid[0])] if mid else []
    out.append(groups[min(1, len(groups) - 1)] if groups else tx.name(G, G.graph["root"]))
    return ", ".join(dict.fromkeys(out))


def inputs_index(G: Any) -> list[list[str]]:
    """``[name, "", box id, cell id]`` of every input of a batch drawn in its box's matrix
    (:mod:`vizgrad.graph.collapse.batch`): the find box marks its cell and its table row.

    >>> import networkx as nx
    >>> G = nx.MultiDiGraph()
    >>> G.add_node("g0", kind="inputs", order=0,
    ...            grid=[["x[0][0]", 2.0, 0.5], ["x[1][0]", 1.0, 0.1]])
    >>> inputs_index(G)[1]
    ['x[1][0]', '', 'g0', 'c-g0-s1x0']
    """
    out = []
    for n in sorted(G, key=lambda n: G.nodes[n]["order"]):
        m = read_inputs(G, n) if G.nodes[n].get("kind") == "inputs" else None
        out += [[c.name, "", n, ids.cell(n, slot(c))] for c in (m.cells if m else ())]
    return out


def index(base: Any, collapsed: Any, opens: Any = ()) -> list[list[str]]:
    """What the find box searches: ``[name, group path or "", node id]`` of every value
    inside a group of ``collapsed`` (``base`` is the graph it was collapsed from); the path
    is the innermost group in ``opens`` (the paths with a view) holding the value, else the
    box's own; then each input of a batch (:func:`inputs_index`)."""
    opens = set(opens)
    out = inputs_index(collapsed)
    for b in sorted(collapsed, key=lambda n: collapsed.nodes[n]["order"]):
        a = collapsed.nodes[b]
        if a.get("kind") != "group" or not a.get("group"):
            continue
        for m in a.get("members") or ():
            parts = str(base.nodes[m].get("group") or a["group"]).split("/")
            path = next((p for d in range(len(parts), 0, -1)
                         if (p := "/".join(parts[:d])) in opens), str(a["group"]))
            out.append([tx.name(base, m), path, m])
    return out
