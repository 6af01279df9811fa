"""The lab reads its drawing options through the one options model
(:data:`vizgrad.options.OPTIONS`), with its own bounds on top (docs/lab.md, "Bounds").

Each case below is a literal: a JSON value, whether the options model accepts it, and the
lab's answer. The model's verdict and the lab's are both checked, so the test fails when
either one moves away from the other.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from vizgrad.exceptions import OptionError
from vizgrad.options import NO_STEP, OPTIONS

DOCS = Path(__file__).resolve().parents[2] / "docs" / "lab.md"
FORK, MLP = {"example": "fork"}, {"example": "mlp"}
#: the options of the options model a lab request may give; the rest are not the lab's
LAB_TAKES = {"theme", "rankdir", "lang", "caption", "collapse", "focus", "radius",
             "group_steps", "sample"}
LAB_REFUSES = {"preset", "decimals", "trim", "legend", "backend", "timeout", "max_nodes",
               "merge_constants", "model"}

#: (option, JSON value, the lab's answer): 200, or the 422 error code (its "field" is the option)
CASES = [
    ("theme", "dark", 200), ("theme", "light", 200),
    ("theme", "blue", "invalid_choice"), ("theme", "Dark", "invalid_choice"),
    ("theme", 3, "invalid_type"),
    ("rankdir", "TB", 200), ("rankdir", "RL", "invalid_choice"),
    ("rankdir", "tb", "invalid_choice"), ("rankdir", ["LR"], "invalid_type"),
    ("lang", "zh", 200), ("lang", "en", 200), ("lang", "fr", "invalid_choice"),
    ("lang", 1, "invalid_type"),
    ("caption", False, 200), ("caption", "yes", "invalid_type"), ("caption", 1, "invalid_type"),
    ("collapse", "neuron", 200), ("collapse", "layer", 200), ("collapse", "auto", 200),
    ("collapse", "none", 200), ("collapse", "off", 200), ("collapse", 2, 200),
    ("collapse", False, 200), ("collapse", "neurons", "invalid_choice"),
    ("collapse", 0, "invalid_choice"), ("collapse", -1, "invalid_choice"),
    ("collapse", 1.5, "invalid_choice"), ("collapse", [1], "invalid_choice"),
    ("focus", "v39", 200), ("focus", "", "invalid_type"), ("focus", 3, "invalid_type"),
    ("radius", 0, 200), ("radius", 5, 200), ("radius", -1, "out_of_range"),
    ("radius", "2", "invalid_type"), ("radius", 1.0, "invalid_type"),
    ("radius", True, "invalid_type"),
    ("group_steps", "inside", 200), ("group_steps", "merge", 200),
    ("group_steps", "all", "invalid_choice"), ("group_steps", 1, "invalid_type"),
    ("sample", 0, 200), ("sample", "all", 200), ("sample", -1, "out_of_range"),
    ("sample", "first", "invalid_type"), ("sample", True, "invalid_type"),
    ("sample", 1.0, "invalid_type"),
]


def _ask(client, name, value):
    """A request with the option: a render of fork for how it looks, a trace of the mlp
    example (grouped, with no layout) for how the graph is drawn."""
    if name in ("theme", "rankdir", "caption"):
        return client.post("/api/render", json={**FORK, name: value})
    extra = {"collapse": "neuron"} if name in ("group_steps", "sample") else {}
    return client.post("/api/trace", json={**MLP, **extra, name: value})


def test_the_cases_cover_every_option_the_lab_takes_both_ways():
    assert {name for name, _, _ in CASES} == LAB_TAKES
    for name in LAB_TAKES:
        answers = [answer for n, _, answer in CASES if n == name]
        assert 200 in answers and any(a != 200 for a in answers), name
    assert LAB_TAKES | LAB_REFUSES == set(OPTIONS)


@pytest.mark.parametrize("name, value, answer", CASES, ids=lambda x: repr(x))
def test_the_lab_answers_an_option_as_the_options_model_reads_it(client, name, value, answer):
    try:
        OPTIONS[name].check(value)
        model_accepts = True
    except OptionError:
        model_accepts = False
    assert model_accepts == (answer == 200), f"the options model's verdict on {value!r}"
    r = _ask(client, name, value)
    if answer == 200:
        assert r.status_code == 200, r.text
    else:
        assert r.status_code == 422, r.text
        assert (r.json()["error"], r.json()["field"]) == (answer, name)


@pytest.mark.parametrize("name", sorted(LAB_REFUSES))
def test_options_the_lab_does_not_take_are_unknown_fields(client, name):
    r = client.post("/api/render", json={**FORK, name: OPTIONS[name].default})
    assert r.status_code == 422 and r.json()["error"] == "unknown_field", r.text
    assert r.json()["field"] == name


def test_collapse_true_is_the_documented_alias_of_auto(client):
    for path, body in (("/api/trace", MLP), ("/api/scene", MLP), ("/api/render", FORK)):
        alias = client.post(path, json={**body, "collapse": True})
        auto = client.post(path, json={**body, "collapse": "auto"})
        assert alias.status_code == auto.status_code == 200
        assert alias.content == auto.content, path
    assert "the older `true` still means `\"auto\"`" in DOCS.read_text(encoding="utf-8")


def _bounds_table() -> dict[str, str]:
    """The rows of docs/lab.md's "Bounds" table: field → the lab's bound as written."""
    text = DOCS.read_text(encoding="utf-8")
    block = text[text.index("| field | every entry (the options model) | the lab, on top |"):]
    rows = {}
    for line in block.splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = cells[2]
    return rows


def test_the_bounds_are_documented_once_in_one_table():
    assert _bounds_table() == {
        '`"collapse"` (a group depth)': "at most 9",
        '`"radius"`': "at most 20",
        '`"expand"`': "at most 50 group paths",
        '`"values"`': "from −20 to 20 (`VIZGRAD_LAB_VALUE_LIMIT`)",
        '`"expression"`': "at most 500 characters (`VIZGRAD_LAB_MAX_EXPRESSION_LENGTH`)",
    }
    text = DOCS.read_text(encoding="utf-8")
    for said in ("depth of at most 9", "radius of at most 20", "must lie in [-20, 20]"):
        assert said not in text  # said in the table, not again in the prose


def _error(r):
    return (r.status_code, r.json()["error"], r.json().get("field")) if r.status_code != 200 \
        else (200, None, None)


def test_the_labs_bounds_apply_on_top_of_the_options_model(client):
    # the options model takes these; the lab's bound does not
    assert OPTIONS["collapse"].check(10) == 10 and OPTIONS["radius"].check(21) == 21
    assert _error(client.post("/api/trace", json={**MLP, "collapse": 9})) == (200, None, None)
    assert _error(client.post("/api/trace", json={**MLP, "collapse": 10})) == \
        (422, "invalid_choice", "collapse")
    assert _error(client.post("/api/trace", json={**MLP, "radius": 20})) == (200, None, None)
    assert _error(client.post("/api/trace", json={**MLP, "radius": 21})) == \
        (422, "out_of_range", "radius")
    body = client.post("/api/trace", json={**MLP, "radius": 21}).json()
    assert (body["minimum"], body["maximum"]) == (0, 20)
    # 50 paths pass the bound (and are then looked up: none is a group box); 51 do not
    many = {**MLP, "collapse": "neuron"}
    assert _error(client.post("/api/trace", json={**many, "expand": [f"G{i}" for i in range(50)]})
                  ) == (422, "unknown_group", "expand")
    assert _error(client.post("/api/trace", json={**many, "expand": [f"G{i}" for i in range(51)]})
                  ) == (422, "invalid_type", "expand")
    assert _error(client.post("/api/trace", json={**FORK, "values": {"a": 20}})) == \
        (200, None, None)
    assert _error(client.post("/api/trace", json={**FORK, "values": {"a": -20.5}})) == \
        (422, "out_of_range", "values.a")
    sums = "+".join(["a"] * 249)  # 497 characters
    for expression, answer in (("10+" + sums, (200, None, None)),
                               ("100+" + sums, (422, "expression_too_long", "expression"))):
        assert _error(client.post("/api/trace", json={"expression": expression,
                                                      "values": {"a": 1}})) == answer


def test_no_step_given_is_the_labs_row_of_the_one_table(client):
    assert NO_STEP == {"picture": "final", "player": "first", "lab": "last"}
    left_out = client.post("/api/render", json=FORK)
    last = client.post("/api/render", json={**FORK, "step": 7})  # fork's steps are 0..7
    assert left_out.headers["x-vizgrad-step"] == "7" and left_out.content == last.content
    table = Path(DOCS.parent / "drawing.md").read_text(encoding="utf-8")
    assert re.search(r"\| the lab \| `POST /api/render` without `\"step\"` \| the last step",
                     table)
    for step, code in ((8, "out_of_range"), (-1, "out_of_range"), ("last", "invalid_type"),
                       (1.0, "invalid_type")):
        assert _error(client.post("/api/render", json={**FORK, "step": step})) == \
            (422, code, "step"), step
