"""A batch drawn as one net: the sample each value belongs to, and what a box shows of it."""

from __future__ import annotations

import math

import pytest

import vizgrad
from vizgrad.graph.samples import count, samples
from vizgrad.graph.collapse import collapse
from vizgrad.exceptions import OptionError
from vizgrad.graph.convert import as_graph
from vizgrad.core.nn import MLP
from vizgrad.options import OPTIONS, Options, from_text
from vizgrad.scene import scene_of

XS = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
YS = [1.0, -1.0, -1.0, 1.0]


@pytest.fixture(scope="module")
def course():
    """The course's MLP(3, [4, 4, 1]) on its four samples, with its squared-error loss."""
    net = MLP(3, [4, 4, 1], activation="relu", last="linear", seed=1337)
    loss = sum(((net(x) - y) ** 2 for x, y in zip(XS, YS)), vizgrad.Value(0.0))
    loss.backward()
    return net, loss, as_graph(loss, net)


def _hidden(net, s):
    """Layer 0's outputs for sample s, computed here in floats from the net's weights."""
    out = []
    for neuron in net.layers[0].neurons:
        act = neuron.b.data + sum(w.data * x for w, x in zip(neuron.w, XS[s]))
        out.append(max(0.0, act))
    return out


def _box(H, label):
    return next(b for b in H if H.nodes[b].get("label") == label)


def test_the_course_net_is_four_forward_passes_and_each_value_knows_its_own(course):
    net, _, G = course
    assert count(G) == 4
    of = samples(G)
    params = {id(p) for p in net.parameters()}
    by_label = {G.nodes[n].get("label"): n for n in G}
    for p in net.parameters():  # shared by every sample: none of them
        assert by_label[p.label] not in of
    assert G.graph["root"] not in of
    per = [sum(1 for s in of.values() if s == k) for k in range(4)]
    assert min(per) > 0 and max(per) - min(per) <= 2  # four passes of one net: alike
    assert len(params) == 41


@pytest.mark.parametrize("s", [0, 1, 3])
def test_a_neuron_box_shows_the_chosen_samples_value(course, s):
    net, _, G = course
    H = collapse(G, "neuron", sample=s)
    for j, want in enumerate(_hidden(net, s)):
        b = _box(H, f"L0/N{j}")
        assert math.isclose(H.nodes[b]["data"], want, rel_tol=1e-12, abs_tol=1e-12)
        assert H.nodes[b]["sample"] == s


def test_all_shows_every_samples_value_side_by_side_never_their_sum(course):
    net, _, G = course
    H = collapse(G, "neuron", sample="all")
    b = _box(H, "L0/N0")
    cells = H.nodes[b]["cells"]
    assert [c[0] for c in cells] == [f"L0/N0[{s}]" for s in range(4)]
    for (_, data, _), s in zip(cells, range(4)):
        assert math.isclose(data, _hidden(net, s)[0], rel_tol=1e-12, abs_tol=1e-12)
    scene = scene_of(H)
    look = scene.look(None)
    assert look[f"t-{b}-dl"]["text"] == "data (4 samples)"
    assert look[f"t-{b}-gl"]["text"] == "grad (4 samples)"
    assert look[f"t-{b}-data"]["text"] == "  ".join(scene.num(_hidden(net, s)[0])
                                                    for s in range(4))
    rows = [a["text"] for k, a in look.items() if k.rsplit("-", 1)[-1] in ("dl", "gl")]
    assert rows and not any("Σ" in text or "sum" in text for text in rows)
    assert any("side by side" in line for line in scene.caption_texts(None))


@pytest.mark.parametrize("s", [0, 2, "all"])
def test_grads_are_the_totals_whatever_sample_is_shown(course, s):
    net, _, G = course
    H = collapse(G, "neuron", sample=s)
    scene = scene_of(H)
    final = scene.look(None)
    grads = {p.label: p.grad for p in net.parameters()}
    checked = 0
    for b in H:
        for i, (name, grad) in enumerate(H.nodes[b].get("params") or ()):
            assert grad == grads[name]  # what loss.backward() left on the parameter
            checked += 1
    assert checked == 41
    b = _box(H, "L0/N0")
    assert final[f"t-{b}-p0"]["text"] == scene.num(grads["L0.N0.w0"])


def test_a_sample_the_net_was_not_run_on_is_refused_with_the_range(course):
    _, _, G = course
    with pytest.raises(OptionError, match=r"sample 4 is not in this graph: .*4 samples \(0 to 3\)"):
        collapse(G, "neuron", sample=4)
    with pytest.raises(OptionError, match="sample must be a sample number"):
        collapse(G, "neuron", sample=-1)
    one = vizgrad.examples.graph("mlp")  # one forward pass
    assert count(one) == 1 and samples(one) == {}
    with pytest.raises(OptionError, match="one sample"):
        collapse(one, "neuron", sample=1)


def test_sample_is_one_option_of_the_table_with_its_flag():
    assert OPTIONS["sample"].cli == "--sample" and Options().sample == 0
    assert from_text({"sample": "3"}).sample == 3
    assert from_text({"sample": "All"}).sample == "all"
    with pytest.raises(OptionError, match="sample"):
        from_text({"sample": "first"})


