"""Faults inside Python or in what a request echoes back: a clear 4xx, never a 500."""

from __future__ import annotations

import ast
import threading
import time

import pytest
from click.testing import CliRunner

import vizgrad.core.expr as expr
from vizgrad.cli.commands import main
from vizgrad.exceptions import ExpressionError


def _broken_parser(*args, **kwargs):
    raise SystemError("AST constructor recursion depth mismatch (before=3, after=5)")


def test_a_parser_failure_is_an_expression_error_with_its_position(monkeypatch):
    monkeypatch.setattr(expr, "_python_parse", _broken_parser)
    with pytest.raises(ExpressionError) as info:
        expr.parse("a*b", a=1, b=2)
    assert info.value.column == 1
    assert "parser failed" in str(info.value) and "recursion depth mismatch" in str(info.value)


@pytest.mark.parametrize("path", ["/api/trace", "/api/render", "/api/gradcheck", "/api/scene"])
def test_a_parser_failure_answers_an_expression_error_not_500(client, monkeypatch, path):
    monkeypatch.setattr(expr, "_python_parse", _broken_parser)
    r = client.post(path, json={"expression": "a*b", "values": {"a": 1, "b": 2}})
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["error"] == "expression_error" and body["column"] == 1
    assert body["field"] == "expression"


def test_a_parser_failure_is_a_clear_cli_error(monkeypatch):
    monkeypatch.setattr(expr, "_python_parse", _broken_parser)
    result = CliRunner().invoke(main, ["check", "--expr", "a*b", "--set", "a=1", "--set", "b=2"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "parser failed" in result.output


def test_threads_parse_one_at_a_time(monkeypatch):
    real, inside, most = ast.parse, [0], [0]
    guard = threading.Lock()

    def slow_parse(*args, **kwargs):
        with guard:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        time.sleep(0.005)  # long enough for another thread to enter, were it allowed
        try:
            return real(*args, **kwargs)
        finally:
            with guard:
                inside[0] -= 1

    monkeypatch.setattr(expr, "_python_parse", slow_parse)
    threads = [threading.Thread(target=lambda: [expr.parse("a*b+a", a=1, b=2) for _ in range(10)])
               for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert most[0] == 1
