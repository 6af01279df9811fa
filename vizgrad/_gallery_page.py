"""The gallery's ``README.md``: a page a reader scrolls on GitHub, with the chapter's numbers.

Everything on the page is read from the graphs, never typed in, so the text
always matches the pictures next to it.
"""

from __future__ import annotations

from typing import Any, Sequence

from .render.text import caption, chain_rule, fmt, formula, name


def step_file(G: Any, k: int) -> str:
    """The per-step SVG's path inside an example folder: ``steps/step-07.svg``."""
    pad = max(2, len(str(len(G.graph["steps"]) - 1)))
    return f"steps/step-{k:0{pad}d}.svg"

__all__ = ["gallery_readme", "step_file"]

_LINKS = (("svg", "SVG"), ("anim.svg", "animated SVG"), ("gif", "GIF"), ("mp4", "MP4"), ("png", "PNG"), ("html", "step player"),
          ("json", "JSON"), ("dot", "DOT"))


def _nodes(G: Any, kind: str | None = None) -> list[str]:
    nodes = sorted(G.nodes, key=lambda n: G.nodes[n].get("order", 0))
    return [n for n in nodes if kind is None or G.nodes[n].get("kind") == kind]


def _by_name(G: Any) -> dict[str, str]:
    return {name(G, n): n for n in _nodes(G)}


def _num(x: float | None, decimals: int = 4) -> str:
    return fmt(x, decimals).replace("-", "−")


def _received(G: Any, node: str) -> list[float]:
    return [c["amount"] for s in G.graph["steps"] for c in s.get("contributions", [])
            if c["target"] == node]


def _inputs_table(G: Any, decimals: int = 4) -> list[str]:
    root = name(G, G.graph["root"])
    rows = ["| input | value | ∂{0}/∂input | contributions received |".format(root),
            "|---|---:|---:|---|"]
    for n in _nodes(G, "input"):
        got = " + ".join(_num(a, decimals) for a in _received(G, n)) or "—"
        rows.append(f"| `{name(G, n)}` | {_num(G.nodes[n]['data'], decimals)} | "
                    f"{_num(G.nodes[n]['grad'], decimals)} | {got} |")
    return rows


class _Page:
    def __init__(self, jobs: Sequence[Any], opts: Any, files: set[str]) -> None:
        self.graphs = {j.name: j.graph for j in jobs}
        self.opts = opts
        self.files = files
        self.lines: list[str] = []

    def has(self, rel: str) -> bool:
        return rel in self.files

    def add(self, *lines: str) -> None:
        self.lines.extend(lines)

    def links(self, ex: str) -> str:
        out = []
        for fmt_, label in _LINKS:
            rel = f"{ex}/{ex}.{fmt_}"
            if self.has(rel):
                out.append(f"[{label}]({rel})")
        if self.has(f"{ex}/steps/step-{0:02d}.svg") or any(f.startswith(f"{ex}/steps/") for f in self.files):
            out.append(f"[steps]({ex}/steps/)")
        if any(f.startswith(f"{ex}/frames/") for f in self.files):
            out.append(f"[frames]({ex}/frames/)")
        return " · ".join(out)

    def image(self, ex: str, alt: str, rel: str | None = None, width: int | None = None) -> str:
        rel = rel or f"{ex}/{ex}.svg"
        if not self.has(rel):
            return f"*({alt}: not rendered in this export)*"
        if width:
            return f'<img src="{rel}" alt="{alt}" width="{width}">'
        return f"![{alt}]({rel})"


def _summary(page: _Page) -> None:
    from . import examples

    page.add("| example | what it shows | nodes | steps | files |", "|---|---|---:|---:|---|")
    for ex, G in page.graphs.items():
        desc = examples.describe(ex) if ex in examples.names() else formula(G, G.graph["root"])
        page.add(f"| [{ex}](#{ex}) | {desc} | {G.number_of_nodes()} | "
                 f"{len(G.graph['steps'])} | {page.links(ex)} |")
    page.add("")


