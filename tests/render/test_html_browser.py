"""The HTML player in a real browser: headless Chromium through Playwright, from file://.

Skips with a reason when Playwright or Chromium is missing; in CI
(VIZGRAD_REQUIRE_OPTIONAL=1) a skip counts as a failure.
"""

from __future__ import annotations

import re

import pytest

from vizgrad import Value, examples, to_networkx
from vizgrad.player.page import player_html

from ..words import TEXT_NODES, english_words


@pytest.fixture(scope="module")
def fork_html() -> str:
    return player_html(examples.graph("fork"))


def _grad(pg, node: str) -> str:
    return pg.locator(f"tr[data-node='{node}'] td.grad").inner_text()


def _svg_text(pg, shape: str) -> str:
    return pg.locator(f"#vg-{shape}").text_content()


def test_next_seven_times_reads_the_chapters_grads(open_page, fork_html):
    pg = open_page(fork_html)
    assert pg.locator("#counter").inner_text() == "step 0 / 7"
    assert _grad(pg, "v0") == "—" and _svg_text(pg, "t-v0-grad") == "—"
    assert pg.locator("tr[data-node='v2'] td.data").inner_text() == "pending"
    next_button = pg.get_by_role("button", name="Next")
    for _ in range(7):
        next_button.click()
    assert pg.locator("#counter").inner_text() == "step 7 / 7"
    assert (_grad(pg, "v0"), _grad(pg, "v1")) == ("−3", "−8")
    assert (_svg_text(pg, "t-v0-grad"), _svg_text(pg, "t-v1-grad")) == ("−3", "−8")
    assert _svg_text(pg, "cap-0") == "step 7 / 7 · backward through u = a × b"
    assert pg.locator("tr.active").get_attribute("data-node") == "v2"
    assert pg.locator("#vg-l-v0-v2-0").is_visible() and not pg.locator("#vg-l-v0-v3-0").is_visible()
    next_button.click()  # after the last step: the final view
    assert pg.locator("#counter").inner_text() == "final view"
    assert pg.locator("#vg-l-v0-v3-0").is_visible() and pg.locator("tr.active").count() == 0
    assert next_button.is_disabled() and pg.get_by_role("button", name="Last").is_disabled()
    assert pg.evaluate("location.hash") == "#step=final"


def test_jumps_show_the_same_picture_as_single_steps(open_page):
    G = examples.graph("softmax-nll")
    pg = open_page(player_html(G))
    texts = ("() => [...document.querySelectorAll('#stage svg [id]')].map(e => "
             "e.id + e.getAttribute('fill') + e.getAttribute('stroke') "
             "+ e.getAttribute('display') + e.getAttribute('font-weight') "
             "+ (e.tagName === 'text' ? e.textContent : '')).join('|')")
    seen = []
    for k in range(33):
        pg.locator("#slider").fill(str(k))
        seen.append(pg.evaluate(texts))
    for k in (30, 2, 31, 0, 17, 32, 16, 5):
        pg.locator("#slider").fill(str(k))
        assert pg.evaluate(texts) == seen[k], k
    assert len(set(seen)) == 33


def test_keys_buttons_and_the_address(open_page, fork_html):
    pg = open_page(fork_html)
    pg.keyboard.press("End")
    assert pg.locator("#counter").inner_text() == "final view"
    pg.keyboard.press("ArrowLeft")
    pg.keyboard.press("ArrowLeft")
    assert pg.locator("#counter").inner_text() == "step 6 / 7"
    assert _grad(pg, "v0") == "−6"  # a has its first contribution, through v
    pg.keyboard.press("Home")
    assert pg.locator("#counter").inner_text() == "step 0 / 7"
    assert pg.locator("tr[data-node='v2'] td.data").inner_text() == "pending"
    assert _svg_text(pg, "t-v2-data") == "pending"
    assert pg.get_by_role("button", name="Back").is_disabled()
    pg.get_by_label("step", exact=True).fill("5")
    assert pg.locator("#counter").inner_text() == "step 5 / 7"
    assert pg.evaluate("location.hash") == "#step=5"
    pg = open_page(player_html(examples.graph("fork"), interval_ms=60))
    pg.get_by_role("button", name="Play").click()
    pg.wait_for_function("() => document.getElementById('counter').textContent === 'final view'",
                         timeout=20_000)
    assert pg.get_by_role("button", name="Play").get_attribute("aria-pressed") == "false"


def test_a_step_in_the_url_opens_that_step(open_page, fork_html):
    pg = open_page(fork_html, "#step=4")
    assert pg.locator("#counter").inner_text() == "step 4 / 7"
    assert _svg_text(pg, "cap-0").startswith("step 4 / 7")
    pg = open_page(fork_html, "#step=final")
    assert pg.locator("#counter").inner_text() == "final view"


def test_the_picture_keeps_its_size_and_follows_its_caption(open_page):
    """The caption is the page's text above the picture, as tall as its own step needs: the
    picture keeps its place across and its size, and starts just under the caption."""
    pg = open_page(player_html(examples.graph("softmax-nll")), width=1800)
    where = ("() => {\n"
             '      const stage = document.getElementById("stage");\n'
             "      const s = stage.getBoundingClientRect(), "
             'g = stage.querySelector("svg").getBoundingClientRect();\n'
             '      const c = document.getElementById("cap").getBoundingClientRect();\n'
             "      return [s.x, s.width, g.x + stage.scrollLeft, g.width, g.height,\n"
             "              s.y - c.bottom].map(Math.round);\n"
             "    }")
    first = pg.evaluate(where)
    assert 0 <= first[-1] <= 12  # no band between the caption and the picture
    tops = set()
    for _ in range(33):
        pg.keyboard.press("ArrowRight")
        assert pg.evaluate(where) == first
        tops.add(round(pg.locator("#stage").bounding_box()["y"]))
    assert len(tops) > 1  # the caption's room follows the step


