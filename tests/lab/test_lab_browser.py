"""The lab page in headless Chromium against a real uvicorn server on 127.0.0.1.

Needs Playwright for Python and Debian's chromium; without them the tests
skip (and CI, with VIZGRAD_REQUIRE_OPTIONAL=1, turns the skip into a failure).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from vizgrad import examples

from ..words import TEXT_NODES, english_words

sync_api = pytest.importorskip("playwright.sync_api",
                               reason="Playwright for Python is not installed")
expect = sync_api.expect
expect.set_options(timeout=15_000)  # the machine may be busy; nothing here measures speed




@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(viewport={"width": 1200, "height": 1000}, locale="en-GB")
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    problems: list[str] = []
    pg.on("pageerror", lambda err: problems.append(str(err)))
    # 4xx answers are part of the protocol (the page shows them); 5xx never are
    pg.on("console", lambda msg: problems.append(msg.text)
          if msg.type == "error" and not msg.text.startswith("Failed to load resource") else None)
    pg.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 500 else None)
    pg.api_calls = []
    pg.on("request", lambda req: pg.api_calls.append(req.url) if "/api/" in req.url else None)
    # the page works offline: nothing but its own server (and data: URLs) is ever asked
    pg.on("request", lambda req: None if req.url.startswith((live_server, "data:"))
          else problems.append(f"external request {req.url}"))
    pg.goto(live_server + "/")
    expect(pg.locator("body")).to_have_attribute("data-ready", "true")
    yield pg
    context.close()
    assert not problems, problems


def set_value(pg, name: str, value: str) -> None:
    pg.get_by_label(f"Input {name} (−20 to 20)").fill(value)


def settled(pg) -> None:
    """Wait until no recomputation is on its way (the step controls wait for it too)."""
    expect(pg.locator("#process")).to_have_attribute("aria-busy", "false")


def test_the_chapter_lab(page):
    pg = page
    # 1. set a and b (away from the defaults and back), each change restarts at step 0
    set_value(pg, "a", "1")
    set_value(pg, "b", "2")
    expect(pg.locator("#metric-output")).to_have_text("pending")
    pg.click("#last")
    expect(pg.locator("#metric-grad-a")).to_have_text("8")  # d/da (ab(a+b)) = 2ab + b² at (1, 2)
    set_value(pg, "a", "-2")
    expect(pg.locator("#step-label")).to_have_text("step 0 / 7")
    expect(pg.locator("#in-a-range")).to_have_value("-2")
    set_value(pg, "b", "3")
    expect(pg.locator("#in-b-range")).to_have_value("3")
    settled(pg)
    expect(pg.locator("#step-label")).to_have_text("step 0 / 7")
    for metric in ("#metric-output", "#metric-grad-a", "#metric-grad-b"):
        expect(pg.locator(metric)).to_have_text("pending")
    rows = pg.locator("#node-table tbody tr")
    expect(rows.nth(2).locator(".data")).to_have_text("pending")
    expect(rows.nth(0).locator(".grad")).to_have_text("—")

    # 2. step to 7 with the keyboard and read -3 and -8
    pg.locator("#next").focus()
    for k in range(1, 8):
        pg.keyboard.press("ArrowRight")
        expect(pg.locator("#step-label")).to_have_text(f"step {k} / 7")
        if k == 3:
            expect(pg.locator("#metric-output")).to_have_text("−6")
            expect(pg.locator("#metric-grad-a")).to_have_text("pending")
    expect(pg.locator("#metric-grad-a")).to_have_text("−3")
    expect(pg.locator("#metric-grad-b")).to_have_text("−8")
    expect(rows.nth(0).locator(".grad")).to_have_text("−3")
    expect(pg.locator("#caption")).to_have_text("step 7 / 7 · backward through u = a × b")
    expect(pg.locator("#vg-cap-1")).to_contain_text("a.grad += b × u.grad = 3 × 1 = 3")
    expect(pg.locator("#vg-cap-1")).to_contain_text("(−6 → −3)")
    expect(pg.locator("#vg-t-v0-grad")).to_have_text("−3")
    check = pg.locator("#check-table")
    expect(check).to_be_visible()
    expect(check.locator("tr[data-input=a] td.error")).to_have_text("4.1933e-10")
    expect(pg.locator("#graph svg")).to_have_count(1)

    # 3. enter 25: an error next to the field, no clamping, nothing recomputed
    calls = len(pg.api_calls)
    set_value(pg, "a", "25")
    error = pg.locator("#in-a-error")
    expect(error).to_contain_text("outside")
    expect(pg.locator("#in-a-number")).to_have_value("25")
    expect(pg.locator("#in-a-number")).to_have_attribute("aria-invalid", "true")
    expect(pg.locator("#in-a-range")).to_have_value("-2")
    pg.wait_for_timeout(400)  # longer than the page's recompute delay
    assert len(pg.api_calls) == calls
    expect(pg.locator("#step-label")).to_have_text("step 7 / 7")
    expect(pg.locator("#metric-grad-a")).to_have_text("−3")

    # 4. switch h and read the new error; backprop does not move
    pg.get_by_label("Central-difference step h").select_option("1e-4")
    expect(check.locator("tr[data-input=a] td.error")).to_have_text("2.5508e-12")
    expect(check.locator("tr[data-input=a] td.backprop")).to_have_text("−3")
    expect(pg.locator("#check-caption")).to_contain_text("h = 1e-4")


def test_inputs_reject_text_and_accept_exact_numbers(page):
    pg = page
    set_value(pg, "b", "abc")
    expect(pg.locator("#in-b-error")).to_contain_text("not a number")
    set_value(pg, "b", "-20.5")
    expect(pg.locator("#in-b-error")).to_contain_text("outside")
    set_value(pg, "b", "2.75")
    expect(pg.locator("#in-b-error")).to_have_text("")
    pg.click("#last")
    expect(pg.locator("#metric-grad-b")).to_have_text("−7")  # a² + 2ab at (-2, 2.75)
    settled(pg)
    pg.locator("#in-a-range").focus()
    pg.keyboard.press("ArrowRight")  # the slider moves a by 0.1 and the field follows
    expect(pg.locator("#in-a-number")).to_have_value("-1.9")
    expect(pg.locator("#step-label")).to_have_text("step 0 / 7")


def test_home_end_and_buttons(page):
    pg = page
    settled(pg)
    pg.locator("body").press("End")
    expect(pg.locator("#step-label")).to_have_text("step 7 / 7")
    expect(pg.locator("#next")).to_be_disabled()
    pg.click("#back")
    expect(pg.locator("#step-label")).to_have_text("step 6 / 7")
    expect(pg.locator("#check-table")).to_be_hidden()
    pg.locator("body").press("Home")
    expect(pg.locator("#step-label")).to_have_text("step 0 / 7")
    expect(pg.locator("#first")).to_be_disabled()


def test_example_picker_and_drawing(page):
    pg = page
    options = pg.locator("#source option")
    expect(options).to_have_count(len(examples.names()) + 1)  # and the expression
    pg.get_by_label("Graph to study").select_option("example:softmax-nll")
    expect(pg.locator("#step-label")).to_have_text("step 0 / 31")
    expect(pg.locator("#inputs .input-row")).to_have_count(4)
    pg.click("#last")
    expect(pg.locator("#metric-grad-z3")).to_have_text(re.compile(r"^−0\.88645038\d+$"))
    expect(pg.locator("#caption")).to_have_text(re.compile(r"^step 31 / 31"))
    svg = pg.locator("#graph svg").evaluate("el => new XMLSerializer().serializeToString(el)")
    ids = {e.get("id") for e in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}rect")}
    assert {"vg-n-v0", "vg-n-v1"} <= ids
    # the active row is the active box, in the one highlight colour
    active = pg.locator("#node-table tr.active").get_attribute("data-node")
    expect(pg.locator(f"#vg-n-{active}")).to_have_attribute("stroke", "#0072b2")
    wide = pg.locator("#graph svg").get_attribute("viewBox")
    pg.get_by_label("Drawing direction").select_option("TB")
    expect(pg.locator("#graph svg")).not_to_have_attribute("viewBox", wide)


def test_expression_box(page):
    pg = page
    pg.get_by_label("Graph to study").select_option("expression")
    box = pg.get_by_label("Expression")
    box.fill("x*y + x")
    box.press("Enter")
    expect(pg.locator("#inputs .input-row")).to_have_count(2)
    expect(pg.locator("#in-x-number")).to_have_value("1")
    pg.click("#last")
    expect(pg.locator("#metric-grad-x")).to_have_text("2")
    box.fill("x*(y +")
    box.press("Enter")
    expect(pg.locator("#expression-error")).to_contain_text("column")
    expect(pg.locator("#metric-grad-x")).to_have_text("2")  # the last good graph stays
    box.fill("log(x)")
    box.press("Enter")
    expect(pg.locator("#inputs .input-row")).to_have_count(1)
    set_value(pg, "x", "-1")  # in range, but outside log's domain
    expect(pg.locator("#in-x-error")).to_contain_text("log")
    expect(pg.locator("#in-x-number")).to_have_value("-1")
    expect(pg.locator("#in-x-range")).to_have_value("1")  # the last value that computed
    pg.click("#last")
    expect(pg.locator("#metric-grad-x")).to_have_text("1")  # d/dx log x at x = 1


def test_the_address_keeps_the_state(browser, live_server):
    context = browser.new_context()
    pg = context.new_page()
    try:
        pg.goto(live_server + "/#example=fork&v.a=1&v.b=2&v.zz=3&step=7&h=1e-4")
        expect(pg.locator("body")).to_have_attribute("data-ready", "true")
        expect(pg.locator("#step-label")).to_have_text("step 7 / 7")
        expect(pg.locator("#vg-t-v0-grad")).to_have_text("8")
        expect(pg.locator("#metric-grad-a")).to_have_text("8")
        expect(pg.locator("#check-caption")).to_contain_text("h = 1e-4")
        pg.click("#first")
        expect(pg.locator("#step-label")).to_have_text("step 0 / 7")
        assert "step=0" in pg.evaluate("location.hash")
        pg.goto(live_server + "/#expression=x*x&v.x=25&step=2")
        pg.reload()
        expect(pg.locator("body")).to_have_attribute("data-ready", "true")
        expect(pg.locator("#status")).to_contain_text("x = 25")  # out of range: ignored, said aloud
        expect(pg.locator("#in-x-number")).to_have_value("1")
        expect(pg.locator("#step-label")).to_have_text("step 2 / 3")
    finally:
        context.close()


def test_rapid_slider_moves_end_on_the_last_value(page):
    pg = page
    settled(pg)
    pg.locator("#in-a-range").focus()
    for _ in range(5):
        pg.keyboard.press("ArrowRight")  # faster than the page's recompute delay
    expect(pg.locator("#in-a-number")).to_have_value("-1.5")
    settled(pg)
    pg.click("#last")
    expect(pg.locator("#node-table tbody tr").nth(0).locator(".data")).to_have_text("−1.5")
    expect(pg.locator("#metric-grad-a")).to_have_text("0")  # 2ab + b² at (-1.5, 3)
    expect(pg.locator("#check-table tr[data-input=a] td.backprop")).to_have_text("0")


@pytest.fixture
def zh_page(browser, live_server):
    """The lab in a browser that prefers Chinese, in a 1400 × 1000 window."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="zh-CN")
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    problems: list[str] = []
    pg.on("pageerror", lambda err: problems.append(str(err)))
    pg.goto(live_server + "/")
    expect(pg.locator("body")).to_have_attribute("data-ready", "true")
    yield pg
    context.close()
    assert not problems, problems


