"""Frames drawn by matplotlib from the scene: artists match the looks, files, GIF/MP4/WebP."""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from matplotlib.colors import to_rgba
from PIL import Image, features

from vizgrad import Value, draw, examples, from_json, to_json, to_networkx
from vizgrad.exceptions import GraphTooLargeError, OptionError, RenderError
from vizgrad.write.raster import encode as _encode
from vizgrad.write.raster import fonts as _fonts
from vizgrad.write.raster import frames as fr
from vizgrad.write.raster.picture import Picture, pixel_size, rc
from vizgrad.scene import scene_of

from ..helpers import build_fork


@pytest.fixture(scope="module")
def G():
    return to_networkx(build_fork(backward=False)[0])


@pytest.fixture(scope="module")
def scene(G):
    return scene_of(G)


@pytest.fixture
def pic(scene):
    return Picture(scene)


def shown(pic, scene, k):
    with rc():
        pic.show(scene.look(k))
        image = np.asarray(pic.image(), dtype=int)
    return image


def same(a, b):
    return np.allclose(to_rgba(a), to_rgba(b))


def check_artists(pic, look):
    """Every artist shows what the look says (texts, colours, widths, visibility)."""
    bg = pic.scene.theme.background
    for sid, lk in look.items():
        a = pic.artists[sid]
        hidden = bool(lk.get("hidden"))
        if sid in pic.texts:
            assert a.get_text() == lk.get("text", ""), sid
            assert a.get_visible() == (bool(lk.get("text")) and not hidden), sid
            assert same(a.get_color(), lk["fill"]), sid
            assert a.get_fontweight() == ("bold" if lk.get("bold") else "normal"), sid
            continue
        assert a.get_visible() == (not hidden), sid
        if lk.get("stroke") and lk["stroke"] != "none":
            assert same(a.get_edgecolor(), lk["stroke"]), sid
            assert a.get_linewidth() == float(lk.get("sw") or 1), sid
            dash = tuple(float(v) for v in lk.get("dash", "").split())
            assert a.get_linestyle() == ((0, dash) if dash else "solid"), sid
        if "fill" in lk and a.get_fill():
            assert same(a.get_facecolor(), bg if lk.get("hatch") else lk["fill"]), sid
        if sid in pic.hatches:
            assert pic.hatches[sid].get_visible() == (bool(lk.get("hatch")) and not hidden), sid


def pixel(pic, image, x, y):
    """The RGB of the pixel at scene point (x, y)."""
    px, py = pic.transform.transform((x, y))
    return tuple(image[pic.pixels[1] - int(py) - 1, int(px)])


# -- what each frame shows ------------------------------------------------------
@pytest.mark.parametrize("k", [*range(8), None], ids=lambda k: f"step{k}")
def test_artists_show_the_look_of_every_step(scene, pic, k):
    shown(pic, scene, k)
    check_artists(pic, scene.look(k))


def test_fork_step_7_reads_like_the_svg(scene, pic):
    th = scene.theme
    image = shown(pic, scene, 7)
    grad = pic.texts["t-v0-grad"]
    assert (grad.get_text(), grad.get_fontweight()) == ("−3", "bold")
    edge, back, fwd = (pic.artists[f"e-v0-v2-0{s}"] for s in ("", "-b", "-f"))
    assert same(edge.get_edgecolor(), th.positive) and edge.get_linewidth() == 3
    assert back.get_visible() and same(back.get_facecolor(), th.positive)
    assert not fwd.get_visible()
    assert same(pic.artists["e-v1-v2-1"].get_edgecolor(), th.negative)
    assert pic.texts["l-v0-v2-0"].get_text() == "3 × 1 = 3"
    # the pixels: a's grad cell has the look's fill; the background is the theme's
    x, y, _, h, _ = next(s.geom for s in scene.shapes if s.id == "c-v0-grad")
    fill = scene.look(7)["c-v0-grad"]["fill"]
    assert pixel(pic, image, x + 3, y + h / 2) == tuple(int(fill[i:i + 2], 16) for i in (1, 3, 5))
    assert tuple(image[0, 0]) == (255, 255, 255)


