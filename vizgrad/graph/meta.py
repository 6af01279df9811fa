"""Typed access to the objects of a graph document, and the checks of what collapse adds.

:mod:`vizgrad.graph.validate` reads every field through :class:`Fields`, whose
errors say where the field is. A number must fit a float: JSON has integers
of any size, a float has at most about 1.8e308 (infinity is written as the
string ``"inf"``)::

    >>> Fields({"data": 10 ** 400}, "node 'v0' (nodes[0])").get("data", "number")
    ... # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.GraphFormatError: node 'v0' (nodes[0]): 'data' must be a number that fits
        a float (at most about 1.8e308), got an integer of 401 digits

Graphs of :mod:`vizgrad.graph.collapse` carry more: boxes with their ``members``,
``size`` and parameter grads, edges and contributions with a ``count``, steps
with the step of the source graph they show (``from``), and what was done in
``graph.collapsed``, ``graph.focus`` or ``graph.merged``. The renderers read
all of it, so it is checked as strictly.
"""

from __future__ import annotations

import sys
from typing import Any, Callable

from ..exceptions import GraphFormatError

__all__ = ["LEVELS", "Fields", "check_box", "check_edge_count", "check_folded_contribution",
           "check_graph_meta", "check_step_meta", "fail", "show"]

#: collapse level names and the group depth they mean (:mod:`vizgrad.graph.collapse` draws by them)
LEVELS = {"layer": 1, "neuron": 2}

_NONFINITE = ("nan", "inf", "-inf")
_BIG = int(sys.float_info.max)  # the largest integer a float holds


def fail(where: str, message: str) -> GraphFormatError:
    """The error for ``message`` about the object at ``where``."""
    return GraphFormatError(f"{where}: {message}")


def show(x: Any) -> str:
    """A short ``repr`` of a value in an error message."""
    if isinstance(x, int) and not isinstance(x, bool) and x.bit_length() > 1024:
        return f"an integer of {_digits(x)} digits"
    text = repr(x)
    return text if len(text) <= 40 else text[:37] + "..."


def _digits(x: int) -> str:
    if x.bit_length() > 14_000:  # str() of it is refused past 4,300 digits
        return f"about {int(x.bit_length() * 0.30103):,}"
    return f"{len(str(abs(x))):,}"


def _number(x: Any) -> bool:
    t = type(x)
    if t is float:
        return x - x == 0.0  # finite: a literal beyond a float (1e400) parses as inf
    if t is int:
        return -_BIG <= x <= _BIG
    return t is str and x in _NONFINITE


def _int(x: Any) -> bool:
    return type(x) is int


_KINDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "str": (lambda v: type(v) is str, "a string"),
    "int": (_int, "a whole number"),
    "bool": (lambda v: type(v) is bool, "true or false"),
    "number": (_number, "a number"),
    "number|null": (lambda v: v is None or _number(v), "a number or null"),
    "id|null": (lambda v: v is None or type(v) is str, "a node id or null"),
    "str|null": (lambda v: v is None or type(v) is str, "a string or null"),
    "int|null": (lambda v: v is None or (_int(v) and v >= 0), "a whole number ≥ 0 or null"),
    "list": (lambda v: type(v) is list, "a list"),
    "object": (lambda v: type(v) is dict, "an object"),
}


def _too_big(value: Any) -> str | None:
    """How a number beyond a float is described, or None for anything else."""
    if type(value) is int:
        return f"an integer of {_digits(value)} digits"
    if type(value) is float:  # inf or nan from a literal: 1e400, Infinity, NaN
        return f"{value!r} (write infinity and nan as the strings \"inf\", \"-inf\", \"nan\")"
    return None


