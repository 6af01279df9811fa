"""The lab's JSON answers that need no layout: every step of a graph with its captions and
numbers as text, the gradcheck's rows, and the list of examples.

Numbers are written in full (:func:`full`), with a true minus sign, so the page shows what
the user's code computed, digit for digit.
"""

from __future__ import annotations

import hashlib
import json
import math
from typing import TYPE_CHECKING, Any

from ..graph import examples
from ..graph.gradcheck import gradcheck
from ..graph.convert import to_json
from ..style import text

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["examples_payload", "full", "gradcheck_payload", "trace_payload"]


def full(x: float | None, missing: str = text.NOT_REACHED) -> str:
    """A number with every digit it has and a true minus sign: ``−3``, ``0.1``, ``1e−06``.

    >>> full(-3.0), full(0.1 + 0.2), full(None), full(None, "pending"), full(-0.0)
    ('−3', '0.30000000000000004', '—', 'pending', '0')
    """
    if x is None:
        return missing
    x = float(x)
    if not math.isfinite(x):
        return text.fmt(x)
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x)).replace("-", text.MINUS)
    return repr(x).replace("-", text.MINUS)



def _changes(step: dict[str, Any]) -> list[dict[str, Any]]:
    kind = step["kind"]
    if kind == "inputs":
        return [{"id": n, "field": "data", "value": v, "text": full(v)}
                for n, v in sorted(step["values"].items(), key=lambda kv: int(kv[0][1:]))]
    if kind == "forward":
        return [{"id": step["node"], "field": "data", "value": step["value"],
                 "text": full(step["value"])}]
    if kind == "seed":
        return [{"id": step["node"], "field": "grad", "value": step["grad"],
                 "text": full(step["grad"])}]
    return [{"id": c["target"], "field": "grad", "value": c["after"], "text": full(c["after"])}
            for c in step["contributions"]]


def trace_payload(G: nx.MultiDiGraph, lang: str = "en",
                  groups: int | None = None) -> dict[str, Any]:
    """Everything the lab page shows, per step, with every caption and number as text;
    ``groups`` is the group depth of the graph ``G`` was collapsed from (if it was)."""
    from ..graph.collapse import group_depth

    steps = G.graph["steps"]
    root = G.graph["root"]
    rname = text.name(G, root)
    order = sorted(G.nodes, key=lambda n: G.nodes[n]["order"])
    nodes = [{"id": n, "name": text.name(G, n), "kind": G.nodes[n]["kind"], "op": G.nodes[n]["op"],
              "formula": text.formula(G, n), "on_path": G.nodes[n]["on_path"]} for n in order]
    # the leaves a user can set: inputs, and the output itself when it is a bare variable
    inputs = [{"id": n["id"], "name": n["name"], "value": G.nodes[n["id"]]["data"]}
              for n in nodes if n["kind"] != "const" and G.in_degree(n["id"]) == 0]
    computed = {s["node"]: s["index"] for s in steps if s["kind"] == "forward"}
    reached: dict[str, int] = {}
    for s in steps:
        for c in s.get("contributions", []):
            reached[c["target"]] = s["index"]
    last = len(steps) - 1
    metrics = [{"id": root, "label": rname, "kind": "output", "value": G.nodes[root]["data"],
                "text": full(G.nodes[root]["data"]), "known_at": computed.get(root, 0)}]
    for inp in inputs:
        grad = G.nodes[inp["id"]]["grad"]
        metrics.append({"id": inp["id"], "label": f"∂{rname}/∂{inp['name']}", "kind": "grad",
                        "value": grad, "text": full(grad),
                        "known_at": reached.get(inp["id"], last)})
    payload_steps = [{"index": s["index"], "kind": s["kind"], "node": s["node"],
                      "from": s.get("from", s["index"]),
                      "caption": text.caption(G, s["index"], lang),
                      "chain_rule": text.chain_rule(G, s["index"], lang=lang),
                      "changes": _changes(s)}
                     for s in steps]
    node_link = to_json(G)
    return {
        "graph_key": hashlib.sha256(node_link.encode("utf-8")).hexdigest(),
        "root": root,
        "output": rname,
        "last_step": last,
        "backward_complete_at": last,
        "nodes": nodes,
        "inputs": inputs,
        "metrics": metrics,
        "steps": payload_steps,
        "graph": json.loads(node_link),
        "groups": group_depth(G) if groups is None else groups,
        "collapsed": G.graph.get("collapsed"),
        "focus": G.graph.get("focus"),
    }


def gradcheck_payload(G: nx.MultiDiGraph, h: float) -> dict[str, Any]:
    """Backprop against central differences per input, with the error as ``%.4e``."""
    rows = [{**r, "backprop_text": full(r["backprop"]), "numeric_text": full(r["numeric"]),
             "error_text": f"{r['error']:.4e}"} for r in gradcheck(G, h=h)]
    return {"h": h, "h_text": f"{h:g}", "output": text.name(G, G.graph["root"]), "rows": rows}


def examples_payload() -> list[dict[str, Any]]:
    """Every gallery example: name, description, inputs with default values."""
    out = []
    for name in examples.names():
        out.append({"name": name, "description": examples.describe(name),
                    "inputs": [{"name": k, "value": v}
                               for k, v in examples.defaults(name).items()]})
    return out