def test_not_reached_cells_are_hatched(scene, pic):
    image = shown(pic, scene, 0)
    x, y, w, h, _ = next(s.geom for s in scene.shapes if s.id == "c-v0-grad")
    px0, py0 = pic.transform.transform((x, y + h))
    px1, py1 = pic.transform.transform((x + w * 0.4, y))
    H = pic.pixels[1]
    cell = image[H - int(py1):H - int(py0), int(px0) + 2:int(px1)].reshape(-1, 3)
    colours = {tuple(c) for c in cell}
    assert (255, 255, 255) in colours and (0xC4, 0xC4, 0xC4) in colours  # background and lines
    image = shown(pic, scene, 7)
    assert not pic.hatches["c-v0-grad"].get_visible()


def test_partial_redraw_matches_a_full_draw(scene):
    pic = Picture(scene)
    with rc():
        for k, state in enumerate(scene.states()):
            look = scene.looks.all(k, state)
            pic.show(look)
            fast = np.asarray(pic.image(), dtype=int)
            fresh = Picture(scene)  # a new figure, drawn in full once
            fresh.show(look)
            full = np.asarray(fresh.image(), dtype=int)
            diff = np.abs(fast - full).max(axis=2)
            # antialiased pixels where an edge meets a box may differ; nothing else may
            assert (diff > 8).mean() < 1e-4 and (diff > 0).mean() < 1e-3, k


def test_every_frame_of_every_example_has_the_svgs_size_and_does_not_drift(tmp_path):
    """Every frame is the SVG's size with room for the longest caption, the animation's one
    size (its width and height in pt, at 36 dpi), and the last frame of the sequence (drawn
    by partial redraws) matches the final view drawn alone."""
    for name in examples.names():
        G = examples.graph(name)
        d = draw(G)  # frames draw what draw() draws: the mlp collapsed by neuron
        root = ET.fromstring(d.svg(full_height=True))
        size = tuple(round(float(root.get(k).removesuffix("pt")) * 36 / 72)
                     for k in ("width", "height"))
        paths = fr.frames(G, tmp_path / name, final=True, dpi=36)
        assert len(paths) == len(d.graph.graph["steps"]) + 1
        (alone,) = fr.frames(G, tmp_path / f"{name}-final", steps=[0], final=True, dpi=36)[1:]
        for p in paths:
            with Image.open(p) as im:
                assert im.size == size, (name, p.name)
        with Image.open(paths[-1]) as last, Image.open(alone) as fresh:
            diff = np.abs(np.asarray(last.convert("RGB"), dtype=int)
                          - np.asarray(fresh.convert("RGB"), dtype=int)).max(axis=2)
        # antialiased pixels where an edge meets a box may differ; nothing else may
        assert (diff > 8).mean() < 1e-4 and (diff > 0).mean() < 1e-3, name


def test_default_size_and_fitting_into_a_size(scene):
    assert Picture(scene).pixels == (round(scene.width * 97.5 / 72),
                                     round(scene.height * 97.5 / 72))
    wide = scene_of(examples.graph("softmax-nll"))
    assert max(Picture(wide).pixels) == 3840  # capped
    pic = Picture(scene, size=(800, 600))
    with rc():
        pic.show(scene.look(7))
        assert pic.image().size == (800, 600)


def test_a_graph_of_199_nodes_shows_every_box_name():
    xs = [Value(0.5 * i, label=f"x{i}") for i in range(100)]
    while len(xs) > 1:
        xs = [xs[i] + xs[i + 1] if i + 1 < len(xs) else xs[i] for i in range(0, len(xs), 2)]
    G = to_networkx(xs[0])
    assert G.number_of_nodes() == 199
    scene = scene_of(G)
    pic = Picture(scene)
    assert pic.smallest_text_px > 4
    image = shown(pic, scene, None)
    H = pic.pixels[1]
    r = pic.canvas.get_renderer()
    for n in G.nodes:
        t = pic.texts[f"t-{n}-name"]
        assert t.get_visible() and t.get_text(), n
        b = t.get_window_extent(r)
        ink = image[H - int(b.y1) - 1:H - int(b.y0) + 1, int(b.x0):int(b.x1) + 1]
        assert ink.min() < 128, n  # dark glyph pixels, not a blank box


# -- files -------------------------------------------------------------------------
def test_one_png_per_step(G, tmp_path):
    paths = fr.frames(G, tmp_path)
    assert [p.name for p in paths] == [f"frame-{k:03d}.png" for k in range(8)]
    assert not list(tmp_path.glob(".*"))


def test_svg_frames_are_the_drawings(G, tmp_path):
    paths = fr.frames(G, tmp_path, fmt="svg", steps=[3, 7])
    assert paths[1].read_text(encoding="utf-8") == draw(G, 7).svg()
    ET.parse(paths[0])


