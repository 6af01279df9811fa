"""The HTML step player: one self-contained page, every step inline, accessible controls."""

from __future__ import annotations

import base64
import hashlib
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest

from vizgrad import Value, examples, to_networkx
from vizgrad.exceptions import GraphTooLargeError, OptionError
from vizgrad.render.html import node_rows, player_html


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
        return [a for t, a in self.tags if t == tag and all(a.get(k) == v for k, v in attrs.items())]


@pytest.fixture(scope="module")
def fork_page() -> str:
    return player_html(examples.graph("fork"))


def _sections(page: str) -> list[str]:
    return re.findall(r'<section class="step".*?</section>', page, flags=re.S)


def test_one_section_per_step_each_with_an_inline_svg(fork_page):
    sections = _sections(fork_page)
    assert len(sections) == 8
    for k, sec in enumerate(sections):
        svg = re.search(r"<svg\b.*</svg>", sec, flags=re.S).group(0)
        root = ET.fromstring(svg)  # each inline SVG is well-formed XML
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert root.get("role") == "img"
        assert root.get("aria-label").startswith(f"step {k}/7")


def test_ids_are_unique_across_steps(fork_page):
    ids = [a["id"] for _, a in Page(fork_page).tags if a.get("id")]
    assert len(ids) == len(set(ids))
    assert "s7-graph0" in ids and "step-7" in ids


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
    for script in page.scripts:  # every inline script is allowed by its hash, nothing else
        digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in policy
    assert len(page.scripts) == 2


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
    assert (slider["min"], slider["max"], slider["value"]) == ("0", "7", "0")
    assert page.find("label", **{"for": "slider"})
    assert page.find("nav", **{"aria-label": "step controls"})
    assert page.find("html", lang="en")


def _cell(section: str, node: str, column: str) -> str:
    row = re.search(rf'<tr data-node="{node}"[^>]*>(.*?)</tr>', section, flags=re.S).group(1)
    return re.search(rf'<td class="[^"]*\b{column}">([^<]*)</td>', row).group(1)


def test_the_node_table_follows_the_steps(fork_page):
    sections = _sections(fork_page)
    # step 0: inputs known, ops pending, no grad reached
    assert _cell(sections[0], "v0", "data") == "-2.0000"
    assert _cell(sections[0], "v2", "data") == "pending"
    assert _cell(sections[0], "v0", "grad") == "—"
    # step 6 (backward through v): a has one contribution so far
    assert _cell(sections[6], "v0", "grad") == "-6.0000"
    # step 7: the chapter's grads
    assert (_cell(sections[7], "v0", "grad"), _cell(sections[7], "v1", "grad")) == ("-3.0000", "-8.0000")
    assert 'class="op active"' in sections[7]
    assert "∂q/∂a += 3.0000 × 1.0000 = 3.0000" in sections[7]
    assert "step 7/7 · backward through u = a × b" in sections[7]


def test_node_rows_marks_off_path_outputs():
    rows = node_rows(examples.graph("softmax-nll"), 31)
    off = [r["name"] for r in rows if not r["on_path"] and r["kind"] == "output"]
    assert off == ["p0", "p1", "p2"]
    assert all(r["on_path"] for r in rows if r["name"] in ("z0", "z1", "z2", "z3", "L"))
    assert all(r["grad"] == "—" for r in rows if not r["on_path"])
    page = player_html(examples.graph("softmax-nll"))
    assert len(re.findall(r'class="output (active )?off-path"', page)) == 3 * 32


def test_labels_are_text_never_markup():
    a = Value(1.0, label='<script>alert("x")</script>')
    b = Value(2.0, label="a & b < c")
    page = player_html(a * b)
    parsed = Page(page)
    assert len(parsed.scripts) == 2  # only the player's own
    assert "&lt;script&gt;alert" in page
    assert "a &amp; b &lt; c" in page


def test_deterministic_and_options():
    G = examples.graph("fork")
    assert player_html(G) == player_html(examples.graph("fork"))
    dark = player_html(G, theme="dark", rankdir="TB", start=3, title="my graph")
    assert '<html lang="en" class="dark">' in dark
    assert 'data-start="3"' in dark and "step 3 / 7" in dark
    assert "<h1>my graph</h1>" in dark
    assert '<main id="player" class="fit"' in player_html(G, fit=True)
    with pytest.raises(OptionError, match="0..7"):
        player_html(G, start=8)
    with pytest.raises(OptionError):
        player_html(G, theme="sepia")


def test_a_value_before_backward_shows_no_grads():
    a, b = Value(-2.0, label="a"), Value(3.0, label="b")
    G = to_networkx((a * b) * (a + b))  # backward() not called: still has all steps
    page = player_html(G)
    assert len(_sections(page)) == 8


def test_a_page_too_big_is_refused_with_advice():
    G = examples.graph("softmax-nll")  # 24 values x 32 steps = 768 node states
    with pytest.raises(GraphTooLargeError, match="max_cells=768"):
        player_html(G, max_cells=767)
    assert player_html(G, max_cells=768).startswith("<!DOCTYPE html>")
