"""The lab on a phone, a tablet and a laptop, in headless Chromium: the picture and the step
buttons come first on a phone, nothing is cut or scrolls sideways inside a panel, the
example's description follows the inputs, and axe-core finds no violation."""

from __future__ import annotations

import pytest

sync_api = pytest.importorskip("playwright.sync_api",
                               reason="Playwright for Python is not installed")
axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright",
                               reason="axe-playwright-python is not installed")
expect = sync_api.expect

SIZES = [(390, 844), (768, 1024), (1400, 900)]

# elements of the page (not the picture, which pans in its box) wider than their box
OVERFLOW = """() => [...document.querySelectorAll('.panel *, main > *, .process > *')]
  .filter((e) => !e.closest('#graph') && !e.closest('.visually-hidden')
    && getComputedStyle(e).display !== 'inline' && e.scrollWidth > e.clientWidth + 1)
  .map((e) => `${e.tagName}#${e.id}.${e.className}: ${e.scrollWidth} > ${e.clientWidth}`)"""


@pytest.fixture
def open_lab(browser, live_server):
    contexts, problems = [], []

    def open_(width: int, height: int, hash_: str = "", locale: str = "en-GB"):
        context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
        contexts.append(context)
        pg = context.new_page()
        pg.set_default_timeout(20_000)
        pg.on("pageerror", lambda err: problems.append(str(err)))
        pg.goto(live_server + "/" + hash_)
        expect(pg.locator("body")).to_have_attribute("data-ready", "true", timeout=20_000)
        expect(pg.locator("#graph")).to_have_attribute("aria-busy", "false", timeout=20_000)
        return pg

    yield open_
    for context in contexts:
        context.close()
    assert problems == []


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_every_screen_shows_the_graph_and_nothing_is_cut(open_lab, width, height):
    pg = open_lab(width, height, "#example=softmax-nll&step=31")
    expect(pg.locator("#check-table")).to_be_visible()
    for hash_ in ("#example=softmax-nll&step=31", "#example=fork&step=7"):
        if hash_ != "#example=softmax-nll&step=31":
            pg.goto(pg.url.split("#")[0] + hash_)
            pg.reload()
            expect(pg.locator("body")).to_have_attribute("data-ready", "true")
            expect(pg.locator("#check-table")).to_be_visible()
        assert pg.evaluate(OVERFLOW) == [], (width, hash_)
        graph = pg.locator("#graph").bounding_box()
        next_ = pg.locator("#next").bounding_box()
        # the picture starts on the first screen, and the step buttons are on it too
        assert graph["y"] < height - 100, graph
        assert 0 <= next_["y"] and next_["y"] + next_["height"] <= height
        assert graph["x"] >= 0 and graph["x"] + graph["width"] <= width


def test_a_chinese_phone_wraps_the_table_headers_between_words(open_lab):
    pg = open_lab(390, 844, "#example=tanh-decomposed&step=15", "zh-CN")
    assert pg.evaluate(OVERFLOW) == []
    bar = pg.locator("#stepper").bounding_box()
    first, last = pg.locator("#first").bounding_box(), pg.locator("#last").bounding_box()
    assert first["y"] == last["y"] and bar["height"] < 60  # the step buttons in one row
    # 累计梯度 ∂o/∂节点 breaks at its space, never inside a word
    lines = pg.evaluate(
        "() => [...document.querySelectorAll('#node-table thead th')].map((th) => {\n"
        "      const r = document.createRange(); r.selectNodeContents(th); "
        "return r.getClientRects().length; })")
    assert max(lines) <= 2, lines


def test_on_a_phone_the_steps_stay_in_reach_and_the_inputs_follow_the_picture(open_lab):
    pg = open_lab(390, 844, "#example=fork&step=3")
    top = {sel: pg.locator(sel).bounding_box()["y"] for sel in
           ("#graph", "#inputs-panel", "#source-panel", "#metrics-panel", "#explain-panel")}
    assert top["#graph"] < top["#inputs-panel"] < top["#source-panel"] < top["#metrics-panel"]
    assert top["#metrics-panel"] < top["#explain-panel"]
    pg.locator("#in-b-number").scroll_into_view_if_needed()
    bar = pg.locator("#next").bounding_box()
    assert 0 <= bar["y"] < 80  # the step bar stays at the top of the screen
    pg.locator("#next").click()
    expect(pg.locator("#step-label")).to_have_text("step 4 / 7")


