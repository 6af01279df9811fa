"""Build Graphviz DOT text for one step of a traced graph (pure text, no Graphviz run).

Each Value is a record box ``label | data | grad``; its op is a small node of
its own feeding the box; constants are small plain boxes. Attributes are
sorted and nodes follow the trace order, so the same graph and step always
give the same text::

    >>> from vizgrad import Value, to_networkx
    >>> a = Value(3.0, label="a")
    >>> b = a + a; b.label = "b"
    >>> text = to_dot(to_networkx(b), 3)
    >>> text.count('"v0" -> "v1-op"')
    2
    >>> print(text.splitlines()[-3].strip())
    "v0" -> "v1-op" [arrowsize="0.7" class="vg-edge vg-v0 vg-v1 vg-contribution" color="#5e3c99" fontcolor="#5e3c99" id="e-v0-v1-1" label="1.0000 × 1.0000 = 1.0000" penwidth="2" tooltip="∂b/∂a += 1.0000 × 1.0000 = 1.0000  (1.0000 → 2.0000)"];
"""

from __future__ import annotations

import functools
import math
import re
from typing import Any

from ..exceptions import OptionError
from ..graph import as_graph, graph_state
from . import text
from .theme import Theme, edge_color, get, grad_color

__all__ = ["RANKDIRS", "check_options", "grad_scale", "layout_attrs", "long_edge_cost", "quote",
           "record_field", "to_dot"]

RANKDIRS = ("LR", "TB")
_BIG = 300  # values past which the layout trades some neatness for speed
#: virtual nodes (see :func:`long_edge_cost`) past which :func:`layout_attrs` bounds ``dot``
LONG_EDGE_BUDGET = 2000
_OP_SYMBOLS = {"+": "+", "*": "×", "-": "−", "/": "÷"}


def _unwritable() -> dict[int, str]:
    """Characters XML cannot carry become visible symbols (U+2400 control pictures)."""
    table = {o: chr(0x2400 + o) for o in range(0x20) if o not in (0x09, 0x0A)}
    table.update({o: "\ufffd" for o in (*range(0xD800, 0xE000), 0xFFFE, 0xFFFF)})
    table[0x09] = " "  # a tab would vanish from the label
    return table


_BASE = _unwritable()
_QUOTED = {**_BASE, ord("\\"): "\\\\", ord('"'): '\\"', ord("&"): "&amp;"}
_FIELD = {**_QUOTED, ord("\n"): "\\n", ord(" "): "\\ ", ord("\t"): "\\ ",
          **{ord(c): "\\" + c for c in "{}|<>"}}
_PLAIN = re.compile(r'[^\\"&\x00-\x1f\ud800-\udfff\ufffe\uffff]*\Z')


def quote(s: str, newline: str = "\\n") -> str:
    r"""A DOT double-quoted string that Graphviz shows verbatim.

    Backslashes are doubled (Graphviz reads ``\N``, ``\l`` ... as escapes),
    quotes are escaped, ``&`` becomes ``&amp;`` (Graphviz decodes entities)
    and each newline becomes ``newline``.

    >>> print(quote('say "hi" \\ {x}'))
    "say \"hi\" \\ {x}"
    """
    s = str(s)
    if _PLAIN.match(s):
        return '"' + s + '"'
    return '"' + s.translate(_quoted_table(newline)) + '"'


@functools.lru_cache(maxsize=4)
def _quoted_table(newline: str) -> dict[int, str]:
    return {**_QUOTED, 0x0A: newline}


def record_field(s: str) -> str:
    r"""One field of a record label, escaped so it shows verbatim (unquoted).

    >>> print(record_field("a|b {c}"))
    a\|b\ \{c\}
    """
    return str(s).translate(_FIELD)


class _Raw(str):
    """An attribute value that is already DOT text (quoted and escaped)."""


def _stmt(head: str, attrs: dict[str, str]) -> str:
    """``head [k="v" ...];`` with attributes sorted; plain values are quoted here."""
    parts = [f"{k}={attrs[k] if isinstance(attrs[k], _Raw) else quote(attrs[k])}"
             for k in sorted(attrs)]
    return f"{head} [{' '.join(parts)}];"


