"""The manual: the README is a short front door, and docs/ builds as a strict MkDocs site.

The site is the repository's own ``mkdocs.yml``, built with ``mkdocs build --strict`` (any
warning, broken link, missing anchor or page left out of the nav fails it); its pictures are
``vizgrad`` fences drawn while it builds. Every ``>>>`` example of the pages is a doctest.
"""

from __future__ import annotations

import base64
import os
import re
import shutil
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
SETUP = "pip install -e . && vizgrad render"
TESTS = 'pip install -e ".[test]" && python -m pytest'
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
SVG = "{http://www.w3.org/2000/svg}"

bs4 = pytest.importorskip("bs4", reason="beautifulsoup4 is not installed")


def build(root: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of ``root/mkdocs.yml``, with this checkout's vizgrad."""
    pytest.importorskip("mkdocs", reason="MkDocs is not installed (pip install -e '.[test]')")
    pytest.importorskip("pymdownx", reason="pymdown-extensions is not installed")
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PYTHONPATH": path}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f",
                           str(root / "mkdocs.yml"), "-d", str(out)],
                          capture_output=True, text=True, timeout=300, env=env, cwd=root)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("manual") / "site"
    result = build(ROOT, out)
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    return out


def page(site: Path, name: str):
    return bs4.BeautifulSoup((site / name).read_text(encoding="utf-8"), "html.parser")


def data_svg(img) -> ET.Element:
    prefix = "data:image/svg+xml;base64,"
    assert img["src"].startswith(prefix), img["src"][:40]
    return ET.fromstring(base64.b64decode(img["src"][len(prefix):]))


def texts(svg: ET.Element) -> list[str]:
    return ["".join(t.itertext()).strip() for t in svg.iter(f"{SVG}text")]


def test_every_page_of_docs_is_built(site):
    pages = sorted(p.stem for p in DOCS.glob("*.md"))
    assert len(pages) >= 12
    for name in pages:
        assert page(site, f"{name}.html").find("h1") is not None, name


def test_the_front_page_draws_the_fork_while_the_site_builds(site):
    (figure,) = page(site, "index.html").select("figure.vizgrad")
    words = texts(data_svg(figure.find("img")))
    assert {"a", "b", "u", "v", "q"} <= set(words)
    assert "∂q/∂a = −3   ∂q/∂b = −8" in words  # the chapter's gradients: the final view
    assert "drawn by vizgrad's own Markdown fence" in figure.find("figcaption").get_text()


def test_the_player_page_holds_a_live_player_and_embeds_an_animated_svg(site):
    (frame,) = page(site, "player.html").select("figure.vizgrad iframe.vizgrad-player")
    assert frame["sandbox"] == ["allow-scripts"] and "step 0 / 7" in frame["srcdoc"]
    (figure,) = page(site, "embeds.html").select("figure.vizgrad-animated")
    svg = base64.b64decode(figure.find("img")["src"].split(",", 1)[1]).decode()
    assert "@keyframes" in svg and "<script" not in svg
    # the quoted block stays code: only the live one became a picture
    assert len(page(site, "embeds.html").select("figure.vizgrad")) == 1


def test_the_import_graph_is_linked_and_copied(site):
    (img,) = page(site, "development.html").select("img[src='import-graph.png']")
    assert img["alt"].startswith("The import graph")
    assert (site / "import-graph.png").read_bytes() == (DOCS / "import-graph.png").read_bytes()


def test_the_live_pictures_show_in_a_browser(site, browser):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    pg = ctx.new_page()
    pg.on("pageerror", lambda err: errors.append(str(err)))
    pg.goto((site / "index.html").as_uri())
    img = pg.locator("figure.vizgrad img")
    assert img.evaluate("i => i.complete && i.naturalWidth") > 100  # decoded and drawn
    pg.goto((site / "player.html").as_uri())
    handle = pg.locator("iframe.vizgrad-player")
    handle.scroll_into_view_if_needed()
    player = handle.element_handle().content_frame()
    player.wait_for_selector("#player #counter")
    player.click("button[data-go='last']")
    assert player.locator("#counter").inner_text() == "final view"
    assert player.locator("#player tr[data-node='v0'] td.grad").inner_text() == "−3"
    ctx.close()
    # the theme's search runs in a Worker, which a file:// page may not start; served, it does
    assert [e for e in errors if "search/worker.js" not in e] == []


def test_a_broken_link_an_unknown_anchor_or_a_page_outside_the_nav_fails(tmp_path):
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    shutil.copytree(DOCS, tmp_path / "docs")
    with (tmp_path / "docs" / "cli.md").open("a", encoding="utf-8") as f:
        f.write("\n[gone](nowhere.md) and [lost](engine.md#no-such-heading)\n")
    (tmp_path / "docs" / "stray.md").write_text("# Stray\n", encoding="utf-8")
    result = build(tmp_path, tmp_path / "site")
    assert result.returncode != 0
    for what in ("'nowhere.md'", "'#no-such-heading'", "stray.md"):
        assert what in result.stderr, (what, result.stderr)


def test_the_readme_is_a_front_door():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    blocks = re.findall(r"```bash\n(.*?)\n```", text, re.DOTALL)
    assert blocks[:2] == [SETUP, TESTS]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert any(line == TESTS or line.startswith(TESTS + " || ") for line in ci)  # word for word
    assert "\n>>> q.backward()\n" in text  # the quickstart, a doctest
    (picture,) = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert picture.startswith("gallery/") and (ROOT / picture).is_file()
    pages = {p.name for p in DOCS.glob("*.md")}
    linked = {t.removeprefix("docs/").split("#")[0] for t in LINK.findall(text)
              if t.startswith("docs/")}
    assert pages - {"index.md"} <= linked, pages - linked


def slugs(path: Path) -> set[str]:
    """The anchors MkDocs gives a page's headings (Python-Markdown's toc slugify)."""
    from markdown.extensions.toc import slugify

    text = re.sub(r"^(`{3,}|~{3,}).*?^\1", "", path.read_text(encoding="utf-8"),
                  flags=re.MULTILINE | re.DOTALL)
    return {slugify(re.sub(r"`", "", h), "-")
            for h in re.findall(r"^#+ (.+)$", text, re.MULTILINE)}


def test_every_link_of_the_readme_resolves():
    pytest.importorskip("markdown", reason="Python-Markdown is not installed")
    for target in LINK.findall(README.read_text(encoding="utf-8")):
        if target.startswith(("http://", "https://")):
            continue
        path, _, anchor = target.partition("#")
        assert (ROOT / path).exists(), target
        if anchor:
            assert anchor in slugs(ROOT / path), target


def test_every_page_with_examples_runs_as_a_doctest():
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"][
        "ini_options"]
    assert {"README.md", "docs"} <= set(options["testpaths"])  # what CI's bare pytest runs
    result = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                             "README.md", "docs"], capture_output=True, text=True,
                            timeout=120, cwd=ROOT)
    collected = {line.split("::")[0] for line in result.stdout.splitlines() if "::" in line}
    expected = {str(p.relative_to(ROOT)) for p in [README, *DOCS.glob("*.md")]
                if "\n>>> " in p.read_text(encoding="utf-8")}
    assert len(expected) >= 8 and collected == expected, result.stdout + result.stderr
