"""Hand-edited graph JSON: every document is refused clearly, or it draws and checks.

Two fuzzers. The first draws, with a fixed seed, mutations that each break the
format (a wrong type for a field, a missing required field, a reference to a
node that does not exist, a step index or default step out of range, an edge
that runs backwards or doubles an operand slot): every one must be a usage
error of the command line (exit 2), never a traceback.

The second is a property test (hypothesis): any mutation of a real graph (the
examples, a collapsed and a focused mlp), in any encoding, is either refused
by :func:`vizgrad.from_json` with a :class:`GraphFormatError`, or it draws at
every step and ``vizgrad check`` answers it without a traceback.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any

import pytest

from vizgrad import draw, examples, from_json, gradcheck, to_json
from vizgrad.graph.collapse import collapse, focus, merge_constants
from vizgrad.exceptions import DomainError, GraphFormatError, NumericOverflowError

try:
    from hypothesis import HealthCheck, event, given, settings
    from hypothesis import strategies as st
except ImportError:  # a test dependency ([test] extras): the property test says so and skips
    given = None

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
    with pytest.raises(GraphFormatError,
                       match=r"node 'v3' \(nodes\[3\]\): 'order' must be a whole"):
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
    from vizgrad.graph.collapse import collapse

    path = tmp_path / "mlp-neuron.json"
    path.write_text(to_json(collapse(examples.graph("mlp"), "neuron")), encoding="utf-8")
    out = run("check", str(path), code=2).output
    assert "this graph is collapsed" in out and "vizgrad check mlp" in out


def test_a_utf_16_file_renders_and_a_file_that_is_no_text_is_a_usage_error(run, tmp_path):
    text = to_json(examples.graph("fork"))
    for encoding in ("utf-16", "utf-8-sig"):
        path = tmp_path / f"fork-{encoding}.json"
        path.write_bytes(text.encode(encoding))
        run("render", str(path), "-o", str(tmp_path / f"{encoding}.svg"))
        assert "<svg" in (tmp_path / f"{encoding}.svg").read_text(encoding="utf-8")
        assert "q = u × v = −6" in run("check", str(path)).output
    path = tmp_path / "ff.json"
    path.write_bytes(b"\xff" + text.encode())
    for command in (["render", str(path), "-o", str(tmp_path / "ff.svg")], ["check", str(path)]):
        assert "the bytes are not UTF-8 text" in run(*command, code=2).output
    assert not (tmp_path / "ff.svg").exists()


# -- the property test ------------------------------------------------------------------------

#: real graphs to mutate: small examples, and the three kinds of graph vizgrad.graph.collapse makes
BASES = {name: json.loads(to_json(G)) for name, G in {
    "fork": examples.graph("fork"),
    "overwrite-bug": examples.graph("overwrite-bug"),
    "softmax-nll": examples.graph("softmax-nll"),
    "mlp-neuron": collapse(examples.graph("mlp"), "neuron"),
    "mlp-layer-inside": collapse(examples.graph("mlp"), "layer", steps="inside"),
    "mlp-focus": focus(examples.graph("mlp"), "v30", radius=1),
    "mlp-merged": merge_constants(examples.graph("mlp")),
}.items()}
#: values a hand edit or a broken writer puts anywhere
ODD: list[Any] = [None, True, False, 0, 1, -1, 2, 99, 10**400, -(10**309), 1.5, -0.0, 1e308,
                  "nan", "inf", "-inf", "", "x", "3", "v0", "v2", "v4", "v99", "g1", "s0",
                  "g\\1", "a\x00", "\ud800", "L0/N0", "neuron", "merge", [], [1], ["v0"],
                  [["w0", 1.0]], {}, {"level": "neuron"}]
#: numbers and texts that keep a field's type: the document often stays valid, and draws them
NUMBERS: list[Any] = [0, -1, 3, 0.0, -0.0, 1e-320, 2.5e-9, -7.25, 1e15, 1e16, -1e300, 1.7e308,
                      "nan", "inf", "-inf"]
TEXTS: list[Any] = ["", "x", "<b>&amp;</b>", 'say "hi"', "L0/N0", "∂q/∂a", "變數", "a" * 300,
                    "line\nbreak", "v0", "v3", "g0", "s1", "c0", "+", "*", "**2", "**-1",
                    "exp", "log", "tanh", "relu", "group", "sin"]
#: what the property test saw: tried, refused, drawn (hypothesis statistics show the same)
COUNTS: Counter[str] = Counter()


def _paths(x: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every value inside ``x`` (its keys and indices from the top)."""
    items = x.items() if isinstance(x, dict) else enumerate(x) if isinstance(x, list) else ()
    out = []
    for k, v in items:
        out.append((*prefix, k))
        out += _paths(v, (*prefix, k))
    return out


