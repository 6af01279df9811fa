"""from_json refuses what the renderers and gradcheck cannot use (issue 20, item 7).

Each test is one document that the previous checks accepted and that then failed
in ``draw`` or ``check`` (or was read wrongly); see also the property test in
``tests/cli/test_cli_json_fuzz.py``.
"""

from __future__ import annotations

import copy
import json

import pytest

from vizgrad import draw, examples, from_json, to_json
from vizgrad.graph.collapse import collapse, focus
from vizgrad.exceptions import GraphFormatError

FORK = json.loads(to_json(examples.graph("fork")))  # v2 = a × b, v3 = a + b, v4 = v2 × v3
MLP = examples.graph("mlp")
NEURONS = json.loads(to_json(collapse(MLP, "neuron")))  # nodes[2] is the box 'g1'


def _load(doc):
    return from_json(json.dumps(doc))


def _refused(doc, pattern):
    with pytest.raises(GraphFormatError, match=pattern):
        _load(doc) if isinstance(doc, dict) else from_json(doc)


def _fork(edit):
    doc = copy.deepcopy(FORK)
    edit(doc)
    return doc


def _neurons(edit):
    doc = copy.deepcopy(NEURONS)
    edit(doc)
    return doc


def test_collapse_metadata_of_the_wrong_type_is_refused():
    _refused(_neurons(lambda d: d["graph"].update(collapsed=3)),
             r"^graph: 'collapsed' must be an object, got 3$")
    _refused(_neurons(lambda d: d["graph"]["collapsed"].update(level=["neuron"])),
             r"graph\.collapsed: 'level' must be a whole number")
    _refused(_neurons(lambda d: d["graph"]["collapsed"].update(boxes="9")),
             r"graph\.collapsed: 'boxes' must be a whole number, got '9'")
    _refused(_neurons(lambda d: d["nodes"][2].update(size=[8])),
             r"^node 'g1' \(nodes\[2\]\): 'size' must be a whole number, got \[8\]$")
    _refused(_neurons(lambda d: d["nodes"][2].update(params=[["w0"]])),
             r"node 'g1' \(nodes\[2\]\)\.params\[0\]: must be \[name, number\]")
    _refused(_neurons(lambda d: d["edges"][0].update(count=0)),
             r"edges\[0\]: 'count' must be a whole number ≥ 1, got 0")


def test_an_integer_beyond_a_float_is_refused_by_field_and_node():
    _refused(_fork(lambda d: d["nodes"][0].update(data=10**400)),
             r"^node 'v0' \(nodes\[0\]\): 'data' must be a number that fits a float \(at most "
             r"about 1\.8e308\), got an integer of 401 digits$")
    _refused(_fork(lambda d: d["graph"]["steps"][1].update(value=-(10**309))),
             r"graph\.steps\[1\]: 'value' must be a number that fits a float")


def test_an_integer_past_pythons_digit_limit_is_a_graph_format_error():
    text = json.dumps(FORK).replace('"data": -2.0', '"data": ' + "9" * 5000, 1)
    column = text.index("9" * 5000) + 1
    _refused(text, rf"an integer of more than 4,300 digits at line 1 column {column}; ")


def test_a_number_literal_beyond_a_float_is_not_read_as_inf():
    for literal in ("1e400", "-1e400", "Infinity", "NaN"):
        text = json.dumps(FORK).replace('"data": -2.0', f'"data": {literal}', 1)
        _refused(text, r"node 'v0' \(nodes\[0\]\): 'data' must be a number that fits a float")


@pytest.mark.parametrize("odd", ["g\\1", "g\\N", "g\x00", "g\x01", "g\\\n1"], ids=repr)
def test_an_id_that_graphviz_would_hand_back_changed_is_refused(odd):
    text = json.dumps(NEURONS).replace('"g1"', json.dumps(odd))
    _refused(text, r"an id must be a non-empty text without backslashes or control characters")


@pytest.mark.parametrize("odd", ['g"1', "g'1", "g é", "<g&1>", "g1-op"], ids=repr)
def test_other_ids_of_a_collapsed_graph_draw(odd):
    G = from_json(json.dumps(NEURONS).replace('"g1"', json.dumps(odd)))
    assert odd in G and "<svg" in draw(G).svg()


def test_an_id_that_clashes_with_an_op_circle_is_refused():
    text = json.dumps(NEURONS).replace('"g1"', '"v38-op"')  # v38 is the + after the boxes
    _refused(text, r"node 'v38-op': the id clashes with the op circle of 'v38'")