class Fields:
    """Typed access to one JSON object, with errors that say where it is."""

    def __init__(self, obj: Any, where: str) -> None:
        if type(obj) is not dict:
            raise fail(where, f"must be an object, got {show(obj)}")
        self.obj, self.where = obj, where

    def get(self, key: str, kind: str, required: bool = True, default: Any = None) -> Any:
        """The field ``key``, which must be of ``kind`` (``"int"``, ``"number|null"`` …)."""
        obj = self.obj
        if key not in obj:
            if required:
                raise fail(self.where, f"the field {key!r} is missing")
            return default
        value = obj[key]
        ok, what = _KINDS[kind]
        if not ok(value):
            big = _too_big(value) if kind.startswith("number") else None
            if big is not None:
                raise fail(self.where, f"{key!r} must be a number that fits a float (at most "
                                       f"about 1.8e308), got {big}")
            raise fail(self.where, f"{key!r} must be {what}, got {show(value)}")
        return value

    def count(self, key: str, least: int = 0, required: bool = False) -> Any:
        """A whole number ≥ ``least`` (absent: None, unless ``required``)."""
        value = self.get(key, "int", required=required)
        if value is not None and value < least:
            raise fail(self.where, f"{key!r} must be a whole number ≥ {least}, got {value}")
        return value

    def strings(self, key: str) -> None:
        """An optional list of strings."""
        items = self.get(key, "list", required=False, default=())
        for j, item in enumerate(items):
            if type(item) is not str:
                raise fail(self.where, f"{key}[{j}] must be a string, got {show(item)}")

    def rows(self, key: str, width: int) -> None:
        """An optional list of ``[name, number|null, …]`` rows of ``width`` items."""
        items = self.get(key, "list", required=False, default=())
        for j, row in enumerate(items):
            where = f"{self.where}.{key}[{j}]"
            if type(row) is not list or len(row) != width or type(row[0]) is not str:
                raise fail(where, f"must be [name{', number' * (width - 1)}], got {show(row)}")
            for x in row[1:]:
                if not (x is None or _number(x)):
                    raise fail(where, f"must hold numbers that fit a float, got {show(x)}")


def _real(x: Any) -> bool:
    """A number as the folded captions add them: an int or a float, not a string or bool."""
    return type(x) in (int, float)


def _terms(items: Any, where: str) -> None:
    """``[[sample or name, amount], …]``: the ``+=`` terms of a folded grad, one per sample
    (a whole number) or per use outside the samples (a name)."""
    if type(items) is not list:
        raise fail(where, f"must be a list of [sample, number] terms, got {show(items)}")
    for j, term in enumerate(items):
        if (type(term) is not list or len(term) != 2 or not (_int(term[0]) or type(term[0]) is str)
                or not _real(term[1])):
            raise fail(f"{where}[{j}]", f"must be [sample or name, number], got {show(term)}")


def _numbers(f: Fields, key: str, null: bool = False) -> None:
    """An optional list of numbers (or null, where ``null``)."""
    for j, x in enumerate(f.get(key, "list", required=False, default=())):
        if not ((null and x is None) or _real(x) or (null and _number(x))):
            raise fail(f"{f.where}.{key}[{j}]",
                       f"must be a number that fits a float, got {show(x)}")


def check_folded_contribution(c: Fields) -> None:
    """What a folded step adds to a contribution: the selected sample's ``cells`` (one grad
    per output shown), the samples reached (``others``), how many contributions it stands for
    (``all``), its ``terms`` per sample, what the box's parameters received (``params``: their
    ``count``, ``amount`` and ``terms``, one per parameter) and a layer's ``rule`` (the cell
    it states)."""
    _numbers(c, "cells")
    _numbers(c, "grads", null=True)  # a batch's inputs: each one's grad after the step
    if "row" in c.obj:  # … and what the marked sample's row received: [w_ij, g_i, w_ij · g_i]
        row = Fields(c.obj["row"], f"{c.where}.row")
        row.count("sample", required=True)
        _numbers(row, "after", null=True)
        for j, ts in enumerate(row.get("terms", "list")):
            _rule_terms(ts, f"{row.where}.terms[{j}]")
    for j, x in enumerate(c.get("others", "list", required=False, default=())):
        if not (_int(x) and x >= 0):
            raise fail(f"{c.where}.others[{j}]", f"must be a sample number ≥ 0, got {show(x)}")
    if "all" in c.obj:
        c.count("all")
    if "terms" in c.obj:
        _terms(c.obj["terms"], f"{c.where}.terms")
    if "params" in c.obj:  # what the box's parameters received, apart from its outputs
        got = Fields(c.obj["params"], f"{c.where}.params")
        got.count("count", required=True)
        got.get("amount", "number")
        _terms(got.get("terms", "list"), f"{got.where}.terms")
    if "rule" in c.obj:
        rule = Fields(c.obj["rule"], f"{c.where}.rule")
        rule.count("cell", required=True)
        _rule_terms(rule.get("terms", "list"), f"{rule.where}.terms")


