"""The collapsed player in a real browser: open and close groups, find, zoom and pan.

Uses the Chromium fixture of tests/conftest.py (a skip fails in CI).
"""

from __future__ import annotations

import random
import re

import pytest

import vizgrad
from vizgrad import examples
from vizgrad.graph.collapse import collapse
from vizgrad.player import views as _views
from vizgrad.player.page import player_html

from ..words import TEXT_NODES, english_words

mg_nn = pytest.importorskip("micrograd.nn", reason="micrograd==0.1.0 is a test dependency")
expect = pytest.importorskip("playwright.sync_api",
                             reason="Playwright for Python is not installed").expect


def course_mlp():
    """The micrograd course's MLP(3, [4, 4, 1]) and its squared error: 128 values."""
    random.seed(0)
    net = mg_nn.MLP(3, [4, 4, 1])
    loss = (net([2.0, 3.0, -1.0]) - 1.0) ** 2
    loss.backward()
    return vizgrad.to_networkx(vizgrad.trace(loss, model=net))


@pytest.fixture(scope="module")
def course():
    G = course_mlp()
    return G, player_html(G, collapse="neuron")


@pytest.fixture(scope="module")
def small():
    G = examples.graph("mlp")
    return G, player_html(G, collapse="neuron")


#: what the docs preset shows (four decimals, at least three significant digits from 0.001
#: on, trailing zeros dropped, U+2212 for minus, two significant digits below 0.001),
#: written out by hand from the values in the graphs: the course net's L1.N2.w0 is
#: −0.37970486… with grad 0.0; the mlp example's L0.N1.b has grad 0.00066663992…, L0.N2.w1
#: is 0.22685671… with grad 0.00715228…
SHOWN = {"L1.N2.w0": ("−0.3797", "0"), "L0.N1.b": ("−0.137", "6.7e−4"),
         "L0.N2.w1": ("0.2269", "0.00715")}


def _id(G, label):
    return next(n for n in G if G.nodes[n].get("label") == label)


def _counter(pg):
    return pg.locator("#counter").inner_text()


def _open(pg, path):
    """Click the name of the box of group ``path`` (the box's cells lie on top of its rect)."""
    box = pg.locator(f"svg [aria-label='Open group {path}']").get_attribute("id")
    pg.locator(f"#{box.replace('n-', 't-', 1)}-name").click()
    expect(pg.locator("#vg-frame-label")).to_have_count(1)  # a view is inflated on first use


def test_a_click_opens_a_group_at_the_same_step_and_closes_back(open_page, course):
    G, page = course
    H = collapse(G, "neuron")
    box = next(b for b in H if H.nodes[b].get("group") == "L1/N2")
    merged = next(s for s in H.graph["steps"] if s["kind"] == "backward" and s["node"] == box)
    k = merged["index"]  # the step that sends the gradient through the box L1/N2
    pg = open_page(page, f"#step={k}")
    n = len(H.graph["steps"]) - 1
    assert _counter(pg) == f"step {k} / {n}"
    assert pg.locator("#vg-frame-label").count() == 0
    _open(pg, "L1/N2")
    E = collapse(G, "neuron", expand=["L1/N2"])
    j = max(i for i, s in enumerate(E.graph["steps"]) if s["from"] <= merged["from"])
    inner = sum(1 for s in E.graph["steps"] if s["kind"] == "backward"
                and E.nodes[s["node"]].get("group") == "L1/N2")
    # the counter keeps the collapsed steps: the group's first step of its own backward pass
    assert _counter(pg) == f"step {k} / {n} (inside L1/N2: 1 of {inner})"
    assert E.graph["steps"][j]["node"] in H.nodes[box]["members"]  # the group's own backward
    assert pg.locator("#vg-frame-label").text_content().startswith("L1/N2 · 14 values")
    assert pg.evaluate("location.hash") == f"#step={j}&open=L1%2FN2"
    w0 = _id(G, "L1.N2.w0")
    assert pg.locator(f"#vg-t-{w0}-data").text_content() == SHOWN["L1.N2.w0"][0]
    assert pg.locator(f"tr[data-node='{w0}'] td.data").inner_text() == SHOWN["L1.N2.w0"][0]
    assert pg.locator(f"#vg-t-{w0}-grad").text_content() == "—"  # not reached yet
    pg.get_by_role("button", name="Last").click()  # the final view: every grad is final
    assert pg.locator(f"#vg-t-{w0}-grad").text_content() == SHOWN["L1.N2.w0"][1]
    pg.get_by_role("button", name="First").click()
    pg.locator("#slider").fill(str(j))
    pg.keyboard.press("Escape")  # closes the group, back at the step we came from
    assert _counter(pg) == f"step {k} / {n}"
    assert pg.locator("#vg-frame-label").count() == 0
    assert pg.evaluate("location.hash") == f"#step={k}"
    assert pg.evaluate("document.activeElement.getAttribute('aria-label')") == "Open group L1/N2"


