"""The safe expression language: what it accepts, what it refuses (with the column), limits."""

from __future__ import annotations

import ast
import builtins
import math

import pytest

import vizgrad
from vizgrad import Value, VizgradError
from vizgrad.core.value import topological_order
from vizgrad.exceptions import ExpressionError
from vizgrad.core.expr import MAX_BRACKETS, MAX_LENGTH, parse


def _relu(x):
    return x if x > 0 else 0.0


VARS = {"a": 1.25, "b": -0.75}

# (source, the same function on floats): the float twin is the oracle.
ACCEPTED = [
    ("(a*b)*(a+b)", lambda a, b: (a * b) * (a + b)),
    ("a - b / 2", lambda a, b: a - b / 2),
    ("-a ** 2", lambda a, b: -(a**2)),
    ("(-a) ** 2", lambda a, b: (-a) ** 2),
    ("+a - -b", lambda a, b: a + b),
    ("--a", lambda a, b: a),
    ("a ** -1 + b ** 3", lambda a, b: a**-1 + b**3),
    ("a ** 0.5 * a ** -2.5", lambda a, b: a**0.5 * a**-2.5),
    ("a ** +2", lambda a, b: a**2),
    ("a ** (2)", lambda a, b: a**2),
    ("exp(a) + log(a) - tanh(a*b) + relu(a - b) + relu(b)",
     lambda a, b: math.exp(a) + math.log(a) - math.tanh(a * b) + _relu(a - b) + _relu(b)),
    ("exp(log(a) * 2)", lambda a, b: math.exp(math.log(a) * 2)),
    ("1e-3 * a + 2.5e2 / b", lambda a, b: 1e-3 * a + 2.5e2 / b),
    ("3 - a", lambda a, b: 3 - a),
    ("2 / b", lambda a, b: 2 / b),
    ("(a +\n b) * 2", lambda a, b: (a + b) * 2),
    ("  a * b  ", lambda a, b: a * b),
    ("a*a*a", lambda a, b: a * a * a),
    ("(exp)(a)", lambda a, b: math.exp(a)),
    ("a + b + a + b + a + b + a + b + a + b", lambda a, b: 5 * a + 5 * b),
]


@pytest.mark.parametrize("src, f", [pytest.param(s, f, id=s) for s, f in ACCEPTED])
def test_accepted_expressions_compute_the_right_value_and_gradient(src, f):
    root = parse(src, **VARS)
    assert isinstance(root, Value)
    assert root.data == pytest.approx(f(**VARS), rel=1e-14, abs=1e-15)
    root.backward()
    leaves = {v.label: v for v in topological_order(root) if not v.parents and v.label}
    for name, x in VARS.items():
        h = 1e-6
        numeric = (f(**{**VARS, name: x + h}) - f(**{**VARS, name: x - h})) / (2 * h)
        got = leaves[name].grad if name in leaves else 0.0
        assert got == pytest.approx(numeric, rel=1e-6, abs=1e-6), name


def test_chapter_fork_through_parse():
    q = parse("(a*b)*(a+b)", a=-2, b=3)
    q.backward()
    leaves = [v for v in topological_order(q) if not v.parents]
    assert [(v.label, v.data, v.grad) for v in leaves] == [("a", -2.0, -3.0), ("b", 3.0, -8.0)]
    assert vizgrad.parse is parse


def test_a_variable_used_twice_is_one_labelled_node():
    root = parse("a + a", a=3)
    assert root.parents[0] is root.parents[1]
    assert root.parents[0].label == "a" and not root.parents[0].is_const
    root.backward()
    assert root.parents[0].grad == 2.0


def test_numbers_become_constants():
    root = parse("a * 2", a=3)
    assert root.parents[1].is_const and root.parents[1].data == 2.0
    only = parse("1.5 + 2")
    assert only.data == 3.5 and all(v.is_const for v in only.parents)


def test_unused_variables_are_fine():
    assert parse("a", a=1.0, b=2.0).data == 1.0


