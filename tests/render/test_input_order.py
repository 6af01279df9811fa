"""Inputs named one stem and a number are laid out in the numbers' order.

The chapter's softmax came out z0, z3, z2, z1 (Graphviz orders a rank to cross fewer
edges); its caption reads ∂L/∂z0 … ∂L/∂z3. Now z0 … z3 read left to right, as x2 comes
before x10 in a student's net, whatever order the code made them in. Inputs without a
number keep the layout's order. Positions are read from the written SVG.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

import vizgrad
from vizgrad import Value, examples
from vizgrad.scene.plan import plan

SVG = "{http://www.w3.org/2000/svg}"


def name_x(svg: str) -> dict[str, float]:
    """Each box's name and the x of its centre, from the SVG's name texts."""
    root = ET.fromstring(svg)
    return {el.text: float(el.get("x")) for el in root.iter(SVG + "text")
            if el.get("class") == "vg-name" and el.text}


def test_the_chapters_softmax_reads_z0_to_z3():
    svg = vizgrad.draw(examples.graph("softmax-nll")).svg()
    x = name_x(svg)
    assert x["z0"] < x["z1"] < x["z2"] < x["z3"]
    assert x["e0"] < x["e1"] < x["e2"] < x["e3"]  # their exps follow them


def shuffled_sum(n: int) -> Value:
    """x0 … x{n-1} made in a shuffled order, each times its weight, summed and squared."""
    order = [7, 2, 11, 0, 9, 4, 1, 10, 3, 8, 5, 6][:n]
    xs = {i: Value(0.1 * (i + 1), label=f"x{i}") for i in order}
    total = Value(0.0, label="b")
    for i in reversed(order):
        total = total + xs[i] * (0.5 - 0.05 * i)
    loss = total ** 2
    loss.backward()
    return loss


@pytest.mark.parametrize("rankdir", ["LR", "TB"])
def test_a_students_numbered_inputs_keep_their_numbers_order(rankdir):
    svg = vizgrad.draw(shuffled_sum(12), rankdir=rankdir).svg()
    root = ET.fromstring(svg)
    axis = "y" if rankdir == "LR" else "x"  # across the ranks
    at = {el.text: float(el.get(axis)) for el in root.iter(SVG + "text")
          if el.get("class") == "vg-name" and el.text and re.fullmatch(r"x\d+", el.text)}
    assert len(at) == 12
    assert [at[f"x{i}"] for i in range(12)] == sorted(at.values())  # x2 before x10


def test_the_dot_keeps_numbered_pairs_in_order_and_leaves_names_without_numbers_free():
    p = plan(examples.graph("softmax-nll"))
    kept = re.findall(r'"(v\d+)" -> "(v\d+)" \[id="order\d+" style="invis"\]', p.dot)
    names = {n: p.facts.nodes[n].get("label") for pair in kept for n in pair}
    assert [(names[a], names[b]) for a, b in kept] == [("z0", "z1"), ("z1", "z2"), ("z2", "z3")]
    fork = plan(examples.graph("fork")).dot  # a and b: nothing to keep
    assert "order0" not in fork
