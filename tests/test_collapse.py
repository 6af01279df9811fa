"""Groups, trace(model=), collapse, focus and merged constants: graph → graph transforms."""

from __future__ import annotations

import json
import math
import random

import pytest

import vizgrad
from vizgrad import Value
from vizgrad.graph.collapse import (auto_collapse, collapse, focus, map_step, merge_constants,
                                    prepare)
from vizgrad.exceptions import OperandTypeError, OptionError
from vizgrad.core.nn import MLP
from vizgrad.tracing.recorder import replay, states

X, Y = [2.0, 3.0, -1.0], 1.0


def micrograd_mlp(seed: int = 0):
    """micrograd's MLP(3, [4, 4, 1]) and its loss; skips without micrograd (fails so in CI)."""
    mg_nn = pytest.importorskip("micrograd.nn", reason="micrograd==0.1.0 is a test dependency")
    random.seed(seed)
    net = mg_nn.MLP(3, [4, 4, 1])
    loss = (net(X) - Y) ** 2
    loss.backward()
    return net, loss


def vizgrad_mlp(seed: int = 0):
    """vizgrad's MLP with micrograd's shape and activations, on float inputs."""
    net = MLP(3, [4, 4, 1], activation="relu", last="linear", seed=seed)
    loss = (net(X) - Y) ** 2
    loss.backward()
    return net, loss


@pytest.fixture(scope="module")
def mg():
    net, loss = micrograd_mlp()
    return net, loss, vizgrad.to_networkx(vizgrad.trace(loss, model=net))


def boxes(H, kind="group"):
    return [n for n in H if H.nodes[n]["kind"] == kind]


def check_replay(G, H):
    """Every contribution's before is the state's grad; the last state matches the nodes."""
    shown = {}
    for st, step in zip(states(H.graph["steps"]), H.graph["steps"]):
        for c in step["contributions"]:
            if c.get("grads") is not None:  # a batch's inputs: each cell its own, no total
                assert c["before"] is None and c["after"] is None, c
                shown[c["target"]] = None
                continue
            assert c["before"] == shown.get(c["target"], 0.0), (step, c)
            assert H.has_edge(c["target"], c["source"], c["slot"]), c
            shown[c["target"]] = c["after"]
        if step["kind"] == "seed":
            shown[step["node"]] = step["grad"]
        assert st.grad == shown
    final = replay(H.graph["steps"], len(H.graph["steps"]) - 1)
    for n, attrs in H.nodes(data=True):
        if n not in G:  # a box
            assert final.grad.get(n) == attrs["grad"], n
        elif n in final.grad:
            assert final.grad[n] == G.nodes[n]["grad"], n


def test_group_paths_nest_and_end_with_the_block():
    with vizgrad.group("layer 1"):
        a = Value(1.0)
        with vizgrad.group("neuron 0"):
            b = a * 2
    assert (a.group, b.group, b.parents[1].group, Value(0.0).group) == (
        "layer 1", "layer 1/neuron 0", "layer 1/neuron 0", None)
    t = vizgrad.trace(b)
    assert [n["group"] for n in t.nodes] == ["layer 1", "layer 1/neuron 0", "layer 1/neuron 0"]
    assert vizgrad.to_networkx(b).nodes["v2"]["group"] == "layer 1/neuron 0"


@pytest.mark.parametrize("name", ["", "/", "a//b", None, 3])
def test_bad_group_names_are_refused(name):
    with pytest.raises(OptionError, match="group name"), vizgrad.group(name):
        pass


def test_micrograd_mlp_is_named_and_grouped_by_neuron(mg):
    net, _, G = mg
    assert G.number_of_nodes() == 128
    groups = {}
    for n, a in G.nodes(data=True):
        groups.setdefault(a["group"], []).append(n)
    assert sorted(g for g in groups if g) == [f"L{i}/N{j}" for i, k in ((0, 4), (1, 4), (2, 1))
                                            for j in range(k)]
    assert sorted(G.nodes[n]["op"] for n in groups[None]) == ["", "**2", "+"]  # the loss
    labels = {a["label"]: a for _, a in G.nodes(data=True) if a["label"]}
    w = net.layers[0].neurons[2].w[1]
    assert labels["L0.N2.w1"]["grad"] == w.grad and labels["L0.N2.b"]["group"] == "L0/N2"