def test_the_chapter_lab_in_chinese(zh_page):
    pg = zh_page
    expect(pg.locator("html")).to_have_attribute("lang", "zh-CN")
    expect(pg.locator("#lang")).to_have_value("zh")
    pg.get_by_label("输入 a（−20–20）").fill("1")
    pg.get_by_label("输入 a（−20–20）").fill("-2")
    pg.get_by_label("输入 b（−20–20）").fill("3")
    settled(pg)
    expect(pg.locator("#step-label")).to_have_text("步骤 0 / 7")
    expect(pg.locator("#metric-output")).to_have_text("待计算")
    expect(pg.locator("#vg-t-v2-data")).to_have_text("待计算")
    expect(pg.locator("#in-a-hint")).to_have_text("用于 u = a × b；v = a + b。")  # a Chinese list
    pg.locator("#next").focus()
    pg.keyboard.press("End")
    expect(pg.locator("#step-label")).to_have_text("步骤 7 / 7")
    expect(pg.locator("#metric-grad-a")).to_have_text("−3")
    expect(pg.locator("#metric-grad-b")).to_have_text("−8")
    expect(pg.locator("#vg-t-v0-grad")).to_have_text("−3")
    expect(pg.locator("#vg-t-v1-grad")).to_have_text("−8")
    expect(pg.locator("#caption")).to_have_text("步骤 7 / 7 · 反向经过 u = a × b")
    check = pg.locator("#check-table tr[data-input=a]")
    h = pg.get_by_label("中心差分步长 h")
    h.select_option("1e-4")  # away and back: the error follows h, backprop does not move
    expect(check.locator("td.error")).to_have_text("2.5508e-12")
    h.select_option("1e-6")
    expect(check.locator("td.error")).to_have_text("4.1933e-10")
    expect(check.locator("td.backprop")).to_have_text("−3")
    expect(pg.locator("#check-caption")).to_contain_text("h = 1e-6")
    heads = pg.evaluate('() => [...document.querySelectorAll("#check-table thead th")]'
                        '.map((th) => th.textContent.trim())')
    cells = pg.evaluate(
        '() => [...document.querySelectorAll("#check-table tr[data-input=a] td")].map((td) =>'
        ' [td.dataset.label, td.getBoundingClientRect().height])')
    assert [label for label, _ in cells] == heads[1:]  # each number under its labelled line
    assert all(height < 40 for _, height in cells), cells  # 反向传播 on one line, not one
    # character per line
    calls: list[str] = []
    pg.on("request", lambda req: calls.append(req.url) if "/api/" in req.url else None)
    pg.get_by_label("输入 a（−20–20）").fill("25")
    error = pg.locator("#in-a-error")
    expect(error).to_have_text("25 超出 [−20, 20]，不会被截断。a 仍为 −2；没有重新计算。")
    expect(pg.locator("#in-a-number")).to_have_value("25")  # nothing clamped
    expect(pg.locator("#in-a-number")).to_have_attribute("aria-invalid", "true")
    expect(pg.locator("#in-a-range")).to_have_value("-2")
    pg.wait_for_timeout(400)  # longer than the page's recompute delay
    assert calls == []  # nothing recomputed
    expect(pg.locator("#step-label")).to_have_text("步骤 7 / 7")
    expect(pg.locator("#metric-grad-a")).to_have_text("−3")
    expect(pg.locator("#metric-grad-b")).to_have_text("−8")
    expect(h).to_have_value("1e-6")
    G = examples.graph("fork")
    labels = {str(G.nodes[n].get(k) or n) for n in G.nodes for k in ("label", "name")}
    assert english_words(pg.evaluate(TEXT_NODES), labels) == []
    # the switch changes every word, the picture too
    pg.locator("#lang").select_option("en")
    expect(pg.locator("#step-label")).to_have_text("step 7 / 7")
    expect(pg.locator("#vg-cap-0")).to_have_text("step 7 / 7 · backward through u = a × b")
    assert "step" in english_words(pg.evaluate(TEXT_NODES), labels)


