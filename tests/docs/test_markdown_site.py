"""The Markdown extension: plain Python-Markdown, and real MkDocs sites (with superfences too)."""

from __future__ import annotations

import base64
import logging
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from vizgrad import examples, parse, player_html
from vizgrad.embed.blocks import COLUMN, column_preset
from vizgrad.exceptions import OptionError
from vizgrad.core.expr import name_output
from vizgrad.write.svg import draw

from .conftest import current_step, grad, player_frames

markdown = pytest.importorskip("markdown", reason="Python-Markdown is not installed")
bs4 = pytest.importorskip("bs4", reason="beautifulsoup4 is not installed")

PAGE = """\
# Graphs

```vizgrad
(a*b)*(a+b)
values: a=-2, b=3
step: final
caption: The fork after backward().
```

Two players on one page:

~~~vizgrad
:example: fork
:player:
~~~

```vizgrad
example: shared-node
player: yes
```

```python
print("an ordinary code block")
```
"""

NESTED = """\
- In a list:

    ```vizgrad
    a*a
    values: a=3
    ```
"""


def _svg(img) -> ET.Element:
    prefix = "data:image/svg+xml;base64,"
    assert img["src"].startswith(prefix)
    return ET.fromstring(base64.b64decode(img["src"][len(prefix):]))


def test_plain_markdown_turns_blocks_into_figures():
    out = markdown.markdown(PAGE, extensions=["vizgrad.markdown", "fenced_code"])
    soup = bs4.BeautifulSoup(out, "html.parser")
    picture, fork, shared = soup.select("figure.vizgrad")
    img = picture.find("img")
    assert _svg(img).tag == "{http://www.w3.org/2000/svg}svg"
    assert img["alt"] == "(a*b)*(a+b) at a=-2, b=3, the final view"
    assert picture.find("figcaption").get_text() == "The fork after backward()."
    # drawn for a docs column 640 px wide
    assert fork.find("iframe")["srcdoc"] == player_html(examples.graph("fork"),
                                                        preset=column_preset(640))
    assert "shared-node" in shared.find("iframe")["title"]
    assert soup.find("code", class_="language-python") is not None


def test_a_block_quoted_inside_a_longer_fence_stays_code():
    """A page that shows how to write a block (as docs/embeds.md does) quotes it in a longer
    fence: that one is code, the live block beside it a picture."""
    quoted = "````markdown\n```vizgrad\na*a\nvalues: a=3\n```\n````\n"
    live = "\n```vizgrad\nexample: fork\n```\n"
    out = markdown.markdown(quoted + live, extensions=["vizgrad.markdown", "fenced_code"])
    soup = bs4.BeautifulSoup(out, "html.parser")
    assert len(soup.select("figure.vizgrad")) == 1
    (code,) = soup.find_all("code")
    assert "```vizgrad\na*a\nvalues: a=3\n```" in code.get_text()


def test_a_bad_block_shows_an_error_box_and_logs_a_warning(caplog):
    text = "intro\n\n```vizgrad\n(a*b\nvalues: a=1, b=2\n```\n\n```vizgrad\na\ncolour: red\n```\n"
    with caplog.at_level(logging.WARNING, logger="mkdocs.extensions.vizgrad"):
        out = markdown.markdown(text, extensions=["vizgrad.markdown"])
    boxes = bs4.BeautifulSoup(out, "html.parser").select("pre.vizgrad-error")
    assert [b.get_text().split(":")[0] for b in boxes] == ["vizgrad block at line 3",
                                                           "vizgrad block at line 8"]
    assert "syntax error: '(' was never closed" in boxes[0].get_text()
    assert "unknown option 'colour'" in boxes[1].get_text()
    assert len(caplog.records) == 2


def test_an_animated_block_is_the_animated_svg():
    text = "```vizgrad\nexample: fork\nanimated: true\n```\n\n```vizgrad\n(a*b)*(a+b)\n" \
           "values: a=-2, b=3\n:animated:\ntheme: dark\n```\n"
    out = markdown.markdown(text, extensions=["vizgrad.markdown"])
    example, expression = bs4.BeautifulSoup(out, "html.parser").select("figure.vizgrad-animated")
    assert _svg(example.find("img")) is not None
    decoded = base64.b64decode(example.find("img")["src"].split(",", 1)[1]).decode()
    assert decoded == draw(examples.graph("fork"), preset=column_preset(COLUMN)).animated_svg()
    assert example.find("img")["alt"] == "example fork, animated: steps 0 to 7, then the final view"
    q = name_output(parse("(a*b)*(a+b)", a=-2, b=3))  # f, as the CLI and the lab
    q.backward()
    decoded = base64.b64decode(expression.find("img")["src"].split(",", 1)[1]).decode()
    assert decoded == draw(q, theme="dark", preset=column_preset(COLUMN)).animated_svg()
    assert "@keyframes" in decoded


def test_superfences_renders_the_block_inside_a_list():
    pytest.importorskip("pymdownx", reason="pymdown-extensions is not installed")
    from vizgrad.markdown import fence_format

    fences = [{"name": "vizgrad", "class": "vizgrad", "format": fence_format}]
    out = markdown.markdown(NESTED, extensions=["pymdownx.superfences"],
                            extension_configs={"pymdownx.superfences": {"custom_fences": fences}})
    (fig,) = bs4.BeautifulSoup(out, "html.parser").select("li figure.vizgrad")
    q = name_output(parse("a*a", a=3))
    q.backward()
    assert base64.b64decode(fig.find("img")["src"].split(",", 1)[1]).decode() == draw(q).svg()