def test_stale_frames_of_a_longer_run_are_removed(G, tmp_path):
    x = Value(2.0, label="x")
    fr.frames((x * x + x) * x, tmp_path, fmt="svg")  # 9 steps
    (tmp_path / "notes.txt").write_text("keep me")
    fr.frames(G, tmp_path, fmt="svg")
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [f"frame-{k:03d}.svg" for k in range(8)] + ["notes.txt"]


def test_determinism_png_svg_gif_pdf(G, tmp_path):
    for fmt in ("png", "svg"):
        one = [p.read_bytes() for p in fr.frames(G, tmp_path / f"1{fmt}", fmt=fmt)]
        two = [p.read_bytes() for p in fr.frames(G, tmp_path / f"2{fmt}", fmt=fmt)]
        assert one == two
    assert (fr.animate(G, tmp_path / "1.gif").read_bytes()
            == fr.animate(G, tmp_path / "2.gif").read_bytes())
    d = draw(G, 5)
    assert d.save(tmp_path / "1.pdf").read_bytes() == d.save(tmp_path / "2.pdf").read_bytes()


def test_graph_from_json_renders_like_the_live_one(G, tmp_path):
    one = fr.frames(G, tmp_path / "live", steps=[7])[0].read_bytes()
    two = fr.frames(from_json(to_json(G)), tmp_path / "json", steps=[7])[0].read_bytes()
    assert one == two


def test_dark_theme_background(G, tmp_path):
    p = fr.frames(G, tmp_path, theme="dark", steps=[0])[0]
    with Image.open(p) as im:
        assert im.convert("RGB").getpixel((0, 0)) == (0x1E, 0x1E, 0x1E)


# -- animations ----------------------------------------------------------------------
def gif_frames(path):
    with Image.open(path) as im:
        out = []
        for i in range(im.n_frames):
            im.seek(i)
            out.append((np.asarray(im.convert("RGB"), dtype=int), im.info["duration"]))
        return out, im.info.get("loop")


def test_gif_frames_durations_and_the_final_view(tmp_path):
    G = examples.graph("fork")  # backward() ran: the final view has every contribution
    frames_, loop = gif_frames(fr.animate(G, tmp_path / "fork.gif"))
    assert loop == 0
    # each frame is held its phase's least time (inputs 1.5 s, forward 1, seed 2, backward 2,
    # final 4), or 0.5 s plus its chain-rule lines at 20 characters a second if longer:
    # "u = a × b = −6" is 14 characters (1.2 s); step 5's two lines are 41 + 45 (4.8 s); the
    # final view's gradients (23) and its check against central differences (81): 5.7 s
    assert [d for _, d in frames_] == [1500, 1200, 1100, 1200, 2000, 4800, 5200, 5000, 5700]
    # the last frame is the final view, the one before it step 7
    final = np.asarray(Image.open(draw(G).save(tmp_path / "final.png", dpi=97.5)).convert("RGB"),
                       dtype=int)
    step7 = np.asarray(Image.open(draw(G, 7).save(tmp_path / "s7.png", dpi=97.5))
                       .convert("RGB"), dtype=int)
    last, before = frames_[-1][0], frames_[-2][0]
    assert np.abs(last - final).mean() < 1.0 < np.abs(last - step7).mean()
    assert np.abs(before - step7).mean() < 1.0


def test_gif_options(G, tmp_path):
    frames_, loop = gif_frames(fr.animate(G, tmp_path / "a.gif", duration=0.4, hold=(1.5, 3)))
    assert [d for _, d in frames_] == [1500] + [400] * 7 + [3000]
    frames_, loop = gif_frames(fr.animate(G, tmp_path / "b.gif", loop=False, steps=[0, 1],
                                          final=False, duration={"forward": 0.3}, hold=2))
    assert loop is None and [d for _, d in frames_] == [1500, 2000]
    assert gif_local_palettes((tmp_path / "a.gif").read_bytes()) == [False] * 9


