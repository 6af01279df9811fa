"""The HTML step player: one self-contained page, one picture and each step's changes."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest

from vizgrad import Value, examples, to_networkx
from vizgrad.exceptions import OptionError
from vizgrad.player.page import player_html
from vizgrad.write.playback import look_at
from vizgrad.scene import scene_of


class Page(HTMLParser):
    """Every start tag with its attributes, the scripts' text and each element's text."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[str] = []
        self._in_script = False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"
        if self._in_script:
            self.scripts.append("")

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts[-1] += data

    def find(self, tag, **attrs):
        return [a for t, a in self.tags
                if t == tag and all(a.get(k) == v for k, v in attrs.items())]


@pytest.fixture(scope="module")
def fork_page() -> str:
    return player_html(examples.graph("fork"))


def _data(page: str) -> dict:
    block = re.search(r'<script type="application/json" id="vg-data">(.*?)</script>', page,
                      re.DOTALL)
    return json.loads(block.group(1))


def _replay(data: dict, k: int) -> dict:
    return look_at(data["playback"], k)


def test_one_svg_with_every_shape_showing_the_final_view(fork_page):
    (svg,) = re.findall(r"<svg\b.*?</svg>", fork_page, flags=re.DOTALL)
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("style") is None
    ids = {e.get("id") for e in root.iter() if e.get("id")}
    scene = scene_of(examples.graph("fork"))
    assert ids >= {"vg-" + s.id for s in scene.shapes}
    texts = {e.get("id"): e.text for e in root.iter("{http://www.w3.org/2000/svg}text")}
    assert texts["vg-t-v0-grad"] == "−3" and texts["vg-t-v1-grad"] == "−8"
    assert texts["vg-cap-0"].startswith("after backward()")
    # hidden shapes are there, ready to be shown by a step
    assert any(e.get("display") == "none" for e in root.iter())


def test_the_changes_replay_every_step(fork_page):
    data = _data(fork_page)
    scene = scene_of(examples.graph("fork"))
    for k in range(8):
        assert _replay(data, k) == scene.look(k), k
    assert _replay(data, 8) == scene.look(None)
    assert data["playback"]["active"][7] == "v2"
    assert [r["id"] for r in data["rows"][:2]] == ["v0", "v1"]
    assert data["rows"][0] == {"id": "v0", "name": "a", "how": "input node", "kind": "input",
                               "on_path": "1", "data": "−2", "grad": "—"}
    # a step changes a few shapes, not the picture
    assert max(len(c) for c in data["playback"]["changes"][1:]) < len(scene.shapes) / 2


def test_ids_are_unique(fork_page):
    ids = [a["id"] for _, a in Page(fork_page).tags if a.get("id")]
    assert len(ids) == len(set(ids))


def test_no_external_resources_and_a_strict_csp(fork_page):
    page = Page(fork_page)
    assert not page.find("link")
    for _, attrs in page.tags:
        for key in ("src", "href", "xlink:href", "action", "data"):
            value = attrs.get(key) or ""
            assert not re.match(r"(?i)\s*(https?:|//|file:)", value), (key, value)
    assert "@import" not in fork_page and "url(http" not in fork_page
    (csp,) = page.find("meta", **{"http-equiv": "Content-Security-Policy"})
    policy = csp["content"]
    assert "default-src 'none'" in policy
    scripts = [a for a in page.find("script") if a.get("type") != "application/json"]
    assert len(scripts) == 2
    for script in page.scripts:  # every script that runs is allowed by its hash
        digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
        if not script.startswith("{"):
            assert f"'sha256-{digest}'" in policy


