"""The option block shared by the Sphinx directive, the Markdown extension and notebooks."""

from __future__ import annotations

import base64
import inspect
import xml.etree.ElementTree as ET

import pytest

from vizgrad import _embed
from vizgrad._embed import Spec, alt_text, figure_html, parse_options, render
from vizgrad.exceptions import ExpressionError, OptionError, UnknownExampleError
from vizgrad.render.svg import draw

FORK = "(a*b)*(a+b)"


def test_options_become_a_spec():
    spec = parse_options({"values": "a=-2; b=3", "step": "7", "player": None, "theme": "dark",
                          "caption": "The fork.", "decimals": "2"}, f"  {FORK} ")
    assert spec == Spec(expression=FORK, values=(("a", -2.0), ("b", 3.0)), step=7, player=True,
                        theme="dark", caption="The fork.", decimals=2)


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
        ({"step": "-1"}, FORK, "expected a step number, first or final, got '-1'"),
        ({"decimals": "two"}, FORK, "decimals: expected a whole number"),
        ({"player": "maybe"}, FORK, "player: expected no value, true or false, got 'maybe'"),
        ({"player": None, "animated": None}, FORK, "player and animated exclude each other"),
        ({"caption": ""}, FORK, "caption: needs a value"),
        ({"theme": "sepia"}, FORK, "unknown theme 'sepia'"),
        ({"rankdir": "RL"}, FORK, "rankdir must be one of LR, TB, got 'RL'"),
        ({"decimals": "13"}, FORK, "decimals must be a whole number from 0 to 12, got 13"),
    ],
)
def test_bad_options_say_what_is_wrong(options, expression, message):
    with pytest.raises(OptionError) as err:
        parse_options(options, expression)
    assert message in str(err.value)


@pytest.mark.parametrize("key, value", [("preset", "slides"), ("lang", "zh")])
def test_newer_draw_options_pass_through_only_when_draw_has_them(key, value):
    spec = Spec(expression=FORK, values=(("a", -2.0), ("b", 3.0)), **{key: value})
    if key in inspect.signature(draw).parameters:
        assert parse_options({key: value, "values": "a=-2, b=3"}, FORK) == spec
        assert _embed._kwargs(spec, _embed._draw_params(), "a picture")[key] == value
    else:
        with pytest.raises(OptionError, match=f"cannot set a {key} for a picture; leave the "
                                              f"{key} option out or upgrade vizgrad"):
            parse_options({key: value}, FORK)


def test_animated_needs_a_drawing_that_can_animate():
    from vizgrad.render.svg import Drawing

    if hasattr(Drawing, "animated_svg"):
        out = render(parse_options({"animated": None, "example": "fork"}))
        assert out.kind == "animated" and out.text.lstrip().startswith("<")
    else:
        with pytest.raises(OptionError, match="cannot write animated SVG; use player"):
            parse_options({"animated": None, "example": "fork"})


def test_an_expression_renders_the_chosen_step_as_svg():
    spec = parse_options({"values": "a=-2, b=3", "step": "final"}, FORK)
    out = render(spec)
    assert out.kind == "svg" and out.suffix == ".svg"
    assert out.text == draw(_embed.graph(spec), 7).svg()
    assert ET.fromstring(out.text).tag == "{http://www.w3.org/2000/svg}svg"
    assert out.alt == "(a*b)*(a+b) at a=-2, b=3, step 7 of 7"


def test_first_and_a_number_pick_the_step():
    assert "step 0 of 7" in render(parse_options({"example": "fork", "step": "first"})).alt
    assert "step 3 of 7" in render(parse_options({"example": "fork", "step": "3"})).alt
    with pytest.raises(OptionError, match="this graph has steps 0 to 7"):
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
    assert out.text.startswith("<!DOCTYPE html>") and 'data-start="7"' in out.text


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
    small = _embed.player_height('<svg height="100pt"><tr data-node="v0">')
    tall = _embed.player_height('<svg height="400pt"><tr data-node="v0"><tr data-node="v1">')
    assert 320 <= small < tall <= 1600


def test_collapse_draws_each_group_as_one_box_and_steps_count_the_boxes():
    spec = parse_options({"example": "mlp", "collapse": "neuron", "step": "final"})
    svg = render(spec).text
    assert "L0/N0 · 8 values" in svg and 'class="vg-box vg-group"' in svg
    assert alt_text(spec).endswith("step 13 of 13")  # the collapsed graph's 14 steps
    with pytest.raises(OptionError, match="collapse: expected auto, none, neuron"):
        parse_options({"example": "mlp", "collapse": "synapse"})
    with pytest.raises(OptionError, match="no groups to collapse"):
        render(parse_options({"example": "fork", "collapse": "layer"}))