def _fork(page: _Page, G: Any) -> None:

    n = _by_name(G)
    page.add('<a id="fork"></a>', "", "## fork: q = (a·b)·(a+b), step by step", "")
    if all(k in n for k in ("a", "b", "u", "v", "q")):
        a, b = n["a"], n["b"]
        ra, rb = _received(G, a), _received(G, b)
        page.add(
            f"At a = {_num(G.nodes[a]['data'])}, b = {_num(G.nodes[b]['data'])}: "
            f"u = a·b = {_num(G.nodes[n['u']]['data'])}, v = a + b = {_num(G.nodes[n['v']]['data'])}, "
            f"q = u·v = {_num(G.nodes[n['q']]['data'])}. "
            f"Going back, a receives {' and '.join(_num(x) for x in ra)}, together "
            f"{_num(G.nodes[a]['grad'])}; b receives {' and '.join(_num(x) for x in rb)}, together "
            f"{_num(G.nodes[b]['grad'])}. Overwriting either contribution would give a wrong answer.",
            "")
    page.add(page.links("fork"), "")
    if page.has("fork/fork.gif"):
        page.add(page.image("fork", "the fork graph, animated step by step", "fork/fork.gif"), "")
    for k in range(len(G.graph["steps"])):
        page.add(f"**{caption(G, k)}**", "")
        lines = chain_rule(G, k)
        if lines:
            page.add("```text", *lines, "```", "")
        page.add(page.image("fork", f"fork graph after step {k}", f"fork/{step_file(G, k)}"), "")


def _side_by_side(page: _Page, left: str, right: str, title: str, text: str,
                  rows: list[tuple[str, str, str]]) -> None:
    L, R = page.graphs[left], page.graphs[right]
    page.add(f'<a id="{left}"></a><a id="{right}"></a>', "", f"## {title}", "", text, "")
    page.add(f"| [{left}](#{left}) | [{right}](#{right}) |", "|---|---|")
    page.add(f"| {page.image(left, left)} | {page.image(right, right)} |")
    for label, lv, rv in rows:
        page.add(f"| {label}: {lv} | {label}: {rv} |")
    page.add(f"| {page.links(left)} | {page.links(right)} |", "")


def _grad_of(G: Any, label: str) -> float | None:
    node = _by_name(G).get(label)
    return None if node is None else G.nodes[node]["grad"]


def _shared(page: _Page) -> None:
    L, R = page.graphs["shared-node"], page.graphs["overwrite-bug"]
    _side_by_side(
        page, "shared-node", "overwrite-bug", "shared-node beside overwrite-bug",
        "b = a + a, so db/da = 2. Both operands are the same node: two edges, two contributions. "
        "With `+=` they add up; with `=` the second write overwrites the first.",
        [("∂b/∂a", _num(_grad_of(L, "a")), _num(_grad_of(R, "a"))),
         ("contributions to a", " + ".join(_num(x) for x in _received(L, _by_name(L)["a"])),
          " then ".join(_num(x) for x in _received(R, _by_name(R)["a"])) + " (overwritten)")])


def _tanh(page: _Page) -> None:
    L, R = page.graphs["tanh-native"], page.graphs["tanh-decomposed"]
    rows = [("nodes", str(L.number_of_nodes()), str(R.number_of_nodes())),
            ("steps", str(len(L.graph["steps"])), str(len(R.graph["steps"]))),
            ("o", _num(L.nodes[L.graph["root"]]["data"]), _num(R.nodes[R.graph["root"]]["data"]))]
    for n in _nodes(L, "input"):
        label = name(L, n)
        rows.append((f"∂o/∂{label}", _num(_grad_of(L, label)), _num(_grad_of(R, label))))
    _side_by_side(
        page, "tanh-native", "tanh-decomposed", "tanh-native beside tanh-decomposed",
        f"The same neuron with tanh as one node ({L.number_of_nodes()} nodes) and through "
        f"tanh x = (e^2x − 1)/(e^2x + 1) ({R.number_of_nodes()} nodes): a bigger graph, the same "
        "gradients, because 1 − y² = 4u/(u + 1)² with u = e^2x.", rows)