def test_inputs_and_graph_are_visible_together(zh_page):
    pg = zh_page
    box = {name: pg.locator(sel).bounding_box() for name, sel in
           (("a", "#in-a-number"), ("b", "#in-b-range"), ("graph", "#graph svg"),
            ("stepper", "#next"))}
    for name, b in box.items():
        assert b is not None and b["width"] > 0, name
        assert 0 <= b["x"] and b["x"] + b["width"] <= 1400, name
        assert 0 <= b["y"] and b["y"] + b["height"] <= 1000, name
    assert box["a"]["x"] + box["a"]["width"] <= box["graph"]["x"]  # side by side


def test_the_lab_picture_never_moves(zh_page):
    pg = zh_page
    where = """() => {
      const box = document.getElementById("graph");
      const b = box.getBoundingClientRect(), g = box.querySelector("svg").getBoundingClientRect();
      return [b.x, b.y, b.width, b.height, g.x + box.scrollLeft, g.y + box.scrollTop, g.width]
        .map(Math.round);
    }"""
    settled(pg)
    expect(pg.locator("#graph")).to_have_attribute("aria-busy", "false")
    expect(pg.locator("#graph svg")).to_have_count(1)
    first = pg.evaluate(where)
    pg.locator("#next").focus()
    for k in range(1, 8):
        pg.keyboard.press("ArrowRight")
        expect(pg.locator("#step-label")).to_have_text(f"步骤 {k} / 7")
        assert pg.evaluate(where) == first, k


