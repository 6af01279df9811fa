"""A folded graph's JSON loads back: its own step order, and the fields the folded boxes add."""

from __future__ import annotations

import json

import pytest

from vizgrad import examples, from_json, to_json
from vizgrad.collapse import collapse
from vizgrad.exceptions import GraphFormatError

CASES = [(ex, level, sample) for ex in ("mlp", "course-mlp") for level in ("neuron", "layer")
         for sample in (0, "all")]


@pytest.mark.parametrize("ex,level,sample", CASES)
def test_a_folded_graph_round_trips_through_json(ex, level, sample):
    text = to_json(collapse(examples.graph(ex), level, sample=sample))
    assert to_json(from_json(text)) == text


def _folded() -> dict:
    return json.loads(to_json(collapse(examples.graph("course-mlp"), "layer")))


def _first(doc: dict, key: str) -> dict:
    for step in doc["graph"]["steps"]:
        for c in step.get("contributions", ()):
            if key in c:
                return c
    raise AssertionError(f"no contribution has {key!r}")


@pytest.mark.parametrize("key,bad,says", [
    ("cells", True, "'cells' must be a list"),
    ("cells", ["x"], "must be a number"),
    ("cells", [None], "must be a number"),
    ("others", [-1], "must be a sample number"),
    ("rule", {"terms": []}, "'cell' is missing"),
    ("rule", {"cell": 0}, "'terms' is missing"),
    ("rule", {"cell": 0, "terms": [[None, None]]}, r"must be \[number or null"),
    ("rule", {"cell": 0, "terms": [[1.0, 2.0, "nan"]]}, r"must be \[number or null"),
])
def test_a_folded_contributions_fields_are_checked(key, bad, says):
    doc = _folded()
    _first(doc, key)[key] = bad
    with pytest.raises(GraphFormatError, match=says):
        from_json(json.dumps(doc))


@pytest.mark.parametrize("bad,says", [
    ([["L0.N0.w0", 1.0, [[0, "x"]]]], r"must be \[sample or name, number\]"),
    ([["L0.N0.w0", 1.0]], r"must be \[name, grad, terms\]"),
    ([[3, 1.0, []]], r"must be \[name, grad, terms\]"),
])
def test_a_boxs_parameter_terms_are_checked(bad, says):
    doc = _folded()
    box = next(n for n in doc["nodes"] if "terms" in n)
    box["terms"] = bad
    with pytest.raises(GraphFormatError, match=says):
        from_json(json.dumps(doc))


@pytest.mark.parametrize("key,bad,says", [
    ("by_sample", ["x"], "must be a number"),
    ("all", [1], "'all' must be a number or null"),
    ("adds", -1, "'adds' must be a whole number"),
])
def test_a_boxs_per_sample_outputs_are_checked(key, bad, says):
    doc = json.loads(to_json(collapse(examples.graph("course-mlp"), "neuron")))
    box = next(n for n in doc["nodes"] if key in n)
    box[key] = bad
    with pytest.raises(GraphFormatError, match=says):
        from_json(json.dumps(doc))
