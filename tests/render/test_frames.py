"""Animation frames: what each frame shows (artists, not pixels), files, GIF/MP4/WebP."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PIL import Image, features

from vizgrad import Value, from_json, to_json, to_networkx
from vizgrad.exceptions import GraphTooLargeError, OptionError, RenderError
from vizgrad.render import frames as fr
from vizgrad.render import theme as th
from vizgrad.render._scene import Options, Scene
from vizgrad.tracing import replay, states

from ..helpers import build_fork

IDS = {"a": "v0", "b": "v1", "u": "v2", "v": "v3", "q": "v4"}


@pytest.fixture(scope="module")
def G():
    return to_networkx(build_fork(backward=False)[0])


@pytest.fixture(scope="module")
def scene(G):
    return Scene(G, Options.make())


def show(scene, G, k):
    scene.show(replay(G.graph["steps"], k))
    return scene


def label_texts(scene):
    return {eid: lab.get_text() for eid, (_, _, lab, _) in scene.edges.items() if lab.get_visible()}


def table(scene):
    return {cn.get_text(): (cd.get_text(), cg.get_text()) for cn, cd, cg in scene.table}


# -- frame count and files ----------------------------------------------------
def test_one_frame_per_step_plus_inputs(G, tmp_path):
    paths = fr.frames(G, tmp_path)
    assert len(G.graph["steps"]) == 8
    assert [p.name for p in paths] == [f"frame-{k:03d}.png" for k in range(8)]
    sizes = set()
    for p in paths:
        with Image.open(p) as im:
            sizes.add(im.size)
    assert len(sizes) == 1
    assert not list(tmp_path.glob(".*"))  # no temporary files left


def test_svg_frames_are_xml(G, tmp_path):
    paths = fr.frames(G, tmp_path, fmt="svg")
    assert len(paths) == 8
    for p in paths:
        assert ET.parse(p).getroot().tag.endswith("svg")


def test_stale_frames_of_a_longer_run_are_removed(G, tmp_path):
    x = Value(2.0, label="x")
    fr.frames((x * x + x) * x, tmp_path)  # 9 steps
    (tmp_path / "notes.txt").write_text("keep me")
    fr.frames(G, tmp_path)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [f"frame-{k:03d}.png" for k in range(8)] + ["notes.txt"]


def test_chosen_steps_only(G, tmp_path):
    paths = fr.frames(G, tmp_path, steps=[0, 7])
    assert [p.name for p in paths] == ["frame-000.png", "frame-001.png"]


# -- what frame k shows ---------------------------------------------------------
@pytest.mark.parametrize("k", range(8), ids=lambda k: f"step{k}")
def test_frame_shows_exactly_the_state_after_step(G, scene, k):
    show(scene, G, k)
    state = replay(G.graph["steps"], k)
    for n in G.nodes:
        _, data, grad = scene.node_texts(n)
        assert (data == "data pending") == (n not in state.data)
        assert (grad == "grad —") == (n not in state.grad)
        if n in state.data:
            assert data == f"data {state.data[n]:.4f}"
    assert scene.active_node() == G.graph["steps"][k]["node"]
    assert scene.caption.get_text().startswith(f"step {k}/7 · ")


def test_inputs_frame_hides_every_computed_value(G, scene):
    show(scene, G, 0)
    assert [scene.node_texts(IDS[n])[1] for n in "abuvq"] == [
        "data -2.0000", "data 3.0000", "data pending", "data pending", "data pending"]
    assert label_texts(scene) == {}
    assert scene.active_node() is None
    assert table(scene)["u"] == ("pending", "—")


def test_running_totals_of_the_shared_input(G, scene):
    show(scene, G, 6)
    assert scene.node_texts(IDS["a"])[2] == "grad -6.0000"
    assert sorted(label_texts(scene).values()) == [
        "1.0000 × -6.0000 = -6.0000\na: -6.0000", "1.0000 × -6.0000 = -6.0000\nb: -6.0000"]
    show(scene, G, 7)
    assert scene.node_texts(IDS["a"])[2] == "grad -3.0000"
    assert scene.node_texts(IDS["b"])[2] == "grad -8.0000"
    assert sorted(label_texts(scene).values()) == [
        "-2.0000 × 1.0000 = -2.0000\nb: -6.0000 - 2.0000 = -8.0000",
        "3.0000 × 1.0000 = 3.0000\na: -6.0000 + 3.0000 = -3.0000"]
    assert table(scene)["a"] == ("-2.0000", "-3.0000")
    assert table(scene)["b"] == ("3.0000", "-8.0000")
    assert scene.caption.get_text() == "step 7/7 · backward through u = a × b"
    assert scene.chain_text.get_text().splitlines()[0] == (
        "∂q/∂a += 3.0000 × 1.0000 = 3.0000  (-6.0000 → -3.0000)")


def test_colours_follow_the_theme(G, scene):
    t = th.get("light")
    show(scene, G, 7)
    same = np.allclose
    from matplotlib.colors import to_rgba

    assert same(scene.boxes[IDS["u"]].get_edgecolor(), to_rgba(t.active))
    assert same(scene.boxes[IDS["q"]].get_edgecolor(), to_rgba(t.border))
    assert same(scene.boxes[IDS["a"]].get_facecolor(), to_rgba(th.grad_color(-3.0, scene.scale, t)))
    assert scene.scale == 8.0
    hot = {eid for eid, (line, *_) in scene.edges.items()
           if same(line.get_edgecolor(), to_rgba(t.active))}
    assert hot == {"e0", "e1"}  # a → u and b → u, the edges of the active node
    colours = {lab.get_text().split("\n")[1][0]: lab.get_facecolor()
               for _, _, lab, _ in scene.edges.values() if lab.get_visible()}
    assert same(colours["a"], to_rgba(t.positive)) and same(colours["b"], to_rgba(t.negative))
    show(scene, G, 0)
    assert scene.boxes[IDS["q"]].get_linestyle() == "--"
    assert same(scene.texts[IDS["q"]][1].get_facecolor(), to_rgba(t.muted))


def test_dark_theme_background(G, tmp_path):
    p = fr.frames(G, tmp_path, theme="dark", steps=[0])[0]
    with Image.open(p) as im:
        assert im.convert("RGB").getpixel((0, 0)) == (0x1E, 0x1E, 0x1E)


def test_overwrite_bug_label_says_it_overwrote():
    from vizgrad.engine import add_with_overwrite_bug

    a = Value(3.0, label="a")
    G = to_networkx(add_with_overwrite_bug(a, a))
    scene = Scene(G, Options.make())
    show(scene, G, len(G.graph["steps"]) - 1)
    assert sorted(label_texts(scene).values())[-1].endswith("a = 1.0000 (overwrote 1.0000)")


def test_incremental_redraw_matches_a_full_draw(G):
    scene = Scene(G, Options.make())
    for state in states(G.graph["steps"]):
        scene.show(state)
        fast = np.asarray(scene.image(), dtype=int)
        scene.redraw.invalidate()
        full = np.asarray(scene.image(), dtype=int)
        diff = np.abs(fast - full)
        assert diff.max() <= 3 and (diff.sum(axis=2) > 0).mean() < 1e-4, state.step


def test_large_graph_keeps_the_table_and_drops_box_text():
    xs = [Value(float(i), label=f"x{i}") for i in range(12)]
    total = xs[0]
    for x in xs[1:]:
        total = total + x
    G = to_networkx(total)
    scene = Scene(G, Options.make(size=(5, 4), table_rows=6))
    assert not scene.show_text
    show(scene, G, len(G.graph["steps"]) - 1)
    assert len(scene.table) == 6  # 5 rows and "rows i–j of n"
    assert re.fullmatch(r"rows \d+–\d+ of 23", scene.table[-1][0].get_text())


# -- determinism and sources ---------------------------------------------------------
def test_png_svg_gif_byte_identical_twice(G, tmp_path):
    for fmt in ("png", "svg"):
        one = [p.read_bytes() for p in fr.frames(G, tmp_path / f"1{fmt}", fmt=fmt)]
        two = [p.read_bytes() for p in fr.frames(G, tmp_path / f"2{fmt}", fmt=fmt)]
        assert one == two
    assert (fr.animate(G, tmp_path / "1.gif").read_bytes()
            == fr.animate(G, tmp_path / "2.gif").read_bytes())


def test_graph_from_json_renders_like_the_live_one(G, tmp_path):
    one = fr.frames(G, tmp_path / "live", steps=[7])[0].read_bytes()
    two = fr.frames(from_json(to_json(G)), tmp_path / "json", steps=[7])[0].read_bytes()
    assert one == two


# -- animations -----------------------------------------------------------------
def test_gif_frames_durations_loop_and_one_palette(G, tmp_path):
    path = fr.animate(G, tmp_path / "fork.gif", duration=0.4, hold=(1.5, 3))
    with Image.open(path) as im:
        assert im.n_frames == 8
        assert im.info["loop"] == 0
        durations = []
        for i in range(im.n_frames):
            im.seek(i)
            durations.append(im.info["duration"])
    assert durations == [1500] + [400] * 6 + [3000]
    assert gif_local_palettes(path.read_bytes()) == [False] * 8  # all use the global one


def gif_local_palettes(data: bytes) -> list[bool]:
    """For each image in a GIF: does it carry its own colour table?"""
    flags = data[10]
    pos = 13 + (3 * 2 ** ((flags & 7) + 1) if flags & 0x80 else 0)
    local = []
    while data[pos] != 0x3B:  # trailer
        if data[pos] == 0x21:  # extension: label, then sub-blocks
            pos += 2
        else:  # image descriptor, optional local table, LZW minimum code size
            packed = data[pos + 9]
            local.append(bool(packed & 0x80))
            pos += 10 + (3 * 2 ** ((packed & 7) + 1) if packed & 0x80 else 0) + 1
        while data[pos]:
            pos += data[pos] + 1
        pos += 1
    return local


def test_gif_without_loop(G, tmp_path):
    with Image.open(fr.animate(G, tmp_path / "once.gif", loop=False, steps=[0, 1])) as im:
        assert im.n_frames == 2 and "loop" not in im.info


@pytest.mark.skipif(not features.check("webp"), reason="Pillow built without WebP")
def test_webp_frames_and_durations(G, tmp_path):
    with Image.open(fr.animate(G, tmp_path / "fork.webp", duration=0.5, hold=1)) as im:
        assert im.n_frames == 8
        im.seek(3)
        im.load()
        assert im.info["duration"] == 500


def test_mp4_is_written_when_ffmpeg_is_available(G, tmp_path):
    pytest.importorskip("imageio_ffmpeg", reason="needs imageio-ffmpeg: pip install imageio-ffmpeg")
    exe = fr.find_ffmpeg()
    path = fr.animate(G, tmp_path / "fork.mp4", duration=0.5, hold=1)
    data = path.read_bytes()
    assert data[4:8] == b"ftyp"
    probe = subprocess.run([exe, "-hide_banner", "-i", str(path)], capture_output=True, text=True,
                           check=False)  # ffmpeg exits 1 without an output file
    seconds = re.search(r"Duration: 00:00:(\d+\.\d+)", probe.stderr)
    assert seconds and abs(float(seconds.group(1)) - 5.0) < 0.1  # 1 + 6 × 0.5 + 1
    assert not list(tmp_path.glob(".*"))


def test_missing_ffmpeg_names_both_ways_to_get_it(G, tmp_path, monkeypatch):
    monkeypatch.setattr(fr.shutil, "which", lambda name: None)
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)  # import fails
    with pytest.raises(RenderError) as err:
        fr.animate(G, tmp_path / "fork.mp4")
    assert "PATH" in str(err.value) and "pip install imageio-ffmpeg" in str(err.value)
    assert not list(tmp_path.iterdir())


def test_imageio_ffmpeg_without_a_binary_counts_as_missing(monkeypatch):
    imageio_ffmpeg = pytest.importorskip("imageio_ffmpeg")
    monkeypatch.setattr(fr.shutil, "which", lambda name: None)

    def no_binary():
        raise RuntimeError("no ffmpeg binary for this platform")

    monkeypatch.setattr(imageio_ffmpeg, "get_ffmpeg_exe", no_binary)
    assert fr.find_ffmpeg() is None


def test_failed_write_leaves_the_old_file(G, tmp_path, monkeypatch):
    path = tmp_path / "fork.gif"
    path.write_bytes(b"old")

    def broken(*args):
        raise OSError("disk full")

    monkeypatch.setattr(fr, "_gif", broken)
    with pytest.raises(OSError):
        fr.animate(G, path)
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["fork.gif"]


# -- errors ---------------------------------------------------------------------
def test_too_many_nodes(G, tmp_path):
    with pytest.raises(GraphTooLargeError, match=r"5 values, more than max_nodes=3.*max_nodes=5"):
        fr.animate(G, tmp_path / "x.gif", max_nodes=3)


@pytest.mark.parametrize("call, error, message", [
    (lambda G, d: fr.frames(G, d, fmt="jpg"), RenderError, "must be one of"),
    (lambda G, d: fr.animate(G, d / "x.avi"), RenderError, r"\.gif"),
    (lambda G, d: fr.animate(G, d / "missing" / "x.gif"), RenderError, "does not exist"),
    (lambda G, d: fr.frames(G, d, colour="red"), OptionError, "unknown option 'colour'"),
    (lambda G, d: fr.frames(G, d, theme="sepia"), OptionError, "unknown theme"),
    (lambda G, d: fr.frames(G, d, dpi=0), OptionError, "dpi"),
    (lambda G, d: fr.frames(G, d, size=(1, 1)), OptionError, "no room"),
    (lambda G, d: fr.frames(G, d, steps=[8]), OptionError, "0..7"),
    (lambda G, d: fr.animate(G, d / "x.gif", duration=0), OptionError, "duration"),
    (lambda G, d: fr.animate(G, d / "x.gif", hold="long"), OptionError, "hold"),
    (lambda G, d: fr.animate(G, d / "x.gif", loop="yes"), OptionError, "loop"),
], ids=["fmt", "suffix", "folder", "unknown", "theme", "dpi", "size", "steps", "duration",
        "hold", "loop"])
def test_bad_input_gives_a_clear_error(G, tmp_path, call, error, message):
    with pytest.raises(error, match=message):
        call(G, tmp_path)
    assert not list(tmp_path.glob("*.gif"))


def test_frames_into_a_file_path_is_an_error(G, tmp_path):
    (tmp_path / "f").write_text("")
    with pytest.raises(RenderError, match="not a folder"):
        fr.frames(G, tmp_path / "f")


def test_without_table_and_top_to_bottom(G):
    scene = Scene(G, Options.make(table_rows=0, rankdir="TB"))
    assert scene.table == [] and scene.table_w == 0
    ys = {n: scene.geo.nodes[n][1] for n in G.nodes}
    assert ys[IDS["a"]] > ys[IDS["u"]] > ys[IDS["q"]]  # inputs on top
    show(scene, G, 7)
    assert scene.node_texts(IDS["a"])[2] == "grad -3.0000"


def test_decimals_option(G):
    scene = show(Scene(G, Options.make(decimals=1)), G, 7)
    assert scene.node_texts(IDS["b"]) == ("b", "data 3.0", "grad -8.0")


def test_svg_then_png_frames_from_one_scene_stay_in_sync(G):
    scene = Scene(G, Options.make())
    show(scene, G, 3).svg()
    show(scene, G, 7)
    fast = np.asarray(scene.image(), dtype=int)
    scene.redraw.invalidate()
    assert np.abs(fast - np.asarray(scene.image(), dtype=int)).max() <= 3


def test_a_lone_value_has_two_frames(tmp_path):
    paths = fr.frames(Value(2.0, label="x"), tmp_path)
    assert [p.name for p in paths] == ["frame-000.png", "frame-001.png"]


def test_micrograd_values_animate(tmp_path):
    engine = pytest.importorskip("micrograd.engine", reason="pip install micrograd")
    a, b = engine.Value(-2.0), engine.Value(3.0)
    q = (a * b) * (a + b)
    q.backward()
    with Image.open(fr.animate(q, tmp_path / "mg.gif")) as im:
        assert im.n_frames == 8


def test_glyph_paths_are_not_snapped(scene):
    # snapping rounds thin straight glyphs such as "-" and "—" away at small sizes
    from vizgrad.render._glyphs import PathText

    texts = [a for a in scene.redraw.artists if isinstance(a, PathText)]
    assert len(texts) > 20 and all(a.get_snap() is False for a in texts)
