"""The sections of a gallery page: the summary table, the fork step by step, pairs side by
side, softmax, any other example, and the animated pictures.

Each section adds its Markdown lines to a :class:`Page` (its language, the files it may
link to); every number is read from the example's graph::

    >>> from vizgrad import examples
    >>> page = Page([], {"fork/fork.svg"}, "en", lambda rel: False)
    >>> fork_section(page, examples.graph("fork"))
    >>> page.lines[2]
    '## fork: q = (a·b)·(a+b), step by step'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..i18n import DEFAULT, catalogue, t
from ..style.text import caption, chain_rule, fmt, formula, name
from .gallery_files import LINKS, WORDLESS, job_folder, step_file

__all__ = ["Page", "animated_section", "fork_section", "generic_section", "shared_section",
           "softmax_section", "summary_section", "tanh_section"]


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


class Page:
    """The lines of one page, its language, and which files it may link to."""

    def __init__(self, jobs: Sequence[Any], files: set[str], lang: str,
                 exists: Callable[[str], bool]) -> None:
        self.graphs = {j.name: j.graph for j in jobs}
        self.files = files
        self.lang = lang
        self.exists = exists
        self.lines: list[str] = []

    def w(self, key: str, **values: Any) -> str:
        return t(key, self.lang, **values)

    def has(self, rel: str) -> bool:
        return rel in self.files

    def add(self, *lines: str) -> None:
        self.lines.extend(lines)

    def path(self, ex: str, rel: str) -> str:
        """``rel`` inside the example's folder of this page's language."""
        return f"{job_folder(ex, self.lang)}/{rel}"

    def links(self, ex: str) -> str:
        out = []
        for fmt_ in LINKS:
            rel = self.path(ex, f"{ex}.{fmt_}")
            if fmt_ in WORDLESS and self.lang != DEFAULT:  # shared with the English folder
                rel = f"{ex}/{ex}.{fmt_}"
                if not (self.has(rel) or self.exists(rel)):
                    continue
            elif not self.has(rel):
                continue
            out.append(f"[{self.w('gallery.link.' + fmt_)}]({rel})")
        for sub in ("steps", "frames"):
            if any(f.startswith(self.path(ex, sub + "/")) for f in self.files):
                out.append(f"[{self.w('gallery.link.' + sub)}]({self.path(ex, sub)}/)")
        return " · ".join(out)

    def image(self, ex: str, alt: str, rel: str | None = None) -> str:
        rel = self.path(ex, rel or f"{ex}.svg")
        if not self.has(rel):
            return f"*({self.w('gallery.missing', alt=alt)})*"
        return f"![{alt}]({rel})"

    def describe(self, ex: str, G: Any) -> str:
        from ..graph import examples

        if ex not in examples.names():
            return formula(G, G.graph["root"])
        if self.lang != DEFAULT and f"example.{ex}" in catalogue(self.lang):
            return self.w(f"example.{ex}")
        return examples.describe(ex)


def _inputs_table(page: Page, G: Any, decimals: int = 4) -> list[str]:
    root = name(G, G.graph["root"])
    w = page.w
    head = (f"| {w('gallery.col.input')} | {w('gallery.col.value')} | "
            f"{w('gallery.col.grad', root=root)} | {w('gallery.col.received')} |")
    rows = [head, "|---|---:|---:|---|"]
    for n in _nodes(G, "input"):
        got = " + ".join(_num(a, decimals) for a in _received(G, n)) or "—"
        rows.append(f"| `{name(G, n)}` | {_num(G.nodes[n]['data'], decimals)} | "
                    f"{_num(G.nodes[n]['grad'], decimals)} | {got} |")
    for n in _nodes(G, "inputs"):  # a batch's inputs, one box: a row per cell
        for label, data, grad, got in _cells_received(G, n):
            rows.append(f"| `{label}` | {_num(data, decimals)} | {_num(grad, decimals)} | "
                        f"{' + '.join(_num(a, decimals) for a in got) or '—'} |")
    return rows


def _cells_received(G: Any, box: str) -> list[tuple[str, Any, Any, list[float]]]:
    """Each input of a batch's box: its name, data, grad, and what each step added to it
    (the rise of its grad, read from the steps' ``grads``)."""
    seen = [c["grads"] for s in G.graph["steps"] for c in s.get("contributions", [])
            if c["target"] == box and c.get("grads") is not None]
    out = []
    for j, (label, data, grad) in enumerate(G.nodes[box].get("grid") or ()):
        got, before = [], None
        for grads in seen:
            if grads[j] is not None and grads[j] != before:
                got.append(grads[j] - (before or 0.0))
                before = grads[j]
        out.append((str(label), data, grad, got))
    return out


def summary_section(page: Page) -> None:
    w = page.w
    page.add(f"| {w('gallery.col.example')} | {w('gallery.col.shows')} | {w('gallery.col.nodes')} "
             f"| {w('gallery.col.steps')} | {w('gallery.col.files')} |", "|---|---|---:|---:|---|")
    for ex, G in page.graphs.items():
        page.add(f"| [{ex}](#{ex}) | {page.describe(ex, G)} | {G.number_of_nodes()} | "
                 f"{len(G.graph['steps'])} | {page.links(ex)} |")
    page.add("")


def fork_section(page: Page, G: Any) -> None:
    n = _by_name(G)
    page.add('<a id="fork"></a>', "", "## " + page.w("gallery.fork.title", name="fork",
                                                      formula="q = (a·b)·(a+b)"), "")
    if all(k in n for k in ("a", "b", "u", "v", "q")):
        a, b = n["a"], n["b"]
        both = page.w("gallery.and")
        page.add(page.w(
            "gallery.fork.text", a=_num(G.nodes[a]["data"]), b=_num(G.nodes[b]["data"]),
            u=_num(G.nodes[n["u"]]["data"]), v=_num(G.nodes[n["v"]]["data"]),
            q=_num(G.nodes[n["q"]]["data"]),
            ra=both.join(_num(x) for x in _received(G, a)), ga=_num(G.nodes[a]["grad"]),
            rb=both.join(_num(x) for x in _received(G, b)), gb=_num(G.nodes[b]["grad"])), "")
    page.add(page.links("fork"), "")
    if page.has(page.path("fork", "fork.gif")):
        page.add(page.image("fork", page.w("gallery.alt.animated", name="fork"), "fork.gif"), "")
    for k in range(len(G.graph["steps"])):
        page.add(f"**{caption(G, k, page.lang)}**", "")
        lines = chain_rule(G, k, lang=page.lang)
        if lines:
            page.add("```text", *lines, "```", "")
        page.add(page.image("fork", page.w("gallery.alt.step", name="fork", k=k), step_file(G, k)),
                 "")


def _side_by_side(page: Page, left: str, right: str, text: str,
                  rows: list[tuple[str, str, str]]) -> None:
    title = page.w("gallery.beside", left=left, right=right)
    page.add(f'<a id="{left}"></a><a id="{right}"></a>', "", f"## {title}", "", text, "")
    page.add(f"| [{left}](#{left}) | [{right}](#{right}) |", "|---|---|")
    page.add(f"| {page.image(left, left)} | {page.image(right, right)} |")
    for label, lv, rv in rows:
        page.add(f"| {page.w('gallery.row', label=label, value=lv)} | "
                 f"{page.w('gallery.row', label=label, value=rv)} |")
    page.add(f"| {page.links(left)} | {page.links(right)} |", "")


def _grad_of(G: Any, label: str) -> float | None:
    node = _by_name(G).get(label)
    return None if node is None else G.nodes[node]["grad"]


def shared_section(page: Page) -> None:
    L, R = page.graphs["shared-node"], page.graphs["overwrite-bug"]
    _side_by_side(
        page, "shared-node", "overwrite-bug", page.w("gallery.shared.text"),
        [("∂b/∂a", _num(_grad_of(L, "a")), _num(_grad_of(R, "a"))),
         (page.w("gallery.shared.received", name="a"),
          " + ".join(_num(x) for x in _received(L, _by_name(L)["a"])),
          page.w("gallery.then").join(_num(x) for x in _received(R, _by_name(R)["a"]))
          + page.w("gallery.overwritten"))])


def tanh_section(page: Page) -> None:
    L, R = page.graphs["tanh-native"], page.graphs["tanh-decomposed"]
    rows = [(page.w("gallery.col.nodes"), str(L.number_of_nodes()), str(R.number_of_nodes())),
            (page.w("gallery.col.steps"), str(len(L.graph["steps"])), str(len(R.graph["steps"]))),
            ("o", _num(L.nodes[L.graph["root"]]["data"]), _num(R.nodes[R.graph["root"]]["data"]))]
    for n in _nodes(L, "input"):
        label = name(L, n)
        rows.append((f"∂o/∂{label}", _num(_grad_of(L, label)), _num(_grad_of(R, label))))
    _side_by_side(page, "tanh-native", "tanh-decomposed",
                  page.w("gallery.tanh.text", native=L.number_of_nodes(),
                         decomposed=R.number_of_nodes()), rows)


def softmax_section(page: Page, G: Any) -> None:
    n = _by_name(G)
    root = G.graph["root"]
    page.add('<a id="softmax-nll"></a>', "",
             "## " + page.w("gallery.softmax.title", name="softmax-nll"), "")
    zs = sorted(_nodes(G, "input"), key=lambda z: name(G, z))
    page.add(
        f"z = ({', '.join(_num(G.nodes[z]['data'], 0) for z in zs)}), p = softmax(z), "
        f"L = −log p3 = {_num(G.nodes[root]['data'], 12)}. "
        + page.w("gallery.softmax.text",
                 grads=f"∂L/∂z = ({', '.join(_num(G.nodes[z]['grad'], 9) for z in zs)})",
                 off=", ".join(name(G, p) for p in G.graph.get("also", []))), "")
    page.add(page.image("softmax-nll", page.w("gallery.alt.final", name="softmax-nll")), "")
    probs = [p for p in ("p0", "p1", "p2", "p3") if p in n]
    if probs:
        page.add("| | " + " | ".join(probs) + " |", "|---|" + "---:|" * len(probs))
        page.add(f"| {page.w('gallery.col.value')} | "
                 + " | ".join(_num(G.nodes[n[p]]["data"]) for p in probs) + " |")
        page.add(f"| {page.w('gallery.softmax.on_path', root=name(G, root))} | " + " | ".join(
            page.w("gallery.yes") if G.nodes[n[p]].get("on_path") else page.w("gallery.no_greyed")
            for p in probs) + " |", "")
    page.add(page.links("softmax-nll"), "")


def generic_section(page: Page, ex: str, G: Any) -> None:
    root = G.graph["root"]
    page.add(f'<a id="{ex}"></a>', "", f"## {ex}", "", page.describe(ex, G), "")
    info = G.graph.get("collapsed")
    if info:  # drawn by group: say so, and where every value is
        page.add(page.w("gallery.collapsed.text", values=f"{info['nodes']:,}",
                        boxes=f"{info['boxes']:,}"), "")
    page.add(page.image(ex, page.w("gallery.alt.final", name=ex)), "")
    page.add(f"{name(G, root)} = {_num(G.nodes[root]['data'])}", "", *_inputs_table(page, G), "")
    page.add(page.links(ex), "")


def animated_section(page: Page) -> None:
    shown = [ex for ex in page.graphs if page.has(page.path(ex, f"{ex}.anim.svg"))]
    if not shown:
        return
    page.add('<a id="animated"></a>', "", f"## {page.w('gallery.animated.title')}", "",
             page.w("gallery.animated.text"), "")
    for ex in shown:
        last = len(page.graphs[ex].graph["steps"]) - 1
        page.add(f"### {ex}", "",
                 page.image(ex, page.w("gallery.animated.alt", name=ex, last=last),
                            f"{ex}.anim.svg"), "")