def test_bytes_in_utf_16_32_or_with_a_bom_load_and_other_bytes_are_refused():
    text = to_json(examples.graph("fork"))
    for encoding in ("utf-8-sig", "utf-16", "utf-16-be", "utf-32"):
        assert to_json(from_json(text.encode(encoding))) == text
    _refused(b"\xff" + text.encode(), r"not valid JSON: the bytes are not UTF-8 text .* byte 0")
    latin = text.replace('"label": "a"', '"label": "\xe9"').encode("latin-1")
    _refused(latin, r"the bytes are not UTF-8 text")


def test_a_lone_surrogate_is_not_text():
    _refused(json.dumps(FORK).replace('"label": "a"', '"label": "\\ud800"', 1),
             r"the escape \\ud800 at line 1 column \d+ is half of a surrogate pair alone")
    G = from_json(json.dumps(FORK).replace('"label": "a"', '"label": "\\ud83d\\ude00"', 1))
    assert G.nodes["v0"]["label"] == "\U0001F600"  # a pair is text


def test_a_contribution_must_follow_an_edge_of_its_source():
    # step 5 runs v4's backward: v4 = v2 × v3, so v2 is operand 0 and v3 operand 1
    _refused(_fork(lambda d: d["graph"]["steps"][5]["contributions"][0].update(target="v0")),
             r"graph\.steps\[5\]\.contributions\[0\]: 'v0' is not operand 0 of 'v4'")
    _refused(_fork(lambda d: d["graph"]["steps"][5]["contributions"][0].update(slot=99)),
             r"'v2' is not operand 99 of 'v4'")
    _refused(_fork(lambda d: d["graph"]["steps"][5].update(node="v0")),  # "backward through a"
             r"graph\.steps\[5\]\.contributions\[0\]: 'source' is 'v4', but the step runs the "
             r"backward function of 'v0'")


def test_the_steps_come_in_the_order_replay_and_collapse_expect():
    no_seed = _fork(lambda d: d["graph"].update(
        steps=[s for s in d["graph"]["steps"] if s["kind"] != "seed"]))
    for k, s in enumerate(no_seed["graph"]["steps"]):
        s["index"] = k
    no_seed["graph"]["default_step"] = 0
    _refused(no_seed, r"graph\.steps\[4\]: a backward step cannot come here")
    _refused(_fork(lambda d: d["graph"]["steps"][4].update(node="v2")),
             r"graph\.steps\[4\]: the seed step must seed the root 'v4', not 'v2'")
    late = _fork(lambda d: d["graph"]["steps"][1].update(contributions=copy.deepcopy(
        d["graph"]["steps"][5]["contributions"])))
    _refused(late, r"graph\.steps\[1\]: only a backward step has contributions")
    _refused(_fork(lambda d: d["graph"]["steps"][6]["contributions"][0].pop("before")),
             r"graph\.steps\[6\]\.contributions\[0\]: the field 'before' is missing")


def test_a_group_box_outside_a_collapsed_graph_is_refused():
    doc = _fork(lambda d: d["nodes"][2].update(kind="group"))
    _refused(doc, r"node 'v2': a 'group' box belongs to a graph of vizgrad\.collapse")


@pytest.mark.parametrize("node, radius", [("v20", 0), ("v30", 1)])
def test_a_focused_graph_whose_stubs_sit_on_both_sides_round_trips(node, radius):
    F = focus(MLP, node, radius=radius)
    assert to_json(from_json(to_json(F))) == to_json(F)


def test_an_undirected_or_simple_node_link_document_is_refused():
    for flag in ("directed", "multigraph"):
        _refused(_fork(lambda d: d.update({flag: False})),
                 rf"^the document: '{flag}' must be true \(to_json writes it so\), got false$")


def test_a_box_whose_grads_are_not_finite_round_trips_and_draws():
    H = collapse(MLP, "layer", steps="inside")
    box = next(n for n in H if H.nodes[n]["kind"] == "group")
    H.nodes[box]["params"][0][1] = float("nan")  # strict JSON writes it as "nan"
    H.nodes[box]["outputs"][0][2] = float("-inf")
    loaded = from_json(to_json(H))
    name, grad = loaded.nodes[box]["params"][0]
    assert isinstance(grad, float) and grad != grad and loaded.nodes[box]["outputs"][0][2] < -1e308
    assert to_json(loaded) == to_json(H) and "<svg" in draw(loaded).svg()


def test_box_fields_are_checked_on_any_node_that_has_them():
    _refused(_fork(lambda d: d["nodes"][4].update(outputs=3)),
             r"node 'v4' \(nodes\[4\]\): 'outputs' must be a list, got 3")
