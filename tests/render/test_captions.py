"""Captions that teach: the chapter's notation (received gradient × local derivative), the
arithmetic right to the printed digits, no gradient of a number, names instead of ids."""

from __future__ import annotations

import random
import re

import pytest

from vizgrad import Value, draw, examples, to_networkx, trace
from vizgrad.scene import scene_of
from vizgrad.style.text import MINUS, chain_rule, name

EXAMPLES = examples.names()
LANGS = ("en", "zh")
_LINE = re.compile(r"^(?P<target>.+?\.grad) (?P<sign>\+?=) (?P<symbols>.+?) = "
                   r"(?P<local>\S+) × (?P<upstream>\(?\S+?\)?) = (?P<amount>\S+)"
                   r"   \((?P<before>\S+) → (?P<after>\S+)\)$")


#: a contribution with no local rule to print: "x.grad += −0.048 (sum of 2)   (a → b)"
_SUM = re.compile(r"^(?P<target>.+?\.grad) \+= (?P<amount>[^ (+]\S*)"
                  r"(?: \((?:sum of \d+|observed|\d+ 项之和|实测)\))?"
                  r"   \((?P<before>\S+) → (?P<after>\S+)\)$")


def number(text: str) -> float:
    """A printed number: a true minus, brackets, scientific notation; "—" is no grad yet."""
    text = text.strip("()").replace(MINUS, "-")
    return 0.0 if text == "—" else float(text)


def precision(text: str) -> float:
    """Half a unit of the last printed digit: how far the printed number may be off."""
    text = text.strip("()").replace(MINUS, "-")
    mantissa = text.split("e")[0]
    digits = len(mantissa.split(".")[1]) if "." in mantissa else 0
    scale = 10.0 ** int(text.split("e")[1]) if "e" in text else 1
    return 0.5 * 10 ** -digits * scale


def backward_lines(G, lang="en", decimals=4):
    for s in G.graph["steps"]:
        if s["kind"] == "backward":
            for line in chain_rule(G, s["index"], decimals, trim=True, lang=lang):
                yield s["index"], line


def course():
    """The micrograd lecture's net, MLP(3, [4, 4, 1]) on its four samples, read with model=."""
    mg_nn = pytest.importorskip("micrograd.nn", reason="micrograd==0.1.0 is a test dependency")
    random.seed(1337)
    net = mg_nn.MLP(3, [4, 4, 1])
    xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
    ys = [1.0, -1.0, -1.0, 1.0]
    loss = sum((yout - ygt) ** 2 for ygt, yout in zip(ys, [net(x) for x in xs]))
    loss.backward()
    return to_networkx(trace(loss, model=net))


def graphs():
    for n in EXAMPLES:
        yield n, examples.graph(n)
    yield "mlp-by-neuron", draw(examples.graph("mlp"), collapse="neuron").graph
    yield "course", course()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ex", [*EXAMPLES, "mlp-by-neuron", "course"])
def test_no_symbol_is_on_both_sides_of_the_plus_equals(ex, lang):
    G = dict(graphs())[ex]
    for k, line in backward_lines(G, lang):
        left, sign, right = line.partition(" += ") if " += " in line else line.partition(" = ")
        assert left.endswith(".grad"), (k, line)
        assert not re.search(r"(?<![\w.)])" + re.escape(left), right), (k, line)
        if not ex.endswith("by-neuron"):  # a box's local derivative has no rule to show
            assert "∂" not in line, (k, line)


def test_the_tanh_step_brackets_its_local_rule():
    G = examples.graph("tanh-native")
    lines = [line for _, line in backward_lines(G)]
    assert "n.grad += (1 − o²) × o.grad = 0.5 × 1 = 0.5   (— → 0.5)" in lines


@pytest.mark.parametrize("op, rule", [
    (lambda x: x ** 2, "(2·x)"), (lambda x: x ** 3, "(3·x²)"), (lambda x: x.log(), "(1/x)"),
    (lambda x: x ** -1, f"({MINUS}1/x²)"), (lambda x: x.exp(), "+= y × y.grad"),  # e^x = y
])
def test_every_compound_local_rule_is_bracketed(op, rule):
    x = Value(1.5, label="x")
    y = op(x)
    y.label = "y"
    y.backward()
    (line,) = chain_rule(to_networkx(y), 3, trim=True)  # inputs, forward, seed, backward
    assert line.startswith("x.grad += ") and rule in line


@pytest.mark.parametrize("ex", ["softmax-nll", "mlp", "sum-square", "mlp-by-neuron", "course"])
def test_no_caption_names_the_gradient_of_a_number(ex):
    G = dict(graphs())[ex]
    for k, line in backward_lines(G):
        target = line.split(".grad")[0].strip("()")
        assert not re.fullmatch(r"[−\d.]+(e[−+]?\d+)?", target), (k, line)
        assert not re.search(r"∂[−\d]", line), (k, line)
    scene = scene_of(G)
    for k in range(scene.last + 1):
        for text in scene.caption_texts(k):
            assert not re.search(r"∂[^/ ]+/∂[−\d]", text), (k, text)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("decimals", [2, 4])
