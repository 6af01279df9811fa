"""What a collapsed or focused graph adds to a scene: box titles, parameter rows, notes.

:mod:`vizgrad.graph.collapse` turns groups into boxes (``kind="group"``) and hidden
context into stubs (``kind="stub"``). A group box shows its name and size,
its output's value and grad, and the grads of its parameters (a neuron's
weights and bias), which arrive with the box's backward step::

    >>> import vizgrad
    >>> from vizgrad.graph.collapse import collapse
    >>> from vizgrad.scene.parts import settings
    >>> H, word = collapse(vizgrad.examples.graph("mlp"), "neuron"), settings().word
    >>> [name for name, _ in param_rows(H, "g1", word)]
    ['∂w0', '∂w1', '∂b']
    >>> note_lines(H, word)
    ['collapsed by neuron: 40 values in 9 boxes']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping

from ..graph.collapse import LEVELS
from ..style import text as tx
from ..style.verdicts import terms_text
from . import ids

if TYPE_CHECKING:
    from .parts import Settings

Edge = tuple[str, str, int]
Word = Callable[..., str]

__all__ = ["LARGE", "MAX_PARAMS", "box_name", "from_label", "input_rows", "input_tip", "note_lines",
           "sample_choices", "ordered_params", "param_rows",
           "params_line", "params_step", "row_labels"]

#: parameter rows a group box shows; more are summarised in one row
MAX_PARAMS = 6
#: past this many values, a picture of a graph without groups says how to draw fewer boxes
LARGE = 100


def box_name(G: Any, n: str, word: Word) -> str:
    """The title of box ``n`` of ``G``: a value's name, ``L0/N2 · 8 values``, ``… 37 more``,
    or ``inputs · 6 samples × 3 features`` (``word``: the picture's
    :meth:`~vizgrad.scene.parts.Settings.word`)."""
    a = G.nodes[n]
    kind = a.get("kind")
    if kind == "group":
        size = f"{a.get('size', 0):,}"
        return f"{tx.name(G, n)} · {word('box.group', size=size)}"
    if kind == "stub" and isinstance(a.get("hidden"), int):
        return word("box.stub", n=f"{a['hidden']:,}")
    if kind == "inputs" and a.get("shape"):  # a batch's inputs: samples × features
        samples, features = a["shape"]
        return word("box.inputs_one" if features == 1 else "box.inputs",
                    samples=f"{samples:,}", features=f"{features:,}")
    if a.get("short"):  # inside an opened group's frame: its name there
        return str(a["short"])
    return tx.name(G, n)


def _short(name: str, box: str = "") -> str:
    """A parameter's name inside its box: ``L0.N2.w1`` → ``w1`` in box ``L0/N2``, ``N2.w1``
    in box ``L0``.

    >>> _short("L0.N2.w1", "L0/N2"), _short("L0.N2.w1", "L0"), _short("w", "A")
    ('w1', 'N2.w1', 'w')
    """
    prefix = box.replace("/", ".") + "."
    if box and name.startswith(prefix):
        return name[len(prefix):]
    return name.rsplit(".", 1)[-1] if "." in name else name


def ordered_params(attrs: dict[str, Any]) -> list[tuple[str, Any]]:
    """A box's ``params`` as (name, grad) in the course's order, neuron by neuron: weights,
    then bias.

    >>> ordered_params({"params": [["L0.N1.b", 1], ["L0.N0.w0", 2], ["L0.N0.b", 3]]})
    [('L0.N0.w0', 2), ('L0.N0.b', 3), ('L0.N1.b', 1)]
    """
    params = [(str(p[0]), p[1]) for p in attrs.get("params") or ()]
    return sorted(params, key=lambda p: (p[0].rsplit(".", 1)[0], p[0].rsplit(".", 1)[-1] == "b"))


def param_rows(G: Any, n: str, word: Word) -> list[tuple[str, float | None]]:
    """A group box's parameter rows: (row label, final grad); at most :data:`MAX_PARAMS`,
    the last of them standing for the rest (grad ``None``)."""
    a = G.nodes[n]
    if a.get("kind") != "group":
        return []
    box = str(a.get("label", ""))
    rows = [(word("box.param", name=_short(name, box)), g) for name, g in ordered_params(a)]
    if len(rows) > MAX_PARAMS:
        rest = len(rows) - MAX_PARAMS + 1
        rows = rows[:MAX_PARAMS - 1] + [(word("box.params", n=f"{rest:,}"), None)]
    return rows


def input_rows(G: Any, edges: Any, by_edge: Mapping[Edge, Any],
               s: Settings) -> dict[str, list[Any]]:
    """For each group box fed by other group boxes, one row per such edge, in edge order:
    ``((tail, head, slot), (row label, contribution text))``. The contribution the box sent
    back along the edge is written in the box (``from L0/N1  −0.37``), where it cannot be
    mistaken for another edge's, instead of on a crowded edge between layers. ``edges``: the
    operand edges in drawing order; ``by_edge``: the contributions by their edge.

    >>> import vizgrad
    >>> from vizgrad.graph.collapse import collapse
    >>> from vizgrad.scene.plan import plan
    >>> p = plan(collapse(vizgrad.examples.graph("mlp"), "neuron"))
    >>> [label for _, (label, _) in p.inrows["g0"]]
    ['from L0/N0', 'from L0/N1', 'from L0/N2']
    """
    out: dict[str, list[Any]] = {}
    for (u, v, slot) in edges:
        if G.nodes[u].get("kind") == "group" and G.nodes[v].get("kind") == "group":
            c = by_edge.get((v, u, slot))
            amount = tx.NOT_REACHED if c is None else s.num(c["amount"])
            out.setdefault(v, []).append(((u, v, slot), (from_label(G, c, u, s), amount)))
    return out


def from_label(G: Any, c: dict[str, Any] | None, u: str, s: Settings,
               sent: bool = True) -> str:
    """The label of a box's row ``from A`` (``u``: A), and once its contribution ``c`` is
    ``sent``, what it gave A's parameters apart from A's outputs (an L2 penalty's ``2αp``):
    the row's number stays what A's outputs received.

    >>> import networkx as nx
    >>> from vizgrad.scene.parts import settings
    >>> G = nx.MultiDiGraph(); G.add_node("L1", label="L1")
    >>> c = {"amount": 0.0, "params": {"count": 72, "amount": 0.00182, "terms": []}}
    >>> from_label(G, c, "L1", settings()), from_label(G, c, "L1", settings(), sent=False)
    ('from L1 (72 parameters: 0.00182)', 'from L1')
    """
    got = (c or {}).get("params")
    name = tx.name(G, u)
    if not got or not sent:
        return s.word("box.from", name=name)
    if got["count"] == 1:
        return s.word("box.from_param", name=name, param=got["terms"][0][0],
                      params=s.num(got["amount"]))
    return s.word("box.from_params", name=name, n=f"{got['count']:,}",
                  params=s.num(got["amount"]))


def input_tip(G: Any, c: dict[str, Any] | None, s: Settings) -> str:
    """The tooltip of a box's row ``from A`` whose contribution reached A's parameters
    (:func:`_sent`): every parameter's share, the terms of the row's sum ('' for a row
    without one)."""
    got = (c or {}).get("params")
    if not got:
        return ""
    target, outputs = G.nodes[c["target"]], s.num(c["amount"])
    if "sample" in target:  # the selected sample's outputs, as the box's rows say
        outputs = s.word("box.data_sample", data=outputs, s=target["sample"])
    elif "samples" in target:
        outputs = s.word("box.data_all", data=outputs, n=target["samples"])
    head = s.word("box.from_tip", source=tx.name(G, c["source"]), target=tx.name(G, c["target"]),
                  outputs=outputs, params=s.num(got["amount"]), n=f"{got['count']:,}")
    return "\n".join([head, *(f"{name}  {s.num(a)}"
                              for name, a in ordered_params({"params": got["terms"]}))])


def row_labels(G: Any, n: str, word: Word) -> tuple[str, str]:
    """A box's data and grad row labels: for a net run on several samples, which sample the
    rows show (each output Value's own data and grad, never a sum over samples or neurons).

    >>> import vizgrad
    >>> from vizgrad.graph.collapse import collapse
    >>> from vizgrad.scene.parts import settings
    >>> H = collapse(vizgrad.examples.graph("mlp"), "layer")
    >>> [row_labels(H, b, settings().word) for b in H if H.nodes[b]["label"] == "L0"]
    [('data', 'grad')]
    """
    w = word
    a = G.nodes[n]
    data, grad = w("box.data"), w("box.grad")
    if a.get("kind") != "group":
        return data, grad
    if "sample" in a:  # the grad row is of the same sample (the caption's note says so)
        return w("box.data_sample", data=data, s=a["sample"]), grad
    if "samples" in a:
        return (w("box.data_all", data=data, n=a["samples"]),
                w("box.data_all", data=grad, n=a["samples"]))
    return data, grad


def sample_choices(scene: Any) -> dict[str, dict[str, str]] | None:
    """None: a folded box shows the selected sample's data and grads together (``sample=``
    draws another sample), so a page offers no choice that would change its data rows
    alone."""
    return None


def params_line(G: Any, k: int, s: Settings, params: Mapping[str, Any],
                params_done: Mapping[str, int]) -> list[str]:
    """The caption line of a box's last backward step: its parameters' grads, now final
    (``params``: each box's rows, :func:`param_rows`; ``params_done``: :func:`params_step`)."""
    step = G.graph["steps"][k]
    n = step.get("node")
    if step["kind"] != "backward" or params_done.get(n) != k:
        return []
    grads = "   ".join(f"{label} = {s.num(g)}" for label, g in params.get(n, ())
                       if g is not None)
    out = [s.word("caption.params", box=tx.name(G, n), grads=grads)] if grads else []
    terms = [p for p in G.nodes[n].get("terms") or () if p[1] is not None]
    if terms:  # the parameter with the largest |grad|: what each sample's += added
        name, g, rows = max(terms, key=lambda p: (abs(p[1]), p[0]))
        text = terms_text({"amount": g, "terms": rows}, s.decimals, s.trim, s.lang)
        outside = any(isinstance(sample, str) for sample, _ in rows)  # an L2 penalty's use
        out.append(s.word("chain.param_terms" if outside else "chain.param_terms_samples",
                          name=name, terms=text))
    return out


def params_step(G: Any) -> dict[str, int]:
    """For each group box, the step after which its parameters' grads are final: the last
    backward step of the box (its merged step, or its last member step)."""
    out: dict[str, int] = {}
    for s in G.graph["steps"]:
        if s["kind"] == "backward" and G.nodes[s["node"]].get("kind") == "group":
            out[s["node"]] = s["index"]
    return out


def note_lines(G: Any, word: Word) -> list[str]:
    """The caption lines that say what was collapsed, focused or merged in ``G``."""
    w = word
    out = []
    net = G.graph.get("net")  # the net the command line read from a model file
    if isinstance(net, dict) and net.get("how") in ("found", "named", "returned"):
        out.append(w(f"note.net_{net['how']}", name=net.get("name", "?"),
                     type=net.get("type", "?"), file=net.get("file", "?")))
    merged = G.graph.get("merged")
    if merged:
        copies = sum(a.get("size", 0) for _, a in G.nodes(data=True) if a.get("members")
                     and a.get("kind") in ("input", "const"))
        nodes = sum(1 for _, a in G.nodes(data=True) if a.get("members")
                    and a.get("kind") in ("input", "const"))
        if nodes:
            out.append(w("note.merged", copies=f"{copies:,}", nodes=f"{nodes:,}"))
    focus = G.graph.get("focus")
    if focus:
        shown = focus["nodes"] - focus["hidden"]
        node = focus["node"]
        name = tx.name(G, node) if node in G else str(node)
        key = "note.overview" if focus.get("auto") else "note.focus"  # chosen, or asked for
        out.append(w(key, node=name, radius=focus["radius"], shown=f"{shown:,}",
                     values=f"{focus['nodes']:,}"))
    info = G.graph.get("collapsed")
    n = G.number_of_nodes()
    if not (info or focus or merged) and n > LARGE and not any(g for _, g in G.nodes(data="group")):
        out.append(w("note.large", values=f"{n:,}"))
    if info:
        level = info["level"]
        depth = LEVELS.get(level, level)
        words = {d: w(f"level.{name}") for name, d in LEVELS.items()}
        by = words[depth] if depth in words else w("level.order") if depth == "order" else w(
            "level.depth", depth=depth)
        if "runs" in info and depth != "order":
            by = w("level.runs", level=by)
        out.append(w("note.collapsed", level=by, values=f"{info['nodes']:,}",
                     boxes=f"{info['boxes']:,}"))
        if info.get("samples", 1) > 1:
            key = "note.sample_all" if info.get("sample") == "all" else "note.sample"
            out.append(w(key, s=info.get("sample"), n=info["samples"]))
        if info.get("auto"):
            out.append(w("note.auto"))
    return out