def test_the_caption_is_shown_whole_while_the_picture_cuts_it(open_lab):
    pg = open_lab(1400, 900, "#example=fork&step=7")
    now = pg.locator("#now")
    expect(now).to_be_hidden()  # fitted: the picture's own caption is in view
    pg.locator("#zoom-in").click()
    pg.locator("#zoom-in").click()
    pg.locator("#graph").evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    expect(now).to_be_visible()
    expect(now.locator("div").nth(0)).to_have_text("step 7 / 7 · backward through u = a × b")
    chain = "a.grad += b × u.grad = 3 × 1 = 3   (−6 → −3)"
    expect(now.locator("div").nth(1)).to_have_text(chain)
    assert now.evaluate("e => e.scrollWidth <= e.clientWidth")
    before = pg.locator("#graph").bounding_box()
    pg.locator("#graph").evaluate("e => { e.scrollLeft = 0; e.scrollTop = 0; }")
    expect(now).to_be_hidden()
    assert pg.locator("#graph").bounding_box() == before  # it takes no room: nothing moves


CHAPTER = "q = (a*b)*(a+b) at a=−2, b=3: q = −6, grads (−3, −8), steps 0..7"


def test_the_description_follows_the_inputs(open_lab):
    pg = open_lab(1400, 900)
    text = pg.locator("#source-description")
    expect(text).to_have_text(CHAPTER)
    pg.get_by_label("Input a (−20 to 20)").fill("1")
    expect(text).to_contain_text("With the example's own values: q = (a*b)*(a+b) at a=−2")
    expect(text).to_contain_text("On screen now: a = 1; b = 3.")
    pg.get_by_label("Input a (−20 to 20)").fill("-2")
    expect(text).to_have_text(CHAPTER)


@pytest.mark.parametrize(("width", "height", "hash_", "locale"), [
    (1400, 900, "#example=fork&step=7", "en-GB"),
    (390, 844, "#example=fork&step=7", "en-GB"),
    (390, 844, "#example=mlp&step=13&collapse=neuron", "zh-CN"),
])
def test_axe_finds_no_violation_in_the_lab(open_lab, width, height, hash_, locale):
    pg = open_lab(width, height, hash_, locale)
    results = axe_sync.Axe().run(pg)
    found = [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']]}"
             for v in results.response["violations"]]
    assert results.response["passes"]  # it ran its rules
    assert found == []


@pytest.mark.parametrize(("hash_", "heading", "inputs", "fork_words"), [
    ("#example=fork&step=7", "One input, two paths: how do the gradients add up?",
     "Inputs · start from two paths", True),
    ("#example=softmax-nll&step=31", "Your graph: where does each gradient come from?",
     "Inputs · set the values", False),
])
def test_the_headings_describe_the_graph_shown(open_lab, hash_, heading, inputs, fork_words):
    pg = open_lab(1400, 900, hash_)
    expect(pg.locator("h1")).to_have_text(heading)
    expect(pg.locator("#lab-h-inputs")).to_have_text(inputs)
    explained = pg.locator("#explain-panel").inner_text()
    assert ("a = −2, b = 3" in explained) is fork_words  # the fork's own numbers, or none
    assert ("fork graph" in pg.locator("header.intro").inner_text()) is fork_words


def test_the_gradient_check_fits_a_phone_and_keeps_every_number_whole(open_lab):
    pg = open_lab(390, 844, "#example=softmax-nll&step=31")
    expect(pg.locator("#check-table")).to_be_visible()
    lines = pg.evaluate("""() => [...document.querySelectorAll('#check-table td')].map((td) => {
      const r = document.createRange(); r.selectNodeContents(td);
      return [td.textContent, new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size];
    })""")
    assert lines and all(n == 1 for _, n in lines), lines  # "4.1933e/-10" no more
    table = pg.locator("#check-table").bounding_box()
    assert table["x"] >= 0 and table["x"] + table["width"] <= 390
    assert pg.evaluate("() => { const w = document.getElementById('check-table').parentElement;"
                       " return w.scrollWidth <= w.clientWidth; }")