def test_draw_takes_sample_and_the_data_row_says_which(course):
    net, loss, _ = course
    d = vizgrad.draw(loss, model=net, collapse="neuron", sample=2)
    b = _box(d.graph, "L0/N1")
    look = d.scene.look(None)
    assert look[f"t-{b}-dl"]["text"] == "data (sample 2)"
    assert look[f"t-{b}-data"]["text"] == d.scene.num(_hidden(net, 2)[1])
    assert "data and grad rows: sample 2 of 4" in d.svg()


def test_the_rows_from_the_boxes_feeding_a_layer_add_up_to_the_sample_outputs_grad(course):
    """Every L0 neuron's outputs are used by layer 1 alone, so the contributions written in
    the L1 boxes' 'from L0/Nj' rows add up to the grad backward() left on the output Value of
    the sample shown (sample 0), never to a sum over the samples' outputs."""
    net, loss, G = course
    H = collapse(G, "neuron")
    scene = scene_of(H)
    final = scene.look(None)
    # the grads of sample 0's hidden outputs, by a second forward and backward pass here
    x = [vizgrad.Value(v) for v in XS[0]]
    hidden = [n(x) for n in net.layers[0].neurons]
    h2 = [n(hidden) for n in net.layers[1].neurons]
    out = net.layers[2].neurons[0](h2)
    ((out - YS[0]) ** 2).backward()
    for j in range(4):
        b = _box(H, f"L0/N{j}")
        sent = 0.0
        found = 0
        for head, rows in scene.inrows.items():
            for i, ((u, v, slot), (label, _)) in enumerate(rows):
                if u == b:
                    assert label == f"from L0/N{j}"
                    sent += scene.looks.contrib[(v, u, slot)]["amount"]
                    assert final[f"t-{head}-i{i}"]["text"] == scene.num(
                        scene.looks.contrib[(v, u, slot)]["amount"])
                    found += 1
        assert found == 4  # one row in each L1 box
        assert math.isclose(sent, hidden[j].grad, rel_tol=1e-9, abs_tol=1e-12)
        assert math.isclose(H.nodes[b]["grad"], hidden[j].grad, rel_tol=1e-9, abs_tol=1e-12)
    # no label sits on an edge between two boxes: the rows carry them
    assert all(scene.edge_texts[e] is None for rows in scene.inrows.values() for e, _ in rows)


def test_the_command_line_takes_sample_and_says_when_it_is_not_there(tmp_path):
    from click.testing import CliRunner

    from vizgrad.cli.commands import main

    out = tmp_path / "fork.svg"
    bad = CliRunner().invoke(main, ["render", "fork", "-q", "-o", str(out), "--sample", "3"])
    assert bad.exit_code != 0 and not out.exists()
    assert "sample 3 is not in this graph" in bad.output and "Traceback" not in bad.output
    wrong = CliRunner().invoke(main, ["render", "fork", "-q", "-o", str(out), "--sample", "x"])
    assert wrong.exit_code == 2 and "sample" in wrong.output
    ok = CliRunner().invoke(main, ["render", "fork", "-q", "-o", str(out), "--sample", "all"])
    assert ok.exit_code == 0, ok.output
    assert out.read_bytes() == vizgrad.draw(vizgrad.examples.graph("fork")).svg().encode()


def test_a_penalty_on_the_parameters_is_not_taken_for_samples():
    """micrograd's demo notebook: a hinge loss over 5 samples plus 1e-4 Σ p·p. The squares of
    the last neuron's weights are grouped with it, but they are not outputs of a sample."""
    import random

    mg = pytest.importorskip("micrograd.nn", reason="micrograd 0.1.0 is a test dependency")
    random.seed(7)
    model = mg.MLP(2, [8, 8, 1])
    xs = [[0.5, -1.2], [1.5, 0.3], [-0.7, 0.8], [0.2, 1.9], [-1.4, -0.4]]
    ys = [1, -1, 1, -1, 1]
    losses = [(1 + -y * model(x)).relu() for x, y in zip(xs, ys)]
    loss = sum(losses) * (1.0 / len(losses)) + 1e-4 * sum(p * p for p in model.parameters())
    loss.backward()
    G = as_graph(loss, model)
    assert count(G) == 5
    assert sorted(set(samples(G).values())) == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("lite", [False, True])
@pytest.mark.parametrize("s", [1, "all"])
def test_a_box_keeps_its_value_for_every_sample_and_their_sum(course, s, lite):
    """What a player switches between: each neuron box's ``by_sample`` is its output in each
    forward pass (computed here from the weights), ``all`` their sum, whichever sample the
    box shows; the same read off the trace's columns (a LiteGraph) as off networkx."""
    from vizgrad.graph.lite import LiteGraph

    net, loss, G = course
    source = LiteGraph(vizgrad.trace(loss, model=net)) if lite else G
    H = collapse(source, "neuron", sample=s)
    for j in range(4):
        a = H.nodes[_box(H, f"L0/N{j}")]
        want = [_hidden(net, k)[j] for k in range(4)]
        assert len(a["by_sample"]) == 4
        for got, w in zip(a["by_sample"], want):
            assert math.isclose(got, w, rel_tol=1e-12, abs_tol=1e-12)
        assert math.isclose(a["all"], sum(want), rel_tol=1e-12, abs_tol=1e-12)
        assert a["adds"] == (4 if s == "all" else 1)
        assert a.get("samples") == (4 if s == "all" else None)
    out = H.nodes[_box(H, "L2/N0")]  # the net's output: the prediction for each sample
    for got, x in zip(out["by_sample"], XS):
        assert math.isclose(got, net(x).data, rel_tol=1e-12, abs_tol=1e-12)
