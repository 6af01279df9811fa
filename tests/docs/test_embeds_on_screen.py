"""Real Sphinx (Alabaster) and MkDocs sites, measured in Chromium: readable pictures, players
that show the whole graph and their zoom from the start, error boxes that say where, and no
axe-core violation in vizgrad's own elements."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from .conftest import player_frames
from .test_markdown_site import BARE

pytest.importorskip("sphinx", reason="Sphinx is not installed (pip install vizgrad[sphinx])")
pytest.importorskip("mkdocs", reason="MkDocs is not installed (pip install vizgrad[mkdocs])")
pytest.importorskip("pymdownx", reason="pymdown-extensions is not installed")
axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright",
                               reason="axe-playwright-python is not installed")

RST = """\
Graphs
======

The fork graph:

.. vizgrad:: (a*b)*(a+b)
   :values: a=-2, b=3
   :step: final

.. vizgrad::
   :example: fork
   :player:

A mistake:

.. vizgrad:: (a*b)*(a+
   :values: a=-2, b=3
"""

# front matter (MkDocs reads it off before Markdown sees the page), a top-level block and
# one in a list (superfences), each with a mistake, and a player
MD = """\
---
title: Graphs
---

# Graphs

```vizgrad
example: fork
player: yes
```

```vizgrad
a*b
values: a=1, b=2, c=an-unusually-long-value-that-does-not-fit-on-one-line-of-the-column
```

- In a list:

    ```vizgrad
    a*b
    colour: red
    ```
"""

MKDOCS = BARE + """\
markdown_extensions:
  - vizgrad.markdown
  - pymdownx.superfences:
      custom_fences:
        - name: vizgrad
          class: vizgrad
          format: !!python/name:vizgrad.markdown.fence_format
"""


@pytest.fixture(scope="module")
def sphinx_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("alabaster")
    (root / "src").mkdir()
    (root / "src" / "conf.py").write_text('project = "t"\nextensions = ["vizgrad.sphinx"]\n'
                                          'html_theme = "alabaster"\n')
    (root / "src" / "index.rst").write_text(RST)
    result = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-q",
                             str(root / "src"), str(root / "out")],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return root / "out" / "index.html"


@pytest.fixture(scope="module")
def mkdocs_site(tmp_path_factory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("mkdocs-screen")
    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text(MD)
    (root / "mkdocs.yml").write_text(MKDOCS)
    (root / "theme").mkdir()
    (root / "theme" / "main.html").write_text(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>t</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1"></head>\n'
        '<body><main style="max-width:40rem;margin:auto">{{ page.content }}</main></body>'
        "</html>\n")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-f",
                             str(root / "mkdocs.yml"), "-d", str(root / "site")],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return root / "site" / "index.html", result.stderr


def _line(text: str, start: str) -> int:
    """The number (from 1) of the line of ``text`` that is ``start`` or starts with it and
    a space or a comma."""
    return next(i for i, line in enumerate(text.splitlines(), 1)
                if line == start or line.startswith((start + " ", start + ",")))


def test_the_static_svg_is_readable_in_the_alabaster_column(sphinx_site, open_page):
    pg = open_page(sphinx_site)
    img = pg.locator("figure.vizgrad-svg img")
    shown = img.evaluate("e => [e.getBoundingClientRect().width, "
                         "e.closest('.body, [role=main]').clientWidth]")
    svg = ET.parse(sphinx_site.parent / img.get_attribute("src")).getroot()
    view_width = float(svg.get("viewBox").split()[2])
    sizes = [float(t.get("font-size")) for t in svg.iter("{http://www.w3.org/2000/svg}text")
             if t.get("font-size")]
    smallest = min(sizes) * shown[0] / view_width  # CSS px on the screen
    assert shown[0] <= shown[1] + 0.5  # inside the content column
    assert shown[0] <= view_width * 4 / 3 + 0.5  # never enlarged past its drawn size
    assert smallest >= 12, (smallest, shown, view_width)


def test_the_sphinx_player_shows_its_rightmost_box(sphinx_site, open_page):
    pg = open_page(sphinx_site)
    (frame,) = player_frames(pg)
    edges = frame.evaluate("""() => {
      const boxes = [...document.querySelectorAll('#stage rect[id^="vg-n-"]')]
        .map((r) => r.getBoundingClientRect());
      const right = Math.max(...boxes.map((b) => b.right));
      const stage = document.getElementById('stage').getBoundingClientRect();
      return [right, stage.right, innerWidth];
    }""")
    assert edges[0] <= edges[1] + 0.5 and edges[0] <= edges[2], edges


def test_a_failed_directive_shows_a_box_with_its_file_and_line(sphinx_site, open_page):
    pg = open_page(sphinx_site)
    box = pg.locator("pre.vizgrad-error")
    line = _line(RST, ".. vizgrad:: (a*b)*(a+")
    assert box.inner_text().startswith(f"vizgrad: index.rst:{line}: column 7: syntax error")
    assert box.is_visible()
    assert box.evaluate("e => e.scrollWidth <= e.clientWidth")


def test_mkdocs_names_the_file_and_line_of_each_bad_block(mkdocs_site, open_page):
    page, log = mkdocs_site
    top = _line(MD, "values: a=1,") - 2  # the fence's line: two above
    nested = _line(MD, "    colour: red") - 2
    assert f"vizgrad block in index.md at line {top}: values: " in log
    assert f"vizgrad block in index.md at line {nested}: unknown option 'colour'" in log
    pg = open_page(page)
    boxes = pg.locator("pre.vizgrad-error")
    assert boxes.count() == 2
    texts = boxes.all_inner_texts()
    assert texts[0].startswith(f"vizgrad block in index.md at line {top}: ")
    assert texts[1].startswith(f"vizgrad block in index.md at line {nested}: ")
    for k in range(2):
        assert boxes.nth(k).is_visible()
        assert boxes.nth(k).evaluate(
            "e => e.scrollWidth <= e.clientWidth && e.getBoundingClientRect().right <= "
            "e.parentElement.getBoundingClientRect().right + 0.5")


def test_the_zoom_readout_is_right_from_the_start_in_ten_loads(mkdocs_site, open_page):
    page, _ = mkdocs_site
    readouts = []
    for _ in range(10):
        pg = open_page(page)
        (frame,) = player_frames(pg)
        readouts.append(frame.evaluate("""() => {
          const svg = document.querySelector('#stage svg');
          const natural = svg.viewBox.baseVal.width * 4 / 3;
          return [document.getElementById('zoom').textContent,
                  Math.round(svg.getBoundingClientRect().width / natural * 100) + ' %'];
        }"""))
        pg.close()
    assert all(shown == real and int(shown.split()[0]) > 0 for shown, real in readouts), readouts


def _violations(pg, selector: str) -> list[str]:
    results = axe_sync.Axe().run(pg, context={"include": [[selector]]},
                                 options={"iframes": False, "preload": False})
    return [f"{v['id']}: {[n['target'] for n in v['nodes']]}"
            for v in results.response["violations"]]


@pytest.mark.parametrize("which", ["sphinx", "mkdocs"])
def test_no_axe_violation_in_vizgrads_elements(which, sphinx_site, mkdocs_site, open_page):
    page = sphinx_site if which == "sphinx" else mkdocs_site[0]
    pg = open_page(page)
    frames = player_frames(pg)
    assert frames
    found = {sel: _violations(pg, sel) for sel in ("figure.vizgrad", "pre.vizgrad-error")}
    assert re.search(r"vizgrad-error", pg.content())  # the boxes were there to audit
    assert found == {"figure.vizgrad": [], "pre.vizgrad-error": []}