def test_a_grouped_example_can_be_drawn_collapsed(page):
    pg = page
    expect(pg.locator("#collapse-field")).to_be_hidden()  # the fork has no groups
    pg.get_by_label("Graph to study").select_option("example:mlp")
    expect(pg.locator("#collapse-field")).to_be_visible()
    pg.click("#last")
    full = pg.locator("#step-label").inner_text()
    pg.get_by_label("Groups").select_option("neuron")
    expect(pg.locator("#step-label")).to_have_text("step 13 / 13")  # still after the last step
    expect(pg.locator("#vg-n-g0")).to_have_count(1)
    assert "collapse=neuron" in pg.evaluate("location.hash")
    pg.reload()  # the address keeps the way the graph is drawn
    expect(pg.locator("body")).to_have_attribute("data-ready", "true")
    expect(pg.locator("#step-label")).to_have_text("step 13 / 13")
    expect(pg.get_by_label("Groups")).to_have_value("neuron")
    row = pg.locator("#node-table tr.param", has_text="L1.N0.w1")
    expect(row.locator(".grad")).not_to_have_text("—")
    pg.click("#first")
    expect(row.locator(".grad")).to_have_text("—")
    assert pg.locator("#node-table tr.param").count() == 13  # every weight and bias
    pg.click("#last")
    box = pg.get_by_role("button", name="Open group L1/N0")
    box.focus()
    pg.keyboard.press("Enter")  # opens the group, at the same point of the backward pass
    expect(pg.get_by_role("button", name="Close group L1/N0")).to_be_focused()
    # the steps counted as in the collapsed picture (the last: L0/N0's, not L1/N0's)
    expect(pg.locator("#step-label")).to_have_text("step 13 / 13")
    expect(pg.locator("#node-table tr[data-node] th", has_text=re.compile(r"^L1\.N0\.w1$"))
           ).to_have_count(1)  # a member's own row, where the box's parameter row was
    pg.keyboard.press("Escape")
    expect(pg.get_by_role("button", name="Open group L1/N0")).to_be_focused()
    expect(pg.locator("#step-label")).to_have_text("step 13 / 13")
    pg.get_by_label("Groups").select_option("")  # the last step stays the last
    expect(pg.locator("#step-label")).to_have_text(full)
    expect(pg.locator("#node-table tr.param")).to_have_count(0)
    width = pg.evaluate("document.querySelector('#graph svg').getBoundingClientRect().width")
    pg.get_by_role("button", name="Zoom in").click()
    expect(pg.locator("#zoom")).not_to_have_text("100 %")
    wider = pg.evaluate("document.querySelector('#graph svg').getBoundingClientRect().width")
    assert wider == pytest.approx(width * 1.25, rel=0.02)
    pg.get_by_label("Graph to study").select_option("example:fork")
    expect(pg.locator("#collapse-field")).to_be_hidden()
    expect(pg.locator("#step-label")).to_have_text("step 0 / 7")


