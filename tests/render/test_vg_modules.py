"""Unit tests of the shared scripts (player/assets/vg/*.js) in Chromium, loaded as ES modules
on a tiny test page, as the lab loads them (the player's bundle is the same code)."""

from __future__ import annotations

import pytest

from vizgrad import examples
from vizgrad.graph.collapse import collapse
from vizgrad.scene import ids
from vizgrad.scene import scene_of
from vizgrad.player.page import player_parts
from vizgrad.write.playback import look_at

from .vg_page import open_vg


@pytest.fixture(scope="module")
def vg(browser):
    context, page, problems = open_vg(browser)
    yield page
    context.close()
    assert problems == []


@pytest.fixture(scope="module")
def fork_parts():
    return player_parts(scene_of(examples.graph("fork")))


@pytest.fixture(scope="module")
def mlp_parts():
    G = examples.graph("mlp")
    return player_parts(scene_of(collapse(G, "neuron")), G)


# -- words ------------------------------------------------------------------------------

def test_fill_fills_known_fields_and_keeps_unknown_ones(vg):
    got = vg.evaluate("""async () => {
      const { fill } = await import('/vg/words.js');
      return [fill('step {k} / {n}', { k: 3, n: 7 }), fill('{i} of {n}: {name}', { i: 1 }),
              fill('{a}{a} {b}', { a: '$&', b: 0 }), fill('no fields', undefined),
              fill('{toString} {constructor}', {})];
    }""")
    assert got == ["step 3 / 7", "1 of {n}: {name}", "$&$& 0", "no fields",
                   "{toString} {constructor}"]


# -- the node table -----------------------------------------------------------------------

TABLE = """async ([parts, k]) => {
  const t = await import('/vg/table.js');
  const p = await import('/vg/playback.js');
  const ids = await import('/vg/ids.js');
  ids.setScheme(parts.ids);
  const box = document.getElementById('box');
  box.innerHTML = parts.svg;
  const body = t.buildRows(parts.rows, parts.words);
  document.querySelector('#nodes tbody').replaceWith(body);
  const rows = t.rowIndex(body);
  const play = p.create(box.querySelector('svg'), parts.playback, parts.prefix,
    (id, look) => t.showCell(rows, id, look, parts.words));
  play.show(k);
  t.showCells(rows, play, parts.words);
  t.showParams(body, k);
  t.markActive(body, play.active(k));
  return [...body.rows].map((tr) => ({
    node: tr.dataset.node || null, param: tr.dataset.param || null, cls: tr.className,
    current: tr.getAttribute('aria-current'), th: tr.cells[0].innerHTML,
    scope: tr.cells[0].getAttribute('scope'),
    cells: [...tr.cells].slice(1).map((td) => [td.className, td.textContent]) }));
}"""


def _expected_cells(parts, k):
    """What the table shows at position k: the texts the picture shows (Python's replay of the
    page's changes), and a row's own texts where its box has none."""
    look = look_at(parts["playback"], k)
    out = {}
    for r in parts["rows"]:
        texts = []
        for slot in ("data", "grad"):
            shape = look.get(ids.text(r["id"], slot))
            texts.append(shape["text"] if shape else r[slot])
        out[r["id"]] = texts
    return out


@pytest.mark.parametrize("k", [0, 3, 8])
def test_the_table_is_built_from_the_rows_and_follows_the_picture(vg, fork_parts, k):
    rows = vg.evaluate(TABLE, [fork_parts, k])
    want = _expected_cells(fork_parts, k)
    assert [r["node"] for r in rows] == [r["id"] for r in fork_parts["rows"]]
    pending = fork_parts["words"]["pending"]
    for r, src in zip(rows, fork_parts["rows"]):
        assert r["cls"].split()[0] == src["kind"] and r["th"] == src["name"]
        assert r["scope"] == "row"
        (how_cls, how), (data_cls, data), (grad_cls, grad) = r["cells"]
        assert (how_cls, how) == ("", src["how"])
        assert [data, grad] == want[src["id"]], (k, src["id"])
        assert data_cls == "number data" + (" pending" if data == pending else "")
        assert grad_cls == "number grad" + (" pending" if grad == "—" else "")
    active = fork_parts["playback"]["active"][k]
    assert [r["node"] for r in rows if r["current"] == "step"] == ([active] if active else [])
    assert [r["node"] for r in rows if "active" in r["cls"].split()] == ([active] if active else [])
    if k == 0:
        assert want["v2"][0] == pending  # u is not computed at step 0
    if k == 8:
        assert want["v0"] == ["−2", "−3"] and want["v1"] == ["3", "−8"]


