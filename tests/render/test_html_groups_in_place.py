"""Issue 24, item 1, in Chromium: a group opens in place (framed where its box was, every
other box at its rank and order, back within 1 px when closed), with one colour scale, the
collapsed step counter and the graph's own labels in the find box.

Uses the Chromium fixture of tests/conftest.py (a skip fails in CI)."""

from __future__ import annotations

import random

import pytest

import vizgrad
from vizgrad import examples
from vizgrad.player.page import player_html

from .test_groups_in_place import other_micrograd_net, rank_and_order_kept

mg_nn = pytest.importorskip("micrograd.nn", reason="micrograd==0.1.0 is a test dependency")
expect = pytest.importorskip("playwright.sync_api",
                             reason="Playwright for Python is not installed").expect

# every box, edge label and frame label of the picture on screen, in CSS px from its corner
_MEASURE = """() => {
  const svg = document.querySelector('#stage svg');
  const o = svg.getBoundingClientRect();
  const rect = (el) => { const r = el.getBoundingClientRect();
                         return [r.left - o.left, r.top - o.top, r.width, r.height]; };
  const pick = (sel, cut) => Object.fromEntries(Array.from(svg.querySelectorAll(sel))
    .map((el) => [el.id.slice(cut), rect(el)]));
  return {boxes: pick('rect[id^="vg-n-"]', 5), labels: pick('rect[id^="vg-lb-"]', 6),
          frames: Array.from(svg.querySelectorAll('.vg-frame')).map((g) => ({
            path: g.dataset.path, rect: rect(g.querySelector('rect')),
            label: rect(svg.querySelector('.vg-frame-label[data-path="' + g.dataset.path + '"]'))
          })),
          boxOf: Object.fromEntries(Array.from(svg.querySelectorAll('[aria-label^="Open group"]'))
            .map((el) => [el.getAttribute('aria-label').slice(11), el.id.slice(5)]))};
}"""


def _overlap(a, b) -> float:
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _inside(inner, outer) -> bool:
    return (outer[0] <= inner[0] and inner[0] + inner[2] <= outer[0] + outer[2]
            and outer[1] <= inner[1] and inner[1] + inner[3] <= outer[1] + outer[3])


def _open(pg, path):
    pg.get_by_role("button", name=f"Open group {path}").focus()
    pg.keyboard.press("Enter")
    expect(pg.get_by_role("button", name=f"Close group {path}")).to_be_focused()


def _close(pg, path):
    pg.get_by_role("button", name=f"Close group {path}").press("Enter")
    expect(pg.get_by_role("button", name=f"Close group {path}")).to_have_count(0)


def _check_open(before, after, opened, members, rank_axis=0):
    """Every other box at its rank and order; members in the frame; no label on a box."""
    path_before = {b: p for p, b in before["boxOf"].items()}
    others = {n: r for n, r in before["boxes"].items() if path_before.get(n) != opened}
    moved = {n: after["boxes"][after["boxOf"][path_before[n]] if n in path_before else n]
             for n in others}
    assert rank_and_order_kept(others, moved, rank_axis) == []
    frame = next(f for f in after["frames"] if f["path"] == opened)
    drawn = [m for m in members if m in after["boxes"]]  # input copies are drawn once
    assert len(drawn) >= 3 and all(_inside(after["boxes"][m], frame["rect"]) for m in drawn)
    for name, box in after["boxes"].items():
        for lid, label in after["labels"].items():
            assert _overlap(label, box) < 1.0, (lid, name)
        for f in after["frames"]:
            assert _overlap(f["label"], box) < 1.0, (f["path"], name)


def _members(G, path):
    return [n for n in G if str(G.nodes[n].get("group") or "") == path]


def _course():
    random.seed(0)
    net = mg_nn.MLP(3, [4, 4, 1])
    loss = (net([2.0, 3.0, -1.0]) - 1.0) ** 2
    loss.backward()
    return vizgrad.to_networkx(vizgrad.trace(loss, model=net))


def _other():
    loss, net = other_micrograd_net()
    return vizgrad.to_networkx(vizgrad.trace(loss, model=net))


@pytest.mark.parametrize("graph, path", [("mlp", "L0/N1"), ("mlp", "L1/N0"),
                                         ("course", "L1/N1"), ("other", "L1/N0")])
def test_a_group_opens_in_place_and_closes_back(open_page, graph, path):
    G = {"mlp": lambda: examples.graph("mlp"), "course": _course, "other": _other}[graph]()
    pg = open_page(player_html(G, collapse="neuron", rankdir="LR"), "#step=final",
                   reduced_motion="reduce")
    before = pg.evaluate(_MEASURE)
    _open(pg, path)
    after = pg.evaluate(_MEASURE)
    _check_open(before, after, path, _members(G, path))
    _close(pg, path)
    again = pg.evaluate(_MEASURE)
    assert again["boxes"].keys() == before["boxes"].keys()
    for n, r in before["boxes"].items():  # every box within 1 px of where it was
        assert all(abs(a - b) <= 1.0 for a, b in zip(r, again["boxes"][n])), n