def check_options(G: Any, step: int | None, rankdir: str, decimals: int) -> int:
    """Validate the drawing options; return the step to show."""
    if rankdir not in RANKDIRS:
        raise OptionError(f"rankdir must be one of {list(RANKDIRS)}, got {rankdir!r}")
    if isinstance(decimals, bool) or not isinstance(decimals, int) or not 0 <= decimals <= 12:
        raise OptionError(f"decimals must be a whole number from 0 to 12, got {decimals!r}")
    last = len(G.graph["steps"]) - 1
    if step is None:
        return int(G.graph["default_step"])
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= last:
        raise OptionError(f"step must be a whole number from 0 to {last} for this graph, "
                          f"got {step!r}")
    return step


def grad_scale(G: Any) -> float:
    """The largest finite ``|grad|`` the trace ever shows (1.0 if none), so
    colours mean the same in every step.

    >>> from vizgrad import Value, to_networkx
    >>> grad_scale(to_networkx(Value(-2.0) * 4))
    4.0
    """
    best = 0.0
    for s in G.graph["steps"]:
        values = [s.get("grad")] + [c.get(k) for c in s.get("contributions", ())
                                    for k in ("before", "after")]
        for v in values:
            if isinstance(v, (int, float)) and math.isfinite(v):
                best = max(best, abs(float(v)))
    return best or 1.0


def long_edge_cost(G: Any) -> int:
    """How many virtual nodes ``dot`` makes for this graph's long edges (an estimate).

    ``dot`` splits an edge that spans ``k`` ranks into ``k - 1`` virtual nodes and
    lays all of them out; its x-placement (network simplex) then grows about with
    their square. Ranks here are longest paths in the drawn graph, where a value and
    its op node are one rank apart. A chain like ``a*b+a*b+...`` (125 terms) has 250
    ranks and ``a`` and ``b`` feed every one of them: about 31,000 virtual nodes.

    >>> from vizgrad import Value, to_networkx
    >>> a = Value(1.0, label="a")
    >>> long_edge_cost(to_networkx(a * 2 + a))
    2
    """
    rank: dict[str, int] = {}
    cost = 0
    order = sorted(G.nodes, key=lambda n: (G.nodes[n].get("order", 0), str(n)))
    for n in order:
        parents = [p for p, _ in G.in_edges(n)]
        # parent -> n-op -> n: the op sits one rank after its latest parent
        op = max((rank.get(p, 0) for p in parents), default=-1) + 1
        rank[n] = op + 1 if parents else 0
        cost += sum(op - rank.get(p, 0) - 1 for p in parents)
    return cost


def layout_attrs(G: Any) -> dict[str, str]:
    """Graph attributes that keep ``dot`` fast on this graph (empty for ordinary graphs).

    Past :data:`LONG_EDGE_BUDGET` virtual nodes (:func:`long_edge_cost`), the
    x-placement gets ``0.05 * nodes`` network-simplex iterations (``nslimit``) and
    crossing reduction a tenth of its passes (``mclimit``), and the caller should
    give edge texts as ``xlabel`` rather than ``label``: one labelled edge makes
    ``dot`` double every rank, and with it the virtual nodes. On ``a*b+a*b+...``
    with 125 terms (251 values, 499 characters) the embedded Graphviz 16.1 took
    over 90 s of CPU before and 0.8 s after.

    >>> from vizgrad import Value, to_networkx
    >>> layout_attrs(to_networkx(Value(2.0) * 3))
    {}
    """
    attrs: dict[str, str] = {}
    if G.number_of_nodes() > _BIG:
        # bound the x-placement passes: a deep graph with long edges otherwise takes minutes
        attrs["nslimit"] = "2"
    if long_edge_cost(G) > LONG_EDGE_BUDGET:
        attrs.update(mclimit="0.1", nslimit="0.05")
    return attrs


