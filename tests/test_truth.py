"""Every number true: a student's wrong ``_backward`` is caught and named, the overwrite bug's
wrong gradient is marked, and printed factors multiply to the printed product.

The buggy ops are written as a student would, subclassing micrograd's Value; every expected
number is a literal worked by hand or a central difference taken here.
"""

from __future__ import annotations

import json
import math
import re
import textwrap
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

import vizgrad
from vizgrad import examples, to_networkx
from vizgrad.cli import main
from vizgrad.player.page import player_html
from vizgrad.style import text as tx
from vizgrad.style.theme import THEMES

engine = pytest.importorskip("micrograd.engine")
WARNING = THEMES["light"].warning

STUDENT = '''
import math
from micrograd.engine import Value as MicrogradValue


class Value(MicrogradValue):
    """A student's engine: micrograd plus log and tanh, each with its bug."""

    def log(self):
        out = Value(math.log(self.data), (self,), "log")

        def _backward():
            self.grad += (1 / out.data) * out.grad  # bug: 1/x is 1/self.data
        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t) * out.grad  # bug: 1 - t**2
        out._backward = _backward
        return out


def named(value, label):
    value.label = label
    return value


def build():
    x = named(Value(2.0), "x")
    y = named(x.log(), "y")
    y.backward()
    return y


def build_tanh():
    z = named(Value(0.5), "z")
    w = named(z.tanh(), "w")
    w.backward()
    return w


def build_right():
    x = named(Value(2.0), "x")
    f = named(x * x + x.relu() + x ** 3, "f")
    f.backward()
    return f
'''


@pytest.fixture(scope="module")
def student(tmp_path_factory):
    path = tmp_path_factory.mktemp("student") / "engine.py"
    path.write_text(textwrap.dedent(STUDENT))
    namespace: dict = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    return path, namespace


def _lines(G, kind="backward"):
    return [line for k, s in enumerate(G.graph["steps"]) if s["kind"] == kind
            for line in tx.chain_rule(G, k, trim=True)]


def test_a_students_log_is_caught_with_what_the_code_did_and_what_the_rule_gives(student):
    G = to_networkx(student[1]["build"]())
    line, warning = _lines(G)
    # by hand: the code used 1/log(2) = 1.4427; the rule 1/x is 0.5 at x = 2
    assert line == "x.grad += ∂y/∂x × y.grad = 1.4427 × 1 = 1.4427   (— → 1.4427) ⚠"
    assert warning == ("⚠ the backward code disagrees with the rule: it used ∂y/∂x = 1.4427; "
                       "the rule 1/x gives 0.5 at x = 2; a central difference gives 0.5")
    zh = tx.chain_rule(G, 3, trim=True, lang="zh")[1]
    assert "1.4427" in zh and "0.5" in zh and "1/x" in zh and zh.startswith("⚠")


def test_a_students_tanh_written_with_1_minus_t_is_caught(student):
    G = to_networkx(student[1]["build_tanh"]())
    line, warning = _lines(G)
    t = 0.46211715726000974  # tanh(0.5)
    assert line.endswith("⚠") and "0.5379" in line  # 1 − t, what the code did
    assert f"the rule 1 − w² gives {round(1 - t * t, 4)}" in warning  # 0.7864
    central = (math.tanh(0.5 + 1e-6) - math.tanh(0.5 - 1e-6)) / 2e-6
    assert f"a central difference gives {round(central, 4)}" in warning


def test_correct_micrograd_ops_draw_their_rule_and_no_marker(student):
    G = to_networkx(student[1]["build_right"]())
    lines = _lines(G)
    assert not any("⚠" in line for line in lines), lines
    # x*x fills both slots of one op: its rule is the sum of the slots' rules, x + x = 4
    assert "x.grad += (x + x) × (x·x).grad = 4 × 1 = 4" in " ".join(lines)
    scene = vizgrad.draw(G, step="final").scene
    assert not scene.contributions.warned
    assert any(line.startswith("observed:") for line in scene.legend_texts())
    assert not any(line.startswith("red") for line in scene.legend_texts())


def test_the_warning_style_marks_the_edge_and_the_box_in_the_svg_and_the_player(student):
    G = to_networkx(student[1]["build"]())
    svg = ET.fromstring(vizgrad.draw(G, step=3).svg())
    strokes = {e.get("id"): e.get("stroke") for e in svg.iter() if e.get("id")}
    assert strokes["e-v0-v1-0"] == WARNING  # the edge the wrong derivative went down
    assert strokes["n-v1"] == WARNING  # the op's output, whose backward is wrong
    assert WARNING not in {THEMES["light"].positive, THEMES["light"].negative,
                           THEMES["light"].active}
    legend = " ".join(vizgrad.draw(G, step=3).scene.legend_texts())
    assert "red" in legend and "⚠" in legend
    page = player_html(G)
    assert WARNING in page and "the backward code disagrees with the rule" in page
    assert "反向代码与求导法则不符" in player_html(G, lang="zh")