@pytest.mark.parametrize("graph", ["mlp", "other"])
def test_a_neuron_opens_inside_an_opened_layer(open_page, graph):
    G = examples.graph("mlp") if graph == "mlp" else _other()
    pg = open_page(player_html(G, collapse="layer", rankdir="LR"), "#step=final",
                   reduced_motion="reduce")
    base = pg.evaluate(_MEASURE)
    _open(pg, "L0")
    layer = pg.evaluate(_MEASURE)
    _open(pg, "L0/N1")
    neuron = pg.evaluate(_MEASURE)
    assert [f["path"] for f in neuron["frames"]] == ["L0", "L0/N1"]
    _check_open(layer, neuron, "L0/N1", _members(G, "L0/N1"))
    outer, inner = neuron["frames"]
    assert _inside(inner["rect"], outer["rect"])
    _close(pg, "L0/N1")  # back to the layer opened, every box where it was
    assert [f["path"] for f in pg.evaluate(_MEASURE)["frames"]] == ["L0"]
    for n, r in layer["boxes"].items():
        assert all(abs(a - b) <= 1.0 for a, b in zip(r, pg.evaluate(_MEASURE)["boxes"][n])), n
    pg.keyboard.press("Escape")
    for n, r in base["boxes"].items():
        assert all(abs(a - b) <= 1.0 for a, b in zip(r, pg.evaluate(_MEASURE)["boxes"][n])), n


def test_the_counter_keeps_the_collapsed_steps_and_colours_stay(open_page):
    G = examples.graph("mlp")
    pg = open_page(player_html(G, collapse="neuron"), "#step=12", reduced_motion="reduce")
    fill = "(id) => getComputedStyle(document.getElementById(id)).fill"
    kept = [f"vg-c-{n}-grad" for n in G if not G.nodes[n].get("group")
            and pg.locator(f"#vg-c-{n}-grad").count()]
    colours = {c: pg.evaluate(fill, c) for c in kept}
    texts = {c: pg.locator("#" + c.replace("-c-", "-t-")).text_content() for c in kept}
    size = pg.evaluate("document.getElementById('vg-t-v39-name').getBoundingClientRect().height")
    assert pg.locator("#counter").inner_text() == "step 12 / 13"
    _open(pg, "L0/N1")
    assert pg.locator("#counter").inner_text() == "step 12 / 13 (inside L0/N1: 1 of 5)"
    same = [c for c in kept  # a box that shows the same grad shows the same colour
            if pg.locator("#" + c.replace("-c-", "-t-")).text_content() == texts[c]]
    assert len(same) >= 2 and {c: pg.evaluate(fill, c) for c in same} == {
        c: colours[c] for c in same}
    assert pg.evaluate("document.getElementById('vg-t-v39-name').getBoundingClientRect()"
                       ".height") == pytest.approx(size, abs=0.01)  # the same text size
    pg.keyboard.press("ArrowRight")
    pg.keyboard.press("ArrowRight")
    assert pg.locator("#counter").inner_text() == "step 12 / 13 (inside L0/N1: 3 of 5)"
    w0 = next(n for n in G if G.nodes[n].get("label") == "L0.N1.w0")
    assert pg.locator(f"tr[data-node='{w0}'] td").first.inner_text() == "parameter of L0/N1"
    pg.keyboard.press("Escape")
    assert pg.locator("#counter").inner_text() == "step 12 / 13"
    pg.keyboard.press("End")  # the final view, open and closed: every colour the same
    final = {c: pg.evaluate(fill, c) for c in kept}
    _open(pg, "L0/N1")
    assert {c: pg.evaluate(fill, c) for c in kept} == final


def test_the_move_is_animated_unless_the_reader_asks_for_less_motion(open_page):
    G = examples.graph("mlp")
    page = player_html(G, collapse="neuron")
    moving = """() => Array.from(document.querySelectorAll('#stage svg .vg-moving'))
                 .map((el) => getComputedStyle(el).transitionDuration)"""
    pg = open_page(page, "#step=final")
    _open(pg, "L0/N1")
    assert set(pg.evaluate(moving)) == {"0.3s"}
    pg.wait_for_timeout(600)
    assert pg.evaluate(moving) == []
    calm = open_page(page, "#step=final", reduced_motion="reduce")
    _open(calm, "L0/N1")
    assert calm.evaluate(moving) == []


@pytest.mark.parametrize("graph, kw, want", [("fork", {}, "a label: a, u, q"),
                                             ("mlp", {"collapse": "neuron"},
                                              "a label: x0, L0.N0.b, L0/N1")])
def test_the_find_box_offers_the_graphs_own_labels(open_page, graph, kw, want):
    pg = open_page(player_html(examples.graph(graph), **kw))
    assert pg.get_by_label("Find").get_attribute("placeholder") == want


def test_a_page_says_when_groups_are_left_out(open_page):
    pg = open_page(player_html(examples.graph("mlp"), collapse="layer", max_views=2))
    expect(pg.locator("#groups-hint")).to_contain_text("Opening works for 2 of 6 groups")
    _open(pg, "L0")
    assert pg.get_by_role("button", name="Open group L0/N1").count() == 0