#: every path but node-link's flags "directed" and "multigraph" (tests/test_graph_check.py)
PATHS = {name: [p for p in _paths(doc) if p[0] not in ("directed", "multigraph")]
         for name, doc in BASES.items()}


def _at(doc: Any, path: tuple[Any, ...]) -> tuple[Any, Any]:
    """(the container, the key) of ``path`` in ``doc``, or (None, None) once it is gone."""
    for k in path[:-1]:
        try:
            doc = doc[k]
        except (KeyError, IndexError, TypeError):
            return None, None
    key = path[-1]
    ok = (isinstance(doc, dict) and key in doc) or (
        isinstance(doc, list) and isinstance(key, int) and key < len(doc))
    return (doc, key) if ok else (None, None)


def _mutate(doc: Any, name: str, data: Any) -> None:
    """Apply one edit: set a value, delete it, copy another value there, or duplicate it."""
    paths = PATHS[name]
    container, key = _at(doc, data.draw(st.sampled_from(paths), label="path"))
    if container is None:
        return
    how = data.draw(st.sampled_from(["alike"] * 4 + ["odd", "copy", "delete", "duplicate"]),
                    label="edit")
    value = container[key]
    if how == "alike" and type(value) in (int, float, str):
        pool = TEXTS if type(value) is str and value not in ("nan", "inf", "-inf") else NUMBERS
        container[key] = data.draw(st.sampled_from(pool), label="value")
    elif how == "alike" and type(value) is bool:
        container[key] = not value
    elif how in ("odd", "alike"):
        container[key] = copy.deepcopy(data.draw(st.sampled_from(ODD), label="value"))
    elif how == "copy":
        other, okey = _at(doc, data.draw(st.sampled_from(paths), label="from"))
        if other is not None and other is not container[key]:
            container[key] = copy.deepcopy(other[okey])
    elif how == "delete":
        del container[key]
    elif isinstance(container, list):
        container.insert(key, copy.deepcopy(container[key]))


def _check_cli(payload: bytes, tmp_path: Any) -> None:
    from click.testing import CliRunner

    from vizgrad.cli.commands import main

    path = tmp_path / "mutant.json"
    path.write_bytes(payload)
    res = CliRunner().invoke(main, ["check", str(path)])
    assert res.exit_code in (0, 1, 2) and isinstance(res.exception, (SystemExit, type(None))), (
        res.output, res.exception)
    assert "Traceback" not in res.output


def _property(data: Any, tmp_path: Any) -> None:
    name = data.draw(st.sampled_from(sorted(BASES)), label="base")
    doc = copy.deepcopy(BASES[name])
    for _ in range(data.draw(st.integers(1, 3), label="edits")):
        _mutate(doc, name, data)
    encoding = data.draw(st.sampled_from(["str", "utf-8", "utf-8-sig", "utf-16"]), label="bytes")
    text = json.dumps(doc)
    payload = text if encoding == "str" else text.encode(encoding)
    COUNTS["tried"] += 1
    try:
        G = from_json(payload)
    except GraphFormatError:
        COUNTS["refused"] += 1
        event("refused")
        return
    COUNTS["drawn"] += 1
    event("drawn")
    d = draw(G)
    for svg in [d.svg()] + [d.at(k).svg() for k in range(d.scene.last + 1)]:
        svg.encode("utf-8")  # what every writer does
    try:
        gradcheck(G)
    except (GraphFormatError, DomainError, NumericOverflowError):
        pass  # a clear refusal (a collapsed graph, an unknown op, an overflow), not a crash
    _check_cli(text.encode("utf-8"), tmp_path)


if given is not None:
    @settings(max_examples=500, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(data=st.data())
    def test_a_mutated_graph_is_refused_clearly_or_draws_and_checks(data, tmp_path):
        _property(data, tmp_path)
else:
    def test_a_mutated_graph_is_refused_clearly_or_draws_and_checks():
        pytest.skip("hypothesis is not installed: pip install -e '.[test]'")
