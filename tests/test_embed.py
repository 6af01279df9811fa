"""The option block shared by the Sphinx directive, the Markdown extension and notebooks."""

from __future__ import annotations

import base64
import xml.etree.ElementTree as ET

import pytest

from vizgrad.embed import blocks as _embed
from vizgrad.embed.blocks import Spec, alt_text, figure_html, parse_options, render
from vizgrad.exceptions import ExpressionError, OptionError, UnknownExampleError

FORK = "(a*b)*(a+b)"


def test_options_become_a_spec():
    spec = parse_options({"values": "a=-2; b=3", "step": "7", "player": None, "theme": "dark",
                          "caption": "The fork.", "decimals": "2"}, f"  {FORK} ")
    assert spec == Spec(expression=FORK, values=(("a", -2.0), ("b", 3.0)), step=7, player=True,
                        caption="The fork.", drawing=(("theme", "dark"), ("decimals", "2")))
    assert spec.options().theme == "dark" and spec.options().decimals == 2
    assert spec.options().collapse is False  # the player's own default


def test_every_drawing_option_of_a_block_reaches_the_picture():
    spec = parse_options({"example": "fork", "preset": "slides", "lang": "zh", "theme": "dark",
                          "rankdir": "TB", "decimals": "1", "legend": "off"})
    o = spec.options()
    assert (o.preset, o.lang, o.theme, o.rankdir, o.decimals, o.legend) == \
        ("slides", "zh", "dark", "TB", 1, False)
    svg = render(spec).text
    assert "梯度" in svg or "步骤" in svg  # Chinese words
    assert '#1e1e1e' in svg  # the dark background


@pytest.mark.parametrize("raw, on", [("", True), ("yes", True), ("True", True), ("off", False),
                                     ("0", False)])
def test_flags_read_words_and_an_empty_value(raw, on):
    assert parse_options({"player": raw}, FORK).player is on


@pytest.mark.parametrize(
    "options, expression, message",
    [
        ({"colour": "red"}, FORK, "unknown option 'colour'; the options are: values, example"),
        ({}, None, "nothing to draw: give an expression"),
        ({"example": "fork"}, FORK, "either an expression"),
        ({"values": "a=-2, a=3"}, FORK, "'a' is given twice"),
        ({"values": "a"}, FORK, "'a' is not name=number"),
        ({"values": "2a=1"}, FORK, "'2a=1' is not name=number"),
        ({"values": "a=inf"}, FORK, "must be a finite number"),
        ({"step": "-1"}, FORK, "step must be a step number, first, last or final, got '-1'"),
        ({"decimals": "two"}, FORK, "decimals: expected a whole number"),
        ({"player": "maybe"}, FORK, "player: expected no value, true or false, got 'maybe'"),
        ({"player": None, "animated": None}, FORK, "player and animated exclude each other"),
        ({"caption": ""}, FORK, "caption: needs a value"),
        ({"theme": "sepia"}, FORK, "theme must be one of light, dark, got 'sepia'"),
        ({"rankdir": "RL"}, FORK, "rankdir must be one of LR, TB, got 'RL'"),
        ({"decimals": "13"}, FORK, "decimals must be a whole number from 0 to 12, got 13"),
    ],
)
def test_bad_options_say_what_is_wrong(options, expression, message):
    with pytest.raises(OptionError) as err:
        parse_options(options, expression)
    assert message in str(err.value)


def test_animated_writes_one_animated_svg():
    out = render(parse_options({"animated": None, "example": "fork"}))
    assert out.kind == "animated" and "@keyframes" in out.text
    assert out.alt == "example fork, animated: steps 0 to 7, then the final view"


def test_final_is_the_final_view_and_last_the_last_step():
    spec = parse_options({"values": "a=-2, b=3", "step": "final"}, FORK)
    out = render(spec)
    assert out.kind == "svg" and out.suffix == ".svg"
    assert ET.fromstring(out.text).tag == "{http://www.w3.org/2000/svg}svg"
    assert out.alt == "(a*b)*(a+b) at a=-2, b=3, the final view"
    assert "every gradient is final" in out.text and "step 7 / 7" not in out.text
    last = render(parse_options({"values": "a=-2, b=3", "step": "last"}, FORK))
    assert last.alt == "(a*b)*(a+b) at a=-2, b=3, step 7 of 7"
    assert "step 7 / 7" in last.text and last.text != out.text