def mkdocs_build(root: Path, config: str, page: str) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("mkdocs", reason="MkDocs is not installed (pip install vizgrad[mkdocs])")
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "index.md").write_text(page)
    (root / "mkdocs.yml").write_text(config)
    (root / "theme").mkdir()
    (root / "theme" / "main.html").write_text(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{{ page.title }}'
        "</title></head>\n<body>{{ page.content }}</body></html>\n")
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f",
                           str(root / "mkdocs.yml"), "-d", str(root / "site")],
                          capture_output=True, text=True, timeout=300)


# The browser test's site has a bare theme: the default theme loads highlight.js from a
# CDN and its search needs a web server, which would hide what the players do.
BARE = ("site_name: vizgrad test\ntheme:\n  name: null\n  custom_dir: theme\nplugins: []\n")
PLAIN = BARE + "markdown_extensions:\n  - fenced_code\n  - vizgrad.markdown\n"
BASE = "site_name: vizgrad test\n"
SUPERFENCES = BASE + """\
markdown_extensions:
  - pymdownx.superfences:
      custom_fences:
        - name: vizgrad
          class: vizgrad
          format: !!python/name:vizgrad.markdown.fence_format
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("mkdocs")
    result = mkdocs_build(root, PLAIN, PAGE)
    assert result.returncode == 0, result.stderr
    return root / "site" / "index.html"


def test_mkdocs_builds_the_pictures_and_players(site):
    soup = bs4.BeautifulSoup(site.read_text(encoding="utf-8"), "html.parser")
    picture, fork, shared = soup.select("figure.vizgrad")
    assert _svg(picture.find("img")).find("{http://www.w3.org/2000/svg}title") is not None
    assert [f.find("iframe")["sandbox"] for f in (fork, shared)] == [["allow-scripts"]] * 2


def test_two_players_on_one_mkdocs_page_step_on_their_own(site, open_page):
    pg = open_page(site)
    fork, shared = player_frames(pg)
    assert current_step(fork) == "step 0 / 7" and current_step(shared) == "step 0 / 3"
    fork.click("button[data-go='last']")
    shared.click("button[data-go='next']")
    assert current_step(fork) == "final view" and current_step(shared) == "step 1 / 3"
    assert (grad(fork, "v0"), grad(fork, "v1")) == ("−3", "−8")
    shared.locator("#slider").focus()
    shared.locator("body").press("Home")
    assert current_step(shared) == "step 0 / 3" and current_step(fork) == "final view"


def test_mkdocs_with_superfences(tmp_path):
    pytest.importorskip("pymdownx", reason="pymdown-extensions is not installed")
    result = mkdocs_build(tmp_path, SUPERFENCES, PAGE + "\n" + NESTED)
    assert result.returncode == 0, result.stderr
    soup = bs4.BeautifulSoup((tmp_path / "site" / "index.html").read_text(), "html.parser")
    assert len(soup.select("figure.vizgrad img")) == 2
    assert len(soup.select("figure.vizgrad iframe.vizgrad-player")) == 2
    assert len(soup.select("li figure.vizgrad")) == 1


def test_mkdocs_strict_fails_on_a_bad_block(tmp_path):
    result = mkdocs_build(tmp_path, PLAIN, "```vizgrad\n(a*b\nvalues: a=1, b=2\n```\n")
    assert result.returncode != 0
    assert ("vizgrad block in index.md at line 1: column 1: syntax error: '(' was never closed"
            in result.stderr)
    assert "Traceback" not in result.stderr


def test_a_player_frame_fills_a_box_the_reader_can_drag_taller(site, open_page):
    pg = open_page(site)
    box = pg.locator("div.vizgrad-frame").first
    assert box.evaluate("e => getComputedStyle(e).resize") == "vertical"
    before = box.evaluate("e => e.querySelector('iframe').getBoundingClientRect().height")
    box.evaluate("e => { e.style.height = (e.clientHeight + 200) + 'px'; }")
    after = box.evaluate("e => e.querySelector('iframe').getBoundingClientRect().height")
    assert after == pytest.approx(before + 200, abs=1)


def test_the_column_width_decides_the_drawing_direction():
    text = "```vizgrad\nexample: fork\nstep: final\n```\n"

    def width(**config: object) -> float:
        out = markdown.markdown(text, extensions=["vizgrad.markdown"],
                                extension_configs={"vizgrad.markdown": config})
        img = bs4.BeautifulSoup(out, "html.parser").find("img")
        return float(_svg(img).get("width").removesuffix("pt"))

    assert width() < 640 * 0.75 * 1.25 < width(column_width=1400)  # TB in 640 px, LR in 1400
    with pytest.raises(OptionError, match="column_width must be a number of CSS px"):
        width(column_width="wide")
    out = markdown.markdown(text, extensions=["vizgrad.markdown"],
                            extension_configs={"vizgrad.markdown": {"column_width": 50}})
    assert "column width: 50.0 px is too narrow; give 200 px or more" in out