def test_fit_width_enlarges_a_small_picture(open_page, fork_html):
    pg = open_page(fork_html, width=1800)
    natural = pg.locator("#stage svg").bounding_box()["width"]
    pg.get_by_role("button", name="Fit width").click()
    fitted = pg.locator("#stage svg").bounding_box()["width"]
    stage = pg.locator("#stage").bounding_box()["width"]
    assert fitted > natural * 1.5 and abs(fitted - stage) < 4


def _chain():
    x = Value(0.5, label="x")
    for i in range(30):
        x = (x * 1.1).tanh()
    x.label = "y"
    x.backward()
    return to_networkx(x)


INSIDE = """node => {
  const s = document.getElementById("stage").getBoundingClientRect();
  const r = document.getElementById("vg-n-" + node).getBoundingClientRect();
  return s.left <= r.left && r.right <= s.right && s.top <= r.top && r.bottom <= s.bottom;
}"""


def test_the_active_node_is_scrolled_into_view(open_page):
    pg = open_page(player_html(_chain()), width=700, height=700, reduced_motion="reduce")
    stage = pg.locator("#stage").bounding_box()
    assert pg.evaluate("document.getElementById('stage').scrollWidth") > stage["width"] * 3
    steps = int(pg.locator("#slider").get_attribute("max"))
    for k in (10, 45, 60, 90, 120, steps - 2, 3):
        pg.locator("#slider").fill(str(k))  # reduced motion: in view at once, no animation
        node = pg.evaluate("document.querySelector('tr.active').dataset.node")
        assert pg.evaluate(INSIDE, node), k


def test_stepping_to_a_far_node_scrolls_smoothly_to_it(open_page):
    pg = open_page(player_html(_chain()), width=700, height=700)
    pg.locator("#slider").fill("10")
    node = pg.evaluate("document.querySelector('tr.active').dataset.node")
    left = pg.evaluate("document.getElementById('stage').scrollLeft")
    assert not pg.evaluate(INSIDE, node)  # the scroll is on its way, not a jump
    pg.wait_for_function(INSIDE, arg=node, timeout=5_000)
    assert pg.evaluate("document.getElementById('stage').scrollLeft") > left


def test_without_javascript_the_final_picture_and_every_step(open_page, fork_html):
    pg = open_page(fork_html, java_script_enabled=False)
    assert pg.locator("#stage svg").is_visible()
    assert _svg_text(pg, "t-v0-grad") == "−3"
    items = pg.locator(".steps li.step-text")
    assert items.count() == 9 and all(items.nth(k).is_visible() for k in range(9))
    assert not pg.locator("nav.controls").is_visible()
    # the node table is built by the script: hidden, and a note says where the numbers are
    assert pg.locator(".table-wrap").is_hidden()
    note = pg.locator("p.no-script")
    assert note.is_visible() and "needs JavaScript" in note.inner_text()
    js = open_page(fork_html)  # with the script: the rows, and no note
    assert js.locator("#nodes tbody tr[data-node]").count() == 5
    assert js.locator("p.no-script").count() == 0


def test_printing_hides_the_controls_and_lists_the_steps(open_page, fork_html):
    pg = open_page(fork_html)
    pg.emulate_media(media="print")
    assert not pg.locator("nav.controls").is_visible()
    assert pg.locator(".steps").is_visible() and pg.locator("#stage svg").is_visible()


def test_a_chinese_page_has_no_english_words(open_page):
    G = examples.graph("fork")
    pg = open_page(player_html(G, lang="zh"))
    assert pg.locator("#counter").inner_text() == "步骤 0 / 7"
    pg.keyboard.press("ArrowRight")
    pg.keyboard.press("ArrowRight")
    labels = {str(G.nodes[n].get(k) or n) for n in G.nodes for k in ("label", "name")}
    assert english_words(pg.evaluate(TEXT_NODES), labels) == []
    assert english_words(["step pending the"], labels) == ["step", "pending", "the"]  # it can fail
    pg.keyboard.press("End")
    assert pg.locator("#counter").inner_text() == "最终结果"
    assert english_words(pg.evaluate(TEXT_NODES), labels) == []


def test_a_picture_a_little_too_wide_starts_fitted_and_a_much_wider_one_scrolls(open_page,
                                                                               fork_html):
    from playwright.sync_api import expect

    pg = open_page(fork_html, width=860)  # fork is 956 px wide: fitted, nothing cut off
    expect(pg.locator("#player")).to_have_class(re.compile(r"\bfit\b"))
    box = pg.locator("#stage svg").bounding_box()
    stage = pg.locator("#stage").bounding_box()
    assert box["x"] >= stage["x"] - 1 and box["x"] + box["width"] <= stage["x"] + stage["width"] + 1
    wide = open_page(player_html(examples.graph("softmax-nll")), width=860)
    expect(wide.locator("#player")).not_to_have_class(re.compile(r"\bfit\b"))
    pg = open_page(fork_html)  # room enough: its own size
    expect(pg.locator("#player")).not_to_have_class(re.compile(r"\bfit\b"))