def test_gif_maps_each_pixel_to_its_nearest_palette_colour_in_any_frame_order():
    # the quantiser looks up only the pixels that differ from the frame before and works out
    # each colour's nearest once: check every pixel of every frame against a brute force
    rng = np.random.default_rng(7)
    palette = [tuple(int(v) for v in c) for c in rng.integers(0, 256, (40, 3))]
    a = rng.integers(0, 256, (20, 30, 3), dtype=np.uint8)
    a[:10] = palette[3]  # exact palette colours stay exact
    b = a.copy()
    b[4:9, 2:7] = rng.integers(0, 256, (5, 5, 3), dtype=np.uint8)  # new colours
    b[15, 0] = a[0, 0]
    c = np.zeros((20, 30, 3), np.uint8)  # every pixel changes
    images = [Image.fromarray(x) for x in (a, b, a, c, b)]
    pal = np.asarray(palette)

    def nearest(x):
        d = ((x.astype(int)[:, :, None, :] - pal[None, None]) ** 2).sum(3)
        return d.argmin(2)  # ties: the lower index

    store = _encode.FrameStore()
    for im in images:
        store.add(im)
    for given in (images, store, images[::-1]):
        got = _encode._quantize(given, palette)
        want = [nearest(np.asarray(im)) for im in (given if given is not store else images)]
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.mode == "P" and np.array_equal(np.asarray(g), w)
    assert (np.asarray(_encode._quantize(images, palette)[0])[:10] == 3).all()


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


@pytest.mark.skipif(not features.check("webp"), reason="Pillow built without WebP")
def test_webp_frames_and_durations(G, tmp_path):
    with Image.open(fr.animate(G, tmp_path / "fork.webp", duration=0.5, hold=1)) as im:
        assert im.n_frames == 9
        im.seek(3)
        im.load()
        assert im.info["duration"] == 500


def test_mp4_is_written_when_ffmpeg_is_available(G, tmp_path):
    if fr.find_ffmpeg() is None:
        pytest.skip("needs ffmpeg: apt install ffmpeg, or pip install imageio-ffmpeg")
    exe = fr.find_ffmpeg()
    path = fr.animate(G, tmp_path / "fork.mp4", duration=0.5, hold=1)
    assert path.read_bytes()[4:8] == b"ftyp"
    probe = subprocess.run([exe, "-hide_banner", "-i", str(path)], capture_output=True, text=True,
                           check=False)  # ffmpeg exits 1 without an output file
    seconds = re.search(r"Duration: 00:00:(\d+\.\d+)", probe.stderr)
    assert seconds and abs(float(seconds.group(1)) - 5.0) < 0.1  # 8 × 0.5 + 1
    assert not list(tmp_path.glob(".*"))


def test_missing_ffmpeg_names_both_ways_to_get_it(G, tmp_path, monkeypatch):
    from vizgrad.write.raster import encode as _encode

    monkeypatch.setattr(_encode.shutil, "which", lambda name: None)
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)  # import fails
    with pytest.raises(RenderError) as err:
        fr.animate(G, tmp_path / "fork.mp4")
    assert "PATH" in str(err.value) and "pip install imageio-ffmpeg" in str(err.value)
    assert not list(tmp_path.iterdir())


def test_failed_write_leaves_the_old_file(G, tmp_path, monkeypatch):
    path = tmp_path / "fork.gif"
    path.write_bytes(b"old")

    def broken(*args):
        raise OSError("disk full")

    monkeypatch.setattr(fr, "gif", broken)
    with pytest.raises(OSError):
        fr.animate(G, path)
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["fork.gif"]


def test_micrograd_values_animate(tmp_path):
    engine = pytest.importorskip("micrograd.engine", reason="pip install micrograd")
    a, b = engine.Value(-2.0), engine.Value(3.0)
    q = (a * b) * (a + b)
    q.backward()
    with Image.open(fr.animate(q, tmp_path / "mg.gif")) as im:
        assert im.n_frames == 9


# -- Chinese words need a CJK font ------------------------------------------------------
def cjk_font():
    for family in _fonts.CJK_FAMILIES:
        if _fonts._installed(family):
            return family
    pytest.skip("needs a CJK font: apt install fonts-noto-cjk")


def test_chinese_frame_uses_the_cjk_font(G):
    family = cjk_font()
    from matplotlib import font_manager as fm

    scene = scene_of(G, lang="zh")
    pic = Picture(scene)
    shown(pic, scene, 7)  # a missing glyph would warn, and warnings are errors
    assert pic.fonts.families == ["DejaVu Sans", family]
    label = pic.texts["t-v0-gl"]
    assert label.get_text() == "累计梯度"
    files = fm.fontManager._find_fonts_by_props(label.get_fontproperties())
    used = next(f for f in files if ord("梯") in fm.get_font(f).get_charmap())
    assert used == fm.fontManager._find_fonts_by_props(fm.FontProperties(family=family))[0]
    assert "CJK" in str(used) or "Han" in str(used) or "WenQuanYi" in str(used)


