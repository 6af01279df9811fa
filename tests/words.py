"""Finding English words in a page meant to be in another language (tests only)."""

from __future__ import annotations

import re

from vizgrad import examples

#: words that are not English prose: op names, code, product and proper names, key caps,
#: example names, and the language switch's own name for English
ALLOWED = {"tanh", "exp", "log", "relu", "ReLU", "vizgrad", "micrograd", "PyTorch", "Home",
           "End", "English", "softmax", "nll", "inf", "nan", "Tab", "Enter", "Esc", "Ctrl",
           "group"}  # group: the op of a collapsed box in formulas, as tanh is
ALLOWED |= {part for name in examples.names() for part in name.split("-")}

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
    """Words of two or more Latin letters that are neither node labels, ``x.grad``
    formulae, numbers nor an allowed name."""
    found = []
    for text in texts:
        text = re.sub(r"\b\w+\.grad\b", " ", text)  # a formula: u.grad
        text = re.sub(r"\d+(\.\d+)?e[−-]?\d+", " ", text)  # 1e-6
        for word in re.findall(r"[A-Za-z]{2,}", text):
            if word not in ALLOWED and word not in labels:
                found.append(word)
    return found