@pytest.mark.parametrize("ex", [*EXAMPLES, "mlp-by-neuron", "course"])
def test_the_printed_arithmetic_holds_to_the_printed_digits(ex, lang, decimals):
    G = dict(graphs())[ex]
    checked = 0
    for k, line in backward_lines(G, lang, decimals):
        m = _LINE.match(line)
        if m is None:  # a collapsed box's "0.12 (sum of 3)" or "0.12"; micrograd's "0 (observed)"
            s = _SUM.match(line)
            assert s, line
            amount, before, after = s.group("amount"), s.group("before"), s.group("after")
            err = precision(amount) + precision(after) + (0 if before == "—" else
                                                          precision(before))
            assert abs(number(before) + number(amount) - number(after)) <= err * 1.0001, line
            continue
        local, up, amount = (m.group(g) for g in ("local", "upstream", "amount"))
        err = (abs(number(local)) * precision(up) + abs(number(up)) * precision(local)
               + precision(local) * precision(up) + precision(amount))
        assert abs(number(local) * number(up) - number(amount)) <= err * 1.0001, (k, line)
        before, after = m.group("before"), m.group("after")
        if m.group("sign") == "+=":
            err = precision(amount) + precision(after) + (0 if before == "—" else
                                                          precision(before))
            assert abs(number(before) + number(amount) - number(after)) <= err * 1.0001, line
        checked += 1
    assert checked or ex == "mlp-by-neuron"


def test_values_are_named_by_what_made_them_not_by_an_id():
    G = examples.graph("softmax-nll")
    names = {name(G, n) for n in G}
    assert {"log(p3)", "1/s", f"{MINUS}1"} <= names
    captions = " ".join(line for _, line in backward_lines(G))
    assert "log(p3).grad += −1 × L.grad" in captions
    assert "s.grad += (−1/s²) × (1/s).grad" in captions
    sum_square = examples.graph("sum-square")
    assert {name(sum_square, n) for n in sum_square} >= {"x + x", "x·x"}


def test_a_long_unlabelled_value_is_named_by_its_op_not_its_id():
    x = Value(1.0, label="x")
    y = ((((x * x + x) * x + x) * x + x).tanh())
    G = to_networkx(y)
    inner = next(iter(G.predecessors(G.graph["root"])))
    # (x·x + x)·x + x is too long: sum₁; sum₁·x is prod₁; prod₁ + x is the second such sum
    assert name(G, inner) == "sum₂"
    assert name(G, G.graph["root"]) == "f"  # the output, as the CLI and the lab call it
    assert all(len(name(G, n)) <= 12 for n in G)


@pytest.mark.parametrize("ex, decimals", [("fork", 4), ("mlp", 2), ("softmax-nll", 4)])
def test_the_caption_the_box_and_the_table_show_one_grad(ex, decimals, open_page):
    from vizgrad.player.page import player_html

    G = examples.graph(ex)
    scene = scene_of(G, decimals=decimals)
    for s in G.graph["steps"]:
        if s["kind"] != "backward":
            continue
        k = s["index"]
        look = scene.look(k)
        lines = chain_rule(G, k, decimals, scene.trim)  # one line per contribution, in order
        targets = [c["target"] for c in s["contributions"]
                   if G.nodes[c["target"]]["kind"] != "const"]
        for line, target in zip(lines, targets):
            after = re.search(r"→ (\S+)\)$", line).group(1)
            assert look[f"t-{target}-grad"]["text"] == after, (k, line)
        assert len(lines) == len(targets)
    page = player_html(G, decimals=decimals)
    table = open_page(page, "#step=final").inner_html("#nodes tbody")  # the script builds it
    final = scene.look(None)
    for n in G:
        row = re.search(rf'<tr data-node="{n}" class="[^"]*">.*?'
                        rf'<td class="number grad[^"]*">([^<]*)</td>', table)
        if G.nodes[n]["kind"] != "const":
            assert row.group(1) == final[f"t-{n}-grad"]["text"], n


def test_names_are_worked_out_once_only_inside_unchanged():
    """A scene names each node once while it writes every step's caption; outside that
    block a renamed node shows its new name."""
    from vizgrad.tracing.names import unchanged
    from vizgrad.style import formulas

    G = examples.graph("fork")
    outside = [chain_rule(G, k, trim=True) for k in range(len(G.graph["steps"]))]
    calls = []
    real = formulas._name
    formulas._name = lambda G_, n: calls.append(n) or real(G_, n)
    try:
        with unchanged(G):
            inside = [chain_rule(G, k, trim=True) for k in range(len(G.graph["steps"]))]
            assert name(G, "v0") == "a"
    finally:
        formulas._name = real
    assert inside == outside and len(calls) == len(set(calls)) > 0
    G.nodes["v0"]["label"] = "alpha"
    assert name(G, "v0") == "alpha" and "alpha.grad" in " ".join(sum(
        (chain_rule(G, k) for k in range(len(G.graph["steps"]))), []))