@pytest.mark.parametrize("k", [0, "done", "end"])
def test_a_groups_parameters_are_rows_of_their_own_until_their_grad_is_known(vg, mlp_parts, k):
    end = len(mlp_parts["playback"]["changes"]) - 1
    groups = [r for r in mlp_parts["rows"] if r.get("params")]
    done = min(p["done"] for r in groups for p in r["params"])
    at = {0: 0, "done": done, "end": end}[k]
    rows = vg.evaluate(TABLE, [mlp_parts, at])
    params = [r for r in rows if r["param"]]
    assert len(params) == sum(len(r["params"]) for r in groups) == 13
    want = [(r["id"], p) for r in groups for p in r["params"]]
    for row, (group, p) in zip(params, want):
        assert row["param"] == group and row["cls"] == "param"
        assert row["th"] == f'<span class="nest">{p["name"]}</span>'
        how, data, grad = row["cells"]
        path = next(r["path"] for r in groups if r["id"] == group)
        assert how == ["", f"parameter of {path}"] and data == ["number data", p["data"]]
        known = at >= p["done"]
        assert grad == (["number grad", p["grad"]] if known else ["number grad pending", "—"])
    # each parameter row comes right after its group's row
    for i, row in enumerate(rows):
        if row["param"]:
            assert rows[i - 1]["param"] == row["param"] or rows[i - 1]["node"] == row["param"]


# -- paint ------------------------------------------------------------------------------

def test_paint_writes_a_look_and_then_only_what_changed(vg):
    got = vg.evaluate("""async () => {
      const { paint } = await import('/vg/playback.js');
      const el = document.createElementNS('http://www.w3.org/2000/svg', 'text');
      const attrs = () => Object.fromEntries([...el.attributes].map((a) => [a.name, a.value]));
      const first = { text: '−3', fill: '#111', stroke: '#222', sw: '2', dash: '5 3',
                      bold: '1', hidden: '1' };
      paint(el, first, 'url(#h)');
      const a = [attrs(), el.textContent];
      el.setAttribute('data-mark', 'kept');
      paint(el, { text: '−3', fill: '#111', hatch: '1', stroke: '', sw: '2', dash: '' },
            'url(#h)', first);
      const b = [attrs(), el.textContent];
      return [a, b];
    }""")
    (a, text_a), (b, text_b) = got
    assert a == {"fill": "#111", "stroke": "#222", "stroke-width": "2", "stroke-dasharray": "5 3",
                 "font-weight": "bold", "display": "none"} and text_a == "−3"
    # the hatch replaces the fill; no stroke, so no stroke width; shown again; bold untouched
    assert b == {"fill": "url(#h)", "font-weight": "bold", "data-mark": "kept"}
    assert text_b == "−3"


def test_playback_moves_back_and_forth_to_the_same_looks(vg, fork_parts):
    got = vg.evaluate("""async (parts) => {
      const p = await import('/vg/playback.js');
      const box = document.getElementById('box');
      box.innerHTML = parts.svg;
      const svg = box.querySelector('svg');
      const play = p.create(svg, parts.playback, parts.prefix);
      const text = (id) => svg.getElementById(parts.prefix + id).textContent;
      const out = {};
      for (const k of [8, 2, 7, 0, 5]) {
        play.show(k);
        out[k] = [text('t-v0-grad'), text('t-v2-data'), text('cap-0'), play.position()];
      }
      out.clamped = play.show(99);
      return out;
    }""", fork_parts)
    for k in (8, 2, 7, 0, 5):
        look = look_at(fork_parts["playback"], k)
        assert got[str(k)] == [look["t-v0-grad"]["text"], look["t-v2-data"]["text"],
                               look["cap-0"]["text"], k]
    assert got["clamped"] == 8


# -- zoom and fit ---------------------------------------------------------------------------

def test_the_zoom_readout_and_the_fit_toggle(vg):
    got = vg.evaluate("""async () => {
      const z = await import('/vg/zoom.js');
      const box = document.getElementById('box');
      // 600 points wide: 800 CSS pixels at its natural size, in a box 400 pixels wide
      box.innerHTML = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 150" '
        + 'width="600pt" height="150pt"><rect width="600" height="150"/></svg>';
      const readout = document.createElement('output');
      const button = document.createElement('button');
      const heard = [];
      const c = z.zoomControl({ box, svgOf: () => box.querySelector('svg'), fitted: box,
        fitButton: button, readout, onZoom: (s) => heard.push(s) });
      const out = [];
      const note = () => out.push([readout.textContent, c.fitted(),
        button.getAttribute('aria-pressed'), c.scale()]);
      c.showZoom(); note();
      c.setFit(true); note();
      c.zoomIn(); note();
      c.zoomOut(); c.zoomOut(); note();
      c.toggleFit(); c.toggleFit(); note();
      return [out, heard, [0.004, 0.5, 1, 1.2345].map(z.percent)];
    }""")
    out, heard, percents = got
    assert out[0] == ["100 %", False, None, None]
    assert out[1] == ["50 %", True, "true", None]       # fitted: 400 of 800 pixels
    assert out[2] == ["63 %", False, "false", 0.625]    # a zoom ends the fit (0.5 × 1.25)
    assert out[3] == ["40 %", False, "false", 0.4]      # 0.625 / 1.25 / 1.25
    assert out[4] == ["100 %", False, "false", None]    # fitted and back: the natural size
    assert heard == [None, 0.625, 0.5, 0.4, None, None]
    assert percents == ["0 %", "50 %", "100 %", "123 %"]


