"""Build a Value graph from a user's expression, safely: parsed, never evaluated.

    >>> q = parse("(a*b)*(a+b)", a=-2, b=3)
    >>> q.data
    -6.0
    >>> parse("a.real", a=1)  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.ExpressionError: column 1: attributes are not allowed; use only numbers,
        variables, + - * / ** and exp log tanh relu
      a.real
      ^

Accepted: numbers, the given variables, ``+ - * / **`` (with a constant
exponent), unary minus and one-argument calls to ``exp log tanh relu``.
Names may be in any script (``αβ``, ``變數``), but letters that Python would
silently read as others (a full-width ``ａ`` or a bold ``𝐚`` as ``a``) are
refused. A long flat sum is limited only by the number of parts.
"""

from __future__ import annotations

import ast
import io
import math
import threading
import tokenize
import unicodedata
from numbers import Real
from typing import Callable, Iterable

from .value import Value, _Const
from .labels import MAX_LABEL
from ..exceptions import ExpressionError, VizgradError

__all__ = ["parse", "syntax_tree", "name_output", "OUTPUT_NAMES", "FUNCTIONS", "MAX_LENGTH",
           "MAX_DEPTH", "MAX_BRACKETS", "MAX_NODES"]

MAX_LENGTH = 10_000
MAX_DEPTH = 250
MAX_BRACKETS = 100
MAX_NODES = 5_000
#: what an expression's output is called: the first that is not a variable's name
OUTPUT_NAMES = ("f", "out", "result", "f_")

FUNCTIONS: dict[str, Callable[[Value], Value]] = {
    "exp": Value.exp,
    "log": Value.log,
    "tanh": Value.tanh,
    "relu": Value.relu,
}
_BINARY: dict[type, Callable[[Value, Value], Value]] = {
    ast.Add: Value.__add__,
    ast.Sub: Value.__sub__,
    ast.Mult: Value.__mul__,
    ast.Div: Value.__truediv__,
}
#: one ``ast.parse`` at a time: CPython 3.11 keeps the AST constructor's recursion depth per
#: interpreter, so two threads building trees at once can fail with "SystemError: AST
#: constructor recursion depth mismatch"
_PARSE_LOCK = threading.Lock()
_python_parse = ast.parse  # looked up at each call, so a test can make it fail
_HELP = "use only numbers, variables, + - * / ** and exp log tanh relu"
_FORBIDDEN = {
    ast.Attribute: "attributes",
    ast.Subscript: "subscripts",
    ast.Lambda: "lambdas",
    ast.Compare: "comparisons",
    ast.BoolOp: "boolean operators",
    ast.IfExp: "conditional expressions",
    ast.List: "lists",
    ast.Tuple: "tuples",
    ast.Dict: "dicts",
    ast.Set: "sets",
    ast.JoinedStr: "f-strings",
    ast.NamedExpr: "assignments",
    ast.Starred: "starred arguments",
    ast.ListComp: "comprehensions",
    ast.GeneratorExp: "comprehensions",
    ast.Await: "await",
}