def test_several_groups_stay_open_in_place(page):
    """Issue 24: the lab opens groups in place, several at once, each framed where its box
    was; a frame's label closes its group, Esc all of them."""
    pg = page
    pg.get_by_label("Graph to study").select_option("example:mlp")
    pg.get_by_label("Groups").select_option("neuron")
    expect(pg.locator("#vg-n-g0")).to_have_count(1)
    loss = "document.getElementById('vg-n-v39').getBoundingClientRect().height"
    height = pg.evaluate(loss)
    for path in ("L0/N0", "L1/N0"):
        pg.get_by_role("button", name=f"Open group {path}").focus()
        pg.keyboard.press("Enter")
        expect(pg.get_by_role("button", name=f"Close group {path}")).to_be_focused()
    expect(pg.locator("#graph .vg-frame")).to_have_count(2)
    assert pg.evaluate(loss) == pytest.approx(height, abs=0.5)  # the text keeps its size
    expect(pg.locator("#step-label")).to_have_text("step 0 / 13")
    pg.locator("#next").click()
    pg.locator("#next").click()  # the second step inside L0/N0: its forward pass
    expect(pg.locator("#step-label")).to_have_text("step 1 / 13 (inside L0/N0: 2 of 5)")
    members = """path => {
      const f = document.querySelector(`.vg-frame[data-path="${path}"] rect`)
        .getBoundingClientRect();
      return Array.from(document.querySelectorAll('#graph rect[id^="vg-n-"]'))
        .map((r) => r.getBoundingClientRect())
        .filter((r) => r.left >= f.left && r.right <= f.right && r.top >= f.top
                       && r.bottom <= f.bottom).length;
    }"""
    assert pg.evaluate(members, "L0/N0") >= 5 and pg.evaluate(members, "L1/N0") >= 5
    pg.get_by_role("button", name="Close group L0/N0").press("Enter")
    expect(pg.locator("#graph .vg-frame")).to_have_count(1)
    expect(pg.get_by_role("button", name="Close group L1/N0")).to_have_count(1)
    expect(pg.get_by_role("button", name="Open group L0/N0")).to_be_focused()
    pg.keyboard.press("Escape")
    expect(pg.locator("#graph .vg-frame")).to_have_count(0)


