"""Finding English words in a page meant to be in another language (tests only)."""

from __future__ import annotations

import re
from typing import Any

from vizgrad import examples
from vizgrad.style.text import name

#: words that are not English prose: op names, code, product and proper names, key caps,
#: example names, and the language switch's own name for English
ALLOWED = {"tanh", "exp", "log", "relu", "ReLU", "vizgrad", "micrograd", "PyTorch", "Home",
           "End", "English", "softmax", "nll", "inf", "nan", "Graphviz", "float", "Tab", "Enter",
           "Esc", "Ctrl", "MLP"}
#: file formats, named as such in the gallery page
ALLOWED |= {"SVG", "GIF", "PNG", "MP", "HTML", "JSON", "DOT"}
ALLOWED |= {part for name in examples.names() for part in name.split("-")}
#: code a caption quotes as it is written (collapse=False, sample=all, backward())
ALLOWED |= {"collapse", "False", "sample", "all", "backward"}
#: the running gradient is written x.grad in both languages, as the chapter writes out.grad
ALLOWED |= {"grad"}
#: the indices of the vector rule ∂loss/∂x_j += Σ_i w_ij · g_i, written alike in both
ALLOWED |= {"ij"}

#: the text of every text node under <body> except scripts, styles and noscript
TEXT_NODES = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement.closest("script, style, noscript")) continue;
    if (n.textContent.trim()) out.push(n.textContent);
  }
  return out;
}"""


def english_words(texts: list[str], labels: set[str]) -> list[str]:
    """Words of two or more Latin letters that are neither node labels, ``x.grad`` or
    ``dy/dx`` formulae, numbers nor an allowed name."""
    found = []
    named = set(re.findall(r"[A-Za-z]{2,}", " ".join(labels)))  # L0.N2.out: out is a name
    for text in texts:
        text = re.sub(r"(\b\w+|\))\.grad\b", " ", text)  # a formula: u.grad, (a·b).grad
        text = re.sub(r"\d+(\.\d+)?e[−-]?\d+", " ", text)  # 1e-6
        text = re.sub(r"\bd\w+/d\w+\b", " ", text)  # a derivative: dy/dx
        for word in re.findall(r"[A-Za-z]{2,}", text):
            if word not in ALLOWED and word not in labels and word not in named:
                found.append(word)
    return found


def labels(*graphs: Any) -> set[str]:
    """What the pictures call the nodes of ``graphs``: labels, constants, ids."""
    return {name(G, n) for G in graphs for n in G.nodes}


def markdown_texts(page: str) -> list[str]:
    """What a reader of a Markdown page reads: the text, link texts and image
    descriptions, not link targets, HTML tags or `code`."""
    page = re.sub(r"^```.*$", " ", page, flags=re.MULTILINE)  # a fence (its lines are read)
    page = re.sub(r"`[^`\n]+`", " ", page)
    page = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", page)
    page = re.sub(r"<[^>]+>", " ", page)
    return [line for line in page.splitlines() if line.strip()]
