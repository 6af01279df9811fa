"""The shape-id scheme: every id a scene draws is built and read by render/scene/ids.py, and the
browser scripts read ids with the scheme's JSON, so a rename in Python reaches them."""

from __future__ import annotations

import json
import re

import pytest

from vizgrad import examples
from vizgrad.graph.collapse import collapse
from vizgrad.scene import ids
from vizgrad.scene import scene_of

from .vg_page import open_vg


@pytest.fixture(scope="module")
def scenes() -> list[Scene]:
    mlp = examples.graph("mlp")
    return [scene_of(examples.graph("fork")), scene_of(examples.graph("softmax-nll")),
            scene_of(collapse(mlp, "neuron")), scene_of(collapse(mlp, "neuron", expand=["L0/N1"]))]


def _all_ids(scenes: list[Scene]) -> list[str]:
    return sorted({sh.id for s in scenes for sh in s.shapes} | {
        sid for s in scenes for sid in s.look(None)})


def test_the_patterns_are_plain_text_with_named_fields():
    # they read as regular expressions as they are (no character to escape), in both languages
    for kind, pattern in ids.PATTERNS.items():
        assert re.fullmatch(r"[a-z{}-]+", pattern), kind
        assert set(re.findall(r"\{(\w+)\}", pattern)) <= {"node", "target", "slot", "line", "end"}


def test_every_id_a_scene_draws_is_in_the_scheme_and_read_one_way(scenes):
    every = _all_ids(scenes)
    assert len(every) > 500
    kinds = set()
    for sid in every:
        p = ids.parse(sid)
        assert p is not None, sid
        kinds.add(p.kind)
        # exactly one kind matches (written out here, not through ids' own parser)
        matching = [k for k, pat in ids.PATTERNS.items() if re.fullmatch(
            pat.replace("{node}", "[a-z]+[0-9]+").replace("{target}", "[a-z]+[0-9]+")
               .replace("{slot}", "[a-z0-9]+").replace("{line}", "[0-9]+")
               .replace("{end}", "[fb]"), sid)]
        assert matching == [p.kind], sid
        fields = {k: v for k, v in p._asdict().items() if k != "kind" and v is not None}
        assert ids.PATTERNS[p.kind].format(**fields) == sid  # taken apart, put back together
    assert kinds >= {"box", "op", "sep", "text", "cell", "edge", "edge_head", "op_edge",
                     "op_edge_head", "edge_label", "edge_box", "caption", "legend", "badge",
                     "badge_text"}


def test_the_builders_make_what_the_svg_holds():
    from vizgrad.write.playback import scene_svg

    scene = scene_of(examples.graph("fork"))
    svg = scene_svg(scene, scene.look(None))  # every shape, the hidden ones too
    for sid in (ids.box("v0"), ids.text("v0", "grad"), ids.cell("v0", "grad"), ids.op("v2"),
                ids.edge("v0", "v2", 0), ids.arrow(ids.edge("v0", "v2", 0), "b"),
                ids.op_edge("v2"), ids.caption(0), ids.badge()):
        assert f'id="{sid}"' in svg, sid
    assert ids.node_of("t-v3-p0l") == "v3" and ids.node_of("o-v3") is None


def test_the_player_and_the_lab_carry_the_scheme():
    from vizgrad.player.page import player_html

    page = player_html(examples.graph("fork"))
    data = re.search(r'<script type="application/json" id="vg-data">(.*?)</script>', page).group(1)
    assert json.loads(data)["ids"]["box"] == "n-{node}"
    assert json.loads(data)["ids"]["badge_text"] == "badge-t"  # the caption's badge too


def test_the_scripts_read_the_ids_python_builds(browser, scenes, monkeypatch):
    context, page, problems = open_vg(browser)
    every = _all_ids(scenes)
    read = """async ([scheme, every]) => {
      const m = await import('/vg/ids.js');
      m.setScheme(scheme);
      return every.map((id) => [m.cellOf(id), m.nodeOf(id)]);
    }"""
    got = page.evaluate(read, [ids.scheme(), every])
    for sid, (cell, node) in zip(every, got):
        p = ids.parse(sid)
        want_cell = ({"node": p.node, "slot": p.slot} if p.kind == "text" and p.slot in
                     ("data", "grad") else None)
        assert cell == want_cell, sid
        assert node == ids.node_of(sid), sid
    built = page.evaluate("""async (scheme) => {
      const m = await import('/vg/ids.js');
      m.setScheme(scheme);
      return [m.boxId('v3'), m.textId('v3', 'grad'), m.captionId(2), m.frameLabelId(),
              m.cellSlots()];
    }""", ids.scheme())
    assert built == [ids.box("v3"), ids.text("v3", "grad"), ids.caption(2), ids.frame_label(),
                     ["data", "grad"]]
    # a rename in Python: the scheme's JSON takes it to the script, which reads the new ids;
    # the script's own built-in scheme does not (so the JSON is what keeps them in step)
    monkeypatch.setitem(ids.PATTERNS, "text", "x-{node}-{slot}")
    monkeypatch.setitem(ids.PATTERNS, "box", "b-{node}")
    renamed = [ids.text("v3", "grad"), ids.box("v3")]
    assert renamed == ["x-v3-grad", "b-v3"]
    fresh = page.evaluate("""async ([scheme, renamed]) => {
      const m = await import('/vg/ids.js?fresh');
      const before = renamed.map((id) => [m.cellOf(id), m.nodeOf(id)]);
      m.setScheme(scheme);
      return [before, renamed.map((id) => [m.cellOf(id), m.nodeOf(id)]), m.boxId('v3')];
    }""", [ids.scheme(), renamed])
    assert fresh[0] == [[None, None], [None, None]]
    assert fresh[1] == [[{"node": "v3", "slot": "grad"}, "v3"], [None, "v3"]]
    assert fresh[2] == "b-v3"
    context.close()
    assert problems == []
