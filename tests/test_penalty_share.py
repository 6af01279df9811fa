"""A net's loss with an L2 penalty, folded by layer: the loss box's row ``from L1`` states what
the penalty sent L1's parameters (Σ 2αp over them, each term in its tooltip) beside what
reached L1's outputs, and the step's caption says so; a loss without a penalty keeps its
words. The nets here are not the gallery's: another width and depth, another α."""

from __future__ import annotations

import json
import math
import re

import pytest

from vizgrad import Value, draw, from_json, to_json, to_networkx, trace
from vizgrad.core.nn import MLP
from vizgrad.exceptions import GraphFormatError
from vizgrad.graph.collapse import collapse, fold_outside
from vizgrad.scene.captions import caption_texts
from vizgrad.scene.plan import plan

ALPHA = 3e-3
XS = [[0.5, -1.0, 2.0], [1.5, 0.25, -0.75], [-1.0, 1.0, 0.5]]
YS = [1.0, -1.0, 0.5]


def _net_loss(alpha: float | None, square: bool = True):
    """MLP(3, [4, 3, 1]) on three samples, (ŷ − y)² summed, plus α Σ p·p (or α Σ p²)."""
    net = MLP(3, [4, 3, 1], seed=5)
    loss = sum(((net(x) - y) ** 2 for x, y in zip(XS, YS)), Value(0.0))
    if alpha is not None:
        loss = loss + alpha * sum(((p * p) if square else p ** 2 for p in net.parameters()),
                                  Value(0.0))
    loss.backward()
    return net, loss


def _folded(loss, net, lang="en"):
    G = fold_outside(to_networkx(trace(loss, model=net)))
    return collapse(G, "layer", sample=0)


def _loss_step(H):
    loss_box = next(n for n, a in H.nodes(data=True) if a.get("label") == "loss")
    step = next(s for s in H.graph["steps"] if s["kind"] == "backward" and s["node"] == loss_box)
    return loss_box, step


@pytest.mark.parametrize("square", [True, False])
def test_the_penalty_s_share_is_its_own_sum_over_each_layer_s_parameters(square):
    net, loss = _net_loss(ALPHA, square)
    H = _folded(loss, net)
    _, step = _loss_step(H)
    got = {H.nodes[c["target"]]["label"]: c for c in step["contributions"]}
    for i, layer in enumerate(net.layers):
        c = got[f"L{i}"]
        params = layer.parameters()
        # a second computation: d(α p²)/dp = 2αp, from the net's own parameters
        assert c["params"]["count"] == len(params)
        assert c["params"]["amount"] == pytest.approx(
            math.fsum(2 * ALPHA * p.data for p in params), rel=1e-12)
        terms = dict(c["params"]["terms"])
        assert set(terms) == {p.label for p in params}
        for p in params:
            assert terms[p.label] == pytest.approx(2 * ALPHA * p.data, rel=1e-12, abs=1e-18)
    # what reached the outputs is unchanged: L2's output ŷ[0] got 2 (ŷ[0] − y[0])
    out0 = net(XS[0]).data
    assert got["L2"]["amount"] == pytest.approx(2 * (out0 - YS[0]), rel=1e-12)
    assert got["L0"]["count"] == 0 and got["L0"]["amount"] == 0.0


def test_the_row_and_the_caption_state_it_in_both_languages():
    net, loss = _net_loss(ALPHA)
    H = _folded(loss, net)
    box, step = _loss_step(H)
    share = {H.nodes[c["target"]]["label"]: c["params"]["amount"] for c in step["contributions"]}
    for lang, row, words in (("en", r"from L1 \(15 parameters: (\S+)\)",
                              "the 15 parameters of L1 (used in loss): their grads += "),
                             ("zh", r"来自 L1（15 个参数：(\S+)）", "L1 的 15 个参数（在 loss 中使用）")):
        p = plan(H, lang=lang)
        (label, amount), = [r for _, r in p.inrows[box] if "L1" in r[0]]
        shown = re.fullmatch(row, label).group(1).replace("−", "-")
        assert float(shown) == pytest.approx(share["L1"], rel=5e-3)  # three figures
        assert amount == "0"  # L1's outputs got nothing from the loss's own step
        lines = caption_texts(p, {}, step["index"])
        assert any(words in line for line in lines), lines
        assert not any("w_ij" in line and "→ L1" in line for line in lines)  # no weight's rule


def test_the_row_s_tooltip_lists_every_parameter_s_term():
    net, loss = _net_loss(ALPHA)
    H = _folded(loss, net)
    svg = draw(H).svg()  # the final view: every row sent
    tips = re.findall(r"<title>(loss → L1:[^<]*)</title>", svg)
    assert len(tips) == 1
    lines = tips[0].split("\n")
    assert "to its 15 parameters, where loss uses them, the sum of:" in lines[0]
    assert [line.split()[0] for line in lines[1:]] == [
        f"L1.N{j}.{w}" for j in range(3) for w in ("w0", "w1", "w2", "w3", "b")]


def test_a_loss_without_a_penalty_keeps_its_words():
    net, loss = _net_loss(None)
    H = _folded(loss, net)
    box, step = _loss_step(H)
    assert not any("params" in c for s in H.graph["steps"] for c in s.get("contributions", ()))
    p = plan(H)
    labels = [r[0] for rows in p.inrows.values() for _, r in rows]
    assert labels and all(re.fullmatch(r"from L\d|from loss", label) for label in labels)
    assert not any("parameters of" in line for line in caption_texts(p, {}, step["index"]))


def test_the_share_round_trips_through_json_and_is_checked():
    net, loss = _net_loss(ALPHA)
    text = to_json(_folded(loss, net))
    assert to_json(from_json(text)) == text
    doc = json.loads(text)
    c = next(c for s in doc["graph"]["steps"] for c in s.get("contributions", ())
             if "params" in c)
    c["params"]["terms"] = [["L1.N0.w0", "x"]]
    with pytest.raises(GraphFormatError, match=r"must be \[sample or name, number\]"):
        from_json(json.dumps(doc))
    c["params"] = {"amount": 1.0, "terms": []}
    with pytest.raises(GraphFormatError, match="'count' is missing"):
        from_json(json.dumps(doc))