def _reached_before(G: Any, k: int) -> set[str]:
    """Nodes whose grad some step before ``k`` set (the seed or a contribution)."""
    seen: set[str] = set()
    for s in G.graph["steps"][:k]:
        if s["kind"] == "seed":
            seen.add(s["node"])
        seen.update(c["target"] for c in s.get("contributions", ()))
    return seen


def _op_text(op: str) -> str:
    return _OP_SYMBOLS.get(op, op)


def _kind(G: Any, n: str) -> str:
    kind = G.nodes[n].get("kind")
    if kind in ("input", "const", "op", "output"):
        return str(kind)
    return "op" if G.in_degree(n) else "input"


def to_dot(x: Any, step: int | None = None, *, rankdir: str = "LR", theme: str | Theme = "light",
           decimals: int = 4, caption: bool = True) -> str:
    """DOT text for the state right after ``step`` (default: the graph's default step).

    Args:
        x: a graph from :func:`vizgrad.to_networkx` (a Value or Trace is converted).
        step: the step to show; ``None`` shows the state after ``backward()``,
            or after the forward pass if ``backward()`` had not run.
        rankdir: ``"LR"`` (left to right) or ``"TB"`` (top to bottom).
        theme: ``"light"`` or ``"dark"``.
        decimals: digits after the decimal point.
        caption: add the step caption and the chain rule with numbers on top.
    """
    G = as_graph(x)
    k = check_options(G, step, rankdir, decimals)
    th = get(theme)
    st = graph_state(G, k)
    scale = grad_scale(G)
    cur = G.graph["steps"][k]
    contribs = list(st.contributions) if cur["kind"] == "backward" else []
    rule = text.chain_rule(G, k, decimals)
    reached = _reached_before(G, k)
    totals: dict[str, tuple[float | None, float]] = {}
    for c in contribs:
        t = c["target"]
        if t not in totals:  # a grad no earlier step reached shows "—", not its zero start
            totals[t] = (c["before"] if t in reached else None, c["after"])
        totals[t] = (totals[t][0], c["after"])
    if cur["kind"] == "seed":
        totals[cur["node"]] = (None, cur["grad"])
    by_edge = {(c["target"], c["source"], c["slot"]): (c, rule[i]) for i, c in enumerate(contribs)}

    lines = ["digraph vizgrad {"]
    graph_attrs = {
        "bgcolor": th.background, "fontcolor": th.text, "fontname": th.font, "fontsize": "12",
        "nodesep": "0.25", "pad": "0.2", "rankdir": rankdir, "ranksep": "0.35",
    }
    bounded = layout_attrs(G)
    graph_attrs.update(bounded)
    label_key = "xlabel" if "mclimit" in bounded else "label"
    if caption:
        cap = [text.caption(G, k), *rule]
        if step is None and not G.graph.get("backward_ran", True):
            cap.append("grads not computed yet (— means not reached): backward() has not run")
        if any(v != 0 and not math.isnan(v) for v in st.grad.values()):
            cap.append("grad colour: orange < 0 < purple")
        graph_attrs.update(label=_Raw(quote("\n".join(cap), "\\l")[:-1] + '\\l"'), labeljust="l",
                           labelloc="t")
    lines.append("  " + _stmt("graph", graph_attrs))
    lines.append("  " + _stmt("node", {"color": th.border, "fontcolor": th.text,
                                       "fontname": th.font, "fontsize": "11"}))
    lines.append("  " + _stmt("edge", {"color": th.edge, "fontcolor": th.text,
                                       "fontname": th.font, "fontsize": "9"}))

    nodes = sorted(G.nodes, key=lambda n: (G.nodes[n].get("order", 0), str(n)))
    edges: list[str] = []
    for n in nodes:
        lines.extend("  " + s for s in _node_lines(G, n, st, th, decimals, scale, totals, rankdir))
        if not G.in_degree(n):
            continue
        pending = n not in st.data
        for p, _, slot in sorted(G.in_edges(n, keys=True), key=lambda e: e[2]):
            attrs = {"arrowsize": "0.7", "class": f"vg-edge vg-{p} vg-{n}", "id": f"e-{p}-{n}-{slot}"}
            hit = by_edge.get((p, n, slot))
            if hit:
                c, line = hit
                colour = edge_color(c["amount"], th)
                attrs.update({"class": attrs["class"] + " vg-contribution", "color": colour,
                              "fontcolor": colour, label_key: text.contribution_text(c, decimals),
                              "penwidth": "2", "tooltip": line})
            elif pending or not G.nodes[n].get("on_path", True):
                attrs.update(color=th.muted, style="dashed")
            edges.append("  " + _stmt(f"{quote(p)} -> {quote(f'{n}-op')}", attrs))
        attrs = {"arrowsize": "0.7", "class": f"vg-edge vg-op-edge vg-{n}", "id": f"e-{n}-op"}
        if pending or not G.nodes[n].get("on_path", True):
            attrs.update(color=th.muted, style="dashed")
        edges.append("  " + _stmt(f"{quote(f'{n}-op')} -> {quote(n)}", attrs))
    lines.extend(edges)
    lines.append("}")
    return "\n".join(lines) + "\n"


