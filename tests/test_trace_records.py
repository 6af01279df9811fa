"""The trace's records: the same JSON bytes and the same plain dicts as before they were compacted.

The literals below were written from vizgrad's output (format ``vizgrad.trace/2``) before the
trace kept its records as tuples and parallel arrays (issue 22); a change to any byte of the
trace format fails here. The format has since become ``/3``, whose one change is a ``name`` and
a ``sample`` in every node record (issue 21): :func:`as_v2` takes exactly those away, and the
rest must still be the golden bytes. The fork's names are checked as literals too.
"""

from __future__ import annotations

import gc
import hashlib
import json
import random

from micrograd.engine import Value as MicroValue
from micrograd.nn import MLP as MicroMLP

from vizgrad import Value, examples, to_json, to_networkx, trace
from vizgrad.graph.convert import graph_to_trace
from vizgrad.core.nn import MLP
from vizgrad.tracing.recorder import Trace, replay

FORK_TRACE_JSON = (
    '{"format": "vizgrad.trace/2", "root": "v4", "also": [], "derivatives": "exact", "backwar'
    'd_ran": true, "default_step": 7, "nodes": [{"id": "v0", "label": "a", "op": "", "kind": '
    '"input", "data": -2.0, "grad": -3.0, "on_path": true, "parents": [], "order": 0, "group"'
    ': null}, {"id": "v1", "label": "b", "op": "", "kind": "input", "data": 3.0, "grad": -8.0'
    ', "on_path": true, "parents": [], "order": 1, "group": null}, {"id": "v2", "label": "u",'
    ' "op": "*", "kind": "op", "data": -6.0, "grad": 1.0, "on_path": true, "parents": ["v0", '
    '"v1"], "order": 2, "group": null}, {"id": "v3", "label": "v", "op": "+", "kind": "op", "'
    'data": 1.0, "grad": -6.0, "on_path": true, "parents": ["v0", "v1"], "order": 3, "group":'
    ' null}, {"id": "v4", "label": "q", "op": "*", "kind": "output", "data": -6.0, "grad": 1.'
    '0, "on_path": true, "parents": ["v2", "v3"], "order": 4, "group": null}], "steps": [{"in'
    'dex": 0, "kind": "inputs", "node": null, "values": {"v0": -2.0, "v1": 3.0}, "contributio'
    'ns": []}, {"index": 1, "kind": "forward", "node": "v2", "value": -6.0, "contributions": '
    '[]}, {"index": 2, "kind": "forward", "node": "v3", "value": 1.0, "contributions": []}, {'
    '"index": 3, "kind": "forward", "node": "v4", "value": -6.0, "contributions": []}, {"inde'
    'x": 4, "kind": "seed", "node": "v4", "grad": 1.0, "contributions": []}, {"index": 5, "ki'
    'nd": "backward", "node": "v4", "upstream": 1.0, "contributions": [{"source": "v4", "targ'
    'et": "v2", "slot": 0, "local": 1.0, "upstream": 1.0, "amount": 1.0, "before": 0.0, "afte'
    'r": 1.0}, {"source": "v4", "target": "v3", "slot": 1, "local": -6.0, "upstream": 1.0, "a'
    'mount": -6.0, "before": 0.0, "after": -6.0}]}, {"index": 6, "kind": "backward", "node": '
    '"v3", "upstream": -6.0, "contributions": [{"source": "v3", "target": "v0", "slot": 0, "l'
    'ocal": 1.0, "upstream": -6.0, "amount": -6.0, "before": 0.0, "after": -6.0}, {"source": '
    '"v3", "target": "v1", "slot": 1, "local": 1.0, "upstream": -6.0, "amount": -6.0, "before'
    '": 0.0, "after": -6.0}]}, {"index": 7, "kind": "backward", "node": "v2", "upstream": 1.0'
    ', "contributions": [{"source": "v2", "target": "v0", "slot": 0, "local": 3.0, "upstream"'
    ': 1.0, "amount": 3.0, "before": -6.0, "after": -3.0}, {"source": "v2", "target": "v1", "'
    'slot": 1, "local": -2.0, "upstream": 1.0, "amount": -2.0, "before": -6.0, "after": -8.0}'
    ']}]}'
)