def test_the_keyboard_opens_and_closes_a_group(open_page, small):
    G, page = small
    pg = open_page(page, "#step=final")
    box = pg.get_by_role("button", name="Open group L0/N1")
    assert box.get_attribute("tabindex") == "0"
    box.focus()
    pg.keyboard.press("Enter")
    label = pg.get_by_role("button", name="Close group L0/N1")
    expect(label).to_be_focused()
    assert pg.evaluate("document.activeElement.id") == "vg-frame-label"
    assert _counter(pg) == "final view"
    b = _id(G, "L0.N1.b")
    assert pg.locator(f"#vg-t-{b}-grad").text_content() == SHOWN["L0.N1.b"][1]
    assert pg.get_by_role("button", name="Collapse all").is_enabled()
    label.press("Enter")
    assert pg.locator("#vg-frame-label").count() == 0
    assert not pg.get_by_role("button", name="Collapse all").is_enabled()
    pg.get_by_role("button", name="Open group L1/N0").focus()
    pg.keyboard.press("Enter")
    expect(pg.get_by_role("button", name="Close group L1/N0")).to_be_focused()
    pg.get_by_role("button", name="Collapse all").click()
    assert pg.locator("#vg-frame-label").count() == 0 and _counter(pg) == "final view"
    pg.keyboard.press("ArrowLeft")  # the last step: it ends the backward pass in every view
    assert _counter(pg) == "step 13 / 13"
    pg.get_by_role("button", name="Open group L0/N2").focus()
    pg.keyboard.press("Enter")
    expect(pg.get_by_role("button", name="Close group L0/N2")).to_be_focused()
    assert _counter(pg) == "step 13 / 13"  # the collapsed steps, in every view


def test_the_table_shows_each_groups_parameter_grads_from_its_backward_step(open_page, small):
    G, page = small
    H = collapse(G, "neuron")
    box = next(b for b in H if H.nodes[b].get("group") == "L0/N2")
    done = next(s["index"] for s in H.graph["steps"] if s["kind"] == "backward"
                and s["node"] == box)
    pg = open_page(page)
    rows = pg.locator(f"tr.param[data-param='{box}']")
    assert rows.locator("th").all_inner_texts() == ["L0.N2.w0", "L0.N2.w1", "L0.N2.b"]
    w1 = _id(G, "L0.N2.w1")
    row = pg.locator(f"tr.param[data-param='{box}']", has_text="L0.N2.w1")
    for k, want in ((0, "—"), (done - 1, "—"), (done, SHOWN["L0.N2.w1"][1])):
        pg.locator("#slider").fill(str(k))
        assert row.locator("td.grad").inner_text() == want, k
    assert row.locator("td.data").inner_text() == SHOWN["L0.N2.w1"][0]


def test_find_highlights_opens_cycles_and_says_when_nothing_matches(open_page, small):
    G, page = small
    pg = open_page(page, "#step=final")
    find = pg.get_by_label("Find")
    find.fill("L1.N0.b")  # one match: the products are named L1.N0.w2·x2
    find.press("Enter")
    expect(pg.locator("#found")).to_have_text("1 of 1: L1.N0.b")
    b = _id(G, "L1.N0.b")
    assert pg.locator("#vg-frame-label").text_content().startswith("L1/N0")  # its group opened
    assert pg.locator("#found").inner_text() == "1 of 1: L1.N0.b"
    assert pg.locator("tr.found").get_attribute("data-node") == b
    assert pg.evaluate("""id => {
      const m = document.querySelector("rect.vg-found").getBoundingClientRect();
      const n = document.getElementById("vg-n-" + id).getBoundingClientRect();
      return m.left < n.left && n.right < m.right && m.top < n.top && n.bottom < m.bottom;
    }""", b)
    find.fill("zzz")
    find.press("Enter")
    assert pg.locator("#found").inner_text() == "no match for “zzz”"
    assert pg.locator("rect.vg-found").count() == 0
    find.fill("N1.w0")  # the parameter L0.N1.w0 and the product named after it, L0.N1.w0·x0
    find.press("Enter")
    expect(pg.locator("#found")).to_have_text(re.compile("^1 of 2: L0.N1.w0"))
    find.press("Enter")
    expect(pg.locator("#found")).to_have_text(re.compile("^2 of 2: L0.N1.w0"))
    assert pg.locator("#vg-frame-label").text_content().startswith("L0/N1")
    find.fill("L0/N2")
    find.press("Enter")
    assert pg.locator("#found").inner_text().startswith("1 of 1: L0/N2")
    assert pg.locator("rect.vg-found").count() == 1


def test_the_first_enter_after_a_pause_in_typing_keeps_the_first_match(open_page, small):
    """The pause after typing finds the first match; the Enter that follows keeps it (a quick
    and a slow typist see the same), the next Enter moves on."""
    _, page = small
    pg = open_page(page, "#step=final")
    find = pg.get_by_label("Find")
    find.fill("N1.w0")  # two matches
    expect(pg.locator("#found")).to_have_text(re.compile("^1 of 2: L0.N1.w0"))  # the pause
    find.press("Enter")
    expect(pg.locator("#found")).to_have_text(re.compile("^1 of 2: L0.N1.w0"))
    find.press("Enter")
    expect(pg.locator("#found")).to_have_text(re.compile("^2 of 2: L0.N1.w0"))
    find.press("Shift+Enter")
    expect(pg.locator("#found")).to_have_text(re.compile("^1 of 2: L0.N1.w0"))