def _node_lines(G: Any, n: str, st: Any, th: Theme, decimals: int, scale: float,
                totals: dict[str, tuple[float | None, float]], rankdir: str) -> list[str]:
    attrs = G.nodes[n]
    kind = _kind(G, n)
    name = text.name(G, n)
    pending = n not in st.data
    active = st.active == n
    on_path = bool(attrs.get("on_path", True))
    classes = [f"vg-value vg-{kind} vg-{n}"]
    if pending:
        classes.append("vg-pending")
    if active:
        classes.append("vg-active")
    if not on_path:
        classes.append("vg-offpath")
    grad = st.grad.get(n)
    classes.append("vg-reached" if grad is not None else "vg-unreached")
    formula = text.formula(G, n)
    tip = formula
    if kind == "const":
        out = {"class": " ".join(classes), "color": th.muted, "fontsize": "10", "height": "0",
               "id": n, "label": name, "margin": "0.05,0.02", "shape": "box",
               "style": "rounded", "tooltip": f"constant {name}", "width": "0"}
        if active:
            out.update(color=th.active, penwidth="2.5")
        return [_stmt(quote(n), out)]

    data = text.PENDING if pending else text.fmt(st.data[n], decimals)
    if n in totals:
        before, after = totals[n]
        gtext = f"{text.fmt(before, decimals)} → {text.fmt(after, decimals)}"
    else:
        gtext = text.fmt(grad, decimals)
    fields = [record_field(name), record_field(f"data {data}"), record_field(f"grad {gtext}")]
    label = "|".join(fields)
    if rankdir == "LR":
        label = "{" + label + "}"
    fill = grad_color(grad, scale, th) if on_path else th.offpath_fill
    style = ["filled"]
    if pending or not on_path:
        style.insert(0, "dashed")
    if not on_path:
        tip += " (off the path to the output: it gets no gradient)"
    out = {"class": " ".join(classes), "fillcolor": fill, "id": n, "label": _Raw('"' + label + '"'),
           "shape": "record", "style": ",".join(style), "tooltip": tip}
    if pending or not on_path:
        out.update(color=th.muted, fontcolor=th.muted)
    if active:
        out.update(color=th.active, penwidth="2.5")
    result = [_stmt(quote(n), out)]
    if G.in_degree(n):
        op = {"class": f"vg-operator vg-{n}" + (" vg-active" if active else ""), "fillcolor": th.op_fill, "fontsize": "10",
              "height": "0.3", "id": f"{n}-op", "label": _op_text(str(attrs.get("op", ""))),
              "margin": "0.04,0.02", "shape": "ellipse", "style": "filled",
              "tooltip": formula, "width": "0.3"}
        if pending or not on_path:
            op.update(color=th.muted, fontcolor=th.muted, style="dashed,filled")
        if active:
            op.update(color=th.active, penwidth="2.5")
        result.append(_stmt(quote(f"{n}-op"), op))
    return result