FORK_GRAPH_JSON = (
    '{"directed": true, "multigraph": true, "graph": {"format": "vizgrad.trace/2", "root": "v'
    '4", "also": [], "derivatives": "exact", "backward_ran": true, "default_step": 7, "steps"'
    ': [{"index": 0, "kind": "inputs", "node": null, "values": {"v0": -2.0, "v1": 3.0}, "cont'
    'ributions": []}, {"index": 1, "kind": "forward", "node": "v2", "value": -6.0, "contribut'
    'ions": []}, {"index": 2, "kind": "forward", "node": "v3", "value": 1.0, "contributions":'
    ' []}, {"index": 3, "kind": "forward", "node": "v4", "value": -6.0, "contributions": []},'
    ' {"index": 4, "kind": "seed", "node": "v4", "grad": 1.0, "contributions": []}, {"index":'
    ' 5, "kind": "backward", "node": "v4", "upstream": 1.0, "contributions": [{"source": "v4"'
    ', "target": "v2", "slot": 0, "local": 1.0, "upstream": 1.0, "amount": 1.0, "before": 0.0'
    ', "after": 1.0}, {"source": "v4", "target": "v3", "slot": 1, "local": -6.0, "upstream": '
    '1.0, "amount": -6.0, "before": 0.0, "after": -6.0}]}, {"index": 6, "kind": "backward", "'
    'node": "v3", "upstream": -6.0, "contributions": [{"source": "v3", "target": "v0", "slot"'
    ': 0, "local": 1.0, "upstream": -6.0, "amount": -6.0, "before": 0.0, "after": -6.0}, {"so'
    'urce": "v3", "target": "v1", "slot": 1, "local": 1.0, "upstream": -6.0, "amount": -6.0, '
    '"before": 0.0, "after": -6.0}]}, {"index": 7, "kind": "backward", "node": "v2", "upstrea'
    'm": 1.0, "contributions": [{"source": "v2", "target": "v0", "slot": 0, "local": 3.0, "up'
    'stream": 1.0, "amount": 3.0, "before": -6.0, "after": -3.0}, {"source": "v2", "target": '
    '"v1", "slot": 1, "local": -2.0, "upstream": 1.0, "amount": -2.0, "before": -6.0, "after"'
    ': -8.0}]}]}, "nodes": [{"label": "a", "op": "", "kind": "input", "data": -2.0, "grad": -'
    '3.0, "on_path": true, "order": 0, "group": null, "id": "v0"}, {"label": "b", "op": "", "'
    'kind": "input", "data": 3.0, "grad": -8.0, "on_path": true, "order": 1, "group": null, "'
    'id": "v1"}, {"label": "u", "op": "*", "kind": "op", "data": -6.0, "grad": 1.0, "on_path"'
    ': true, "order": 2, "group": null, "id": "v2"}, {"label": "v", "op": "+", "kind": "op", '
    '"data": 1.0, "grad": -6.0, "on_path": true, "order": 3, "group": null, "id": "v3"}, {"la'
    'bel": "q", "op": "*", "kind": "output", "data": -6.0, "grad": 1.0, "on_path": true, "ord'
    'er": 4, "group": null, "id": "v4"}], "edges": [{"slot": 0, "source": "v0", "target": "v2'
    '", "key": 0}, {"slot": 0, "source": "v0", "target": "v3", "key": 0}, {"slot": 1, "source'
    '": "v1", "target": "v2", "key": 1}, {"slot": 1, "source": "v1", "target": "v3", "key": 1'
    '}, {"slot": 0, "source": "v2", "target": "v4", "key": 0}, {"slot": 1, "source": "v3", "t'
    'arget": "v4", "key": 1}]}'
)