# (source, 1-based column, words the message must contain)
REJECTED = [
    ("a.real", 1, "attributes"),
    ("b + a.real", 5, "attributes"),
    ("a.__class__.__bases__", 1, "attributes"),
    ("a[0]", 1, "subscripts"),
    ("b * a[0]", 5, "subscripts"),
    ("lambda: a", 1, "lambdas"),
    ("a + (lambda: b)", 6, "lambdas"),
    ("c", 1, "unknown name 'c'"),
    ("a + c", 5, "unknown name 'c'"),
    ("exp", 1, "needs parentheses"),
    ("'s'", 1, "strings"),
    ("a + 's'", 5, "strings"),
    ('exp("a")', 5, "strings"),
    ("b'x'", 1, "bytes"),
    ("exp(x=a)", 5, "keyword arguments"),
    ("tanh(a, x=b)", 9, "keyword arguments"),
    ("exp(**a)", 5, "keyword arguments"),
    ("a**b", 4, "exponent"),
    ("a ** (b)", 7, "exponent"),
    ("a ** -b", 6, "exponent"),
    ("a ** exp(1)", 6, "exponent"),
    ("9**9**9", 4, "exponent"),
    ("__import__('os')", 1, "unknown function '__import__'"),
    ("a + __import__('os').system('true')", 5, "unknown function"),
    ("eval('1')", 1, "unknown function 'eval'"),
    ("open('f')", 1, "unknown function 'open'"),
    ("print(a)", 1, "unknown function 'print'"),
    ("exp(a, b)", 1, "exactly one argument"),
    ("exp()", 1, "exactly one argument"),
    ("exp(a)(b)", 1, "unknown function"),
    ("exp(*a)", 5, "starred"),
    ("a // b", 1, "operator"),
    ("b + a % 2", 5, "operator"),
    ("a @ b", 1, "operator"),
    ("~a", 1, "operator"),
    ("not a", 1, "operator"),
    ("a < b", 1, "comparisons"),
    ("a and b", 1, "boolean"),
    ("a if b else a", 1, "conditional"),
    ("[a]", 1, "lists"),
    ("(a, b)", 1, "tuples"),
    ("{a}", 1, "sets"),
    ("{a: b}", 1, "dicts"),
    ("f'{a}'", 1, "f-strings"),
    ("(a := 1)", 2, "assignments"),
    ("[x for x in a]", 1, "comprehensions"),
    ("1j", 1, "complex"),
    ("True + a", 1, "bool"),
    ("a + None", 5, "NoneType"),
    ("a +", 4, "syntax error"),
    ("a b", 3, "syntax error"),
    ("a ** ", 5, "syntax error"),
    ("  a.real", 3, "attributes"),
    ("\t b * a[0]", 7, "subscripts"),
    ("log(a - a)", 1, "log"),
    ("exp(1000)", 1, "exp(1000.0)"),
    ("b * exp(exp(exp(10)))", 9, "exp"),
    ("(a - a) ** -1", 1, "zero"),
    ("1e400 - 1e400", 1, "too large"),
    ("a * 1" + "0" * 400, 5, "too large"),
    ("a ** 1e400", 6, "too large"),
    ("10 ** 400", 1, "overflows"),
    ("(" * (MAX_BRACKETS + 5) + "a" + ")" * (MAX_BRACKETS + 5), MAX_BRACKETS + 1, "nested"),
]


@pytest.mark.parametrize(
    "src, column, words", [pytest.param(s, c, w, id=repr(s)[:40]) for s, c, w in REJECTED]
)
def test_rejections_give_the_column(src, column, words):
    with pytest.raises(ExpressionError) as info:
        parse(src, a=2.0, b=3.0)
    err = info.value
    assert isinstance(err, VizgradError) and isinstance(err, ValueError)
    assert err.column == column, str(err)
    assert words in str(err)
    assert str(err).startswith(f"column {column}: ")


@pytest.mark.parametrize(
    "src, column, values",
    [
        ("αβ + a.x", 6, {"αβ": 1.0}),
        ("變數 * b[0]", 6, {"變數": 1.0}),
        ("é + a.b", 5, {"é": 1.0}),
        ("a + 'é' + b", 5, {}),
        ("'é' + b.c", 1, {}),
        ("𠀀𠀀 + a.b", 6, {"𠀀𠀀": 1.0}),  # each 𠀀 is 4 UTF-8 bytes, one character
        ("é b", 3, {"é": 1.0}),
        ("  αβ + a.x", 8, {"αβ": 1.0}),
    ],
    ids=["greek", "cjk", "latin-accent", "string-after", "string-first", "astral", "syntax",
         "indent"],
)
def test_columns_count_characters_not_bytes(src, column, values):
    with pytest.raises(ExpressionError) as info:
        parse(src, a=2.0, b=3.0, **values)
    err = info.value
    assert err.column == column, str(err)
    lines = str(err).splitlines()
    assert lines[1] == "  " + src  # the source, and the caret under the column
    assert lines[2].index("^") - 2 == column - 1