def test_find_marks_the_box_of_a_group_that_cannot_be_opened(open_page, monkeypatch):
    G = examples.graph("mlp")
    monkeypatch.setattr(_views, "MAX_VIEWS", 1)
    page = player_html(G, collapse="neuron")
    assert "Opening works for 1 of 4 groups on this page" in page
    pg = open_page(page)
    assert pg.locator("svg [aria-label^='Open group']").count() == 1
    pg.get_by_label("Find").fill("L0.N2.w1")
    pg.get_by_label("Find").press("Enter")
    assert pg.locator("#found").inner_text() == (
        "L0.N2.w1 is inside L0/N2, which cannot be opened on this page")
    assert pg.locator("tr.found th").inner_text() == "L0.N2.w1"
    assert pg.locator("#vg-frame-label").count() == 0


def _width(pg):
    return pg.evaluate("document.querySelector('#stage svg').getBoundingClientRect().width")


def test_zoom_buttons_keys_wheel_and_drag(open_page, course):
    _, page = course
    pg = open_page(page, width=960, height=800)
    natural = _width(pg)
    box = "document.querySelector('#stage svg').getAttribute('viewBox')"
    written = pg.evaluate(box)
    assert pg.locator("#zoom").inner_text() == "100 %"
    pg.get_by_role("button", name="Zoom in").click()
    assert _width(pg) == pytest.approx(natural * 1.25, rel=0.01)
    assert pg.locator("#zoom").inner_text() == "125 %"
    pg.keyboard.press("-")
    pg.keyboard.press("-")
    assert _width(pg) == pytest.approx(natural * 0.8, rel=0.01)
    assert pg.evaluate(box) == written  # the picture is scaled, never redrawn as pixels
    pg.get_by_role("button", name="Fit width").click()
    stage = pg.locator("#stage").bounding_box()
    assert abs(_width(pg) - stage["width"]) < 4
    pg.keyboard.press("+")  # zooming leaves "fit width"
    assert pg.get_by_role("button", name="Fit width").get_attribute("aria-pressed") == "false"
    box = pg.locator("#stage").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    before = _width(pg)
    pg.mouse.move(cx, cy)
    pg.keyboard.down("Control")
    pg.mouse.wheel(0, -200)
    pg.keyboard.up("Control")
    pg.wait_for_function(f"() => document.querySelector('#stage svg')"
                         f".getBoundingClientRect().width > {before * 1.2}")
    left = pg.evaluate("document.getElementById('stage').scrollLeft")
    pg.mouse.move(cx, cy)
    pg.mouse.down()
    pg.mouse.move(cx - 150, cy, steps=5)
    pg.mouse.up()
    assert (pg.evaluate("document.getElementById('stage').scrollLeft")
            == pytest.approx(left + 150, abs=2))
    assert pg.locator("#vg-frame-label").count() == 0  # a drag is not a click on a box


def test_an_opened_chinese_page_has_no_english_words(open_page, small):
    G = examples.graph("mlp")
    pg = open_page(player_html(G, collapse="neuron", lang="zh"), "#step=final")
    pg.get_by_role("button", name="展开分组 L0/N1").focus()
    pg.keyboard.press("Enter")
    expect(pg.get_by_role("button", name="收起分组 L0/N1")).to_be_focused()
    pg.get_by_label("查找").fill("zzz")
    pg.get_by_label("查找").press("Enter")
    labels = {str(G.nodes[n].get(k) or n) for n in G.nodes for k in ("label", "name")}
    labels |= {"L0", "L1", "N0", "N1", "N2", "L0/N1"}
    texts = pg.evaluate(TEXT_NODES)
    assert "没有找到“zzz”" in texts
    assert english_words([t for t in texts if t != "没有找到“zzz”"], labels) == []


def test_an_auto_collapsed_net_with_its_loss_in_one_box_opens_a_neuron(open_page):
    """collapse="auto" folds a net's loss into one box before it collapses the net; a view
    with a neuron opened is collapsed from that folded graph too (it was not: the loss's
    values had no place in the picture, and the page raised KeyError 'v127-op')."""
    html = player_html(examples.graph("course-mlp"), collapse="auto")
    pg = open_page(html, "#step=final")
    box = pg.locator("svg [aria-label='Open group L0/N0']").get_attribute("id")
    pg.locator(f"#{box.replace('n-', 't-', 1)}-name").click()
    expect(pg.locator("#vg-frame-label")).to_have_count(1)
    assert pg.locator("#vg-frame-label").text_content().startswith("L0/N0")
    names = pg.locator("svg text.vg-name").all_text_contents()
    assert sum(1 for t in names if t.startswith("loss")) == 1  # the loss still one box
