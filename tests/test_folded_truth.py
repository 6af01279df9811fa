"""micrograd's demo-notebook net folded by layer and by neuron: a box shows the data and grad of
the Values it stands for (the selected sample's activations, one per neuron of a layer), a
caption never claims a summed grad of activations, and a parameter's per-sample terms are
the user's own contributions, adding up to the grad backward() left.

Every expected number is read off the user's micrograd Values, walked here, or computed by a
second backward pass per sample; none comes from vizgrad's code.
"""

from __future__ import annotations

import random
import re

import pytest

micrograd = pytest.importorskip("micrograd")
from micrograd.engine import Value  # noqa: E402
from micrograd.nn import MLP  # noqa: E402

import vizgrad  # noqa: E402
from vizgrad.graph.collapse import collapse  # noqa: E402
from vizgrad.scene import scene_of  # noqa: E402

X = [[1.0, 0.2], [-0.5, 0.9], [0.3, -0.4], [1.6, -0.3],
     [-0.9, 0.1], [0.8, 0.6], [0.1, 0.95], [1.9, 0.4]]
Y = [1, 1, -1, -1, 1, 1, 1, -1]
ALPHA = 1e-4
_N = r"−?\d+(?:\.\d+)?(?:e−?\d+)?"


def _num(text: str) -> float:
    return float(text.replace("−", "-"))


def _rounds_to(x: float, text: str) -> bool:
    mantissa, _, exponent = text.replace("−", "-").partition("e")
    places = len(mantissa.partition(".")[2])
    return abs(x - _num(text)) <= 0.5 * 10.0 ** (int(exponent or 0) - places) * (1 + 1e-9)


def _forward(model, x):
    """The activations of every layer for one sample: a list per layer, as micrograd
    computes them."""
    out, h = [], x
    for layer in model.layers:
        h = [n(h) for n in layer.neurons]
        out.append(h)
    return out


@pytest.fixture(scope="module")
def demo():
    """MLP(2, [16, 16, 1]) on 8 points, the notebook's SVM hinge loss plus L2 (seeded)."""
    random.seed(1337)
    model = MLP(2, [16, 16, 1])
    acts = [_forward(model, x) for x in X]
    losses = [(1 + -y * a[-1][0]).relu() for y, a in zip(Y, acts)]
    data_loss = sum(losses) * (1.0 / len(losses))
    reg_loss = ALPHA * sum(p * p for p in model.parameters())
    total = data_loss + reg_loss
    total.backward()
    G = vizgrad.to_networkx(vizgrad.trace(total, model=model))
    names = {}  # the parameters' names as vizgrad's trace gives them (L0.N3.w1)
    for li, layer in enumerate(model.layers):
        for j, n in enumerate(layer.neurons):
            for i, w in enumerate(n.w):
                names[id(w)] = f"L{li}.N{j}.w{i}"
            names[id(n.b)] = f"L{li}.N{j}.b"
    return model, acts, G, {names[id(p)]: p for p in model.parameters()}


def _terms_by_sample(model, name_of):
    """Each parameter's contribution from each sample alone: a second backward pass per
    sample on that sample's hinge term, plus the L2 term 2·α·p."""
    params = model.parameters()
    out = {name: {} for name in name_of}
    by_id = {id(p): name for name, p in name_of.items()}
    for s, (x, y) in enumerate(zip(X, Y)):
        for p in params:
            p.grad = 0.0
        score = model(x)
        ((1 + -y * score).relu() * (1.0 / len(X))).backward()
        for p in params:
            out[by_id[id(p)]][s] = p.grad
    for p in params:
        out[by_id[id(p)]]["L2"] = 2 * ALPHA * p.data
    return out


