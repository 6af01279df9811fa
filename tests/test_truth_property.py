"""A property test over random small graphs, drawn plain and folded with every sample: no raw
id in any text, every forward step after its operands, every printed ``A × B = C``
multiplies out, and each box shows the data and grad of the Values it stands for (a folded
box: its neuron's or layer's own activation Values in the sample shown, never a sum).

The boxes are checked against the Values themselves (their ``data`` and ``grad`` after
``backward()``), not against the code that drew them.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vizgrad import Value, to_networkx
from vizgrad.core.nn import MLP
from vizgrad.scene import scene_of

_RAW = re.compile(r"(?<![\w.])[vn]\d+(?![\w\[])")  # v2, v679, n11: an id
_N = r"−?\d+(?:\.\d+)?(?:e−?\d+)?"
_PRODUCT = re.compile(rf"({_N}) × \(?({_N})\)? = ({_N})(?![\d.e])")
_OPS = ("+", "*", "**2", "tanh", "exp", "relu", "-")


def _num(text: str) -> float:
    return float(text.replace("−", "-"))


def _half_unit(text: str) -> float:
    """Half a unit of the last digit ``text`` shows: its rounding error at most."""
    mantissa, _, exponent = text.replace("−", "-").partition("e")
    places = len(mantissa.partition(".")[2])
    return 0.5 * 10.0 ** (int(exponent or 0) - places) * (1 + 1e-9)


def _rounds_to(x: float, text: str) -> bool:
    """True when ``x`` rounded as ``text`` is written gives ``text``'s number."""
    return abs(x - _num(text)) <= _half_unit(text) + 1e-12


@st.composite
def graphs(draw):
    """A random small graph of vizgrad Values: 2–3 inputs, 2–7 ops, every value kept in
    ``made`` by its label (some unlabelled, named by vizgrad)."""
    n_in = draw(st.integers(2, 3))
    xs = [Value(draw(st.floats(-2, 2, allow_nan=False).map(lambda v: round(v, 2))),
                label=f"z{i}") for i in range(n_in)]
    values = list(xs)
    labelled = {x.label: x for x in xs}
    for k in range(draw(st.integers(2, 7))):
        op = draw(st.sampled_from(_OPS))
        a = draw(st.sampled_from(values))
        b = draw(st.sampled_from(values))
        if op == "+":
            v = a + b
        elif op == "-":
            v = a - b
        elif op == "*":
            v = a * b
        elif op == "**2":
            v = a ** 2
        elif op == "exp":
            v = (a * 0.5).exp() if abs(a.data) < 5 else a.tanh()
        else:
            v = getattr(a, op)()
        if draw(st.booleans()):
            v.label = f"u{k}"
            labelled[v.label] = v
        values.append(v)
    out = values[-1]
    for v in values[:-1]:  # every value on the way to the output, so every grad arrives
        out = out + v * 0.1 if v is not out and draw(st.booleans()) else out
    out.label = "f"
    labelled["f"] = out
    out.backward()
    return out, labelled


def _texts(scene: Scene, k: int | None) -> list[str]:
    look = scene.look(k)
    return [a["text"] for a in look.values() if a.get("text")] + scene.caption_texts(k)


def _check_texts(scene: Scene, G) -> None:
    for k in [*range(scene.last + 1), None]:
        for text in _texts(scene, k):
            assert not _RAW.search(text), (k, text)
            for m in _PRODUCT.finditer(text):
                a, b = _num(m.group(1)), _num(m.group(2))
                assert _rounds_to(a * b, m.group(3)), (k, text)