def test_vizgrad_mlp_with_groups_matches_micrograds_structure(mg):
    _, _, G = mg
    net, out = vizgrad_mlp()
    ours = vizgrad.to_networkx(out)
    by_model = vizgrad.to_networkx(vizgrad.trace(out, model=net))

    def sizes(H):
        C = collapse(H, "neuron")
        return sorted(C.nodes[b]["size"] for b in boxes(C))

    assert ours.number_of_nodes() == 128
    assert sizes(ours) == sizes(G) == sizes(by_model)
    assert [a["group"] for _, a in ours.nodes(data=True)] == [
        a["group"] for _, a in by_model.nodes(data=True)]


def test_model_that_is_not_a_net_is_refused():
    x = Value(1.0)
    with pytest.raises(OperandTypeError, match="model="):
        vizgrad.trace(x * 2, model=object())
    with pytest.raises(OperandTypeError, match="none of the model's parameters"):
        vizgrad.trace(x * 2, model=MLP(1, [1]))


def test_neuron_collapse_of_micrograds_mlp(mg):
    net, _, G = mg
    H = collapse(G, "neuron")
    assert H.number_of_nodes() <= 20 and len(boxes(H)) == 9
    params = {name: grad for b in boxes(H) for name, grad in H.nodes[b]["params"]}
    assert len(params) == len(net.parameters()) == 41
    for i, layer in enumerate(net.layers):
        for j, neuron in enumerate(layer.neurons):
            for k, w in enumerate(neuron.w):
                assert params[f"L{i}.N{j}.w{k}"] == w.grad
            assert params[f"L{i}.N{j}.b"] == neuron.b.grad
    out = next(b for b in boxes(H) if H.nodes[b]["label"] == "L2/N0")
    assert H.nodes[out]["data"] == net(X).data
    check_replay(G, H)


@pytest.mark.parametrize("steps", ["merge", "inside"])
@pytest.mark.parametrize("level", ["neuron", "layer", 1])
def test_summed_contributions_are_exact_sums_of_the_members(mg, level, steps):
    _, _, G = mg
    H = collapse(G, level, steps=steps, inputs=False)  # every wrapped copy, as traced
    box_of = {m: b for b in boxes(H) for m in H.nodes[b]["members"]}
    original = {s["node"]: s for s in G.graph["steps"] if s["kind"] == "backward"}
    checked = 0
    for s in H.graph["steps"]:
        if s["kind"] != "backward":
            continue
        members = s.get("members") or [s.get("member", s["node"])]
        for c in s["contributions"]:
            parts = [o["amount"] for m in members for o in original[m]["contributions"]
                     if box_of.get(o["target"], o["target"]) == c["target"]
                     and box_of.get(o["target"]) != box_of.get(o["source"], o["source"])]
            assert c["amount"] == math.fsum(parts) and c["count"] == len(parts)
            checked += 1
    assert checked >= 5
    edges = sum(d["count"] for *_, d in H.edges(data=True))
    inner = sum(1 for p, n in G.edges() if box_of.get(p, p) == box_of.get(n, n))
    assert edges + inner == G.number_of_edges()
    check_replay(G, H)
    assert vizgrad.to_json(H) == vizgrad.to_json(collapse(G, level, steps=steps, inputs=False))


def test_inside_steps_keep_one_step_per_member(mg):
    _, _, G = mg
    merged, inside = collapse(G, "neuron"), collapse(G, "neuron", steps="inside")
    n_back = sum(s["kind"] == "backward" for s in G.graph["steps"])
    assert sum(s["kind"] == "backward" for s in inside.graph["steps"]) == n_back
    assert sum(s["kind"] == "backward" for s in merged.graph["steps"]) == 9 + 2
    assert {s["member"] for s in inside.graph["steps"] if "member" in s} <= set(G)


def test_layer_collapse_sums_several_outputs(mg):
    _, _, G = mg
    H = collapse(G, "layer")
    (l0,) = [b for b in boxes(H) if H.nodes[b]["label"] == "L0"]
    outs = H.nodes[l0]["outputs"]
    assert len(outs) == 4 and H.nodes[l0]["data"] == math.fsum(o[1] for o in outs)
    # three layers, the sample's three inputs x[0][i], three values of the loss
    assert len(boxes(H)) == 3 and H.number_of_nodes() == 9