class _Builder:
    def __init__(self, source: str, variables: dict[str, Value], text: str, indent: int) -> None:
        self.source = source
        self.lines = text.splitlines() or [""]  # what ast parsed: source.strip()
        self.indent = indent  # columns lost on the first line by stripping
        self.variables = variables
        self.used: set[str] = set()

    def column(self, node: ast.AST) -> int:
        """1-based character column (ast gives UTF-8 byte offsets)."""
        line = self.lines[getattr(node, "lineno", 1) - 1]
        offset = getattr(node, "col_offset", 0)
        shift = self.indent if getattr(node, "lineno", 1) == 1 else 0
        return len(line.encode("utf-8")[:offset].decode("utf-8", "replace")) + 1 + shift

    def fail(self, node: ast.AST, message: str) -> ExpressionError:
        return ExpressionError(message, self.column(node), self.source)

    def build(self, node: ast.AST) -> Value:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
                kind = ("strings" if isinstance(node.value, str)
                        else f"{type(node.value).__name__} constants")
                raise self.fail(node, f"{kind} are not allowed; {_HELP}")
            return _Const(self.number(node, node.value))
        if isinstance(node, ast.Name):
            if node.id not in self.variables:
                known = ", ".join(sorted(self.variables)) or "none"
                hint = " (a function needs parentheses)" if node.id in FUNCTIONS else ""
                raise self.fail(node, f"unknown name {node.id!r}{hint}; the variables are: {known}")
            self.used.add(node.id)
            return self.variables[node.id]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            operand = self.build(node.operand)
            return self.apply(node, (lambda: -operand) if isinstance(node.op, ast.USub)
                              else (lambda: operand))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            base = self.build(node.left)
            k = self.exponent(node.right)
            return self.apply(node, lambda: base**k)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            return self.chain(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, (ast.BinOp, ast.UnaryOp)):
            return self.reject(node, "this operator")
        return self.reject(node, _FORBIDDEN.get(type(node), type(node).__name__))

    def chain(self, node: ast.BinOp) -> Value:
        """``a + b + c + …`` parses as a left spine as long as the sum: build it in a loop."""
        spine = [node]
        while isinstance(spine[-1].left, ast.BinOp) and type(spine[-1].left.op) in _BINARY:
            spine.append(spine[-1].left)  # type: ignore[arg-type]
        value = self.build(spine[-1].left)
        for op_node in reversed(spine):
            left, right = value, self.build(op_node.right)
            fn = _BINARY[type(op_node.op)]
            value = self.apply(op_node, lambda: fn(left, right))
        return value

    def reject(self, node: ast.AST, what: str) -> Value:
        raise self.fail(node, f"{what} {'is' if what == 'this operator' else 'are'} not allowed; "
                              f"{_HELP}")

    def number(self, node: ast.AST, value: float) -> float:
        """A literal as a finite float (1e400 and 10**400-digit ints are refused)."""
        try:
            x = float(value)
        except OverflowError:
            x = math.inf
        if not math.isfinite(x):
            raise self.fail(node, "this number is too large for a float "
                                  "(the largest is about 1.8e308)")
        return x

    def exponent(self, node: ast.AST) -> float:
        sign, inner = 1.0, node
        while isinstance(inner, ast.UnaryOp) and isinstance(inner.op, (ast.USub, ast.UAdd)):
            sign = -sign if isinstance(inner.op, ast.USub) else sign
            inner = inner.operand
        if (isinstance(inner, ast.Constant) and isinstance(inner.value, (int, float))
                and not isinstance(inner.value, bool)):
            return sign * self.number(inner, inner.value)
        raise self.fail(node, "the exponent of ** must be a number, such as x**2 or x**-1; "
                              "write exp(y*log(x)) for a variable exponent")

    def call(self, node: ast.Call) -> Value:
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
            what = node.func.id if isinstance(node.func, ast.Name) else ast.unparse(node.func)
            raise self.fail(node,
                            f"unknown function {what!r}; the functions are exp, log, tanh, relu")
        if node.keywords:
            raise self.fail(node.keywords[0], "keyword arguments are not allowed")
        if len(node.args) != 1:
            raise self.fail(node,
                            f"{node.func.id}() takes exactly one argument, got {len(node.args)}")
        arg = self.build(node.args[0])
        fn = FUNCTIONS[node.func.id]
        return self.apply(node, lambda: fn(arg))

    def apply(self, node: ast.AST, compute: Callable[[], Value]) -> Value:
        try:
            return compute()
        except VizgradError as err:  # the expression is fine, the values are not
            raise ExpressionError(str(err), self.column(node), self.source, values=True) from None


def _tokens(text: str) -> int:
    """How many tokens ``text`` has (names, numbers, operators), counted without recursion."""
    try:
        return sum(1 for t in tokenize.generate_tokens(io.StringIO(text).readline)
                   if t.type in (tokenize.NAME, tokenize.NUMBER, tokenize.OP))
    except (tokenize.TokenError, SyntaxError):
        return 0


def _check_depth(source: str) -> None:
    depth = 0
    for i, ch in enumerate(source):
        if ch in "([{":
            depth += 1
            if depth > MAX_BRACKETS:
                raise ExpressionError(
                    f"brackets are nested more than {MAX_BRACKETS} deep; simplify the expression",
                    i + 1, source)
        elif ch in ")]}":
            depth -= 1


def _depth(tree: ast.AST) -> int:
    """How deep the expression nests; a chain ``a + b + c`` is flat, however long."""
    best, stack = 0, [(tree, 1)]
    while stack:
        node, d = stack.pop()
        best = max(best, d)
        for child in ast.iter_child_nodes(node):
            flat = (isinstance(node, ast.BinOp) and child is node.left
                    and isinstance(child, ast.BinOp) and type(child.op) in _BINARY
                    and type(node.op) in _BINARY)
            stack.append((child, d if flat else d + 1))
    return best


