"""The step player on a phone (390×844 in Chromium): the caption is read whole, each backward
step brings the boxes it changes into view, no text under 12 px at the default zoom, and
no table wider than the screen. Uses the Chromium fixture of tests/conftest.py.
"""

from __future__ import annotations

import random

import pytest

import vizgrad
from vizgrad import examples
from vizgrad.player.page import player_html

mg_nn = pytest.importorskip("micrograd.nn", reason="micrograd==0.1.0 is a test dependency")
pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

W, H = 390, 844

#: every text node on screen: its rendered size in px (an SVG text scaled by its matrix)
SMALLEST = """() => {
  let min = Infinity, what = "";
  for (const el of document.querySelectorAll("body *")) {
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || r.bottom < 0 || r.top > innerHeight || r.right < 0
        || r.left > innerWidth || getComputedStyle(el).visibility === "hidden") continue;
    const stage = el.closest("#stage");
    if (stage) {
      const s = stage.getBoundingClientRect();
      if (r.bottom < s.top || r.top > s.bottom || r.right < s.left || r.left > s.right) continue;
    }
    let px = parseFloat(getComputedStyle(el).fontSize);
    if (el.closest("svg")) { const m = el.getScreenCTM(); px = parseFloat(el.getAttribute(
      "font-size") || px) * Math.hypot(m.a, m.b); }
    if (px < min) { min = px; what = el.textContent.trim().slice(0, 40); }
  }
  return [min, what];
}"""

#: how far each table reaches to the right, and whether its box scrolls sideways
TABLES = """() => [...document.querySelectorAll("table")].map((t) => {
  const wrap = t.closest(".table-wrap") || t.parentElement;
  return [t.getBoundingClientRect().right, wrap.scrollWidth - wrap.clientWidth];
})"""

#: whether the box of a node intersects both the window and the picture's scroll box (null:
#: a box that shows no grad, a constant, which a backward step does not change)
SEEN = """(id) => {
  const b = document.getElementById("vg-n-" + id);
  if (!b || !document.getElementById("vg-t-" + id + "-grad")) return null;  // no grad shown
  const r = b.getBoundingClientRect(), s = document.getElementById("stage").getBoundingClientRect();
  const bar = document.querySelector(".bar").getBoundingClientRect();
  const top = Math.max(0, s.top, bar.bottom), bottom = Math.min(innerHeight, s.bottom);
  return r.right > Math.max(0, s.left) && r.left < Math.min(innerWidth, s.right)
    && r.bottom > top && r.top < bottom;
}"""


#: how wide the boxes of some nodes lie together, in px
SPAN = """(ids) => {
  const rs = ids.map((id) => document.getElementById("vg-n-" + id).getBoundingClientRect());
  return rs.length ? Math.max(...rs.map((r) => r.right)) - Math.min(...rs.map((r) => r.left)) : 0;
}"""


def course_graph():
    """The micrograd course's MLP(3, [4, 4, 1]) on one sample, folded by neuron."""
    random.seed(0)
    net = mg_nn.MLP(3, [4, 4, 1])
    loss = (net([2.0, 3.0, -1.0]) - 1.0) ** 2
    loss.backward()
    return vizgrad.to_networkx(vizgrad.trace(loss, model=net))


@pytest.fixture(scope="module", params=["fork", "course"])
def page(request):
    if request.param == "fork":
        G = examples.graph("fork")
        return G, player_html(G)
    G = course_graph()
    return vizgrad.draw(G, collapse="neuron").graph, player_html(G, collapse="neuron")


def test_every_backward_step_reads_on_a_phone(open_page, page):
    G, html = page
    pg = open_page(html, width=W, height=H, reduced_motion="reduce")
    steps = G.graph["steps"]
    checked = 0
    for k in range(1, len(steps)):
        pg.keyboard.press("ArrowRight")
        if steps[k]["kind"] != "backward":
            continue
        cap = pg.locator("#cap").bounding_box()
        assert cap["x"] >= 0 and cap["x"] + cap["width"] <= W  # read whole, not cut
        assert pg.evaluate("(c) => c.scrollWidth <= c.clientWidth",
                           pg.locator("#cap").element_handle())
        assert pg.locator("#cap").inner_text().startswith(f"backward\nstep {k} /") or \
            f"step {k} /" in pg.locator("#cap").inner_text()
        targets = {str(c["target"]) for c in steps[k].get("contributions", ())}
        seen = {t: pg.evaluate(SEEN, t) for t in targets}
        if pg.evaluate(SPAN, [t for t in targets if seen[t] is not None]) <= W - 2 * 12:
            assert all(v is not False for v in seen.values()), (k, seen)
        else:  # wider than the screen (a layer of neurons side by side): it cuts into one
            assert any(seen.values()), (k, seen)
        smallest, what = pg.evaluate(SMALLEST)
        assert smallest >= 12, (k, smallest, what)
        checked += 1
    assert checked >= 3
    for right, sideways in pg.evaluate(TABLES):
        assert right <= W and sideways <= 0


#: whether any input box lies in the picture's scroll box and in the window
INPUT_SEEN = """() => {
  const s = document.getElementById("stage").getBoundingClientRect();
  return [...document.querySelectorAll("#stage .vg-input, #stage .vg-inputs")].some((b) => {
    const r = b.getBoundingClientRect();
    return r.right > Math.max(0, s.left) && r.left < Math.min(innerWidth, s.right)
      && r.bottom > Math.max(0, s.top) && r.top < Math.min(innerHeight, s.bottom);
  });
}"""


@pytest.mark.parametrize("name", ["fork", "student"])
def test_the_first_view_on_a_phone_shows_the_caption_and_the_inputs(open_page, name):
    """Step 0 writes nothing: the picture opens on its inputs (a student's net is wider than
    the phone and its inputs box sits far from the top left), and the page stays at its top,
    the caption read first."""
    if name == "fork":
        html = player_html(examples.graph("fork"))
    else:
        random.seed(11)
        net = mg_nn.MLP(4, [7, 5, 1])
        xs = [[0.5, -1.0, 0.3, 0.8], [-0.2, 0.4, 1.1, -0.6], [0.9, 0.1, -0.7, 0.2]]
        loss = sum(((net(x) - y) ** 2 for x, y in zip(xs, [1.0, -1.0, 0.5])), 0.0)
        loss.backward()
        html = player_html(vizgrad.to_networkx(vizgrad.trace(loss, model=net)))
    pg = open_page(html, width=W, height=H, reduced_motion="reduce")
    assert pg.evaluate("() => window.scrollY") == 0
    assert pg.locator("#cap").bounding_box()["y"] >= 0
    assert pg.evaluate(INPUT_SEEN)