def big_grouped_graph(samples: int):
    net = MLP(4, [12, 12, 1], seed=3)
    rng = random.Random(1)
    loss = Value(0.0, label="zero")
    for _ in range(samples):
        loss = loss + (net([rng.uniform(-1, 1) for _ in range(4)]) - 1.0) ** 2
    loss.backward()
    return vizgrad.to_networkx(loss)


def test_five_thousand_grouped_nodes_collapse_sanely():
    G = big_grouped_graph(10)
    assert 4500 < G.number_of_nodes() < 6000
    H = auto_collapse(G)
    assert 1 < H.number_of_nodes() <= 60
    both = boxes(H) + boxes(H, "inputs")  # the neurons' boxes, and the batch's inputs'
    assert len(both) == len(boxes(H)) + 1
    sizes = [H.nodes[b]["size"] for b in both]
    assert min(sizes) >= 1 and all(H.nodes[b]["members"] for b in both)
    assert sum(sizes) + H.number_of_nodes() - len(sizes) == G.number_of_nodes()
    check_replay(G, H)
    assert vizgrad.to_json(H) == vizgrad.to_json(auto_collapse(G))
    # past 100 grouped values draw() collapses by itself, what lies after the net (the loss
    # of 10 samples) folded as one box, the 10 samples' inputs as one box x; beside that box
    # the 25 neurons no longer fit a 1,400 px docs column (1,445 pt wide, 8.7 pt text), so
    # it draws the layers, each with its matrix
    drawn = vizgrad.draw(G)
    D = drawn.graph
    assert sorted(D.nodes[b]["label"] for b in D) == ["L0", "L1", "L2", "loss", "x"]
    assert sum(D.nodes[b]["size"] for b in D) == G.number_of_nodes()
    svg = drawn.svg()
    assert all(f'id="n-{b}"' in svg for b in D)  # one box per node, none left out
    assert svg.count('class="vg-box vg-group"') == len(boxes(D))
    final = drawn.scene.look(None)  # no blank box: every box says what it is and holds
    for b in boxes(D):
        assert final[f"t-{b}-name"]["text"].endswith(f"{D.nodes[b]['size']:,} values")
        assert final[f"t-{b}-data"]["text"] not in ("", "—", "pending")
        assert final[f"t-{b}-grad"]["text"] not in ("", "—")


def test_ungrouped_graph_collapses_into_runs_of_the_order():
    x = Value(0.5, label="x")
    y = x
    for i in range(2500):
        y = (y * 0.999 + 0.001) if i % 2 else y.tanh()
    G = vizgrad.to_networkx(y)
    H = auto_collapse(G, 40)
    assert H.number_of_nodes() <= 40 and H.graph["collapsed"]["level"] == "order"
    assert sum(H.nodes[b]["size"] for b in boxes(H)) + 1 == G.number_of_nodes()  # + the root
    check_replay(G, H)


def test_auto_collapse_picks_the_deepest_level_that_fits(mg):
    _, _, G = mg
    assert auto_collapse(G, 200) is G
    assert auto_collapse(G, 20).graph["collapsed"]["level"] == 2
    assert auto_collapse(G, 8).graph["collapsed"]["level"] == 1
    few = auto_collapse(G, 5)  # three layers, the root, and the rest of the loss in one run
    assert (few.graph["collapsed"]["level"], few.graph["collapsed"]["runs"]) == (1, 1)
    assert few.graph["root"] == G.graph["root"]
    assert few.number_of_nodes() == 5
    assert auto_collapse(G, 3).graph["collapsed"]["level"] == "order"
    check_replay(G, few)


def test_focus_shows_the_neighbourhood_and_counts_the_rest(mg):
    _, _, G = mg
    node = next(n for n, a in G.nodes(data=True) if a["label"] == "L1.N2.w0")
    F = focus(G, node, radius=2)
    stubs = boxes(F, "stub")
    shown = [n for n in F if n not in stubs]
    assert node in shown and len(shown) < 15 and stubs
    assert sum(F.nodes[s]["hidden"] for s in stubs) == G.number_of_nodes() - len(shown)
    assert all(F.nodes[s]["label"] == f"… {F.nodes[s]['hidden']} more" for s in stubs)
    check_replay(G, F)
    with pytest.raises(OptionError, match="not in this graph"):
        focus(G, "v999")
    with pytest.raises(OptionError, match="radius"):
        focus(G, node, radius=-1)