def test_first_and_a_number_pick_the_step():
    assert "step 0 of 7" in render(parse_options({"example": "fork", "step": "first"})).alt
    assert "step 3 of 7" in render(parse_options({"example": "fork", "step": "3"})).alt
    with pytest.raises(OptionError, match="from 0 to 7, first, last or final for this graph"):
        render(parse_options({"example": "fork", "step": "8"}))


def test_an_example_takes_other_values():
    spec = parse_options({"example": "fork", "values": "a=1, b=2"})
    assert _embed.graph(spec).nodes["v0"]["data"] == 1.0
    with pytest.raises(ExpressionError, match="has no input 'c'"):
        _embed.graph(parse_options({"example": "fork", "values": "c=1"}))
    with pytest.raises(UnknownExampleError, match="unknown example 'forks'"):
        _embed.graph(parse_options({"example": "forks"}))


def test_a_bad_expression_is_an_expression_error_with_its_column():
    with pytest.raises(ExpressionError) as err:
        _embed.graph(parse_options({"values": "a=1"}, "a*(a+"))
    assert err.value.column == 3


def test_the_player_starts_at_the_step_asked_for():
    out = render(parse_options({"example": "fork", "player": None, "step": "final"}))
    assert out.kind == "player" and out.suffix == ".html"
    assert out.text.startswith("<!DOCTYPE html>") and 'data-start="8"' in out.text
    assert 'data-start="7"' in render(parse_options({"example": "fork", "player": None,
                                                      "step": "last"})).text
    assert 'data-start="0"' in render(parse_options({"example": "fork", "player": None})).text


def test_a_collapsed_block_counts_the_steps_of_the_view_it_draws():
    spec = parse_options({"example": "mlp", "collapse": "neuron", "step": "10"})
    assert alt_text(spec) == "example mlp, step 10 of 13"
    assert "step 10 / 13" in render(spec).text


def test_figure_html_is_self_contained_without_a_src():
    out = render(parse_options({"example": "fork", "caption": "Fork & join"}))
    fig = figure_html(out)
    data = fig.split('src="data:image/svg+xml;base64,')[1].split('"')[0]
    assert base64.b64decode(data).decode("utf-8") == out.text
    assert fig.endswith("<figcaption>Fork &amp; join</figcaption></figure>")
    assert 'src="_images/x.svg"' in figure_html(out, src="_images/x.svg")


def test_a_player_figure_is_a_sandboxed_iframe():
    out = render(parse_options({"example": "fork", "player": None}))
    inline = figure_html(out)
    assert 'sandbox="allow-scripts"' in inline and 'srcdoc="&lt;!DOCTYPE html&gt;' in inline
    assert "allow-same-origin" not in inline
    linked = figure_html(out, src="../_images/p.html")
    assert 'src="../_images/p.html"' in linked and "srcdoc" not in linked


def test_digest_names_the_options_and_is_stable():
    a = parse_options({"example": "fork"})
    assert _embed.digest(a) == _embed.digest(parse_options({"example": "fork"}))
    assert _embed.digest(a) != _embed.digest(parse_options({"example": "fork", "step": "3"}))
    assert len(_embed.digest(a)) == 16


def test_player_height_grows_with_the_picture_and_the_table():
    small = _embed.player_height('<svg height="100pt"><table id="nodes" data-rows="1">')
    tall = _embed.player_height('<svg height="400pt"><table id="nodes" data-rows="2">')
    assert 320 <= small < tall <= 1600
    short, long_ = (_embed.player_height(f'<svg height="300pt"><table id="nodes" data-rows="{n}">'
                                         '<li class="step-text">') for n in (1, 20))
    assert short < long_  # more rows, a taller frame


def test_player_height_counts_the_rows_the_script_will_build():
    from vizgrad import examples
    from vizgrad.player.page import player_html

    page = player_html(examples.graph("fork"))  # five values: the script builds five rows
    assert '<table id="nodes" data-rows="5"' in page and "<tbody></tbody>" in page
    assert _embed.player_height(page) > _embed.player_height(
        page.replace('data-rows="5"', 'data-rows="0"'))


def test_collapse_draws_each_group_as_one_box_and_steps_count_the_boxes():
    spec = parse_options({"example": "mlp", "collapse": "neuron", "step": "final"})
    svg = render(spec).text
    assert "L0/N0 · 8 values" in svg and 'class="vg-box vg-group"' in svg
    assert alt_text(spec) == "example mlp, the final view"
    with pytest.raises(OptionError, match="collapse must be auto, none, layer, neuron"):
        parse_options({"example": "mlp", "collapse": "synapse"})
    with pytest.raises(OptionError, match="no groups to collapse"):
        render(parse_options({"example": "fork", "collapse": "layer"}))
