"""Drawing.save: the suffix names the format; files appear whole or not at all."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from vizgrad import Value
from vizgrad.exceptions import RenderError
from vizgrad.render import layout, svg
from vizgrad.render.svg import draw

HAS_DOT = "system" in layout.available_backends()


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


def test_save_json_is_the_graphviz_layout(drawing, tmp_path):
    data = json.loads(drawing.save(tmp_path / "fork.json").read_text(encoding="utf-8"))
    names = {o["name"] for o in data["objects"]}
    assert {"v0", "v1", "v2", "v2-op"} <= names
    assert all("pos" in o for o in data["objects"] if o["name"] == "v0")


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".pdf", b"%PDF")])
def test_save_png_pdf_with_system_dot(drawing, tmp_path, suffix, magic):
    if not HAS_DOT:
        pytest.skip("saving png/pdf needs the system Graphviz `dot` (apt install graphviz)")
    out = drawing.save(tmp_path / f"fork{suffix}")
    assert out.read_bytes().startswith(magic)
    assert drawing.save(tmp_path / f"again{suffix}").read_bytes() == out.read_bytes()


@pytest.mark.parametrize("suffix", [".png", ".pdf"])
def test_png_pdf_without_system_dot_is_a_clear_error(drawing, tmp_path, monkeypatch, suffix):
    monkeypatch.setattr(svg, "system_available", lambda: False)
    with pytest.raises(RenderError, match=r"needs the Graphviz `dot` program.*save as \.svg"):
        drawing.save(tmp_path / f"fork{suffix}")
    assert list(tmp_path.iterdir()) == []


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

    monkeypatch.setattr(svg, "run_layout", boom)
    d = draw(Value(1.0, label="x") * 2)
    (tmp_path / "x.svg").write_text("old", encoding="utf-8")
    with pytest.raises(LayoutTimeoutError):
        d.save(tmp_path / "x.svg")
    assert [p.name for p in tmp_path.iterdir()] == ["x.svg"]
    assert (tmp_path / "x.svg").read_text(encoding="utf-8") == "old"


def test_overwrite_replaces_whole_file(drawing, tmp_path):
    target = tmp_path / "fork.svg"
    target.write_text("x" * 10_000_000, encoding="utf-8")
    drawing.save(target)
    assert target.read_text(encoding="utf-8") == drawing.svg()
    assert [p.name for p in tmp_path.iterdir()] == ["fork.svg"]


def test_png_dpi_scales_the_bitmap(drawing, tmp_path):
    if not HAS_DOT:
        pytest.skip("saving png needs the system Graphviz `dot` (apt install graphviz)")

    def width(path):
        return int.from_bytes(path.read_bytes()[16:20], "big")

    normal = width(drawing.save(tmp_path / "a.png"))
    sharp = width(drawing.save(tmp_path / "b.png", dpi=192))
    assert 1.9 < sharp / normal < 2.1


@pytest.mark.parametrize("name, dpi, match", [("a.png", 0, "dpi must be"),
                                              ("a.png", "300", "dpi must be"),
                                              ("a.svg", 200, "png only")])
def test_bad_dpi(drawing, tmp_path, name, dpi, match):
    from vizgrad.exceptions import OptionError

    with pytest.raises(OptionError, match=match):
        drawing.save(tmp_path / name, dpi=dpi)
    assert list(tmp_path.iterdir()) == []
