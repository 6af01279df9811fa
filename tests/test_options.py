"""One options model: every entry point has the same defaults (but for a declared few),
"final" is the final view everywhere, and a step always counts the graph that was given."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from click.testing import CliRunner

import vizgrad
from vizgrad import examples
from vizgrad.embed import blocks as _embed
from vizgrad.cli.commands import main
from vizgrad.exceptions import OptionError
from vizgrad.options import ENTRY_DEFAULTS, OPTIONS, Options, from_text, resolve_step
from vizgrad.write.raster.frames import frames

#: the defaults that differ between entry points, on purpose: the player (and show(), the
#: player in a notebook) draws every value unless asked; the first step shown differs too
INTENDED = {"player": {"collapse": False}, "show": {"collapse": False},
            "lab": {"collapse": False, "lang": "en", "rankdir": "LR"}}
FIRST_STEP = {"draw": "the final view", "player": "step 0", "lab": "the last step"}


@pytest.fixture(scope="module")
def fork():
    return examples.graph("fork")


def cli_file(tmp_path: Path, name: str, *args: str) -> bytes:
    out = tmp_path / name
    result = CliRunner().invoke(main, ["render", "fork", "-q", "-o", str(out), *args])
    assert result.exit_code == 0, result.output
    return out.read_bytes()


def test_the_declared_differences_are_all_there_is():
    assert ENTRY_DEFAULTS == INTENDED


def test_the_table_and_the_model_name_the_same_options_with_the_same_defaults():
    fields = {f.name: f.default for f in dataclasses.fields(Options)}
    assert fields == {name: o.default for name, o in OPTIONS.items()}


def test_every_command_line_drawing_option_comes_from_the_table():
    params = {p.name: p for p in main.commands["render"].params}
    flagged = {name for name, o in OPTIONS.items() if o.cli}
    assert flagged <= set(params)
    for name in flagged:
        p = params[name]
        assert p.default is None  # not given: the table's default applies
        assert OPTIONS[name].help in " ".join((p.help or "").split())
        assert OPTIONS[name].cli in p.opts
    assert {"rankdir", "theme", "preset", "decimals", "collapse", "max_nodes"} <= flagged


@pytest.mark.parametrize("args, api", [
    ((), {}),
    (("--preset", "slides"), {"preset": "slides"}),
    (("--theme", "dark", "--rankdir", "TB"), {"theme": "dark", "rankdir": "TB"}),
    (("--decimals", "1"), {"decimals": 1}),
], ids=["defaults", "slides", "dark-tb", "decimals"])
def test_the_command_line_draws_what_draw_draws(tmp_path, fork, args, api):
    d = vizgrad.draw(fork, **api)
    # with the slides preset, -o x.svg writes the slides (fork: one, a 16:9 page)
    want = d.slides() if api.get("preset") == "slides" else [d.svg()]
    assert len(want) == 1 and cli_file(tmp_path, "x.svg", *args) == want[0].encode()


def test_slides_have_the_presets_two_decimals_on_the_command_line_too(tmp_path, fork):
    svg = cli_file(tmp_path, "x.svg", "--preset", "slides", "--step", "1",
                   "--set", "a=-2.123456", "--set", "b=3").decode()
    assert "−2.12" in svg and "−2.1235" not in svg


def test_an_embed_draws_what_draw_draws(fork):
    plain = _embed.render(_embed.parse_options({"example": "fork"}))
    assert plain.text == vizgrad.draw(fork).svg()
    slides = _embed.render(_embed.parse_options({"example": "fork", "preset": "slides"}))
    assert slides.text == vizgrad.draw(fork, preset="slides").svg()


def test_frames_draw_what_draw_draws(tmp_path, fork):
    paths = frames(fork, tmp_path, "svg", steps=[3], final=True)
    assert paths[0].read_bytes() == vizgrad.draw(fork, 3).svg().encode()
    assert paths[1].read_bytes() == vizgrad.draw(fork).svg().encode()


def test_show_and_the_command_line_player_are_the_player(tmp_path, fork):
    page = vizgrad.player_html(fork, title=f"fork: {examples.describe('fork')}")
    assert cli_file(tmp_path, "x.html") == page.encode()
    assert vizgrad.show("fork").page() == vizgrad.player_html(fork)


@pytest.mark.parametrize("where", ["draw", "cli", "embed", "show", "player"])
def test_final_is_the_final_view_everywhere(tmp_path, fork, where):
    final_svg = vizgrad.draw(fork).svg()
    assert "every gradient is final" in final_svg
    if where == "draw":
        assert vizgrad.draw(fork, "final").svg() == final_svg
    elif where == "cli":
        assert cli_file(tmp_path, "x.svg", "--step", "final").decode() == final_svg
        assert cli_file(tmp_path, "y.svg", "--step", "last").decode() == \
            vizgrad.draw(fork, 7).svg()
    elif where == "embed":
        spec = _embed.parse_options({"example": "fork", "step": "final"})
        assert _embed.render(spec).text == final_svg
    elif where == "show":
        assert 'data-start="8"' in vizgrad.show("fork", step="final").page()  # 8: after 0..7
    else:
        assert 'data-start="8"' in vizgrad.player_html(fork, "final")
        assert 'data-start="7"' in vizgrad.player_html(fork, "last")


def test_a_step_counts_the_view_drawn_in_every_api(tmp_path):
    G = examples.graph("mlp")  # 40 values, steps 0..49; by neuron: 9 boxes, steps 0..13
    assert len(G.graph["steps"]) == 50
    d = vizgrad.draw(G, 10, collapse="neuron")
    H = d.graph
    assert len(H.graph["steps"]) == 14 and d.step == 10
    assert "step 10 / 13" in d.svg()  # the counter reads the step asked for
    assert d.at(13).step == 13 and d.at(10).svg() == d.svg()
    with pytest.raises(OptionError, match="from 0 to 13"):
        d.at(14)
    assert 'data-start="10"' in vizgrad.player_html(G, 10, collapse="neuron")
    (path,) = frames(G, tmp_path, "svg", steps=[10], collapse="neuron")
    assert path.read_bytes() == d.svg().encode()
    # the full graph's step 30 is held by the view's step that the source step maps to
    p = d.prepared
    group = G.nodes[G.graph["steps"][30]["node"]]["group"]
    k = p.source_step(30)
    assert H.graph["steps"][k]["kind"] == "backward"
    assert H.nodes[H.graph["steps"][k]["node"]]["group"] == group


@pytest.mark.parametrize("given, message", [
    ({"preset": "poster"}, "preset must be one of docs, slides, compact, got 'poster'"),
    ({"theme": "sepia"}, "theme must be one of light, dark, got 'sepia'"),
    ({"rankdir": "RL"}, "rankdir must be one of LR, TB, got 'RL'"),
    ({"decimals": -1}, "decimals must be a whole number from 0 to 12, got -1"),
    ({"decimals": True}, "decimals must be a whole number from 0 to 12, got True"),
    ({"caption": "yes"}, "caption must be True or False, got 'yes'"),
    ({"timeout": 0}, "timeout must be a positive number of seconds, got 0"),
    ({"timeout": float("inf")}, "timeout must be a positive number of seconds, got inf"),
    ({"max_nodes": 0}, "max_nodes must be a whole number ≥ 1, got 0"),
    ({"collapse": "synapse"}, "collapse must be auto, none, layer, neuron or a group depth"),
    ({"collapse": 0}, "collapse must be auto, none, layer, neuron or a group depth"),
    ({"collapse": ["neuron"]}, "collapse must be auto, none, layer, neuron or a group depth"),
    ({"focus": ""}, "focus must be a node id"),
    ({"radius": -1}, "radius must be a whole number ≥ 0, got -1"),
    ({"group_steps": "all"}, "group_steps must be one of merge, inside, got 'all'"),
    ({"merge_constants": "auto"}, "merge_constants must be True, a level"),
    ({"lang": "fr"}, "lang must be one of en, zh, got 'fr'"),
    ({"backend": "cairo"}, "backend must be one of embedded, system, got 'cairo'"),
])
def test_a_bad_option_says_what_is_wrong(given, message):
    with pytest.raises(OptionError) as err:
        Options(**given)
    assert message in str(err.value)


def test_words_and_levels_have_one_meaning():
    assert Options(collapse="none").collapse is False
    assert Options(collapse=None).collapse is False
    assert Options(collapse=3).collapse == 3
    assert Options(merge_constants=True).merge_constants == "layer"
    assert from_text({"collapse": "2", "rankdir": "tb", "legend": "no"}) == \
        Options(collapse=2, rankdir="TB", legend=False)
    with pytest.raises(OptionError, match="model names a Python object"):
        from_text({"model": "net"})


@pytest.mark.parametrize("step, expected", [
    (None, None), ("final", None), (" FINAL ", None), ("first", 0), ("last", 7), (3, 3), ("3", 3),
])
def test_a_step_is_read_in_one_place(step, expected):
    assert resolve_step(step, 7) == expected


@pytest.mark.parametrize("default, expected", [
    (None, None), ("final", None), ("first", 0), ("last", 7), (0, 0), (5, 5),
])
def test_a_step_left_out_is_the_default_read_as_a_step(default, expected):
    assert resolve_step(None, 7, default) == expected
    assert resolve_step(2, 7, default) == 2  # a step given is never the default


def test_a_default_step_outside_the_graph_is_refused():
    with pytest.raises(OptionError, match="step must be"):
        resolve_step(None, 7, 8)


@pytest.mark.parametrize("step", [8, -1, True, 1.5, "latest", "-1"])
def test_a_step_outside_the_graph_is_refused(step):
    with pytest.raises(OptionError, match="step must be"):
        resolve_step(step, 7)


def test_a_scene_given_to_the_player_takes_no_drawing_option(fork):
    scene = vizgrad.draw(fork).scene
    assert vizgrad.player_html(scene).startswith("<!DOCTYPE html>")
    with pytest.raises(OptionError, match="a Scene keeps the options it was made with"):
        vizgrad.player_html(scene, theme="dark")
