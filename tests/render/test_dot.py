"""DOT text: golden files compared exactly, quoting, and what each step says."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from vizgrad import Value, from_json, to_json, to_networkx, trace
from vizgrad.exceptions import OptionError
from vizgrad.render.dot import grad_scale, quote, record_field, to_dot

from ..helpers import build_fork

GOLDEN = Path(__file__).parent / "golden"
REGEN = os.environ.get("VIZGRAD_REGEN_GOLDEN") == "1"


def fork_graph(backward: bool = True):
    return to_networkx(build_fork(backward=backward)[0])


def shared_graph():
    a = Value(3.0, label="a")
    b = a + a
    b.label = "b"
    b.backward()
    return to_networkx(b)


def const_graph():
    a = Value(0.25, label="a")
    y = (a * 2 + 1).tanh()
    y.label = "y"
    y.backward()
    return to_networkx(y)


def offpath_graph():
    x = Value(0.5, label="x")
    p = x.exp()
    p.label = "p"
    other = (x * 3).exp()
    other.label = "other"
    p.backward()
    return to_networkx(trace(p, also=[other]))


CASES = {
    "fork-default": lambda: to_dot(fork_graph()),
    "fork-step0": lambda: to_dot(fork_graph(), 0),
    "fork-step4-seed": lambda: to_dot(fork_graph(), 4),
    "fork-step5": lambda: to_dot(fork_graph(), 5),
    "fork-step6": lambda: to_dot(fork_graph(), 6),
    "fork-step7": lambda: to_dot(fork_graph(), 7),
    "fork-no-backward": lambda: to_dot(fork_graph(backward=False)),
    "fork-tb-dark-2dp": lambda: to_dot(fork_graph(), 7, rankdir="TB", theme="dark", decimals=2),
    "fork-no-caption": lambda: to_dot(fork_graph(), 6, caption=False),
    "shared-node-step3": lambda: to_dot(shared_graph(), 3),
    "constants": lambda: to_dot(const_graph()),
    "off-path": lambda: to_dot(offpath_graph()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_dot(name):
    path = GOLDEN / f"{name}.dot"
    got = CASES[name]()
    if REGEN:
        path.write_text(got, encoding="utf-8")
    assert path.exists(), f"missing golden {path.name}; run with VIZGRAD_REGEN_GOLDEN=1"
    assert got == path.read_text(encoding="utf-8")


def test_same_graph_built_twice_gives_the_same_text():
    assert to_dot(fork_graph(), 6) == to_dot(fork_graph(), 6)


def test_graph_loaded_from_json_gives_the_same_text():
    G = fork_graph()
    H = from_json(to_json(G))
    for k in (0, 4, 7, None):
        assert to_dot(H, k) == to_dot(G, k)


def test_a_value_or_trace_is_accepted(fork):
    q, _, _ = fork
    q.backward()
    assert to_dot(q) == to_dot(trace(q)) == to_dot(to_networkx(q))


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("plain", '"plain"'),
        ('say "hi"', '"say \\"hi\\""'),
        ("back\\slash", '"back\\\\slash"'),
        ("\\N", '"\\\\N"'),
        ("a\nb", '"a\\nb"'),
        ("&amp;", '"&amp;amp;"'),
        ("ctl\x01", '"ctl\u2401"'),
    ],
    ids=["plain", "quote", "backslash", "escape-letter", "newline", "entity", "control"],
)
def test_quote(raw, expected):
    assert quote(raw) == expected


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("a|b", "a\\|b"),
        ("{x}", "\\{x\\}"),
        ("<p>", "\\<p\\>"),
        ("two words", "two\\ words"),
        ('"', '\\"'),
        ("\\", "\\\\"),
        ("a\nb", "a\\nb"),
    ],
    ids=["pipe", "braces", "angles", "space", "quote", "backslash", "newline"],
)
def test_record_field(raw, expected):
    assert record_field(raw) == expected


def test_shared_input_has_two_edges_each_labelled():
    text = to_dot(shared_graph(), 3)
    edges = [line for line in text.splitlines() if line.strip().startswith('"v0" -> "v1-op"')]
    assert len(edges) == 2
    assert all('label="1.0000 × 1.0000 = 1.0000"' in e for e in edges)
    assert 'id="e-v0-v1-0"' in edges[0] and 'id="e-v0-v1-1"' in edges[1]
    # running total over both contributions of this step: not reached → 2
    assert "grad\\ —\\ →\\ 2.0000" in text


def test_constants_are_compact_boxes_without_numbers_fields():
    text = to_dot(const_graph())
    consts = [line for line in text.splitlines() if "vg-const" in line and "->" not in line]
    assert len(consts) == 2
    assert all('shape="box"' in c and "record" not in c for c in consts)
    assert {c.split('label="')[1].split('"')[0] for c in consts} == {"2", "1"}


def test_off_path_output_is_greyed_and_dashed():
    text = to_dot(offpath_graph())
    other = next(line for line in text.splitlines()
                 if line.lstrip().startswith('"v') and "{other|" in line)
    assert "vg-offpath" in other and "dashed" in other and 'fontcolor="#8c8c8c"' in other


def test_grad_colour_scale_spans_the_whole_trace():
    assert grad_scale(fork_graph()) == 8.0


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"step": 8}, "step must be a whole number from 0 to 7"),
        ({"step": -1}, "step must be"),
        ({"step": True}, "step must be"),
        ({"rankdir": "lr"}, "rankdir must be one of"),
        ({"decimals": -1}, "decimals"),
        ({"decimals": 2.5}, "decimals"),
        ({"theme": "solarized"}, "unknown theme"),
    ],
    ids=["step-past-end", "negative-step", "bool-step", "rankdir", "negative-decimals",
         "float-decimals", "theme"],
)
def test_bad_options(kwargs, match):
    with pytest.raises(OptionError, match=match):
        to_dot(fork_graph(), **kwargs)


def _flat_sum(terms: int = 125):
    from vizgrad.expr import parse

    root = parse("+".join(["a*b"] * terms), a=0.5, b=1.5)
    root.backward()
    return to_networkx(root)


def test_long_edges_bound_the_layout_effort():
    from vizgrad.render.dot import LONG_EDGE_BUDGET, layout_attrs, long_edge_cost

    G = _flat_sum()
    assert long_edge_cost(G) > LONG_EDGE_BUDGET
    assert layout_attrs(G) == {"mclimit": "0.1", "nslimit": "0.05"}
    text = to_dot(G)
    assert 'mclimit="0.1"' in text and 'nslimit="0.05"' in text
    edges = [line for line in text.splitlines() if " -> " in line]
    # contribution texts go to xlabel: a labelled edge would double every rank
    assert any(" xlabel=" in e for e in edges) and not any(" label=" in e for e in edges)


def test_ordinary_graphs_keep_their_layout():
    from vizgrad.render.dot import layout_attrs, long_edge_cost

    G = fork_graph()
    assert long_edge_cost(G) < 10 and layout_attrs(G) == {}
    text = to_dot(G)
    assert "nslimit" not in text and "xlabel" not in text and " label=" in text


def test_the_flat_sum_lays_out():
    from vizgrad.render.layout import available_backends, run_layout

    if "embedded" not in available_backends():
        pytest.skip("the embedded Graphviz is not installed")
    svg = run_layout(to_dot(_flat_sum()), "svg", "embedded", timeout=120)
    assert svg.count(b'class="node') >= 251
