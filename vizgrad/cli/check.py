"""``vizgrad check``: backprop against central differences for every input, and each backward
step whose code vizgrad did not write against its op's rule.

An input whose nudge ±h crosses a kink (a relu's input within h of 0: its slope is 0 on one
side and 1 on the other) cannot be checked by a central difference there: its row says
``kink``, a note below the table says which op and what the difference gives with the op on
the side backprop's rule takes, and it is no failure. Every input is named as the pictures
name it (its label, its role in a net, else ``x₁``, ``x₂`` …), never by its id.
"""

from __future__ import annotations

import json
from typing import Any

import click

from .args import build_limits as _build_limits
from .args import errors as _errors
from .args import notes as _notes
from .args import parse_sets as _parse_sets
from .args import ranged as _ranged
from ..exceptions import ExpressionError, ModelLoadError, UnknownExampleError
from ..options import DEFAULT_H
from ..runtime.watchdog import DEFAULT_BUILD_MEMORY, DEFAULT_BUILD_SECONDS
from ..style.text import MINUS, fmt

__all__ = ["check", "kink_note"]


def _num(x: float, trim: bool = False) -> str:
    """The pictures' numbers, with an ASCII minus."""
    return fmt(x, 10, trim=trim).replace(MINUS, "-")


def kink_note(row: dict[str, Any]) -> str:
    """Why a row's central difference cannot check its input: each kink its nudge crossed,
    and what the difference gives with those ops on the side backprop's rule takes.

    >>> row = {"input": "b", "backprop": 0.0, "numeric": 0.5, "branch": 0.0,
    ...        "kinks": [{"node": "relu₁", "op": "relu", "input": 0.0}]}
    >>> import re
    >>> for part in re.split("[,;] ", kink_note(row)):
    ...     print(part)
    b: relu₁'s input is 0: relu's slope is 0 on one side and 1 on the other
    and the nudge ±h crosses it
    so the central difference (0.5) cannot check it
    with relu₁ kept on the side backprop's rule takes
    the difference gives 0
    as backprop does (0)
    """
    kinks = row["kinks"]
    said = "; ".join(
        f"{k['node']}'s input is {_num(k['input'], True)}"
        + ("" if k["input"] == 0 else " (within h of 0)") for k in kinks)
    ops = sorted({k["op"] for k in kinks})
    named = ", ".join(k["node"] for k in kinks)
    return (f"{row['input']}: {said}: {' and '.join(ops)}'s slope is 0 on one side and 1 on "
            f"the other, and the nudge ±h crosses it, so the central difference "
            f"({_num(row['numeric'], True)}) cannot check it; with {named} kept on the side "
            f"backprop's rule takes, the difference gives {_num(row['branch'], True)}, as "
            f"backprop does ({_num(row['backprop'], True)})")


@click.command()
@click.argument("target", required=False, metavar="[EXAMPLE | MODEL.py[:FUNC]]")
@click.option("--expr", "-e", metavar="EXPRESSION", help="An expression to check instead.")
@click.option("--set", "values", multiple=True, callback=_parse_sets, metavar="NAME=NUMBER",
              help="A variable or example input value (repeatable).")
@click.option("--h", "h", type=float, default=DEFAULT_H, show_default=True,
              callback=_ranged("h"),
              help="The central-difference step: (f(x+h) - f(x-h)) / 2h, from 1e-12 to 1.")
@click.option("--tol", type=float, default=None, callback=_ranged("tol"),
              help="Exit with status 1 if an absolute error exceeds this, 0 to 1e6 (default: "
              "1e-4 × max(1, |numeric|)).")