def test_the_lab_has_the_players_find_box(page):
    """Issue 24: the same find box as the player; a value inside a closed group opens it."""
    pg = page
    find = pg.get_by_label("Find")
    expect(find).to_have_attribute("placeholder", "a label: a, u, q")  # the fork's own
    find.fill("u")
    find.press("Enter")
    expect(pg.locator("#found")).to_have_text("1 of 1: u")
    expect(pg.locator("#graph rect.vg-found")).to_have_count(1)
    pg.get_by_label("Graph to study").select_option("example:mlp")
    pg.get_by_label("Groups").select_option("layer")
    expect(pg.locator("#vg-n-g0")).to_have_count(1)
    expect(find).to_have_attribute("placeholder", re.compile(r"^a label: x0, L0\.N0\.b, L"))
    find.fill("L0.N1.w1")  # inside the neuron L0/N1 of the layer L0: both open
    find.press("Enter")
    expect(pg.locator("#found")).to_have_text("1 of 2: L0.N1.w1")  # and L0.N1.w1·x1
    expect(pg.locator("#graph .vg-frame")).to_have_count(2)
    assert pg.locator("#graph .vg-frame").evaluate_all(
        "els => els.map((e) => e.dataset.path)") == ["L0", "L0/N1"]
    expect(pg.locator("#graph rect.vg-found")).to_have_count(1)
    expect(pg.locator("#node-table tr.found th")).to_have_text("L0.N1.w1")
