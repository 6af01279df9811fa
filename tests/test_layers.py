"""Layers import one way, as the map in ``vizgrad/_layers.py`` lists them.

Every module of the package is in the layer of its folder (or, at the root, of its own
row). Parsing each module's source (not importing it), every import counts: at the top,
inside a function, under ``if TYPE_CHECKING:``, and ``importlib.import_module`` with a
literal name. A module may import from its own layer or a lower one, never a higher one,
and no imports, the type-checking ones included, form a cycle.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "vizgrad"

from vizgrad._layers import LAYERS, layer_of, rank  # noqa: E402  (the map under test)

#: modules that import by a computed name, and where the names they may import are written
DYNAMIC = {
    "vizgrad": "its _LAZY table of lazy exports",
    "vizgrad.cli.commands": "module names written as strings (LAZY_COMMANDS)",
}



@dataclass(frozen=True)
class Edge:
    """``source`` imports ``target`` at ``line``; ``typing`` when only under TYPE_CHECKING."""

    source: str
    target: str
    line: int
    typing: bool = False


def package_modules(root: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package, by dotted name."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


class _Imports(ast.NodeVisitor):
    """The imports of one module, as (dotted name, imported names, line, under TYPE_CHECKING)."""

    def __init__(self, module: str, is_package: bool) -> None:
        self.package = module if is_package else module.rpartition(".")[0]
        self.found: list[tuple[str, tuple[str, ...], int, bool]] = []
        self.dynamic: list[int] = []  # lines of import_module calls with a computed name
        self.strings: set[str] = set()
        self._typing = 0

    def _absolute(self, name: str, level: int) -> str:
        if not level:
            return name
        base = self.package.split(".")[: len(self.package.split(".")) - level + 1]
        return ".".join(base + ([name] if name else []))

    def visit_If(self, node: ast.If) -> None:
        if _is_type_checking(node.test):
            self._typing += 1
            for child in node.body:
                self.visit(child)
            self._typing -= 1
            for child in node.orelse:
                self.visit(child)
        else:
            self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.found.append((alias.name, (), node.lineno, self._typing > 0))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        names = tuple(a.name for a in node.names)
        self.found.append((self._absolute(node.module or "", node.level), names, node.lineno,
                           self._typing > 0))

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if called in ("import_module", "__import__") and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                name = arg.value.lstrip(".")
                level = len(arg.value) - len(name)
                self.found.append((self._absolute(name, level), (), node.lineno,
                                   self._typing > 0))
            else:
                self.dynamic.append(node.lineno)
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            self.strings.add(node.value)


def scan(module: str, source: str, is_package: bool = False) -> _Imports:
    """Parse ``source`` (the module ``module``) and collect its imports."""
    found = _Imports(module, is_package)
    found.visit(ast.parse(source))
    return found


def facade_names(modules: dict[str, Path]) -> dict[str, str]:
    """What each name of ``vizgrad/__init__.py`` comes from: its eager imports and _LAZY."""
    tree = ast.parse(modules["vizgrad"].read_text(encoding="utf-8"))
    names: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            for a in node.names:
                names[a.asname or a.name] = "vizgrad." + (node.module or a.name)
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "_LAZY":
            for name, where in ast.literal_eval(node.value).items():
                names[name] = f"vizgrad.{where or name}"
    return names


def edges(modules: dict[str, Path] | None = None) -> list[Edge]:
    """Every import of one package module by another (external imports left out)."""
    modules = package_modules() if modules is None else modules
    facade = facade_names(modules)
    out = []
    for module, path in modules.items():
        found = scan(module, path.read_text(encoding="utf-8"), path.name == "__init__.py")
        for target, names, line, typing in found.found:
            if target.split(".")[0] != "vizgrad":
                continue
            targets = [target] if not names else [
                f"{target}.{n}" if f"{target}.{n}" in modules  # from . import examples
                else facade.get(n, target) if target == "vizgrad"  # from . import __version__
                else target for n in names]
            out += [Edge(module, t, line, typing) for t in targets if t != module]
        if found.dynamic:  # the names a computed import may take are written down
            lazy = (set(facade.values()) if module == "vizgrad"  # "vizgrad" alone is its name
                    else found.strings & set(modules) - {"vizgrad"})
            out += [Edge(module, t, found.dynamic[0]) for t in sorted(lazy) if t != module]
    return out


def cycles(pairs: set[tuple[str, str]]) -> list[list[str]]:
    """The import cycles among ``pairs`` (source, target): one path per cycle found."""
    graph: dict[str, set[str]] = {}
    for a, b in pairs:
        graph.setdefault(a, set()).add(b)
    found, done = [], set()

    def visit(node: str, path: list[str]) -> None:
        if node in path:
            found.append(path[path.index(node):] + [node])
            return
        if node in done:
            return
        for nxt in sorted(graph.get(node, ())):
            visit(nxt, path + [node])
        done.add(node)

    for start in sorted(graph):
        visit(start, [])
    return found


def upward(all_edges: list[Edge]) -> list[str]:
    """The imports of a higher layer, written as ``module:line -> target``."""
    return [f"{e.source}:{e.line} ({layer_of(e.source)}) -> {e.target} ({layer_of(e.target)})"
            for e in all_edges
            if rank(layer_of(e.target)) > rank(layer_of(e.source))]


def runtime_pairs(all_edges: list[Edge]) -> set[tuple[str, str]]:
    """The imports that run (not under TYPE_CHECKING)."""
    return {(e.source, e.target) for e in all_edges if not e.typing}


# -- the package ----------------------------------------------------------------------------


def test_every_module_is_in_a_layer_and_every_row_names_something():
    modules = package_modules()
    for module in modules:
        layer_of(module)  # raises KeyError for a module in no layer
    listed = [m for _, members, _ in LAYERS for m in members]
    assert len(listed) == len(set(listed)), "a member is in two layers"
    gone = [m for m in listed if not any(
        x == ("vizgrad." + m).rstrip(".") or x.startswith(f"vizgrad.{m}.") for x in modules)]
    assert gone == [], "these rows name nothing"


def test_the_root_holds_only_the_front_door():
    """The package root: the facade, base modules and options; every other module is in a
    folder of its layer (issue 30, item 1)."""
    root = sorted(p.stem for p in PACKAGE.glob("*.py"))
    rows = {m or "__init__" for _, members, _ in LAYERS for m in members}
    assert set(root) <= rows
    assert len(root) <= 16


def test_no_module_imports_from_a_higher_layer():
    assert upward(edges()) == []


def test_no_imports_form_a_cycle_not_even_type_checking_ones():
    assert cycles({(e.source, e.target) for e in edges()}) == []


def test_a_planted_function_local_import_of_the_lab_in_core_fails(tmp_path):
    """The counter-test: the checks above do fail on an upward import inside a function."""
    import shutil
    pkg = tmp_path / "vizgrad"
    shutil.copytree(PACKAGE, pkg, ignore=shutil.ignore_patterns("__pycache__", "static",
                                                                "assets", "locales"))
    value = pkg / "core" / "value.py"
    value.write_text(value.read_text(encoding="utf-8")
                     + "\n\ndef _planted():\n    from vizgrad.lab import app\n    return app\n",
                     encoding="utf-8")
    found = upward(edges(package_modules(pkg)))
    assert len(found) == 1 and found[0].startswith("vizgrad.core.value:")
    assert found[0].endswith("-> vizgrad.lab.app (lab)")


def test_only_the_listed_modules_import_by_a_computed_name():
    modules = package_modules()
    computed = {m for m, p in modules.items()
                if scan(m, p.read_text(encoding="utf-8"), p.name == "__init__.py").dynamic}
    assert computed == set(DYNAMIC)


def test_the_lowest_layers_import_only_the_standard_library_and_themselves():
    modules = package_modules()
    bad = []
    for module in (m for m in modules if layer_of(m) in ("base", "runtime", "core")):
        path = modules[module]
        for target, _, line, _ in scan(module, path.read_text(encoding="utf-8"),
                                       path.name == "__init__.py").found:
            top = target.split(".")[0]
            if top not in sys.stdlib_module_names and top != "vizgrad":
                bad.append(f"{module}:{line} imports {target}")
    assert bad == []


# -- the checker itself ---------------------------------------------------------------------

LOCAL = '''
def f():
    from ..embed.notebook import value_bundle
    import importlib
    return importlib.import_module("vizgrad.player.page"), importlib.import_module(name)
'''


def test_the_checker_sees_local_imports_and_literal_import_module_calls():
    found = scan("vizgrad.scene.looks", LOCAL)
    assert [(t, n) for t, n, _, _ in found.found] == [
        ("vizgrad.embed.notebook", ("value_bundle",)), ("importlib", ()),
        ("vizgrad.player.page", ())]
    assert found.dynamic == [5]


def test_the_checker_marks_type_checking_imports_and_resolves_packages():
    source = "if TYPE_CHECKING:\n    from .app import App\nfrom . import _hosts\n"
    found = scan("vizgrad.lab", source, is_package=True)
    assert [(t, typing) for t, _, _, typing in found.found] == [("vizgrad.lab.app", True),
                                                                 ("vizgrad.lab", False)]


def test_the_checker_reports_an_upward_import_and_a_cycle():
    assert upward([Edge("vizgrad.core.value", "vizgrad.embed.notebook", 142)]) == [
        "vizgrad.core.value:142 (core) -> vizgrad.embed.notebook (embed)"]
    assert cycles({("a", "b"), ("b", "c"), ("c", "a")}) == [["a", "b", "c", "a"]]
    assert cycles({("a", "b"), ("b", "c"), ("a", "c")}) == []


def test_a_name_imported_from_the_package_counts_as_its_module(tmp_path):
    pkg = tmp_path / "vizgrad"
    (pkg / "render").mkdir(parents=True)
    (pkg / "__init__.py").write_text('from ._version import __version__\n'
                                     '_LAZY = {"draw": "render.svg", "examples": None}\n')
    for name in ("_version", "examples", "render/__init__", "render/svg"):
        (pkg / f"{name}.py").write_text("")
    (pkg / "engine.py").write_text("from . import __version__, draw, examples\n")
    found = {e.target for e in edges(package_modules(pkg)) if e.source == "vizgrad.engine"}
    assert found == {"vizgrad._version", "vizgrad.render.svg", "vizgrad.examples"}


@pytest.mark.parametrize("module", ["vizgrad.core.value", "vizgrad.tracing.recorder"])
def test_value_and_trace_reach_the_notebook_through_no_import(module):
    """The display is registered by vizgrad.embed.notebook in vizgrad.core.display."""
    assert not [e for e in edges() if e.source == module and e.target == "vizgrad.embed.notebook"]