@click.option("--json", "as_json", is_flag=True, help="Print the rows as JSON.")
@_build_limits
def check(target: str | None, expr: str | None, values: dict[str, float], h: float,
          tol: float | None, as_json: bool, build_seconds: float | None,
          build_memory: int | None) -> None:
    """Compare backprop with central differences for every input, and each backward step
    whose code vizgrad did not write with its op's rule.

    Prints each op whose backward disagrees with its rule (node, op, inputs, observed,
    rule, central difference), then input, backprop, numeric and absolute error, e.g. for
    the fork graph at h = 1e-6 the error of a is 4.1933e-10. An input whose nudge crosses
    a relu's kink (its input within h of 0) is marked 'kink', not a disagreement: a central
    difference cannot check a gradient there. Exits 0 when all agree, 1 when a gradient or
    an op disagrees, 2 when the input could not be checked.
    """
    from .targets import expr_graph, graph_of
    from ..graph.gradcheck import GRAD_TOLERANCE, gradcheck, op_disagreements, row_status
    from ..style.text import formula, name

    if (expr is None) == (target is None):
        raise click.UsageError("give an example name (see 'vizgrad list'), a model file or --expr")
    with _errors({ExpressionError: "'--expr'" if expr is not None else "'--set'",
                  UnknownExampleError: "'TARGET'", ModelLoadError: "'TARGET'"}):
        limits = (build_seconds or DEFAULT_BUILD_SECONDS, build_memory or DEFAULT_BUILD_MEMORY)
        with _notes():
            G = (expr_graph(expr, values) if expr is not None
                 else graph_of(target or "", values, None, limits)[1])
        if not hasattr(G, "in_edges"):  # a LiteGraph past the node limit: check needs edges
            G = G.to_networkx()
        rows = gradcheck(G, h=h)
    for r in rows:
        r["status"] = row_status(r, tol)
        if r["status"] == "kink":
            r["note"] = kink_note(r)
    wrong_ops = op_disagreements(G)
    if as_json:
        click.echo(json.dumps({"h": h, "rows": rows, "ops": wrong_ops}, indent=1))
    else:
        _print(G, rows, wrong_ops, expr, h, formula, name)
    bad = [r for r in rows if r["status"] == "disagree"]
    said = (f"--tol {tol:g}" if tol is not None
            else f"{GRAD_TOLERANCE:g} × max(1, |numeric|)")
    differ = "s differ" if len(bad) != 1 else " differs"
    problems = [f"{len(bad)} input{differ} by more than {said}: "
                + ", ".join(f"{r['input']} ({r['error']:.4e})" for r in bad)] if bad else []
    problems += [f"the backward of {r['node']} ({r['op']}) disagrees with its rule"
                 for r in wrong_ops]
    if problems:
        raise click.ClickException("; ".join(problems))


def _print(G: Any, rows: list[dict[str, Any]], wrong_ops: list[dict[str, Any]],
           expr: str | None, h: float, formula: Any, name: Any) -> None:
    """The check as text: the formula, the ops that disagree with their rule, the table,
    and a note on each input a kink keeps the central difference from checking."""
    root = G.graph["root"]
    shown = expr.strip() if expr is not None else formula(G, root)
    value = _num(G.nodes[root]["data"], True)  # the formula's own minus: ASCII as typed
    value = value if expr is not None else value.replace("-", MINUS)
    click.echo(f"{shown} = {value}; central differences, h = {h:g}")
    if wrong_ops:
        click.echo("backward code that disagrees with its op's rule "
                   "(node, op, inputs: observed, rule, central difference):")
    for r in wrong_ops:
        at = ", ".join(f"{n} = {_num(x, True)}" for n, x in r["inputs"])
        central = "-" if r["central"] is None else _num(r["central"])
        click.echo(f"  {formula(G, r['id'])} ({r['op']}) at {at}: ∂{r['node']}/∂{r['target']}"
                   f" observed {_num(r['observed'])}, rule {_num(r['rule'])}, "
                   f"central difference {central}")
    table = [("input", "backprop", "numeric", "abs error")]
    table += [(r["input"], _num(r["backprop"]), _num(r["numeric"]), f"{r['error']:.4e}")
              for r in rows]
    marks = [""] + ["  kink" if r["status"] == "kink" else "" for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(4)]
    for row, mark in zip(table, marks):
        click.echo("  ".join([row[0].ljust(widths[0])]
                             + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]) + mark)
    if not rows:
        click.echo(f"({name(G, root)} has no input leaves to check)")
    kinked = [r for r in rows if r["status"] == "kink"]
    if kinked:
        click.echo(f"kink: {len(kinked)} input{'s' if len(kinked) != 1 else ''} not checked "
                   "and not counted as disagreeing:")
    for r in kinked:
        click.echo(f"  {r['note']}")