def _check_letters(source: str) -> None:
    """Refuse letters that Python would silently read as others (``ａ`` and ``𝐚`` as ``a``)."""
    for i, ch in enumerate(source):
        if ch.isascii():
            continue
        plain = unicodedata.normalize("NFKC", ch)
        if ("a" + ch).isidentifier() and plain != ch:
            raise ExpressionError(
                f"{ch!r} would be read as {plain!r} (Python normalises names): write "
                f"{plain!r} itself", i + 1, source)
        hint = _LOOKALIKES.get(ch)
        if hint:
            raise ExpressionError(f"{ch!r} is not an operator; write {hint}", i + 1, source)


_LOOKALIKES = {"−": "-", "×": "*", "·": "*", "÷": "/", "²": "**2"}


def syntax_tree(text: str) -> ast.Expression:
    """``ast.parse(text, mode="eval")``, one thread at a time (see ``_PARSE_LOCK``).

    >>> type(syntax_tree("a + 1").body).__name__
    'BinOp'
    """
    with _PARSE_LOCK:
        return _python_parse(text, mode="eval")


def parse(source: str, /, **values: float) -> Value:
    """Build the Value graph of ``source`` with the given variable values.

    Variables become leaves labelled by their names; a variable used twice is
    one shared node. Raises :class:`~vizgrad.exceptions.ExpressionError`
    (with ``.column``) for anything outside the small accepted language.

    >>> b = parse("a + a", a=3)
    >>> b.parents[0].label, b.parents[0] is b.parents[1]
    ('a', True)
    """
    if not isinstance(source, str):
        raise ExpressionError(f"the expression must be text, got {type(source).__name__}")
    if len(source) > MAX_LENGTH:
        raise ExpressionError(
            f"the expression has {len(source)} characters; the limit is {MAX_LENGTH}")
    if not source.strip():
        raise ExpressionError("the expression is empty; try something like (a*b)*(a+b)")
    variables: dict[str, Value] = {}
    for key, val in values.items():
        if (not key.isidentifier() or key in FUNCTIONS
                or unicodedata.normalize("NFKC", key) != key):
            raise ExpressionError(
                f"{key[:40]!r} cannot be a variable name; use a plain name such as a or x1")
        if len(key) > MAX_LABEL:  # a label is at most this long (vizgrad.core.labels)
            raise ExpressionError(f"the variable name {key[:20]}… has {len(key)} characters; "
                                  f"a name has at most {MAX_LABEL}", values=True)
        if isinstance(val, bool) or not isinstance(val, Real):
            raise ExpressionError(f"variable {key!r} must be a number, got {val!r}")
        variables[key] = Value(float(val), label=key)
    _check_letters(source)
    _check_depth(source)
    text = source.strip()
    lead = source[: len(source) - len(source.lstrip())]
    indent = len(lead) - (lead.rfind("\n") + 1)
    try:
        tree = syntax_tree(text)
    except SyntaxError as err:
        col = err.offset or None
        if col is None and "\n" not in text:
            col = len(text) + 1  # it ended too early: point after the end
        if col is not None and (err.lineno or 1) == 1:
            col += indent
        raise ExpressionError(f"syntax error: {err.msg}", col, source) from None
    except SystemError as err:  # a defect of the parser, not of the expression
        raise ExpressionError(f"Python's parser failed on this expression ({err}); "
                              "send it again, or simplify it", 1, source) from None
    except (MemoryError, RecursionError, ValueError):
        parts = 2 * _tokens(text)  # Python builds its syntax tree recursively: a long sum fails
        if parts > MAX_NODES:
            raise ExpressionError(f"the expression has more than {MAX_NODES} parts; "
                                  f"the limit is {MAX_NODES}") from None
        raise ExpressionError(
            "the expression is too deeply nested or malformed; simplify it") from None
    count = sum(1 for _ in ast.walk(tree))
    if count > MAX_NODES:
        raise ExpressionError(f"the expression has {count} parts; the limit is {MAX_NODES}")
    if _depth(tree) > MAX_DEPTH:
        raise ExpressionError(f"the expression is nested more than {MAX_DEPTH} deep; simplify it")
    builder = _Builder(source, variables, text, indent)
    root = builder.build(tree.body)
    return root


def name_output(root: Value, variables: Iterable[str] = ()) -> Value:
    """Call an expression's output ``f`` (``out``, ``result`` or ``f_`` if a variable
    has that name), unless it is a variable itself; intermediates keep their ids.

    The command line and the lab both name it so:

    >>> name_output(parse("(a*b)*(a+b)", a=-2, b=3)).label
    'f'
    >>> name_output(parse("f*2", f=1), ["f"]).label, name_output(parse("a", a=1), ["a"]).label
    ('out', 'a')
    """
    if not root.label:
        taken = set(variables)
        root.label = next(n for n in OUTPUT_NAMES if n not in taken)
    return root
