"""The gallery in every language: README.md and README.zh.md, Chinese files in NAME/zh/."""

from __future__ import annotations

import re
from pathlib import Path

from vizgrad import examples
from vizgrad.export import batch as gallery
from vizgrad.export.batch import Options, export, gallery_jobs
from vizgrad.write.svg import draw

from ..words import english_words, labels, markdown_texts


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_gallery_in_english_and_chinese(run, tmp_path):
    run("render", "--format", "svg,json,html", "--out", str(tmp_path), "-q", "-j1")
    en = (tmp_path / "README.md").read_text(encoding="utf-8")
    zh = (tmp_path / "README.zh.md").read_text(encoding="utf-8")
    assert "[中文](README.zh.md)" in en and "[English](README.md)" in zh
    fork = examples.graph("fork")
    drawn = (tmp_path / "fork" / "zh" / "fork.svg").read_text(encoding="utf-8")
    assert drawn == draw(fork, lang="zh", backend="embedded").svg()
    assert "步骤 7 / 7" in (tmp_path / "fork" / "zh" / "steps" / "step-07.svg").read_text("utf-8")
    # Chinese: the pictures and the player; one JSON serves both; steps where the page shows them
    assert sorted(p.name for p in (tmp_path / "sum-square" / "zh").iterdir()) == [
        "sum-square.html", "sum-square.svg"]
    for k in range(8):
        assert f"](fork/zh/steps/step-0{k}.svg)" in zh and f"](fork/steps/step-0{k}.svg)" in en
    assert "[JSON](fork/fork.json)" in zh and "[逐步播放器](fork/zh/fork.html)" in zh
    assert "a 收到 −6.0000 和 3.0000，合计 −3.0000" in zh
    assert "**步骤 7 / 7 · 反向经过 u = a × b**" in zh
    assert "| ∂b/∂a：2.0000 | ∂b/∂a：1.0000 |" in zh and "| 节点数：10 | 节点数：18 |" in zh
    assert "zh/" not in en
    graphs = [examples.graph(n) for n in examples.names()]
    assert english_words(markdown_texts(zh), labels(*graphs)) == []
    for page in (en, zh):  # every link leads to a file or folder of the gallery
        targets = re.findall(r"\]\(([^)#]+)\)", page)
        assert targets and all((tmp_path / t).exists() for t in targets), targets


def test_the_chinese_page_has_no_english_words(run, tmp_path):
    run("render", "--lang", "zh", "--format", "svg,json", "--out", str(tmp_path), "-q", "-j1")
    graphs = [examples.graph(n) for n in examples.names()]
    zh = (tmp_path / "README.zh.md").read_text(encoding="utf-8")
    assert english_words(markdown_texts(zh), labels(*graphs)) == []
    assert not (tmp_path / "README.md").exists() and not (tmp_path / "fork" / "fork.svg").exists()
    en = markdown_texts("**step 7 / 7** ![the fork graph](fork/fork.svg) `vizgrad render` db/da")
    assert english_words(en, set()) == ["step", "the", "graph"]  # it can fail


def test_one_language_again_changes_no_byte(run, tmp_path, monkeypatch):
    run("render", "--format", "svg,json", "--out", str(tmp_path), "-q", "-j1")
    before = _tree(tmp_path)
    assert "README.zh.md" in before and "fork/zh/fork.svg" in before
    assert "0 changed" in run("render", "--lang", "zh", "--format", "svg,json", "--out",
                              str(tmp_path), "-j1").stderr
    monkeypatch.setenv("VIZGRAD_LANG", "zh")  # the full gallery does not follow it
    again = run("render", "--format", "svg,json", "--out", str(tmp_path), "-j2")
    assert "0 changed" in again.stderr
    assert _tree(tmp_path) == before


def test_progress_counts_the_other_languages_pictures_too(tmp_path):
    jobs = gallery_jobs(["en", "zh"], ["fork", "shared-node"])
    opts = Options(formats=("svg", "gif", "html"), frames=True)
    counts: list[int] = []
    export(jobs, tmp_path, opts, workers=1, on_step=counts.append)
    # English as ever; Chinese only the SVG and the player (no GIF, no frames), and
    # shared-node's Chinese SVG has no step SVGs: the bar counts the pictures made
    assert sum(counts) == gallery.units(jobs, opts) == 4 * (8 + 4) + 2 + (8 + 8) + 4
    assert not list(tmp_path.glob("*/zh/*.gif")) and not list(tmp_path.glob("*/zh/frames"))
    assert sorted(p.name for p in (tmp_path / "fork" / "zh").iterdir()) == [
        "fork.html", "fork.svg", "steps"]