OVERWRITE_TRACE_JSON = (
    '{"format": "vizgrad.trace/2", "root": "v1", "also": [], "derivatives": "exact", "backwar'
    'd_ran": true, "default_step": 3, "nodes": [{"id": "v0", "label": "a", "op": "", "kind": '
    '"input", "data": 3.0, "grad": 1.0, "on_path": true, "parents": [], "order": 0, "group": '
    'null}, {"id": "v1", "label": "b", "op": "+", "kind": "output", "data": 6.0, "grad": 1.0,'
    ' "on_path": true, "parents": ["v0", "v0"], "order": 1, "group": null}], "steps": [{"inde'
    'x": 0, "kind": "inputs", "node": null, "values": {"v0": 3.0}, "contributions": []}, {"in'
    'dex": 1, "kind": "forward", "node": "v1", "value": 6.0, "contributions": []}, {"index": '
    '2, "kind": "seed", "node": "v1", "grad": 1.0, "contributions": []}, {"index": 3, "kind":'
    ' "backward", "node": "v1", "upstream": 1.0, "contributions": [{"source": "v1", "target":'
    ' "v0", "slot": 0, "local": 1.0, "upstream": 1.0, "amount": 1.0, "before": 0.0, "after": '
    '1.0, "overwrote": true}, {"source": "v1", "target": "v0", "slot": 1, "local": 1.0, "upst'
    'ream": 1.0, "amount": 1.0, "before": 1.0, "after": 1.0, "overwrote": true}]}]}'
)

MICROGRAD_TRACE_JSON = (
    '{"format": "vizgrad.trace/2", "root": "v6", "also": [], "derivatives": "observed", "back'
    'ward_ran": false, "default_step": 5, "nodes": [{"id": "v0", "label": "", "op": "", "kind'
    '": "input", "data": 2.0, "grad": 0.0, "on_path": true, "parents": [], "order": 0, "group'
    '": null}, {"id": "v1", "label": "", "op": "", "kind": "input", "data": -3.0, "grad": 0.0'
    ', "on_path": true, "parents": [], "order": 1, "group": null}, {"id": "v2", "label": "", '
    '"op": "*", "kind": "op", "data": -6.0, "grad": 0.0, "on_path": true, "parents": ["v0", "'
    'v1"], "order": 2, "group": null}, {"id": "v3", "label": "", "op": "+", "kind": "op", "da'
    'ta": -4.0, "grad": 0.0, "on_path": true, "parents": ["v2", "v0"], "order": 3, "group": n'
    'ull}, {"id": "v4", "label": "", "op": "ReLU", "kind": "op", "data": 0.0, "grad": 9.0, "o'
    'n_path": true, "parents": ["v3"], "order": 4, "group": null}, {"id": "v5", "label": "", '
    '"op": "**2", "kind": "op", "data": 9.0, "grad": 0.0, "on_path": true, "parents": ["v1"],'
    ' "order": 5, "group": null}, {"id": "v6", "label": "", "op": "*", "kind": "output", "dat'
    'a": 0.0, "grad": 1.0, "on_path": true, "parents": ["v4", "v5"], "order": 6, "group": nul'
    'l}], "steps": [{"index": 0, "kind": "inputs", "node": null, "values": {"v0": 2.0, "v1": '
    '-3.0}, "contributions": []}, {"index": 1, "kind": "forward", "node": "v2", "value": -6.0'
    ', "contributions": []}, {"index": 2, "kind": "forward", "node": "v3", "value": -4.0, "co'
    'ntributions": []}, {"index": 3, "kind": "forward", "node": "v4", "value": 0.0, "contribu'
    'tions": []}, {"index": 4, "kind": "forward", "node": "v5", "value": 9.0, "contributions"'
    ': []}, {"index": 5, "kind": "forward", "node": "v6", "value": 0.0, "contributions": []},'
    ' {"index": 6, "kind": "seed", "node": "v6", "grad": 1.0, "contributions": []}, {"index":'
    ' 7, "kind": "backward", "node": "v6", "upstream": 1.0, "contributions": [{"source": "v6"'
    ', "target": "v4", "slot": 0, "local": 9.0, "upstream": 1.0, "amount": 9.0, "before": 0.0'
    ', "after": 9.0, "observed": true}, {"source": "v6", "target": "v5", "slot": 1, "local": '
    '0.0, "upstream": 1.0, "amount": 0.0, "before": 0.0, "after": 0.0, "observed": true}]}, {'
    '"index": 8, "kind": "backward", "node": "v5", "upstream": 0.0, "contributions": [{"sourc'
    'e": "v5", "target": "v1", "slot": 0, "local": null, "upstream": 0.0, "amount": 0.0, "bef'
    'ore": 0.0, "after": 0.0, "observed": true}]}, {"index": 9, "kind": "backward", "node": "'
    'v4", "upstream": 9.0, "contributions": [{"source": "v4", "target": "v3", "slot": 0, "loc'
    'al": 0.0, "upstream": 9.0, "amount": 0.0, "before": 0.0, "after": 0.0, "observed": true}'
    ']}, {"index": 10, "kind": "backward", "node": "v3", "upstream": 0.0, "contributions": [{'
    '"source": "v3", "target": "v2", "slot": 0, "local": null, "upstream": 0.0, "amount": 0.0'
    ', "before": 0.0, "after": 0.0, "observed": true}, {"source": "v3", "target": "v0", "slot'
    '": 1, "local": null, "upstream": 0.0, "amount": 0.0, "before": 0.0, "after": 0.0, "obser'
    'ved": true}]}, {"index": 11, "kind": "backward", "node": "v2", "upstream": 0.0, "contrib'
    'utions": [{"source": "v2", "target": "v0", "slot": 0, "local": null, "upstream": 0.0, "a'
    'mount": 0.0, "before": 0.0, "after": 0.0, "observed": true}, {"source": "v2", "target": '
    '"v1", "slot": 1, "local": null, "upstream": 0.0, "amount": 0.0, "before": 0.0, "after": '
    '0.0, "observed": true}]}]}'
)