# -- the caption ----------------------------------------------------------------------------

def test_the_caption_lines_are_read_by_their_ids_and_shown_when_cut(vg, fork_parts):
    got = vg.evaluate("""async (parts) => {
      const c = await import('/vg/caption.js');
      const ids = await import('/vg/ids.js');
      ids.setScheme(parts.ids);
      const box = document.getElementById('box');
      box.classList.remove('fit');
      box.innerHTML = parts.svg;
      const svg = box.querySelector('svg');
      const over = document.getElementById('over');
      const lines = c.captionLines(svg, parts.prefix).map((el) => el.id);
      c.captionOver(box, svg, parts.prefix, over);   // 717 points in a box of 400 pixels: cut
      const cut = [over.classList.contains('on'), [...over.children].map((d) => d.textContent)];
      box.classList.add('fit');                       // fitted: nothing is cut
      c.captionOver(box, svg, parts.prefix, over);
      box.classList.remove('fit');
      return [lines, cut, over.classList.contains('on'), over.children.length];
    }""", fork_parts)
    lines, (on, texts), on_after, left = got
    final = look_at(fork_parts["playback"], 8)
    n = sum(1 for sid in final if (p := ids.parse(sid)) is not None and p.kind == "caption")
    assert lines == [f"vg-{ids.caption(i)}" for i in range(n)] and n >= 2
    shown = [final[ids.caption(i)]["text"] for i in range(n) if final[ids.caption(i)]["text"]]
    assert on is True and texts == shown
    assert on_after is False and left == 0


# -- find -------------------------------------------------------------------------------------

FIND = """async ([parts, queries]) => {
  const t = await import('/vg/table.js');
  const f = await import('/vg/find.js');
  const ids = await import('/vg/ids.js');
  ids.setScheme(parts.ids);
  const box = document.getElementById('box');
  box.innerHTML = parts.svg;
  const body = t.buildRows(parts.rows, parts.words);
  document.querySelector('#nodes tbody').replaceWith(body);
  const view = { open: null, boxes: {}, boxOf: {}, svgEl: box.querySelector('svg'), tbody: body };
  const revealed = [];
  const input = document.getElementById('find');
  const out = document.getElementById('found');
  f.attach(input, out, { words: parts.words, prefix: parts.prefix, first: view, index: [],
    view: () => view, rows: () => t.rowIndex(body), byPath: () => ({}), waiting: () => false,
    ready: (i, then) => then(), switchTo: () => {}, reveal: (id) => revealed.push(id) });
  const seen = [];
  for (const q of queries) {
    input.value = q;
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    seen.push([out.textContent, [...body.querySelectorAll('tr.found')].map((tr) => tr.dataset.node),
               view.svgEl.querySelectorAll('.vg-found').length, revealed[revealed.length - 1]]);
  }
  return seen;
}"""


def test_find_marks_the_row_and_the_box_and_steps_through_the_matches(vg, fork_parts):
    got = vg.evaluate(FIND, [fork_parts, ["U", "zz", "", "u", "u"]])
    assert got[0] == ["1 of 1: u", ["v2"], 1, ids.box("v2")]
    assert got[1] == ["no match for “zz”", [], 0, ids.box("v2")]
    assert got[2][:3] == ["", [], 0]
    assert got[3][:3] == got[4][:3] == ["1 of 1: u", ["v2"], 1]  # Enter again: the next (same)


def test_find_ranks_an_exact_name_before_names_that_contain_it(vg, mlp_parts):
    got = vg.evaluate(FIND, [mlp_parts, ["x0", "L0"]])
    assert got[0][0] == "1 of 1: x0"
    # groups L0/N0, L0/N1, L0/N2 in drawing order (their rows are found by name)
    assert got[1][0].startswith("1 of 3: ") and got[1][1] == ["g1"]
