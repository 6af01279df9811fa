"""A real Sphinx project built with the html builder: pictures, players, errors, rebuilds."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from vizgrad.embed.blocks import COLUMN, column_preset

from .conftest import current_step, grad, player_frames

pytest.importorskip("sphinx", reason="Sphinx is not installed (pip install vizgrad[sphinx])")
bs4 = pytest.importorskip("bs4", reason="beautifulsoup4 is not installed")

INDEX = """\
Graphs
======

.. toctree::

   chapter/fork

The fork graph:

.. vizgrad:: (a*b)*(a+b)
   :values: a=-2, b=3
   :step: final
   :caption: q = (a*b)*(a+b) after backward().

.. vizgrad::
   :example: fork
   :player:
"""

CHAPTER = """\
Fork
====

.. vizgrad::
   :example: fork
   :step: 3
"""


def build(src: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-v", *extra,
                           str(src), str(out)], capture_output=True, text=True, timeout=300)


def write_project(src: Path, index: str = INDEX, chapter: str = CHAPTER) -> None:
    (src / "chapter").mkdir(parents=True, exist_ok=True)
    (src / "conf.py").write_text('project = "vizgrad test"\nextensions = ["vizgrad.sphinx"]\n')
    (src / "index.rst").write_text(index)
    (src / "chapter" / "fork.rst").write_text(chapter)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("sphinx")
    write_project(root / "src")
    result = build(root / "src", root / "out")
    assert result.returncode == 0, result.stderr
    return root, result


def figures(page: Path) -> list:
    soup = bs4.BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    return soup.select("figure.vizgrad")


def test_the_pages_show_the_svg_from_the_build_output(site):
    root, result = site
    assert "WARNING" not in result.stderr and "ERROR" not in result.stderr, result.stderr
    svg_figure, player_figure = figures(root / "out" / "index.html")
    img = svg_figure.find("img")
    assert img["src"].startswith("_images/vizgrad-") and img["src"].endswith(".svg")
    assert img["alt"] == "(a*b)*(a+b) at a=-2, b=3, the final view"
    assert svg_figure.find("figcaption").get_text() == "q = (a*b)*(a+b) after backward()."
    svg = ET.parse(root / "out" / img["src"]).getroot()
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    frame = player_figure.find("iframe")
    assert frame["sandbox"] == ["allow-scripts"] and frame["src"].endswith(".html")
    assert (root / "out" / frame["src"]).read_text().startswith("<!DOCTYPE html>")


def test_a_page_in_a_subfolder_points_up_to_the_images(site):
    root, _ = site
    (fig,) = figures(root / "out" / "chapter" / "fork.html")
    src = fig.find("img")["src"]
    assert src.startswith("../_images/vizgrad-")
    assert (root / "out" / "chapter" / src).resolve().is_file()
    assert fig.find("img")["alt"] == "example fork, step 3 of 7"


def test_the_player_works_in_chromium(site, open_page):
    root, _ = site
    pg = open_page(root / "out" / "index.html")
    (frame,) = player_frames(pg)
    assert current_step(frame) == "step 0 / 7"
    for _ in range(7):
        frame.click("button[data-go='next']")
    assert current_step(frame) == "step 7 / 7"
    assert (grad(frame, "v0"), grad(frame, "v1")) == ("−3", "−8")


def _written(result: subprocess.CompletedProcess[str]) -> list[str]:
    """The lines of a verbose build that say a picture was rendered."""
    log = result.stdout + result.stderr
    return [line for line in log.splitlines() if "vizgrad: wrote" in line]


def test_a_rebuild_renders_only_what_changed(tmp_path):
    src, out = tmp_path / "src", tmp_path / "out"
    write_project(src)
    assert len(_written(build(src, out))) == 3
    again = build(src, out)
    assert again.returncode == 0 and _written(again) == []
    write_project(src, chapter=CHAPTER.replace(":step: 3", ":step: 4"))
    changed = _written(build(src, out))
    assert len(changed) == 1 and "chapter/fork.rst:4: vizgrad: wrote vizgrad-" in changed[0]
    assert len(list((out / "_images").glob("vizgrad-*.svg"))) == 3


def test_a_bad_directive_reports_its_file_and_line_without_a_traceback(tmp_path):
    bad = (INDEX + "\n.. vizgrad:: (a*b)*(a+\n   :values: a=-2, b=3\n\n"
           ".. vizgrad:: a*b\n   :values: a=1, b=two\n\n"
           ".. vizgrad:: a*b\n   :values: a=1, b=2\n   :colour: red\n")
    write_project(tmp_path / "src", index=bad)
    result = build(tmp_path / "src", tmp_path / "out")
    log = result.stdout + result.stderr
    index = tmp_path / "src" / "index.rst"
    lines = index.read_text().splitlines()
    first = lines.index(".. vizgrad:: (a*b)*(a+") + 1
    second = lines.index(".. vizgrad:: a*b") + 1
    assert f"{index}:{first}: ERROR: vizgrad: column 7: syntax error: '(' was never closed" in log
    assert f"{index}:{second}: ERROR: vizgrad: values: 'b=two' is not a number" in log
    unknown = "ERROR: vizgrad: unknown option 'colour'; the options are: values, example"
    assert f"{index}:{second + 3}: {unknown}" in log
    assert "Traceback" not in log and "Exception occurred" not in log
    # the page shows each mistake where its picture would be, with its file and line
    soup = bs4.BeautifulSoup((tmp_path / "out" / "index.html").read_text(), "html.parser")
    boxes = [b.get_text() for b in soup.select("pre.vizgrad-error[role=alert]")]
    assert [b.split(": ")[1] for b in boxes] == [f"index.rst:{n}" for n in
                                                 (first, second, second + 3)]
    assert "'(' was never closed" in boxes[0] and "unknown option 'colour'" in boxes[2]
    assert len(figures(tmp_path / "out" / "index.html")) == 2  # the good ones are drawn
    strict = build(tmp_path / "src", tmp_path / "strict", "-W")
    assert strict.returncode != 0
    strict_page = (tmp_path / "strict" / "index.html")
    assert not strict_page.exists() or "vizgrad-error" not in strict_page.read_text()


def test_the_animated_option_writes_the_animated_svg(tmp_path):
    from vizgrad import examples
    from vizgrad.write.svg import draw

    write_project(tmp_path / "src", index="Graphs\n======\n\n.. toctree::\n\n   chapter/fork\n",
                  chapter="Fork\n====\n\n.. vizgrad::\n   :example: fork\n   :animated:\n")
    result = build(tmp_path / "src", tmp_path / "out")
    assert result.returncode == 0 and "WARNING" not in result.stderr, result.stderr
    (fig,) = figures(tmp_path / "out" / "chapter" / "fork.html")
    assert "vizgrad-animated" in fig["class"]
    img = fig.find("img")
    assert img["alt"] == "example fork, animated: steps 0 to 7, then the final view"
    svg = (tmp_path / "out" / "chapter" / img["src"]).read_text(encoding="utf-8")
    assert svg == draw(examples.graph("fork"), preset=column_preset(COLUMN)).animated_svg()


def test_other_builders_show_the_text_alternative(tmp_path):
    write_project(tmp_path / "src")
    result = subprocess.run([sys.executable, "-m", "sphinx", "-b", "text", str(tmp_path / "src"),
                             str(tmp_path / "out")], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "out" / "index.txt").read_text()
    assert "*(a*b)*(a+b) at a=-2, b=3, the final view*" in text
    assert "*example fork, step 0 of 7*" in text