def test_merge_constants_draws_micrograds_wrapped_inputs_once_per_layer(mg):
    _, _, G = mg
    M = merge_constants(G, "layer")
    merged = [n for n in M if M.nodes[n].get("members")]
    assert len(merged) == 3 and M.number_of_nodes() == G.number_of_nodes() - 9
    assert sorted(M.nodes[n]["data"] for n in merged) == sorted(X)
    for n in merged:
        copies = M.nodes[n]["members"]
        assert len(copies) == 4 and M.nodes[n]["group"] is None  # one per neuron of L0
        assert M.nodes[n]["grad"] == math.fsum(G.nodes[c]["grad"] for c in copies)
    check_replay(G, M)
    assert collapse(M, "neuron").number_of_nodes() == 12 + 3  # x0, x1, x2 feed four boxes


@pytest.mark.parametrize("kwargs, match", [
    ({"level": "brain"}, "collapse level"), ({"level": 0}, "collapse level"),
    ({"level": "neuron", "steps": "all"}, "steps must be"),
])
def test_bad_collapse_options(mg, kwargs, match):
    with pytest.raises(OptionError, match=match):
        collapse(mg[2], **kwargs)


def test_draw_collapses_a_grouped_mlp_by_itself_and_says_so(mg):
    _, _, G = mg
    d = vizgrad.draw(G)
    # 9 neurons, the sample's 3 inputs, and its loss, 3 values after the net, one by one
    assert d.graph.number_of_nodes() == 15 and "collapsed automatically" in d.svg()
    # drawn whole: 128 values, the 12 copies micrograd wrapped of the 3 inputs drawn as 3
    assert vizgrad.draw(G, collapse=False).graph.number_of_nodes() == 119
    assert vizgrad.draw(G, collapse=False, merge_constants=False).graph.number_of_nodes() == 128
    k = 140  # a backward step of the full trace, held by the view's step map_step gives
    drawn = vizgrad.draw(G, map_step(vizgrad.draw(G, collapse="neuron").graph, k),
                         collapse="neuron")
    assert drawn.step == map_step(drawn.graph, k) == drawn.prepared.source_step(k)
    assert replay(drawn.graph.graph["steps"], drawn.step).step == drawn.step
    svg = drawn.svg()
    assert "L1/N3" in svg and svg == vizgrad.draw(G, drawn.step, collapse="neuron").svg()


def test_player_and_focus_render_the_transformed_graph():
    G = vizgrad.examples.graph("mlp")
    page = vizgrad.player_html(G, collapse="neuron", group_steps="inside")
    assert "L0/N2" in page and page.count('class="step-text"') == 1 + len(
        collapse(G, "neuron", steps="inside").graph["steps"])  # the steps and the final view
    root = G.graph["root"]
    assert "… 38 more" in vizgrad.draw(G, focus=root, radius=1).svg()


def test_a_transformed_graph_carries_data_and_no_sentence():
    G = vizgrad.examples.graph("mlp")
    source = {"format", "root", "also", "derivatives", "backward_ran", "default_step", "steps"}
    for H, added in [(collapse(G, "neuron"), "collapsed"), (auto_collapse(G, 5), "collapsed"),
                     (focus(G, G.graph["root"], 1), "focus"), (merge_constants(G), "merged")]:
        assert set(H.graph) == source | {added}
        assert "note" not in json.loads(vizgrad.to_json(H))["graph"]


def test_collapsed_graphs_survive_json():
    H = collapse(vizgrad.examples.graph("mlp"), "neuron")
    back = vizgrad.from_json(vizgrad.to_json(H))
    assert dict(back.nodes(data=True)) == json.loads(json.dumps(dict(H.nodes(data=True))))
    assert vizgrad.draw(back).svg() == vizgrad.draw(H).svg()


@pytest.mark.parametrize("name", vizgrad.examples.names())
def test_any_grouping_of_any_example_replays_consistently(name):
    """Groups that are not neurons (a value used inside and outside its group,
    groups spread over the order) still give steps that replay to the nodes."""
    for seed in range(6):
        G = vizgrad.examples.graph(name)
        rng = random.Random(seed)
        for n in G:
            G.nodes[n]["group"] = rng.choice([None, "A", "A/x", "A/y", "B", "B/z"])
        for level in (1, 2):
            for steps in ("merge", "inside"):
                if not any(G.nodes[n]["group"] for n in G):  # a tiny graph may draw no group
                    with pytest.raises(OptionError, match="no groups"):
                        collapse(G, level, steps=steps)
                    continue
                check_replay(G, collapse(G, level, steps=steps))
        F = focus(G, rng.choice(sorted(G)), rng.choice([0, 1, 2]))
        check_replay(G, F)
        hidden = sum(F.nodes[s]["hidden"] for s in boxes(F, "stub"))
        assert hidden + F.number_of_nodes() - len(boxes(F, "stub")) == G.number_of_nodes()


