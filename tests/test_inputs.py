"""Input values and expressions: one rule, one reader, for the CLI, the embeds and the lab.

The same text is refused (or read) the same way by ``vizgrad render --set``, a Sphinx or
Markdown ``values:`` option and the lab's JSON ``values``; an expression becomes a graph
only in :mod:`vizgrad.graph.expression`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from click.testing import CliRunner

from vizgrad.cli.commands import main
from vizgrad.core.inputs import parse_values
from vizgrad.embed.blocks import parse_options
from vizgrad.exceptions import OptionError

PACKAGE = Path(__file__).resolve().parents[1] / "vizgrad"

REFUSED = [
    ("a=inf", "must be a finite number"),
    ("a=nan", "must be a finite number"),
    ("a=two", "'a=two' is not a number"),
    ("2a=1", "'2a' is not a variable name"),
    ("\uff41=1", "reads the name 'ａ' as 'a'"),
    ("a=1, a=2", "'a' is given twice (1 and 2)"),
    ("a", "'a' is not name=number"),
]


@pytest.mark.parametrize("text, says", REFUSED, ids=[r[0] for r in REFUSED])
def test_the_cli_and_the_embeds_refuse_the_same_values_with_the_same_words(text, says):
    with pytest.raises(OptionError, match=None) as err:
        parse_options({"values": text}, "a*2")
    assert says in str(err.value) and str(err.value).startswith("values: ")
    items = ["--set", text] if "," not in text else ["--set", "a=1", "--set", "a=2"]
    result = CliRunner().invoke(main, ["render", "--expr", "a*2", *items, "-o", "x.svg"])
    assert result.exit_code == 2 and says in result.output, result.output


def test_the_same_values_read_the_same_everywhere():
    spec = parse_options({"values": "a=-2; b = 3, x=1.5e3"}, "a*b+x")
    assert dict(spec.values) == {"a": -2.0, "b": 3.0, "x": 1500.0}
    assert parse_values(["a=-2", "b = 3,x=1.5e3"]) == {"a": -2.0, "b": 3.0, "x": 1500.0}


def _imports(tree: ast.Module) -> set[tuple[str, str]]:
    return {(node.module or "", a.name) for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) for a in node.names}


def test_an_expression_becomes_a_graph_in_one_module():
    """A module that parses an expression and names its output, or also traces or converts a
    graph, is turning an expression into a graph: only graph/expression.py may. (Parsing alone,
    for a number such as a learning-rate schedule, is not.)"""
    users = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        names = _imports(ast.parse(path.read_text("utf-8")))
        parser = {name for module, name in names if module.endswith("core.expr")}
        graphs = {name for _, name in names} & {"to_networkx", "trace", "expression_graph"}
        if rel.startswith("core/") or not parser & {"parse", "name_output"}:
            continue
        if "name_output" in parser or graphs - {"expression_graph"}:
            users.append(rel)
    assert users == ["graph/expression.py"]
