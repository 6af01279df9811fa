"""Issue 24, item 1: a group opens in place, framed where its box was, every other box at its
rank and order; one colour scale per page; the counter keeps the collapsed steps.

These read the page's data and SVG; tests/render/test_html_groups_in_place.py measures
the same in Chromium."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

import vizgrad
from vizgrad import examples
from vizgrad.graph.collapse import collapse
from vizgrad.player.views import step_map, unpack_view
from vizgrad.player.page import player_html

NS = "{http://www.w3.org/2000/svg}"


def page_data(page: str) -> dict:
    return json.loads(re.search(r'id="vg-data">(.*?)</script>', page, re.S).group(1))


def base_svg(page: str) -> str:
    return re.search(r"(<svg .*?</svg>)", page, re.S).group(1)


def boxes(svg: str) -> dict[str, tuple[float, float, float, float]]:
    """Every value box of a picture: node id → (x, y, width, height)."""
    out = {}
    for r in ET.fromstring(svg).iter(NS + "rect"):
        i = r.get("id") or ""
        if i.startswith("vg-n-"):
            out[i[5:]] = tuple(float(r.get(k)) for k in ("x", "y", "width", "height"))
    return out


def fills(svg: str) -> dict[str, str]:
    return {r.get("id"): r.get("fill") for r in ET.fromstring(svg).iter(NS + "rect")
            if (r.get("id") or "").startswith("vg-c-")}


def _centre(r, axis):
    return r[axis] + r[axis + 2] / 2


def _sign(a: float, b: float) -> int:
    return (a > b + 0.5) - (a < b - 0.5)


def rank_and_order_kept(base: dict, opened: dict, rank_axis: int) -> list[str]:
    """What breaks 'every box keeps its rank and its order within the rank': ``base`` and
    ``opened`` map the same boxes to their rectangles."""
    wrong = []
    names = sorted(base)
    for a in names:
        for b in names:
            ra = _sign(_centre(base[a], rank_axis), _centre(base[b], rank_axis))
            rb = _sign(_centre(opened[a], rank_axis), _centre(opened[b], rank_axis))
            if ra != rb:
                wrong.append(f"rank {a} {b}")
            elif ra == 0 and (_centre(base[a], 1 - rank_axis) < _centre(base[b], 1 - rank_axis)) \
                    != (_centre(opened[a], 1 - rank_axis) < _centre(opened[b], 1 - rank_axis)):
                wrong.append(f"order {a} {b}")
    return wrong


def other_micrograd_net():
    """An MLP of another width and depth, on two samples, with an absolute-error loss."""
    from vizgrad.core.nn import MLP

    net = MLP(3, [3, 2, 1], seed=7)
    xs, ys = [[1.0, -2.0, 0.5], [0.5, 3.0, -1.0]], [1.0, -1.0]
    loss = sum((((net(x) - y) ** 2) ** 0.5 for x, y in zip(xs, ys)), vizgrad.Value(0.0))
    return loss, net


CASES = [("mlp", "neuron", "LR"), ("mlp", "layer", "TB"), ("other", "neuron", "LR"),
         ("other", "layer", "LR")]


@pytest.fixture(scope="module", params=CASES, ids=["-".join(c) for c in CASES])
def page(request):
    name, level, rankdir = request.param
    if name == "mlp":
        G = examples.graph("mlp")
        return G, level, rankdir, player_html(G, collapse=level, rankdir=rankdir)
    loss, net = other_micrograd_net()
    G = vizgrad.to_networkx(vizgrad.trace(loss, model=net))
    return G, level, rankdir, player_html(G, collapse=level, rankdir=rankdir)


def test_every_other_box_keeps_its_rank_and_order_and_members_lie_in_their_frames(page):
    G, level, rankdir, html = page
    data = page_data(html)
    base = boxes(base_svg(html))
    path_of = {b: p for p, b in data["boxes"].items()}
    nested = 0
    assert data["views"] and not data["left_out"]
    for packed in data["views"]:
        view = unpack_view(packed)
        frames = view["frames"]
        top = frames[0]["path"]
        nested += len(frames) > 1
        shown = boxes(view["svg"])
        others = {n: r for n, r in base.items() if path_of.get(n) != top}
        moved = {n: shown[view["boxes"][path_of[n]] if n in path_of else n] for n in others}
        assert rank_and_order_kept(others, moved, 0 if rankdir == "LR" else 1) == [], view["open"]
        for outer, inner in zip(frames, frames[1:]):  # a frame lies inside its parent's
            x, y, w, h = outer["rect"]
            ix, iy, iw, ih = inner["rect"]
            assert x < ix and ix + iw < x + w and y < iy and iy + ih < y + h
        x, y, w, h = frames[-1]["rect"]
        group = {n: str(G.nodes[n].get("group") or "") for n in shown if n in G}
        group.update({b: p for p, b in view["boxes"].items()})
        inside = [n for n, g in group.items()
                  if g == frames[-1]["path"] or g.startswith(frames[-1]["path"] + "/")]
        assert inside, view["open"]
        for n in inside:
            bx, by, bw, bh = shown[n]
            assert x < bx and bx + bw < x + w and y < by and by + bh < y + h, (view["open"], n)
        # the label in the frame's band, above every box inside
        lx, ly = frames[-1]["at"]
        assert all(ly < shown[n][1] for n in inside)
    assert nested == (0 if level == "neuron" else len(data["views"]) - len(data["boxes"]))


def test_the_colour_scale_is_one_for_the_page(page):
    G, level, _, html = page
    data = page_data(html)
    scale = re.search(r"full colour at \|grad\| ≥ ([0-9.e−-]+)", html).group(1)
    base = fills(base_svg(html))
    for packed in data["views"]:
        view = unpack_view(packed)
        assert f"full colour at |grad| ≥ {scale}" in view["svg"]
        outside = [n for n in boxes(view["svg"]) if n in G and not G.nodes[n].get("group")
                   and f"vg-c-{n}-grad" in base]
        assert outside
        for n in outside:  # an unchanged box: the same colour open or closed
            assert fills(view["svg"])[f"vg-c-{n}-grad"] == base[f"vg-c-{n}-grad"], n


def test_each_step_of_a_view_names_the_collapsed_step_it_belongs_to():
    G = examples.graph("mlp")
    H = collapse(G, "neuron")
    E = collapse(G, "neuron", expand=["L0/N1"])
    box = next(b for b in H if H.nodes[b].get("group") == "L0/N1")
    rows = step_map(H, E, ["L0/N1"])
    assert len(rows) == len(E.graph["steps"])
    for s, (k, i, n, path) in zip(E.graph["steps"], rows):
        h = H.graph["steps"][k]
        if s.get("node") in E and E.nodes[s["node"]].get("group") == "L0/N1":
            assert (h["node"], h["kind"] == "forward") == (box, s["kind"] == "forward")
            assert path == "L0/N1" and 1 <= i <= n
        else:
            assert (h["from"], path, i, n) == (s["from"], "", 0, 0)
    backward = [r for r, s in zip(rows, E.graph["steps"]) if r[3] and s["kind"] == "backward"]
    assert [r[1] for r in backward] == list(range(1, len(backward) + 1))
    assert {r[2] for r in backward} == {len(backward)} and len(backward) == 5


def test_an_opened_groups_parameters_stay_parameters_in_the_table():
    from vizgrad.scene import scene_of
    from vizgrad.scene.opened import open_scene
    from vizgrad.player.views import table_rows

    G = examples.graph("mlp")
    s = open_scene(collapse(G, "neuron", expand=["L0/N1"]), base=scene_of(collapse(G, "neuron")),
                  source=G)
    how = {r["name"]: r["how"] for r in table_rows(s, G)}
    assert how["L0.N1.w0"] == how["L0.N1.b"] == "parameter of L0/N1"
    assert how["x0"] == "input node"


def test_a_layer_opens_to_its_neurons_and_a_neuron_inside_it_opens_too():
    G = examples.graph("mlp")
    L0 = collapse(G, "layer", expand=["L0"])
    assert sorted(str(a["group"]) for _, a in L0.nodes(data=True) if a.get("kind") == "group") \
        == ["L0/N0", "L0/N1", "L0/N2", "L1"]
    N1 = collapse(G, "layer", expand=["L0", "L0/N1"])
    assert sum(1 for _, g in N1.nodes(data="group") if g == "L0/N1") == 8


@pytest.mark.parametrize("graph, want", [("fork", "a label: a, u, q"),
                                         ("mlp", "a label: x0, L0.N0.b, L0/N1")])
def test_the_find_box_offers_the_graphs_own_labels(graph, want):
    G = examples.graph(graph)
    html = player_html(G, collapse="neuron") if graph == "mlp" else player_html(G)
    assert re.search(r'placeholder="([^"]*)"', html).group(1) == want
    labels = {G.nodes[n].get("label") or G.nodes[n].get("name") for n in G} | {
        str(g) for _, g in G.nodes(data="group") if g}
    assert set(want.split(": ")[1].split(", ")) <= labels


def test_views_beyond_the_limit_are_said_on_the_page():
    G = examples.graph("mlp")
    html = player_html(G, collapse="layer", max_views=3)
    data = page_data(html)
    assert [v["open"] for v in data["views"]] == ["L0", "L1", "L0/N0"]
    assert data["left_out"] == ["L0/N1", "L0/N2", "L1/N0"]
    assert "Opening works for 3 of 6 groups on this page" in html