def test_labelled_controls_and_a_live_counter(fork_page):
    page = Page(fork_page)
    gos = [a["data-go"] for a in page.find("button") if "data-go" in a]
    assert gos == ["first", "prev", "next", "last", "play", "fit"]
    assert all(a.get("type") == "button" for a in page.find("button"))
    assert re.search(r'<button[^>]*data-go="next"[^>]*>Next\b', fork_page)
    assert re.search(r'data-go="prev"[^>]*><span aria-hidden="true">[^<]*</span> Back', fork_page)
    (counter,) = page.find("output", id="counter")
    assert counter["aria-live"] == "polite"
    assert re.search(r'<output id="counter"[^>]*>step 0 / 7</output>', fork_page)
    (slider,) = page.find("input", id="slider")
    assert (slider["min"], slider["max"], slider["value"]) == ("0", "8", "0")  # 8: the final view
    assert page.find("label", **{"for": "slider"})
    assert page.find("nav", **{"aria-label": "step controls"})
    assert page.find("html", lang="en")


def _table(open_page, page: str, at: str = "final") -> str:
    """The node table the page's script builds, at position ``at`` (in Chromium)."""
    return open_page(page, f"#step={at}").inner_html("#nodes tbody")


def _cell(table: str, node: str, column: str) -> str:
    row = re.search(rf'<tr data-node="{node}"[^>]*>(.*?)</tr>', table, flags=re.DOTALL).group(1)
    return re.search(rf'<td class="[^"]*\b{column}\b[^"]*">([^<]*)</td>', row).group(1)


def test_the_table_follows_the_steps_and_the_text_alternative_shows_every_step(fork_page,
                                                                               open_page):
    final = _table(open_page, fork_page)
    assert (_cell(final, "v0", "data"), _cell(final, "v0", "grad")) == ("−2", "−3")
    assert _cell(final, "v1", "grad") == "−8"
    start = _table(open_page, fork_page, "0")
    assert _cell(start, "v2", "data") == "pending" and _cell(start, "v0", "grad") == "—"
    assert '<td class="number grad pending">—</td>' in start
    # without a script the table is hidden, and the page says where the numbers are
    assert ('<noscript><p class="no-script">The table of every value and grad needs '
            "JavaScript") in fork_page
    assert "html:not(.js) .bar, html:not(.js) .hint, html:not(.js) .table-wrap" in fork_page
    steps = re.findall(r'<li class="step-text" value="(\d+)"><p>([^<]*)</p>(.*?)</li>(?=<li|</ol>)',
                       fork_page, flags=re.DOTALL)
    assert [int(k) for k, _, _ in steps] == list(range(9))
    assert steps[7][1] == "step 7 / 7 · backward through u = a × b"
    assert "a.grad += b × u.grad = 3 × 1 = 3" in steps[7][2]
    assert steps[8][1].startswith("after backward()")


def test_off_path_rows_are_marked(open_page):
    page = player_html(examples.graph("softmax-nll"), step=25)
    assert len(re.findall(r'class="output off-path"', _table(open_page, page, "25"))) == 3
    assert 'data-start="25"' in page


def test_labels_are_text_never_markup():
    a = Value(1.0, label='<script>alert("x")</script>')
    b = Value(2.0, label="a & b < c")
    page = player_html(a * b)
    parsed = Page(page)
    assert len(parsed.scripts) == 3  # the player's two and its JSON data
    assert "<script>alert" not in page
    assert "a &amp; b &lt; c" in page
    assert "\\u003cscript\\u003ealert" in page  # inside the JSON data block


def test_deterministic_and_options():
    G = examples.graph("fork")
    assert player_html(G) == player_html(examples.graph("fork"))
    dark = player_html(G, 3, theme="dark", rankdir="TB", title="my graph")
    assert '<html lang="en" class="dark">' in dark and "--active: #56b4e9" in dark
    assert 'data-start="3"' in dark and "step 3 / 7" in dark
    assert "<h1>my graph</h1>" in dark
    assert '<main id="player" class="fit"' in player_html(G, fit=True)
    final = player_html(G, step="final")
    assert 'data-start="8"' in final
    assert '<output id="counter" aria-live="polite">final view<' in final
    assert 'data-start="7"' in player_html(G, "last")
    assert 'data-start="0"' in player_html(G) == player_html(G, "first")
    with pytest.raises(OptionError, match="from 0 to 7, first, last or final"):
        player_html(G, 8)
    with pytest.raises(OptionError):
        player_html(G, theme="sepia")
    with pytest.raises(OptionError, match="interval_ms"):
        player_html(G, interval_ms=0)


