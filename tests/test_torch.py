"""PyTorch float64 as the independent autograd (chapter 2.5, 2.6).
CI turns the skip into a failure."""

from __future__ import annotations

import math

import pytest

from vizgrad import Value, examples
from vizgrad.core.value import topological_order

torch = pytest.importorskip("torch", reason="PyTorch is the cross-check oracle; pip install torch")
F = torch.nn.functional


def leaf_grads(root: Value) -> dict[str, float]:
    return {v.label: v.grad for v in topological_order(root) if not v.parents and v.label}


def tensors(**values: float) -> dict[str, "torch.Tensor"]:
    return {k: torch.tensor(v, dtype=torch.float64, requires_grad=True) for k, v in values.items()}


@pytest.mark.parametrize(
    "x, y", [(1.5, -0.5), (0.3, 0.7), (-2.0, 1.25), (2.0, 3.0)], ids=str
)
def test_torch_crosscheck_matches_pytorch_float64(x, y):
    root, _ = examples.build("torch-crosscheck", x=x, y=y)
    t = tensors(x=x, y=y)
    f = torch.log(torch.exp(t["x"] * t["y"]) + (t["x"] + t["y"]) ** 2)
    f.backward()
    assert abs(root.data - f.item()) <= 1e-12
    grads = leaf_grads(root)
    for k in ("x", "y"):
        assert abs(grads[k] - t[k].grad.item()) <= 1e-12, k


def test_softmax_nll_matches_cross_entropy():
    root, also = examples.build("softmax-nll")
    z = torch.tensor([0.0, 3.0, -2.0, 1.0], dtype=torch.float64, requires_grad=True)
    loss = F.cross_entropy(z.unsqueeze(0), torch.tensor([3]))
    loss.backward()
    assert abs(root.data - loss.item()) <= 1e-12
    assert abs(loss.item() - 2.175515362617) <= 1e-12
    grads = leaf_grads(root)
    for i in range(4):
        assert abs(grads[f"z{i}"] - z.grad[i].item()) <= 1e-12, i
    probs = torch.softmax(z.detach(), dim=0)
    for i, p in enumerate(also):
        assert abs(p.data - probs[i].item()) <= 1e-15


@pytest.mark.parametrize("shift", [0.0, 10.0, -4.5], ids=str)
def test_softmax_nll_with_shifted_scores_matches_cross_entropy(shift):
    zs = [v + shift for v in (0.0, 3.0, -2.0, 1.0)]
    root, _ = examples.build("softmax-nll", **{f"z{i}": v for i, v in enumerate(zs)})
    z = torch.tensor(zs, dtype=torch.float64, requires_grad=True)
    loss = F.cross_entropy(z.unsqueeze(0), torch.tensor([3]))
    loss.backward()
    assert abs(root.data - loss.item()) <= 1e-12
    grads = leaf_grads(root)
    for i in range(4):
        assert abs(grads[f"z{i}"] - z.grad[i].item()) <= 1e-12


@pytest.mark.parametrize("name", ["tanh-native", "tanh-decomposed"])
def test_tanh_neuron_matches_pytorch(name):
    root, _ = examples.build(name)
    v = tensors(**examples.defaults(name))
    o = torch.tanh(v["x1"] * v["w1"] + v["x2"] * v["w2"] + v["b"])
    o.backward()
    assert abs(root.data - o.item()) <= 1e-12
    grads = leaf_grads(root)
    for k in ("x1", "x2", "w1", "w2", "b"):
        assert abs(grads[k] - v[k].grad.item()) <= 1e-12, k


OPS = [
    ("sub-div", lambda a, b: (a - b) / (b * 2 + 3)),
    ("rsub-rdiv", lambda a, b: (1.5 - a) * (2.0 / b)),
    ("pow", lambda a, b: a**3 - b**-2 + a**0.5),
    ("exp-log", lambda a, b: (a * b).exp().log() + (a + b * b).log()),
    ("tanh-relu", lambda a, b: (a * b).tanh() * (a - b).relu() + (b - a).relu()),
    ("neg-sum", lambda a, b: -sum([a, b, a * b, a / b])),
]


@pytest.mark.parametrize("f", [f for _, f in OPS], ids=[n for n, _ in OPS])
@pytest.mark.parametrize("a, b", [(0.7, 1.9), (2.5, 0.4)], ids=str)
def test_engine_ops_match_pytorch(f, a, b):
    va, vb = Value(a, label="a"), Value(b, label="b")
    out = f(va, vb)
    out.backward()
    t = tensors(a=a, b=b)
    ref = f(t["a"], t["b"])
    ref.backward()
    assert out.data == pytest.approx(ref.item(), rel=1e-13, abs=1e-13)
    assert va.grad == pytest.approx(t["a"].grad.item(), rel=1e-12, abs=1e-12)
    assert vb.grad == pytest.approx(t["b"].grad.item(), rel=1e-12, abs=1e-12)
    assert not math.isnan(va.grad)