def _softmax(page: _Page, G: Any) -> None:
    n = _by_name(G)
    root = G.graph["root"]
    page.add('<a id="softmax-nll"></a>', "", "## softmax-nll: the off-path probabilities are greyed",
             "")
    zs = sorted(_nodes(G, "input"), key=lambda z: name(G, z))
    page.add(
        f"z = ({', '.join(_num(G.nodes[z]['data'], 0) for z in zs)}), p = softmax(z), "
        f"L = −log p3 = {_num(G.nodes[root]['data'], 12)}. "
        f"∂L/∂z = ({', '.join(_num(G.nodes[z]['grad'], 9) for z in zs)}): the correct class gets a "
        "negative gradient, the others positive, and they sum to zero. "
        + ", ".join(name(G, p) for p in G.graph.get("also", []))
        + " are computed but lie off the loss's backward path: they are drawn greyed and their "
          "gradients stay “—” (never reached), not 0.", "")
    page.add(page.image("softmax-nll", "softmax-nll after the backward pass"), "")
    probs = [p for p in ("p0", "p1", "p2", "p3") if p in n]
    if probs:
        page.add("| | " + " | ".join(probs) + " |", "|---|" + "---:|" * len(probs))
        page.add("| value | " + " | ".join(_num(G.nodes[n[p]]["data"]) for p in probs) + " |")
        page.add("| on the path of L | " + " | ".join(
            "yes" if G.nodes[n[p]].get("on_path") else "no (greyed)" for p in probs) + " |", "")
    page.add(page.links("softmax-nll"), "")


def _generic(page: _Page, ex: str, G: Any) -> None:
    from . import examples

    root = G.graph["root"]
    desc = examples.describe(ex) if ex in examples.names() else ""
    page.add(f'<a id="{ex}"></a>', "", f"## {ex}", "")
    if desc:
        page.add(desc, "")
    page.add(page.image(ex, f"{ex} after the backward pass"), "")
    page.add(f"{name(G, root)} = {_num(G.nodes[root]['data'])}", "", *_inputs_table(G), "")
    page.add(page.links(ex), "")


def _animated(page: _Page) -> None:
    shown = [ex for ex in page.graphs if page.has(f"{ex}/{ex}.anim.svg")]
    if not shown:
        return
    page.add('<a id="animated"></a>', "", "## Every example as one animated SVG", "",
             "Each `NAME.anim.svg` plays every step, then rests on the final view, and starts "
             "again. It is one small file animated by CSS alone (no script), so it plays in a "
             "README's `<img>`; where animation is off, or the reader's system asks for reduced "
             "motion, it shows the final view.", "")
    for ex in shown:
        G = page.graphs[ex]
        page.add(f"### {ex}", "",
                 page.image(ex, f"{ex}, steps 0 to {len(G.graph['steps']) - 1} animated, then "
                                "the final view", f"{ex}/{ex}.anim.svg"), "")


def gallery_readme(jobs: Sequence[Any], opts: Any, files: set[str]) -> str:
    """The Markdown page for an export of ``jobs`` that wrote ``files``."""
    page = _Page(jobs, opts, files)
    page.add(
        "# vizgrad gallery", "",
        "The chapter's examples, rendered by `vizgrad render` with the embedded Graphviz, so "
        "every machine produces these same bytes. Each picture shows every Value as a box with its "
        "label, data and grad; a grad that has not arrived yet shows “—”, never 0. Each example "
        "also has one SVG per step, [an animated SVG](#animated) of all of them, a GIF, a "
        "self-contained HTML step player (download it and open it in a browser: ← and → step "
        "through it), the node-link JSON and the DOT.", "",
        "Regenerate with `vizgrad render` (or `python -m vizgrad render`).", "",
    )
    _summary(page)
    page.add(
        "How to read a picture: each Value is a box with its label, data and grad, fed by a small "
        "node for its op. The node acting in a step is outlined; in a backward step each edge that "
        "carries a contribution is labelled local × upstream = amount and its target shows the "
        "running total. Grads are coloured with a colour-blind-safe diverging palette (orange < 0 < "
        "purple). A value not yet computed is pending; outputs off the backward path are greyed.",
        "")
    done: set[str] = set()
    g = page.graphs
    if "fork" in g:
        _fork(page, g["fork"])
        done.add("fork")
    if "shared-node" in g and "overwrite-bug" in g:
        _shared(page)
        done |= {"shared-node", "overwrite-bug"}
    if "tanh-native" in g and "tanh-decomposed" in g:
        _tanh(page)
        done |= {"tanh-native", "tanh-decomposed"}
    if "softmax-nll" in g:
        _softmax(page, g["softmax-nll"])
        done.add("softmax-nll")
    for ex, G in g.items():
        if ex not in done:
            _generic(page, ex, G)
    _animated(page)
    text = "\n".join(page.lines).rstrip() + "\n"
    return text