def _check_order(G) -> None:
    """Every forward step after its operands' (the chapter's topological order), and every
    backward step after the steps of every value that reads its node (its grad is whole)."""
    done = {n for n in G if G.in_degree(n) == 0}
    senders = {s["node"] for s in G.graph["steps"] if s["kind"] == "backward"}
    sent: set = set()
    for s in G.graph["steps"]:
        if s["kind"] == "forward":
            assert set(G.predecessors(s["node"])) <= done, s
            done.add(s["node"])
        if s["kind"] == "backward":
            users = {u for u in G.successors(s["node"]) if u in senders} - {s["node"]}
            assert users <= sent, (s["node"], users - sent)
            sent.add(s["node"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs())
def test_random_plain_graphs_say_only_what_the_values_hold(built):
    out, labelled = built
    G = to_networkx(out)
    _check_order(G)
    scene = scene_of(G, decimals=4)
    _check_texts(scene, G)
    final = scene.look(None)
    by_name = {G.nodes[n].get("label"): n for n in G if G.nodes[n].get("label")}
    for label, v in labelled.items():
        if label not in by_name or v.label != label:  # not on the graph, or renamed f
            continue
        n = by_name[label]
        assert _rounds_to(v.data, final[f"t-{n}-data"]["text"]), label
        assert _rounds_to(v.grad, final[f"t-{n}-grad"]["text"]), label


@st.composite
def nets(draw):
    """A random small net on 1–3 samples, run layer by layer so that the test keeps every
    activation Value: ``acts[s][l][j]`` is neuron j of layer l in sample s."""
    sizes = draw(st.sampled_from([[2, 1], [3, 1], [2, 2, 1]]))
    net = MLP(2, sizes, seed=draw(st.integers(0, 50)))
    samples = draw(st.integers(1, 3))
    xs = [[round(draw(st.floats(-1, 1, allow_nan=False)), 2) for _ in range(2)]
          for _ in range(samples)]
    ys = [draw(st.sampled_from([-1.0, 1.0])) for _ in range(samples)]
    acts = []
    for x in xs:
        h, mine = x, []
        for layer in net.layers:
            h = layer(h)
            mine.append(h)
        acts.append(mine)
    loss = sum(((a[-1][0] - y) ** 2 for a, y in zip(acts, ys)), Value(0.0))
    loss.backward()
    return loss, samples, acts


def _printed(text: str) -> list[str]:
    """The numbers a box's row prints, in order (a long row elides its middle)."""
    return re.findall(_N, text.split(" … ")[0]) + (
        re.findall(_N, text.split(" … ")[1].split(" (")[0]) if " … " in text else [])


def _shown(values: list) -> list:
    """The Values a row of them prints: all, or the first three and the last."""
    return values if len(values) <= 4 else [*values[:3], values[-1]]


def _check_boxes(scene: Scene, acts, level: str, sample) -> None:
    """Every number a folded box prints in its data and grad rows is the data or grad of
    the Value it stands for (walked here from the net's own activations), never a sum."""
    G, final = scene.facts, scene.look(None)
    picked = range(len(acts)) if sample == "all" else [sample]
    for b in G:
        label = G.nodes[b].get("label") or ""
        if G.nodes[b].get("kind") != "group" or label == "loss":
            continue
        parts = label.split("/")
        l = int(parts[0][1:])
        js = [int(parts[1][1:])] if level == "neuron" else range(len(acts[0][l]))
        if level == "neuron":  # a neuron: its Value in each sample shown
            values = [acts[s][l][js[0]] for s in picked]
        else:  # a layer: its neurons in the sample shown (every sample: sample by sample)
            values = [acts[s][l][j] for s in picked for j in js]
        values = _shown(values)
        data = _printed(final[f"t-{b}-data"]["text"])
        grad = _printed(final[f"t-{b}-grad"]["text"])
        assert len(data) == len(values) == len(grad), (label, data, grad)
        for v, d, g in zip(values, data, grad):
            assert _rounds_to(v.data, d) and _rounds_to(v.grad, g), (label, v, d, g)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nets(), st.sampled_from(["neuron", "layer"]))
def test_random_nets_folded_with_every_sample_show_no_id_and_multiply_out(built, level):
    loss, samples, acts = built
    G = to_networkx(loss)
    _check_order(G)
    _check_texts(scene_of(G), G)
    from vizgrad import draw

    for sample in [*range(samples), "all"]:
        drawing = draw(loss, collapse=level, sample=sample)
        scene = drawing.scene
        _check_order(drawing.graph)
        _check_texts(scene, drawing.graph)
        _check_boxes(scene, acts, level, sample)