def test_check_names_the_op_whose_backward_disagrees_and_exits_1(student):
    path = student[0]
    res = CliRunner().invoke(main, ["check", f"{path}:build"])
    assert res.exit_code == 1, res.output
    assert "y = log(x) (log) at x = 2: ∂y/∂x observed 1.4426950409, rule 0.5000000000, " \
        "central difference 0.5000000000" in res.output
    assert re.search(r"^x\s+1\.4426950409\s+0\.5000000000", res.output, re.M)  # the table
    assert "Traceback" not in res.output
    data = json.loads(CliRunner().invoke(main, ["check", f"{path}:build", "--json"]).stdout)
    assert [(r["node"], r["op"], r["inputs"]) for r in data["ops"]] == [("y", "log", [["x", 2.0]])]
    tanh = CliRunner().invoke(main, ["check", f"{path}:build_tanh"])
    assert tanh.exit_code == 1 and "w = tanh(z) (tanh)" in tanh.output
    right = CliRunner().invoke(main, ["check", f"{path}:build_right"])
    assert right.exit_code == 0, right.output
    assert "disagrees" not in right.output


@pytest.mark.parametrize("lang, head, why", [
    ("en", "after backward(): a gradient disagrees with its central difference",
     "⚠ ∂b/∂a is 1 in the graph; the central difference gives 2: a contribution was "
     "overwritten (=) instead of added (+=)"),
    ("zh", "反向结束：有梯度与中心差分不符",
     "⚠ 图中 ∂b/∂a 为 1；中心差分给出 2：有一项贡献被覆盖（=）而不是累加（+=）"),
])
def test_the_overwrite_bugs_final_view_marks_the_wrong_gradient(lang, head, why):
    G = examples.graph("overwrite-bug")
    scene = vizgrad.draw(G, step="final", lang=lang).scene
    assert scene.caption_texts(None) == [head, "∂b/∂a = 1 ⚠", why]
    a = next(n for n in G if G.nodes[n].get("label") == "a")
    assert scene.look(None)[f"n-{a}"]["stroke"] == WARNING
    svg = vizgrad.draw(G, step="final", lang=lang).svg()
    assert WARNING in svg and why.split("；")[0].split(";")[0] in svg
    page = player_html(G, lang=lang)
    assert why in page.encode().decode("utf-8") or json.dumps(why)[1:-1] in page


def test_forks_final_view_reports_agreement():
    scene = vizgrad.draw(examples.graph("fork"), step="final").scene
    lines = scene.caption_texts(None)
    assert lines[:2] == ["after backward(): every gradient is final", "∂q/∂a = −3   ∂q/∂b = −8"]
    assert lines[2].startswith("every input's gradient agrees with its central difference")
    error = float(re.search(r"largest error ([\d.e−]+)", lines[2]).group(1).replace("−", "-"))
    assert 0 < error < 1e-8  # a central difference at h = 1e-6 is off by about 1e-9 here
    assert WARNING not in vizgrad.draw(examples.graph("fork"), step="final").svg()


def test_a_graph_with_an_op_vizgrad_cannot_evaluate_says_not_checked_and_names_it():
    G = examples.graph("fork")
    data = vizgrad.to_json(G)
    doc = json.loads(data)
    for n in doc["nodes"]:
        if n.get("op") == "+":
            n["op"] = "hypot"
    H = vizgrad.from_json(json.dumps(doc))
    lines = vizgrad.draw(H, step="final").scene.caption_texts(None)
    assert lines[-1] == ("gradients not checked against central differences: vizgrad does not "
                         "know the forward of the op ‘hypot’")


_PRODUCT = re.compile(r"(−?[\d.]+) × \(?(−?[\d.]+)\)? = (−?[\d.]+)")


def _consistent(line: str) -> bool:
    a, b, c = (float(x.replace("−", "-")) for x in _PRODUCT.search(line).groups())
    places = len(_PRODUCT.search(line).group(3).partition(".")[2])
    return round(a * b, places) == c


@pytest.mark.parametrize("name, k, expected", [
    # by hand: 0.001745 × 23.9392 = 0.04177 → 0.0418 (0.0017 × 23.9392 = 0.0407 did not)
    ("softmax-nll", 23, "−0.001745 × (−23.9392) = 0.0418"),
    # by hand: 0.02145 × 4.8284 = 0.10357 → 0.1036 (0.0214 × 4.8284 = 0.1033 did not)
    ("tanh-decomposed", 13, "−0.02145 × 4.8284 = −0.1036"),
])
def test_printed_factors_multiply_to_the_printed_product(name, k, expected):
    line = tx.chain_rule(examples.graph(name), k)[0]
    assert expected in line
    assert _consistent(line)


@pytest.mark.parametrize("name", examples.names())
def test_every_chain_rule_line_of_every_example_multiplies_out(name):
    G = examples.graph(name)
    for k in range(len(G.graph["steps"])):
        for line in tx.chain_rule(G, k):
            if _PRODUCT.search(line) and "e−" not in line:
                assert _consistent(line), (k, line)


def test_the_rules_vizgrad_prints_for_the_buggy_ops_are_pytorchs(student):
    """The rule's values in the warnings (0.5 for log at 2, 0.7864 for tanh at 0.5) are what
    PyTorch's float64 autograd gives; the student's engine gives something else."""
    torch = pytest.importorskip("torch")
    for build, fn, at, shown in (("build", torch.log, 2.0, "0.5"),
                                 ("build_tanh", torch.tanh, 0.5, "0.7864")):
        x = torch.tensor(at, dtype=torch.float64, requires_grad=True)
        fn(x).backward()
        G = to_networkx(student[1][build]())
        warning = _lines(G)[1]
        assert f"gives {shown} at" in warning and round(x.grad.item(), 4) == float(shown)
        assert f"a central difference gives {shown}" in warning
        leaf = next(n for n in G if G.in_degree(n) == 0)
        assert round(G.nodes[leaf]["grad"], 4) != round(x.grad.item(), 4)  # the bug's number