def test_a_chinese_gif_warns_of_no_missing_glyph(G, tmp_path):
    """Every frame of a Chinese GIF, drawn with the CJK font: matplotlib warns of no glyph
    it lacks (it would warn once per missing character), and the words change the pixels."""
    cjk_font()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        zh = fr.animate(G, tmp_path / "zh.gif", lang="zh")
    assert [str(w.message) for w in caught] == []
    en = fr.animate(G, tmp_path / "en.gif")
    with Image.open(zh) as a, Image.open(en) as b:
        assert a.n_frames == b.n_frames == 9
        a.seek(8)
        b.seek(8)
        assert a.convert("RGB").tobytes() != b.convert("RGB").tobytes()


def test_chinese_pdf_and_font_file(G, tmp_path):
    family = cjk_font()
    from matplotlib import font_manager as fm

    path = fm.findfont(fm.FontProperties(family=family))
    out = fr.frames(G, tmp_path, lang="zh", steps=[7], font=path)
    assert out[0].read_bytes()[:4] == b"\x89PNG"
    assert draw(G, 7, lang="zh").save(tmp_path / "zh.pdf").read_bytes()[:4] == b"%PDF"


def test_without_a_cjk_font_chinese_is_a_clear_error(G, tmp_path, monkeypatch):
    monkeypatch.setattr(_fonts, "CJK_FAMILIES", ())
    with pytest.raises(RenderError, match=r"apt install fonts-noto-cjk.*font="):
        fr.animate(G, tmp_path / "zh.gif", lang="zh")
    with pytest.raises(RenderError, match="fonts-noto-cjk"):
        draw(G, lang="zh").save(tmp_path / "zh.png")
    assert not list(tmp_path.iterdir())
    fr.frames(G, tmp_path / "svg", fmt="svg", lang="zh", steps=[0])  # SVG needs no font


# -- errors -----------------------------------------------------------------------------
def test_too_many_nodes(G, tmp_path):
    with pytest.raises(GraphTooLargeError, match=r"5 values, more than max_nodes=3"):
        fr.animate(G, tmp_path / "x.gif", max_nodes=3)


@pytest.mark.parametrize("call, error, message", [
    (lambda G, d: fr.frames(G, d, fmt="jpg"), RenderError, "must be one of"),
    (lambda G, d: fr.animate(G, d / "x.avi"), RenderError, r"\.gif"),
    (lambda G, d: fr.animate(G, d / "missing" / "x.gif"), RenderError, "does not exist"),
    (lambda G, d: fr.frames(G, d, colour="red"), OptionError, "has no option 'colour'"),
    (lambda G, d: fr.frames(G, d, theme="sepia"), OptionError, "theme must be one of"),
    (lambda G, d: fr.frames(G, d, dpi=0), OptionError, "dpi"),
    (lambda G, d: fr.frames(G, d, dpi=5000), OptionError, "dpi"),
    (lambda G, d: fr.frames(G, d, size=(1, 1)), OptionError, "size"),
    (lambda G, d: fr.frames(G, d, size=(800, 600), dpi=100), OptionError, "not both"),
    (lambda G, d: fr.frames(G, d, steps=[8]), OptionError, "0..7"),
    (lambda G, d: fr.frames(G, d, font=d / "nope.ttf"), OptionError, "not a file"),
    (lambda G, d: fr.frames(G, d, final="yes"), OptionError, "final"),
    (lambda G, d: fr.animate(G, d / "x.gif", duration=0), OptionError, "duration"),
    (lambda G, d: fr.animate(G, d / "x.gif", duration={"sideways": 1}), OptionError, "phases"),
    (lambda G, d: fr.animate(G, d / "x.gif", hold="long"), OptionError, "hold"),
    (lambda G, d: fr.animate(G, d / "x.gif", loop="yes"), OptionError, "loop"),
], ids=["fmt", "suffix", "folder", "unknown", "theme", "dpi", "dpi-big", "size", "size-dpi",
        "steps", "font", "final", "duration", "phase", "hold", "loop"])
def test_bad_input_gives_a_clear_error(G, tmp_path, call, error, message):
    with pytest.raises(error, match=message):
        call(G, tmp_path)
    assert not list(tmp_path.glob("*.gif")) and not list(tmp_path.glob("*.png"))


def test_frames_into_a_file_path_is_an_error(G, tmp_path):
    (tmp_path / "f").write_text("")
    with pytest.raises(RenderError, match="not a folder"):
        fr.frames(G, tmp_path / "f")
