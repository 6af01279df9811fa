"""Drawing.save: the suffix names the format; files appear whole or not at all."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from vizgrad import Value
from vizgrad.exceptions import RenderError
from vizgrad.scene.layout import run as layout
from vizgrad.write.svg import draw


@pytest.fixture
def drawing(fork):
    q, _, _ = fork
    q.backward()
    return draw(q, 7)


def test_save_svg(drawing, tmp_path):
    out = drawing.save(tmp_path / "fork.svg")
    assert out == tmp_path / "fork.svg"
    assert out.read_text(encoding="utf-8") == drawing.svg()
    ET.fromstring(out.read_bytes())


@pytest.mark.parametrize("name", ["fork.dot", "fork.gv", "FORK.DOT"])
def test_save_dot_source(drawing, tmp_path, name):
    assert drawing.save(tmp_path / name).read_text(encoding="utf-8") == drawing.dot()


def test_save_json_is_the_graph(drawing, tmp_path):
    from vizgrad import from_json, to_json

    text = drawing.save(tmp_path / "fork.json").read_text(encoding="utf-8")
    assert {n["id"] for n in json.loads(text)["nodes"]} == {"v0", "v1", "v2", "v3", "v4"}
    assert to_json(from_json(text)) == to_json(drawing.graph)


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".pdf", b"%PDF")])
def test_save_png_pdf_drawn_by_matplotlib_byte_identical(drawing, tmp_path, monkeypatch, suffix,
                                                         magic):
    monkeypatch.setattr(layout, "available_backends", lambda: ["embedded"])  # no system dot
    out = drawing.save(tmp_path / f"fork{suffix}")
    assert out.read_bytes().startswith(magic)
    assert drawing.save(tmp_path / f"again{suffix}").read_bytes() == out.read_bytes()
    assert drawing.at(0).save(tmp_path / f"step0{suffix}").read_bytes() != out.read_bytes()


def test_pdf_page_is_the_scene_size_in_points(drawing, tmp_path):
    import re

    data = drawing.save(tmp_path / "fork.pdf").read_bytes()
    box = re.search(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    assert box is not None
    assert abs(float(box.group(1)) - drawing.scene.width) < 0.01
    assert abs(float(box.group(2)) - drawing.scene.height) < 0.01


@pytest.mark.parametrize("name", ["fork.jpg", "fork", "fork.svg.bak"])
def test_unknown_suffix(drawing, tmp_path, name):
    with pytest.raises(RenderError, match="unknown format"):
        drawing.save(tmp_path / name)
    assert list(tmp_path.iterdir()) == []


def test_missing_folder(drawing, tmp_path):
    with pytest.raises(RenderError, match="does not exist"):
        drawing.save(tmp_path / "nope" / "fork.svg")


def test_failed_layout_leaves_no_file(tmp_path, monkeypatch):
    from vizgrad.exceptions import LayoutTimeoutError

    def boom(*args, **kwargs):
        raise LayoutTimeoutError("stopped")

    from vizgrad.scene import make as scene

    monkeypatch.setattr(scene, "run_layout", boom)
    (tmp_path / "x.svg").write_text("old", encoding="utf-8")
    with pytest.raises(LayoutTimeoutError):
        draw(Value(1.0, label="x") * 2).save(tmp_path / "x.svg")
    assert [p.name for p in tmp_path.iterdir()] == ["x.svg"]
    assert (tmp_path / "x.svg").read_text(encoding="utf-8") == "old"


def test_overwrite_replaces_whole_file(drawing, tmp_path):
    target = tmp_path / "fork.svg"
    target.write_text("x" * 10_000_000, encoding="utf-8")
    drawing.save(target)
    assert target.read_text(encoding="utf-8") == drawing.svg()
    assert [p.name for p in tmp_path.iterdir()] == ["fork.svg"]


def test_png_dpi_scales_the_bitmap(drawing, tmp_path):
    def size(path):
        data = path.read_bytes()
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")

    w, h = drawing.scene.size
    normal = size(drawing.save(tmp_path / "a.png"))
    assert normal == (round(w * 2), round(h * 2))  # 144 dpi: two pixels per point
    sharp = size(drawing.save(tmp_path / "b.png", dpi=72))
    assert sharp == (round(w), round(h))


@pytest.mark.parametrize("name, dpi, match", [("a.png", 0, "dpi must be"),
                                              ("a.png", "300", "dpi must be"),
                                              ("a.svg", 200, "png only")])
def test_bad_dpi(drawing, tmp_path, name, dpi, match):
    from vizgrad.exceptions import OptionError

    with pytest.raises(OptionError, match=match):
        drawing.save(tmp_path / name, dpi=dpi)
    assert list(tmp_path.iterdir()) == []
