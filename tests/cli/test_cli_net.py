"""``vizgrad render MODEL.py:FUNC`` finds the net the loss was computed with; --model names it."""

from __future__ import annotations

import pytest

from vizgrad import from_json

NETS = """
    from vizgrad import Value

    class Neuron:  # micrograd's shape: w, b, parameters(); nothing labelled or grouped
        def __init__(self, ws, b):
            self.w, self.b = [Value(w) for w in ws], Value(b)

        def __call__(self, x):
            return sum((wi * xi for wi, xi in zip(self.w, x)), self.b).tanh()

        def parameters(self):
            return self.w + [self.b]

    a = Neuron([0.5, -1.0], 0.1)
    b = Neuron([0.3, 0.2], -0.4)
    unused = Neuron([1.0, 1.0], 0.0)
    xs = [1.0, 2.0]
"""


def _graph(run, tmp_path, spec, *extra):
    out = tmp_path / "g.json"
    run("render", spec, *extra, "-o", str(out), "-q")
    return from_json(out.read_text(encoding="utf-8"))


def _params(G):
    return sorted((a["label"], a["group"]) for _, a in G.nodes(data=True)
                  if a["label"].startswith("L0."))


def test_the_modules_one_net_in_the_graph_is_found(run, model, tmp_path):
    path = model(NETS + """
    also_a = a  # another name of the same net
    layer = a.w  # a list, not a net

    def build():
        loss = (a(xs) - 1.0) ** 2
        loss.backward()
        return loss
    """)
    G = _graph(run, tmp_path, f"{path}:build")
    assert _params(G) == [("L0.N0.b", "L0/N0"), ("L0.N0.w0", "L0/N0"), ("L0.N0.w1", "L0/N0")]
    assert G.graph["net"] == {"name": "a", "type": "Neuron", "how": "found", "file": "model.py"}


def test_a_net_returned_beside_the_loss_is_read(run, model, tmp_path):
    path = model(NETS + """
    def build():
        net = Neuron([0.1, 0.2], 0.3)
        loss = net(xs) ** 2
        loss.backward()
        return loss, net
    """)
    G = _graph(run, tmp_path, f"{path}:build")
    assert len(_params(G)) == 3 and G.graph["net"]["how"] == "returned"
    svg = tmp_path / "n.svg"
    run("render", f"{path}:build", "-o", str(svg), "-q")
    assert "net read: the Neuron that build() returns beside the loss" in svg.read_text("utf-8")


def test_without_a_net_nothing_is_grouped(run, model, tmp_path):
    path = model(NETS + """
    def build():
        loss = Value(2.0) * Value(3.0)
        loss.backward()
        return loss
    """)
    G = _graph(run, tmp_path, f"{path}:build")
    assert _params(G) == [] and "net" not in G.graph


TWO = NETS + """
    def build():
        loss = a(xs) * b(xs)
        loss.backward()
        return loss
"""


def test_two_nets_in_the_graph_are_named_and_model_chooses(run, model, tmp_path):
    path = model(TWO)
    out = " ".join(run("render", f"{path}:build", "-o", str(tmp_path / "x.svg"),
                       code=2).output.split())
    assert "2 nets whose parameters are in this graph: a, b" in out and "--model NAME" in out
    assert not (tmp_path / "x.svg").exists()
    G = _graph(run, tmp_path, f"{path}:build", "--model", "b")
    assert G.graph["net"]["how"] == "named" and G.graph["net"]["name"] == "b"
    svg = tmp_path / "b.svg"
    run("render", f"{path}:build", "--model", "b", "-o", str(svg), "-q")
    assert "net read: b (Neuron) in model.py, named by --model" in svg.read_text("utf-8")


@pytest.mark.parametrize("name, message", [
    ("nope", "model.py has no attribute 'nope'; its nets are: a, b, unused"),
    ("xs", "model.py:xs is a list, not a net; a net has parameters()"),
    ("unused", "none of unused.parameters() is in the graph"),
    ("2x", "'2x' is not a name"),
], ids=["missing", "not-a-net", "not-in-graph", "not-a-name"])
def test_model_errors_say_what_is_wrong(run, model, tmp_path, name, message):
    path = model(TWO)
    out = " ".join(run("render", f"{path}:build", "--model", name, "-o",
                       str(tmp_path / "x.svg"), code=2).output.split())
    assert message in out and "--model" in out
    assert not (tmp_path / "x.svg").exists()


def test_model_needs_a_model_file(run):
    out = run("render", "fork", "--model", "n", code=2).output
    assert "path/to/model.py:build" in out and "'--model'" in out


def test_draw_does_not_guess_the_net_from_globals():
    import vizgrad
    from tests.cli import test_cli_net as here

    here.GLOBAL_NET = net = _neuron()
    loss = net([1.0, 2.0]) ** 2
    loss.backward()
    G = vizgrad.draw(loss).graph
    assert not [a for _, a in G.nodes(data=True) if a["label"].startswith("L0.")]
    named = vizgrad.draw(loss, model=net).graph
    assert [a for _, a in named.nodes(data=True) if a["label"].startswith("L0.")]


def _neuron():
    from vizgrad import Value

    class Neuron:
        def __init__(self):
            self.w, self.b = [Value(0.5), Value(-1.0)], Value(0.1)

        def __call__(self, x):
            return sum((wi * xi for wi, xi in zip(self.w, x)), self.b).tanh()

        def parameters(self):
            return self.w + [self.b]

    return Neuron()


def test_a_layer_of_the_net_bound_to_a_global_is_not_a_second_net(run, model, tmp_path):
    path = model(NETS + """
    class Layer:
        def __init__(self, *neurons):
            self.neurons = list(neurons)

        def __call__(self, x):
            return [n(x) for n in self.neurons]

        def parameters(self):
            return [p for n in self.neurons for p in n.parameters()]

    class Net:
        def __init__(self):
            self.layers = [Layer(Neuron([0.1, 0.2], 0.0), Neuron([0.3, -0.2], 0.1)),
                           Layer(Neuron([0.5, -0.5], 0.2))]

        def __call__(self, x):
            for layer in self.layers:
                x = layer(x)
            return x[0]

        def parameters(self):
            return [p for layer in self.layers for p in layer.parameters()]

    net = Net()
    first = net.layers[0]  # a part of net: net is the one drawn

    def build():
        loss = net(xs) ** 2
        loss.backward()
        return loss
    """)
    G = _graph(run, tmp_path, f"{path}:build")
    assert G.graph["net"]["name"] == "net"
    groups = {a["group"] for _, a in G.nodes(data=True) if a["group"]}
    assert groups == {"L0/N0", "L0/N1", "L1/N0"}