def test_chinese_page():
    page = player_html(examples.graph("fork"), lang="zh", preset="slides", trim=True, legend=False)
    assert '<html lang="zh">' in page and "步骤 0 / 7" in page
    assert ">第一步<" not in page and "第一步</button>" in page
    assert "前向值" in page and "累计梯度 ∂q/∂节点" in page and "待计算" in page
    assert "legend-0" not in page


def test_a_scene_is_reused_and_a_value_before_backward_works():
    scene = scene_of(examples.graph("fork"), lang="zh")
    assert player_html(scene) == player_html(examples.graph("fork"), lang="zh")
    a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    page = player_html(to_networkx((a * b) * (a + b)))  # backward() not called
    assert page.count('class="step-text"') == 9


@pytest.mark.parametrize("call", ["examples.graph('tanh-native')",
                                  "examples.graph('mlp'), collapse='neuron'"])
def test_the_same_bytes_in_every_process(call):
    code = ("import hashlib; from vizgrad import examples, player_html; "
            f"print(hashlib.sha256(player_html({call}).encode()).hexdigest())")
    digests = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
               for seed in ("1", "2", "3")}
    assert len(digests) == 1


@pytest.fixture(scope="module")
def mlp_page() -> str:
    return player_html(examples.graph("mlp"), collapse="neuron")


def test_a_collapsed_page_holds_one_view_per_group_at_the_same_steps(mlp_page):
    from vizgrad.graph.collapse import collapse, map_step

    G = examples.graph("mlp")
    data = _data(mlp_page)
    H = collapse(G, "neuron")
    assert data["from"] == [s["from"] for s in H.graph["steps"]]
    assert data["boxes"] == {H.nodes[b]["group"]: b for b in H if H.nodes[b]["kind"] == "group"}
    from vizgrad.player.views import unpack_view

    assert [v["open"] for v in data["views"]] == ["L0/N0", "L0/N1", "L0/N2", "L1/N0"]
    assert data["left_out"] == []
    for view in map(unpack_view, data["views"]):
        E = collapse(G, "neuron", expand=[view["open"]])
        assert view["from"] == [s["from"] for s in E.graph["steps"]]
        assert map_step(E, data["from"][10]) == max(
            i for i, f in enumerate(view["from"]) if f <= data["from"][10])
        root = ET.fromstring(view["svg"])
        ids = {e.get("id") for e in root.iter() if e.get("id")}
        members = next(H.nodes[b]["members"] for b in H if H.nodes[b].get("group") == view["open"])
        assert {f"vg-n-{m}" for m in members} <= ids  # the group's values, one by one
        assert view["open"] not in view["boxes"] and len(view["boxes"]) == 3
        label = root.find(".//{http://www.w3.org/2000/svg}text[@id='vg-frame-label']")
        assert label.text.startswith(view["open"] + " · ")
        frame = root.find(".//{http://www.w3.org/2000/svg}g[@id='vg-frame']")[0]
        x, y, w, h = (float(frame.get(k)) for k in ("x", "y", "width", "height"))
        for m in members:  # one frame, every member inside it
            box = root.find(f".//{{http://www.w3.org/2000/svg}}rect[@id='vg-n-{m}']")
            bx, by = float(box.get("x")), float(box.get("y"))
            assert x < bx and bx + float(box.get("width")) < x + w, m
            assert y < by and by + float(box.get("height")) < y + h, m
    # the find box can reach every value inside a group
    assert sorted(e[2] for e in data["index"]) == sorted(
        m for b in H if H.nodes[b]["kind"] == "group" for m in H.nodes[b]["members"])
    assert ["L1.N0.w2", "L1/N0"] in [e[:2] for e in data["index"]]