@pytest.mark.parametrize("level", ["layer", "neuron"])
def test_boxes_show_the_sample_activations_and_params_of_the_code(demo, level):
    model, acts, G, params = demo
    H = collapse(G, level, sample=3)
    scene = scene_of(H)
    final = scene.look(None)
    checked = 0
    for b in H:
        a = H.nodes[b]
        if a.get("kind") != "group" or not re.fullmatch(r"L\d(/N\d+)?", a["label"]):
            continue
        parts = a["label"].split("/")
        li = int(parts[0][1:])
        if level == "layer":
            mine = acts[3][li]
            assert len(a["cells"]) == len(mine) == len(model.layers[li].neurons)
        else:
            mine = [acts[3][li][int(parts[1][1:])]]
        data, grad = final[f"t-{b}-data"]["text"], final[f"t-{b}-grad"]["text"]
        shown = mine if len(mine) <= 4 else [*mine[:3], mine[-1]]
        got_d = re.findall(_N, data.split(" (")[0])
        got_g = re.findall(_N, grad.split(" (")[0])
        assert len(got_d) == len(got_g) == len(shown), (a["label"], data, grad)
        for v, d, g in zip(shown, got_d, got_g):  # the sample's own Value, never a sum
            assert _rounds_to(v.data, d) and _rounds_to(v.grad, g), (a["label"], v, d, g)
        if len(mine) > 4:  # a layer of 16: the row says how many cells it holds
            assert data.endswith("(16)") and grad.endswith("(16)")
        for i, (label, g) in enumerate(scene.params.get(b, ())):  # ∂w rows: the code's grads
            if g is None:
                continue
            full = a["label"].replace("/", ".") + "." + label.removeprefix("∂")
            name = full if full in params else a["label"].split("/")[0] + "." + label[1:]
            assert _rounds_to(params[name].grad, final[f"t-{b}-p{i}"]["text"]), name
        checked += 1
    assert checked == (3 if level == "layer" else 33)


@pytest.mark.parametrize("level", ["layer", "neuron"])
def test_no_caption_claims_a_summed_grad_of_activations(demo, level):
    _, _, G, _ = demo
    H = collapse(G, level)
    scene = scene_of(H)
    box = re.compile(r"^\(?L\d(/N\d+)?\)?\.grad")
    lines = [line for k in range(scene.last + 1) for line in scene.caption_texts(k)]
    for line in lines:
        if box.match(line):  # an activation's grad: of one sample, one Value
            assert "sum of" not in line and "Σ" not in line, line
            assert len(re.findall(r"\(sample \d+\)", line)) <= 1, line
        assert "all samples" not in line, line
    layer = [line for line in lines if re.match(r"L\d → L\d \(sample 0\): ∂loss/∂x_j", line)]
    assert len(layer) == (2 if level == "layer" else 0)
    for k in range(scene.last + 1):
        for a in scene.look(k).values():
            assert "Σ grad" not in a.get("text", "") and "Σ data" not in a.get("text", "")


def test_parameter_terms_are_the_users_contributions_and_add_up(demo):
    model, _, G, params = demo
    H = collapse(G, "layer")
    terms = {name: (g, rows) for b in H for name, g, rows in H.nodes[b].get("terms") or ()}
    totals = {name: p.grad for name, p in params.items()}  # what backward() left
    want = _terms_by_sample(model, params)
    for name, p in params.items():  # the fixture's Values as they were
        p.grad = totals[name]
    assert len(terms) == len(params) == 337
    for name, (g, rows) in terms.items():
        by = {k if isinstance(k, int) else "L2": a for k, a in rows}
        assert set(by) == {*range(8), "L2"}, name
        for k, a in by.items():
            assert abs(a - want[name][k]) <= 1e-12 + 1e-9 * abs(a), (name, k)
        assert abs(sum(by.values()) - params[name].grad) <= 1e-12, name
    # the caption of a box's backward step prints the terms of its largest |grad| so that
    # the printed terms add up to the printed total
    scene = scene_of(H)
    lines = [line for k in range(scene.last + 1) for line in scene.caption_texts(k)
             if re.match(r"L\d\.N\d+\.(w\d+|b)\.grad \+= ", line)]
    assert len(lines) == 3
    for line in lines:
        body, total = line.split(": ")[0].split(" += ", 1)[1].rsplit(" = ", 1)
        found = re.findall(rf"(^|[+−] )({_N}) \((?:sample \d|from [^)]+)\)", body)
        assert len(found) == 9, line  # 8 samples and the L2 penalty
        added = sum(-_num(x) if op.startswith("−") else _num(x) for op, x in found)
        assert _rounds_to(added, total), line
        name = line.split(".grad")[0]
        assert _rounds_to(params[name].grad, total)
        assert f"(from {name}²)" in line
        assert line.endswith("the += of each sample, then any use outside the samples"), line


def test_parameter_terms_name_no_use_outside_the_samples_where_there_is_none():
    """The course MLP's loss uses no parameter outside the samples (no L2 penalty): its
    caption says so by naming only the samples' +=."""
    H = collapse(vizgrad.examples.graph("course-mlp"), "neuron")
    scene = scene_of(H)
    lines = [line for k in range(scene.last + 1) for line in scene.caption_texts(k)
             if re.match(r"L\d\.N\d+\.(w\d+|b)\.grad \+= ", line)]
    assert len(lines) >= 4
    for line in lines:
        assert line.endswith(": the += of each sample"), line
        assert "outside" not in line and "(from " not in line, line