def test_prepare_leaves_a_small_graph_alone():
    G = vizgrad.examples.graph("fork")
    assert prepare(G, collapse_at="auto", max_nodes=2000) == (G, [])


def test_frames_step_through_the_collapsed_graph(tmp_path):
    G = vizgrad.examples.graph("mlp")
    H = collapse(G, "neuron")
    last = len(H.graph["steps"]) - 1
    paths = vizgrad.frames(G, tmp_path, "svg", collapse="neuron", steps=[0, last])
    assert [p.name for p in paths] == ["frame-000.svg", "frame-001.svg"]
    assert paths[0].read_bytes() != paths[1].read_bytes()
    gif = vizgrad.animate(H, tmp_path / "mlp.gif", steps=[0, last], duration=0.1, hold=0.1)
    assert gif.stat().st_size > 0


def test_course_mlp_collapsed_fits_a_docs_column_with_every_parameter_grad(mg):
    """micrograd's MLP(3, [4, 4, 1]): at most 20 boxes, no text under 12 px in a 1,400 px
    docs column (issue 23's one rule: 1,050 pt at 9 pt), and every weight's and bias's grad
    written in its neuron's box."""
    from vizgrad.scene.scene import smallest_text

    _, _, G = mg
    d = vizgrad.draw(G, collapse="neuron")
    H, scene = d.graph, d.scene
    assert H.number_of_nodes() <= 20
    width, height = scene.size
    assert smallest_text(scene) * min(1.0, 1050 / width) >= 9, (scene.size, smallest_text(scene))
    final = scene.look(None)
    shown = 0
    for b in boxes(H):
        params = sorted(H.nodes[b]["params"], key=lambda p: p[0].endswith(".b"))
        for i, (name, grad) in enumerate(params):
            assert final[f"t-{b}-p{i}l"]["text"] == "∂" + name.rsplit(".", 1)[-1]
            assert final[f"t-{b}-p{i}"]["text"] == scene.num(grad)
            shown += 1
    assert shown == len(list(mg[0].parameters())) == 41
    before = scene.look(0)  # before the backward pass, no parameter grad has arrived
    assert all(before[f"t-{b}-p0"]["text"] == "—" and before[f"c-{b}-p0"]["hatch"]
               for b in boxes(H))


def test_a_level_needs_groups_and_draw_takes_the_model(mg):
    net, loss, G = mg
    plain = vizgrad.to_networkx(loss)  # traced without the model: no groups
    with pytest.raises(OptionError, match=r"no groups.*model=net"):
        vizgrad.draw(plain, collapse="neuron")
    d = vizgrad.draw(loss, collapse="neuron", model=net)
    assert d.svg() == vizgrad.draw(G, collapse="neuron").svg()
    with pytest.raises(OperandTypeError, match="model= names the parameters"):
        vizgrad.draw(G, model=net)


def test_runs_of_a_focused_batch_add_up_their_values_and_not_the_stubs():
    """A focus stub (``… N more``, no value) that lands in a run of the automatic collapse
    adds nothing to the run's value; it used to raise a TypeError."""
    net = MLP(2, [3, 1], seed=1)
    loss = sum((net([x, 1.0]) - 1.0) ** 2 for x in (0.5, -0.5, 2.0))
    loss.backward()
    G = vizgrad.graph.convert.as_graph(loss, net)
    F = focus(G, G.graph["root"], 2)
    H = auto_collapse(F, 4)
    runs = {H.nodes[b]["label"]: H.nodes[b] for b in H if H.nodes[b]["kind"] == "group"}
    # runs are named by their ends' names (a stub by what it says), never by ids
    assert set(runs) == {"… 42 more…Σ[0]", "… 30 more…Σ[0..1]", "ŷ[2] − y[2]…(ŷ[2] − y[2])²"}
    first, second = runs["… 42 more…Σ[0]"], runs["… 30 more…Σ[0..1]"]
    assert F.nodes["s0"]["data"] is None and "s0" in first["members"]
    assert first["data"] == F.nodes["v45"]["data"]
    assert second["data"] == F.nodes["v77"]["data"]