def _rule_terms(items: Any, where: str) -> None:
    """``[[w_ij, g_i, w_ij · g_i], …]``: the terms of a vector rule (a factor may be null)."""
    if type(items) is not list:
        raise fail(where, f"must be a list of [w_ij, g_i, w_ij · g_i] terms, got {show(items)}")
    for j, row in enumerate(items):
        if (type(row) is not list or len(row) != 3 or not _real(row[2])
                or not all(x is None or _real(x) for x in row[:2])):
            raise fail(f"{where}[{j}]",
                       f"must be [number or null, number or null, number], got {show(row)}")


def check_box(f: Fields) -> None:
    """What a box of a collapsed or focused graph shows: its members, size and grads."""
    obj = f.obj
    if "members" in obj:
        f.strings("members")
    if "size" in obj:
        f.count("size")
    if "hidden" in obj:
        f.count("hidden")
    if "outputs" in obj:
        f.rows("outputs", 3)
    if "inputs" in obj:
        f.rows("inputs", 2)
    if "params" in obj:
        f.rows("params", 2)
    if "param_data" in obj:  # each parameter's data, beside its grad
        f.rows("param_data", 2)
    if "cells" in obj:
        f.rows("cells", 3)
    if "grid" in obj:  # a batch's inputs: [name, data, grad] of each
        f.rows("grid", 3)
    shape = f.get("shape", "list", required=False, default=[1, 1])
    if len(shape) != 2 or not all(_int(x) and x >= 0 for x in shape):
        raise fail(f"{f.where}.shape", f"must be [samples, features], got {show(shape)}")
    if "all" in obj:  # an output's data summed over the samples (``by_sample``: each one's)
        f.get("all", "number|null")
    _numbers(f, "by_sample", null=True)
    if "adds" in obj:
        f.count("adds")
    for j, row in enumerate(f.get("terms", "list", required=False, default=())):
        where = f"{f.where}.terms[{j}]"
        if (type(row) is not list or len(row) != 3 or type(row[0]) is not str
                or not (row[1] is None or _number(row[1]))):
            raise fail(where, f"must be [name, grad, terms], got {show(row)}")
        _terms(row[2], f"{where}[2]")


def check_edge_count(f: Fields) -> None:
    """How many original edges or contributions one of a collapsed graph stands for."""
    f.count("count", 1)


def check_step_meta(f: Fields, last: int) -> int:
    """A step's ``from`` (the source step it shows, a whole number; a folded view's steps
    follow its own topological order, so ``from`` may go back) and ``member(s)``; returns
    its ``from``."""
    obj = f.obj
    origin = f.count("from")
    if origin is None:
        origin = obj["index"]
    if "member" in obj:
        f.get("member", "str")
    if "members" in obj:
        f.strings("members")
    return int(origin)


def check_graph_meta(graph: Fields) -> None:
    """What ``collapsed``, ``focus`` and ``merged`` say about the graph."""
    levels = (*LEVELS, "order")
    for what in ("collapsed", "focus", "merged"):
        if what not in graph.obj:
            continue
        info = Fields(graph.get(what, "object"), f"graph.{what}")
        if what != "focus":
            level = info.get("level", "str", required=False) if type(
                info.obj.get("level")) is str else info.count("level", 1, required=True)
            if type(level) is str and level not in levels:
                raise fail(info.where, f"'level' must be one of {', '.join(levels)} or a "
                                       f"group depth ≥ 1, got {show(level)}")
        if what == "collapsed":
            info.count("nodes", required=True)
            info.count("boxes", required=True)
            info.count("runs", 1)
            info.get("auto", "bool", required=False)
            mode = info.get("steps", "str", required=False, default="merge")
            if mode not in ("merge", "inside"):
                raise fail(info.where, f"'steps' must be 'merge' or 'inside', got {show(mode)}")
        elif what == "focus":
            info.get("node", "str")
            info.count("radius", required=True)
            hidden = info.count("hidden", required=True)
            nodes = info.count("nodes", required=True)
            info.count("boxes")
            if hidden > nodes:
                raise fail(info.where, f"'hidden' ({hidden}) cannot exceed 'nodes' ({nodes})")
        else:
            info.count("nodes")
            info.count("boxes")