#: sha256 of (trace JSON, graph JSON) of every example, from the same output as the literals
EXAMPLE_DIGESTS = {
    "shared-node": ("bf8690a68c0c2ca540143c40bbc5def05fd5e42ded7f8cace9a4cc48708ab90a",
                    "014f344f3daccaa9b3617ae46d75019ee0ac23e0b86907b9af8731b4946cdb6d"),
    "overwrite-bug": ("691f21262ab7a0d5e4768c5a8e724776273489985e3388a9bdd6297e361500c5",
                      "54147443ee39ec253c8c672a7003812cd3113a57f4f1c7ec01c526ed13b85167"),
    "sum-square": ("7e201f0abe232a8d3fc9d30618ab7cf0417cceaa19f08629c3e30bf5451fe909",
                   "2bb5a62b9cbb258792458168c621b0f38af5b575017771b24a55f22cb6893181"),
    "fork": ("309e742fd3eee2addee10ea5684c155e6fe5f146d3283f8ea07a757cdf55c202",
             "8720f0bf0dd50394535056031a71047f45c6231c83f2a9c922ca4a27615e2e87"),
    "tanh-native": ("0374595cc8719bda2d47434990705d201259c97d8731b17ba4f8e9bbfc847427",
                    "8d72713006d5d98156c24ad773aaffe30851dcdd0967f79308d7977b6655aa39"),
    "tanh-decomposed": ("e57346c3161140f060734126837b4a0d77df6e82900d539fdc35588acc86a1c2",
                        "947331f3dbd6e009268bea5b55930436b105948e6f4067fb7aa10758caeeff93"),
    "torch-crosscheck": ("a9f44df4f6243e756a5fc22e52db6058f9e5386007846abb01173cc7bb87148a",
                         "9da0110394415a261dd494f729fb22ffc3b601008c237f4acd1cd178d86d2633"),
    "softmax-nll": ("76dc59fec00e05539f8fbdcc571839199c2642d256824fdb4ef93c72d35da566",
                    "78ddf22501fb359c83a6e9c9b200bd21eb54e28889e56d996526e76e6b2c6a6f"),
    "mlp": ("ff50076381a2797dd6c7e3bbf1ef8410e933fe82a1f552d6ae541743d2f3d867",
            "9adb8b14050646e80c8ea8296a5b5ae592c01fcd13802ff3f1d6066e5724667b"),
}

