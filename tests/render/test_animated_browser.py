"""The animated SVG in headless Chromium: seeked to each step, it is that step's picture.

The animations are paused and seeked with the Web Animations API
(``document.getAnimations()``), then the page is compared, pixel by pixel in
4 × 4 blocks, with the static SVG of the same step. Skips without Playwright
or Chromium; in CI (VIZGRAD_REQUIRE_OPTIONAL=1) a skip counts as a failure.
"""

from __future__ import annotations

import io
import itertools

import pytest

from vizgrad import examples
from vizgrad.write.animated import frame_times
from vizgrad.write.svg import draw

np = pytest.importorskip("numpy", reason="numpy is not installed")
Image = pytest.importorskip("PIL.Image", reason="Pillow is not installed")

SAME = 64  # the largest 4 x 4 block difference of one picture drawn twice (antialiasing)
OTHER = 128  # the smallest difference of two different steps
SEEK = """t => { const all = document.getAnimations();
  all.forEach(a => { a.pause(); a.currentTime = t; }); return all.length; }"""
VISIBLE = """prefix => [...document.querySelectorAll(`[id^="${prefix}"]`)]
  .filter(e => getComputedStyle(e).opacity !== "0").map(e => e.textContent)"""


@pytest.fixture
def page(browser):
    """A page of a fresh context (``reduced_motion`` and the viewport can be set)."""
    contexts, problems = [], []

    def make(width: int = 1000, height: int = 560, **ctx):
        context = browser.new_context(viewport={"width": width, "height": height}, **ctx)
        contexts.append(context)
        pg = context.new_page()
        pg.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning")
              else None)
        pg.on("pageerror", lambda err: problems.append(str(err)))
        return pg

    yield make
    for context in contexts:
        context.close()
    assert problems == []


def shot(pg) -> object:
    img = Image.open(io.BytesIO(pg.screenshot())).convert("RGB")
    a = np.asarray(img, dtype=float)
    h, w = a.shape[0] // 4 * 4, a.shape[1] // 4 * 4
    return a[:h, :w].reshape(h // 4, 4, w // 4, 4, 3).mean(axis=(1, 3))


def diff(a, b) -> float:
    return float(np.abs(a - b).max())


def static_shots(pg, tmp_path, d, frames) -> list:
    out = []
    for f, k in enumerate(frames):
        path = tmp_path / f"static-{f}.svg"
        path.write_text(d.at(k).svg(full_height=True), encoding="utf-8")
        pg.goto(path.as_uri())
        out.append(shot(pg))
    return out


def prefix_of(svg: str) -> str:
    start = svg.index('<pattern id="') + len('<pattern id="')
    return svg[start:svg.index("vg-hatch-", start)]


@pytest.mark.parametrize("name, theme", [("fork", "light"), ("shared-node", "dark")])
def test_each_moment_is_the_static_picture_of_its_step(page, tmp_path, name, theme):
    d = draw(examples.graph(name), theme=theme)
    svg = d.animated_svg(hold=1.5, final_hold=3)
    frames = [*range(d.scene.last + 1), None]
    pg = page()
    refs = static_shots(pg, tmp_path, d, frames)
    path = tmp_path / "anim.svg"
    path.write_text(svg, encoding="utf-8")
    pg.goto(path.as_uri())
    cap = prefix_of(svg) + "cap-0"
    seen = []
    for f, (start, end) in enumerate(frame_times(d.scene, 1.5, 3)):
        assert pg.evaluate(SEEK, (start + end) / 2 * 1000) > 10
        assert pg.evaluate(VISIBLE, cap) == [d.scene.caption_lines(frames[f])[0]]
        seen.append(shot(pg))
        assert diff(seen[-1], refs[f]) < SAME, f"frame {f} is not step {frames[f]}"
    for a, b in itertools.pairwise(seen):
        assert diff(a, b) > OTHER  # every step changes the picture
    # a moment just before a step ends still shows that step
    pg.evaluate(SEEK, 1.5 * 1000 - 20)
    assert diff(shot(pg), refs[0]) < SAME


def test_it_loops_or_rests_on_the_final_view(page, tmp_path):
    d = draw(examples.graph("shared-node"))
    frames = [*range(d.scene.last + 1), None]
    pg = page()
    refs = static_shots(pg, tmp_path, d, frames)
    total = frame_times(d.scene)[-1][1] * 1000
    for loop, expected in ((True, refs[0]), (False, refs[-1])):
        path = tmp_path / f"loop-{loop}.svg"
        path.write_text(d.animated_svg(loop=loop), encoding="utf-8")
        pg.goto(path.as_uri())
        pg.evaluate(SEEK, total + 1000)  # one second into a second round
        assert diff(shot(pg), expected) < SAME


def test_reduced_motion_shows_the_final_view_without_animations(page, tmp_path):
    d = draw(examples.graph("fork"))
    pg = page(reduced_motion="reduce")
    (final,) = static_shots(pg, tmp_path, d, [None])
    path = tmp_path / "anim.svg"
    path.write_text(d.animated_svg(), encoding="utf-8")
    pg.goto(path.as_uri())
    assert pg.evaluate("document.getAnimations().length") == 0
    assert diff(shot(pg), final) < SAME


def _img(pg, tmp_path, src: str) -> object:
    html = tmp_path / f"{src}.html"
    html.write_text(f'<!DOCTYPE html><body style="margin:0"><img src="{src}"></body>',
                    encoding="utf-8")
    pg.goto(html.as_uri())
    pg.wait_for_function("document.images[0].complete && document.images[0].naturalWidth > 0")
    return shot(pg)


def test_as_an_img_it_follows_the_readers_reduced_motion_setting(browser, tmp_path):
    """In an ``<img>`` (a README) the reader's system setting holds, not a page's emulation:
    a browser started with reduced motion shows the final view at once."""
    from ..conftest import ARGS, CHROMIUM

    d = draw(examples.graph("fork"))
    (tmp_path / "anim.svg").write_text(d.animated_svg(), encoding="utf-8")
    (tmp_path / "final.svg").write_text(d.svg(full_height=True), encoding="utf-8")
    (tmp_path / "first.svg").write_text(d.at(0).svg(full_height=True), encoding="utf-8")
    still = browser.browser_type.launch(executable_path=CHROMIUM,
                                        args=[*ARGS, "--force-prefers-reduced-motion"])
    try:
        pg = still.new_page(viewport={"width": 1000, "height": 560})
        got = _img(pg, tmp_path, "anim.svg")
        assert diff(got, _img(pg, tmp_path, "final.svg")) < SAME
        assert diff(got, _img(pg, tmp_path, "first.svg")) > OTHER
    finally:
        still.close()


def test_two_inlined_svgs_play_on_their_own(page, tmp_path):
    fork, shared = draw(examples.graph("fork")), draw(examples.graph("shared-node"))
    body = "".join(d.animated_svg(hold=2).split("\n", 1)[1] for d in (fork, shared))
    (tmp_path / "two.html").write_text(f"<!DOCTYPE html><body>{body}</body>", encoding="utf-8")
    pg = page()
    pg.goto((tmp_path / "two.html").as_uri())
    ids = pg.evaluate("[...document.querySelectorAll('[id]')].map(e => e.id)")
    assert len(ids) == len(set(ids)) > 100
    pg.evaluate(SEEK, 2 * 2000 + 1000)  # the middle of step 2, 2 s each
    for d in (fork, shared):
        cap = prefix_of(d.animated_svg(hold=2)) + "cap-0"
        assert pg.evaluate(VISIBLE, cap) == [d.scene.caption_lines(2)[0]]
