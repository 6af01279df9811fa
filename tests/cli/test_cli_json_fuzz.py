"""Hand-edited graph JSON: every malformed document is a usage error (exit 2), never a traceback.

The mutations are drawn with a fixed seed from operators that each break the
format: a wrong type for a field, a missing required field, a reference to a
node that does not exist, a step index or default step out of range, an edge
that runs backwards or doubles an operand slot.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from vizgrad import examples, from_json, to_json
from vizgrad.exceptions import GraphFormatError

FORK = json.loads(to_json(examples.graph("fork")))

#: field -> its type in the format, for the fields every document has
NODE_FIELDS = {"id": "id", "op": "str", "kind": "kind", "data": "number", "order": "int"}
EDGE_FIELDS = {"source": "id", "target": "id", "slot": "int"}
GRAPH_FIELDS = {"root": "id", "steps": "list", "default_step": "int"}
STEP_FIELDS = {"index": "int", "kind": "stepkind"}
CONTRIBUTION_FIELDS = {"source": "id", "target": "id", "slot": "int", "local": "number|null",
                       "upstream": "number", "amount": "number", "after": "number"}
#: values of the wrong type for each field type (each one is invalid there)
WRONG = {
    "id": [3, None, [], {}, True, "v99", "nope"],
    "str": [3, None, [], {}, True],
    "kind": [3, None, "leaf", "", []],
    "stepkind": [3, None, "sideways", ""],
    "number": ["x", "1.5", None, [], {}, True],
    "number|null": ["x", "1.5", [], {}, True],
    "int": ["1", 1.5, None, True, [], {}],
    "list": [3, "steps", None, {}],
}


def _places(doc):
    """(container, key, type) for every checked field of the document."""
    out = []
    for node in doc["nodes"]:
        out += [(node, k, t) for k, t in NODE_FIELDS.items()]
    for edge in doc["edges"]:
        out += [(edge, k, t) for k, t in EDGE_FIELDS.items()]
    out += [(doc["graph"], k, t) for k, t in GRAPH_FIELDS.items()]
    for step in doc["graph"]["steps"]:
        out += [(step, k, t) for k, t in STEP_FIELDS.items()]
        for c in step["contributions"]:
            out += [(c, k, t) for k, t in CONTRIBUTION_FIELDS.items()]
    return out


def _structural(doc, rng):
    """A mutation of the graph's structure rather than of one field's type."""
    steps, edges = doc["graph"]["steps"], doc["edges"]
    choice = rng.randrange(8)
    if choice == 0:
        doc["graph"]["default_step"] = rng.choice([len(steps), 99, -1])
    elif choice == 1:
        steps[rng.randrange(len(steps))]["index"] += rng.choice([1, -1, 5])
    elif choice == 2:
        e = rng.choice(edges)
        e["source"], e["target"] = e["target"], e["source"]  # runs backwards
    elif choice == 3:
        edges.append(dict(rng.choice(edges)))  # a doubled operand slot
    elif choice == 4:
        steps[0]["values"][rng.choice(["v9", "x", "v4x"])] = 1.0
    elif choice == 5:
        step = rng.choice([s for s in steps if s["kind"] != "inputs"])
        step["node"] = rng.choice(["v9", "", None])
    elif choice == 6:
        doc["graph"]["also"] = [rng.choice(["v9", 3, None])]
    else:
        node = rng.choice(doc["nodes"])
        node["grad"] = rng.choice(["grad", [], {"x": 1}])
    return doc


def mutations(count: int = 320, seed: int = 14):
    """``count`` distinct mutated documents."""
    rng = random.Random(seed)
    out, seen, i = [], set(), 0
    while len(out) < count:
        doc = copy.deepcopy(FORK)
        kind, i = i % 3, i + 1
        if kind == 2:
            doc = _structural(doc, rng)
        else:
            container, key, ftype = rng.choice(_places(doc))
            if kind == 1 and ftype == "number|null":
                continue  # a missing 'local' is refused too, but its deletion is drawn elsewhere
            if kind == 0:
                container[key] = rng.choice(WRONG[ftype])
            else:
                del container[key]
        text = json.dumps(doc, sort_keys=True)
        if text not in seen:
            seen.add(text)
            out.append(doc)
    return out


MUTATIONS = mutations()


def test_there_are_enough_distinct_mutations():
    texts = {json.dumps(d, sort_keys=True) for d in MUTATIONS}
    assert len(texts) == len(MUTATIONS) >= 300
    assert json.dumps(FORK, sort_keys=True) not in texts


def test_every_mutation_is_a_clear_usage_error(run, tmp_path):
    path = tmp_path / "fork.json"
    for i, doc in enumerate(MUTATIONS):
        path.write_text(json.dumps(doc), encoding="utf-8")
        res = run("render", str(path), "-o", str(tmp_path / "out.svg"), code=None)
        assert res.exit_code == 2, (i, json.dumps(doc)[:300], res.output, res.exception)
        assert "Traceback" not in res.output and "Invalid value for 'TARGETS'" in res.output
        assert isinstance(res.exception, SystemExit)
    assert not (tmp_path / "out.svg").exists()


def test_the_message_names_the_field_and_the_node():
    doc = copy.deepcopy(FORK)
    doc["nodes"][3]["order"] = "3"
    with pytest.raises(GraphFormatError, match=r"node 'v3' \(nodes\[3\]\): 'order' must be a whole"):
        from_json(json.dumps(doc))
    doc = copy.deepcopy(FORK)
    doc["graph"]["steps"][7]["contributions"][1]["target"] = "v42"
    with pytest.raises(GraphFormatError,
                       match=r"graph\.steps\[7\]\.contributions\[1\]: 'target' names 'v42'"):
        from_json(json.dumps(doc))
    doc = copy.deepcopy(FORK)
    doc["edges"][0]["target"] = "v0"
    with pytest.raises(GraphFormatError, match=r"edges\[0\]: 'v0' → 'v0' runs backwards"):
        from_json(json.dumps(doc))


def test_deeply_nested_json_is_refused_without_a_recursion_error(run, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    out = run("render", str(path), "-o", str(tmp_path / "x.svg"), code=2).output
    assert "nested too deeply" in out
    deep_label = copy.deepcopy(FORK)
    deep_label["nodes"][0]["label"] = json.loads("[" * 500 + "]" * 500)
    with pytest.raises(GraphFormatError, match="'label' must be a string"):
        from_json(json.dumps(deep_label))


def test_observed_derivatives_with_an_unknown_local_round_trip():
    pytest.importorskip("micrograd", reason="micrograd 0.1.0 is a test dependency")
    from micrograd.engine import Value

    from vizgrad import to_networkx

    x = Value(-1.0)
    y = (x.relu() * 3).relu()  # relu passes no gradient: the upstream of x.relu() is 0
    y.backward()
    G = to_networkx(y)
    locals_ = [c["local"] for s in G.graph["steps"] for c in s.get("contributions", [])]
    assert None in locals_
    assert to_json(from_json(to_json(G))) == to_json(G)


def test_every_example_still_round_trips():
    for name in examples.names():
        G = examples.graph(name)
        assert to_json(from_json(to_json(G))) == to_json(G)


def test_check_of_a_collapsed_graph_says_it_cannot_be_checked(run, tmp_path):
    from vizgrad.collapse import collapse

    path = tmp_path / "mlp-neuron.json"
    path.write_text(to_json(collapse(examples.graph("mlp"), "neuron")), encoding="utf-8")
    out = run("check", str(path), code=2).output
    assert "this graph is collapsed" in out and "vizgrad check mlp" in out