#: sha256 of (trace JSON, graph JSON) of bigger graphs, from the same output as the literals;
#: the two nets' were written again when /3 came: besides name and sample, their bytes differ
#: from /2's in one thing only, checked then: a net's wrapped numbers are inputs x[s][i] or
#: constants (targets), where /2 made every wrapped number of vizgrad's MLP a constant and
#: every one of micrograd's an input
NET_DIGESTS = {
    "vizgrad MLP 3-4-4-1, model= and also=": (
        "97995a74c99c9f796fe770eaed2ecacad162831a04017f60a2b48ff5a0edf429",
        "e4b81f858d33e81900b42dfe4436f223cb72bc94f77e80fedb1bace71ccd5956"),
    "micrograd MLP 3-4-1, model=": (
        "94c854cf813ff4a1efd5271f60ff9513f9418d99100e0434c348a751e5736990",
        "5e8a06513c63470c050d43bfb6beb5e415cf8484226b0eeb06c0eb5114020f71"),
    "inf and nan": (
        "5f771cfbf302005507809f28ad4d796ae83a18eb7f8b7700fc83b08e60c1542d",
        "a1b8658905b0f31c552a947d1b3e795b0df96587efef256f664d7aadda25fe03"),
}


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def as_v2(text: str) -> str:
    """A ``vizgrad.trace/3`` trace or graph JSON as ``/2`` wrote it: no node ``name`` and
    ``sample``; every other byte as it was."""
    d = json.loads(text)
    head = d["graph"] if "graph" in d else d
    assert head["format"] == "vizgrad.trace/3"
    head["format"] = "vizgrad.trace/2"
    for n in d["nodes"]:
        assert set(n) >= {"name", "sample"}, n
        del n["name"], n["sample"]
    return json.dumps(d)


def test_the_fork_names_its_values_by_their_labels():
    nodes = json.loads(examples.trace("fork").to_json())["nodes"]
    assert [(n["name"], n["sample"]) for n in nodes] == [
        ("a", None), ("b", None), ("u", None), ("v", None), ("q", None)]


def net_trace(name: str) -> Trace:
    xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5]]
    if name.startswith("vizgrad"):
        m = MLP(3, [4, 4, 1], seed=1)
        loss = sum(((m(x) - y) ** 2 for x, y in zip(xs, [1.0, -1.0])), Value(0.0))
        return trace(loss, also=[m([1.0, 1.0, 1.0])], model=m)
    if name.startswith("micrograd"):
        random.seed(3)
        mm = MicroMLP(3, [4, 1])
        loss = sum(((mm([MicroValue(v) for v in x]) - y) ** 2 for x, y in zip(xs, [1.0, -1.0])),
                   MicroValue(0.0))
        loss.backward()
        return trace(loss, model=mm)
    x = Value(float("inf"), label="x")
    return trace(x * 0.5 + Value(float("nan"), label="n"))


def test_fork_trace_json_is_byte_identical_to_the_golden():
    assert as_v2(examples.trace("fork").to_json()) == FORK_TRACE_JSON


def test_fork_graph_json_is_byte_identical_to_the_golden():
    assert as_v2(to_json(to_networkx(examples.trace("fork")))) == FORK_GRAPH_JSON


def test_overwrite_and_observed_contributions_keep_their_extra_keys():
    assert as_v2(examples.trace("overwrite-bug").to_json()) == OVERWRITE_TRACE_JSON
    a, b = MicroValue(2.0), MicroValue(-3.0)
    assert as_v2(trace((a * b + a).relu() * (b**2)).to_json()) == MICROGRAD_TRACE_JSON


def test_every_example_gives_the_golden_bytes():
    got = {name: (sha(as_v2(examples.trace(name).to_json())),
                  sha(as_v2(to_json(to_networkx(examples.trace(name))))))
           for name in EXAMPLE_DIGESTS}
    assert got == EXAMPLE_DIGESTS


def test_nets_with_groups_also_and_non_finite_values_give_the_golden_bytes():
    for name, digests in NET_DIGESTS.items():
        t = net_trace(name)
        assert (sha(as_v2(t.to_json())), sha(as_v2(to_json(to_networkx(t))))) == digests, name


def test_steps_and_nodes_are_lists_of_plain_dicts_as_documented():
    t = examples.trace("fork")
    golden = json.loads(FORK_TRACE_JSON)
    assert type(t.steps) is list and type(t.nodes) is list
    assert all(type(s) is dict for s in t.steps)
    assert all(type(c) is dict for s in t.steps for c in s["contributions"])
    assert all(type(n) is dict and type(n["parents"]) is list for n in t.nodes)
    assert t.steps == golden["steps"]
    assert t.nodes == [{**n, "name": n["label"], "sample": None} for n in golden["nodes"]]
    assert type(t.steps[0]["values"]) is dict