def test_a_collapsed_page_lists_every_parameter_grad_and_is_deterministic(mlp_page, open_page):
    G = examples.graph("mlp")
    table = _table(open_page, mlp_page)
    params = re.findall(r'<tr data-param="(g\d)" data-done="(\d+)" data-grad="[^"]*" '
                        r'class="param"><th scope="row">'
                        r'<span class="nest">([^<]+)</span></th><td>([^<]+)</td>'
                        r'<td class="number data">([^<]*)</td><td class="number grad">([^<]*)</td>',
                        table)
    assert len(params) == sum(1 for n in G if str(G.nodes[n].get("label", "")).startswith("L"))
    w2 = next(n for n in G if G.nodes[n].get("label") == "L1.N0.w2")
    # L1.N0.w2 is 0.71488057… with grad −0.01259724…: four decimals, U+2212 for minus
    assert (G.nodes[w2]["data"], G.nodes[w2]["grad"]) == pytest.approx((0.714880573,
                                                                        -0.012597240))
    assert ("g0", "10", "L1.N0.w2", "parameter of L1/N0", "0.7149", "−0.0126") in params
    assert [p[2] for p in params if p[0] == "g1"] == ["L0.N0.w0", "L0.N0.w1", "L0.N0.b"]
    assert player_html(examples.graph("mlp"), collapse="neuron") == mlp_page
    assert 'role="group" aria-label="computation graph"' in mlp_page
    assert "Click a group" in mlp_page and "Opening works for" not in mlp_page


def test_views_stay_within_their_budget_and_the_page_says_so(monkeypatch):
    from vizgrad.player import views as _views

    G = examples.graph("mlp")
    sizes = {}
    for budget in (None, 60_000, 10):
        if budget is not None:
            monkeypatch.setattr(_views, "VIEW_BUDGET", budget)
        page = player_html(G, collapse="neuron")
        data = _data(page)
        sizes[budget] = len(json.dumps(data["views"], ensure_ascii=False))
        assert len(data["views"]) + len(data["left_out"]) == 4
        if budget is not None:
            assert sizes[budget] <= budget
    assert len(_data(page)["views"]) == 0 and "Click a group" not in page
    assert "Opening works for 0 of 4 groups on this page" in page
    assert sizes[None] > sizes[60_000] > sizes[10] == 2


def test_max_views_limits_the_groups_that_open():
    G = examples.graph("mlp")
    data = _data(player_html(G, collapse="neuron", max_views=1))
    assert [v["open"] for v in data["views"]] == ["L0/N0"]
    assert data["left_out"] == ["L0/N1", "L0/N2", "L1/N0"]
    assert _data(player_html(G, collapse="neuron", max_views=0))["views"] == []
    for bad in (-1, True, 1.5, "3"):
        with pytest.raises(OptionError, match="max_views"):
            player_html(G, collapse="neuron", max_views=bad)


def test_pages_without_groups_have_no_views():
    page = player_html(examples.graph("fork"))
    data = _data(page)
    assert data["views"] == [] and data["index"] == [] and data["boxes"] == {}
    assert 'role="img" aria-label="computation graph"' in page
    assert 'data-do="collapse-all"' not in page
    scene = scene_of(examples.graph("mlp"))
    assert _data(player_html(scene))["views"] == []


def test_a_collapsed_page_without_javascript_keeps_the_final_view_and_the_parameters(mlp_page):
    page = Page(mlp_page)
    assert len(page.find("svg")) == 1  # the opened views wait, packed, in the data block
    assert mlp_page.count('id="vg-frame-label"') == 0
    data = _data(mlp_page)
    assert all(set(v) == {"open", "z"} for v in data["views"])
    # the boxes show the groups' parameter grads; the table, hidden, needs the script
    assert all(f'id="vg-t-{r["id"]}-p0"' in mlp_page for r in data["rows"] if r.get("params"))
    assert not page.find("tr", **{"class": "param"})
    assert '<noscript><p class="no-script">' in mlp_page