@pytest.mark.parametrize(
    "src",
    [
        "(" * 10_000 + "a" + ")" * 10_000,
        "(" * 10_000 + "a",
        "(" * 4_999 + "a" + ")" * 4_999,
        "exp(" * 200 + "a" + ")" * 200,
        "-" * 9_000 + "a",
        "+" * 9_000 + "a",
        "a+" * 3_000 + "a",
        "a*" * 4_000 + "a",
        "a**2**" * 1_000 + "2",
        "9**9**9",
        "9**9**9**9**9**9",
        "x" * (MAX_LENGTH + 1),
        "a" + " " * MAX_LENGTH,
    ],
    ids=["10k-parens", "10k-open", "5k-parens", "200-calls", "9k-minus", "9k-plus", "3k-terms",
         "4k-factors", "power-tower", "9**9**9", "9**9**9**9**9**9", "too-long", "padded"],
)
def test_limits_give_a_clear_error_never_recursion(src):
    with pytest.raises(ExpressionError) as info:
        parse(src, a=2.0)
    assert not isinstance(info.value.__cause__, RecursionError)
    message = str(info.value)
    assert any(w in message for w in ("limit", "nested", "exponent", "deep")), message


def test_a_long_flat_sum_within_the_limits_works():
    root = parse(" + ".join(["a"] * 200), a=1.5)
    root.backward()
    assert root.data == 300.0 and root.parents[1].grad == 200.0


@pytest.mark.parametrize("bad", [b"a", None, 3, ["a"]], ids=repr)
def test_source_must_be_text(bad):
    with pytest.raises(ExpressionError, match="must be text"):
        parse(bad)


@pytest.mark.parametrize("src", ["", "   ", "\n\t"], ids=repr)
def test_empty_expression(src):
    with pytest.raises(ExpressionError, match="empty"):
        parse(src)


@pytest.mark.parametrize(
    "values, words",
    [({"a": "1"}, "must be a number"), ({"a": None}, "must be a number"),
     ({"a": True}, "must be a number"),
     ({"exp": 1.0}, "cannot be a variable"), ({"a b": 1.0}, "cannot be a variable"),
     ({"1a": 1.0}, "cannot be a variable")],
    ids=["str", "None", "bool", "function-name", "space", "digit-first"],
)
def test_bad_variables(values, words):
    with pytest.raises(ExpressionError, match=words):
        parse("1", **values)


def test_the_expression_is_parsed_never_evaluated(monkeypatch):
    """eval and exec are off; compile may only build an AST (which is what ast.parse does)."""
    calls = []
    real_compile = builtins.compile

    def no_eval(*args, **kwargs):
        raise AssertionError("eval/exec must never run a user expression")

    def ast_only(source, filename, mode, flags=0, *args, **kwargs):
        calls.append(flags)
        if not flags & ast.PyCF_ONLY_AST:
            raise AssertionError("compile() was asked for code, not an AST")
        return real_compile(source, filename, mode, flags, *args, **kwargs)

    monkeypatch.setattr(builtins, "eval", no_eval)
    monkeypatch.setattr(builtins, "exec", no_eval)
    monkeypatch.setattr(builtins, "compile", ast_only)
    q = parse("(a*b)*(a+b) + exp(a) / 2 - relu(b) ** 2", a=-2, b=3)
    assert q.data == pytest.approx(-6 + math.exp(-2) / 2 - 9)
    with pytest.raises(ExpressionError):
        parse("__import__('os').system('true')")
    assert calls and all(f & ast.PyCF_ONLY_AST for f in calls)


def test_side_effects_in_an_expression_do_not_happen(tmp_path, monkeypatch):
    marker = tmp_path / "pwned"
    monkeypatch.chdir(tmp_path)
    attacks = [
        f"__import__('os').system('touch {marker}')",
        f"open('{marker}', 'w')",
        f"exp(a) + __import__('pathlib').Path('{marker}').touch()",
        "(lambda: open('pwned', 'w'))()",
        "[open('pwned', 'w') for _ in 'x']",
    ]
    for src in attacks:
        with pytest.raises(ExpressionError):
            parse(src, a=1.0)
    assert not marker.exists()


def test_error_keeps_reason_and_source():
    with pytest.raises(ExpressionError) as info:
        parse("a + c", a=1)
    err = info.value
    assert err.reason.startswith("unknown name 'c'") and "the variables are: a" in err.reason
    assert err.source == "a + c"