def test_a_step_edited_through_steps_is_what_replay_and_json_see():
    t = examples.trace("fork")
    assert t.steps is t.steps  # one list, kept: an edit is not lost on the next access
    t.steps[1]["value"] = 42.0
    assert json.loads(t.to_json())["steps"][1]["value"] == 42.0
    assert t.state(1).data["v2"] == 42.0
    t.nodes[0]["label"] = "alpha"
    assert json.loads(t.to_json())["nodes"][0]["label"] == "alpha"
    assert to_networkx(t).nodes["v0"]["label"] == "alpha"


def test_a_trace_round_trips_through_its_dict_and_its_graph():
    for name in ("fork", "overwrite-bug", "softmax-nll"):
        t = examples.trace(name)
        text = t.to_json()
        assert Trace.from_dict(json.loads(text)).to_json() == text
        assert graph_to_trace(to_networkx(t)).to_json() == text
        assert Trace(t.nodes, t.steps, t.root, t.also, t.derivatives,
                     t.backward_ran).to_json() == text


def test_the_steps_of_a_graph_are_the_traces_steps():
    t = examples.trace("fork")
    G = to_networkx(t)
    assert G.graph["steps"] == json.loads(FORK_TRACE_JSON)["steps"]
    assert replay(G.graph["steps"], 7).grad == {"v4": 1.0, "v2": 1.0, "v3": -6.0,
                                                "v0": -3.0, "v1": -8.0}


def test_tracing_leaves_the_garbage_collector_as_it_found_it():
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    root, _ = examples.build("mlp")
    to_networkx(trace(root))
    assert gc.isenabled() and gc.get_freeze_count() == frozen


def test_a_graphs_steps_read_as_the_plain_list_however_they_are_read():
    import copy
    import pickle

    golden = json.loads(FORK_TRACE_JSON)["steps"]

    def steps():
        return to_networkx(examples.trace("fork")).graph["steps"]

    assert len(steps()) == 8 and isinstance(steps(), list)
    assert steps() == golden and golden == steps() and steps() == steps()
    assert list(steps()) == golden and [*steps()] == golden and steps()[-3:] == golden[-3:]
    assert [0] + steps() == [0, *golden] and steps() + [0] == [*golden, 0]
    assert json.loads(json.dumps(steps())) == golden
    assert json.loads(json.dumps(steps(), indent=1)) == golden
    assert pickle.loads(pickle.dumps(steps())) == golden
    assert type(copy.deepcopy(steps())) is list and copy.deepcopy(steps()) == golden
    assert [s["index"] for s in reversed(steps())] == list(range(7, -1, -1))


def test_an_edit_through_the_graph_is_an_edit_of_the_traces_steps():
    t = examples.trace("fork")
    G = to_networkx(t)
    G.graph["steps"][5]["upstream"] = 9.0
    assert t.steps[5]["upstream"] == 9.0
    assert json.loads(to_json(G))["graph"]["steps"][5]["upstream"] == 9.0


def test_traces_of_the_same_graph_are_equal_and_an_edit_tells_them_apart():
    q = examples.build("fork")[0]
    a, b = trace(q), trace(q)
    assert a == b and a.to_json() == b.to_json()
    b.steps[7]["contributions"][0]["after"] = 0.0
    assert a != b
    assert repr(a) == "<Trace of q: 5 values, 8 steps>"


def test_naming_reads_the_columns_by_position(monkeypatch):
    """Naming a large trace's values (and a net's, with model=) reads and writes the node
    columns by position: no record dict is made per node."""
    from vizgrad.tracing.records import NodeColumns
    from vizgrad.core.nn import MLP

    made = []

    def counted(original):
        def call(self, *args):
            made.append(original.__name__)
            return original(self, *args)
        return call

    monkeypatch.setattr(NodeColumns, "record", counted(NodeColumns.record))
    x = Value(0.5, label="x")
    for i in range(100):
        x = (x * Value(0.1 * i, label=f"w{i}") + 1.0).tanh()
    net = MLP(2, [3, 1], seed=0)
    loss = sum((net([s, -s]) - 1.0) ** 2 for s in (0.5, 1.5))
    t, u = trace(x), trace(loss, model=net)
    assert made == []
    names = [n["name"] for n in t.nodes]  # written into the columns
    assert len(made) == len(names) > 400
    assert names[:3] == ["x", "w0", "x·w0"] and all(names) and names[-1] == "f"
    assert {"ŷ[0]", "ŷ[1]", "L0.N2.out[1]", "loss"} <= {n["name"] for n in u.nodes}
