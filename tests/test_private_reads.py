"""No module reaches into another module's private attributes, least of all a Scene's.

Parsing each module's source (not importing it): a read ``x._name`` (or
``getattr(x, "_name")``, ``hasattr(x, "_name")``) of an object other than ``self`` or
``cls`` counts when

- ``x`` is a scene (``scene._lines``, ``self.scene._box_texts``), anywhere but in
  ``render/scene/model.py``, which defines the :class:`~vizgrad.scene.scene.Scene`;
- or ``_name`` is a private attribute or method that a vizgrad class defines in another
  module (``self._name = ...`` or ``def _name`` in a class body), apart from the few
  listed in :data:`ALLOWED` with their reason.

Private attributes of other packages' objects (``os._exit``, matplotlib's font lookup)
are not vizgrad's to change and are not counted.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "vizgrad"
SCENE_MODULE = "vizgrad.scene.scene"

#: (reading module, attribute): why the read is allowed
ALLOWED = {
    **{(m, a): "micrograd's Value protocol (_prev, _op, _backward), which vizgrad's Value "
               "mirrors so that either engine can be traced"
       for m in ("vizgrad.tracing.walk", "vizgrad.cli.model_nets", "vizgrad.tracing.records",
                 "vizgrad.tracing.backward", "vizgrad.graph.convert", "vizgrad.tracing.recorder")
       for a in ("_prev", "_op", "_backward", "_local")},
    **{(m, "_lazy_steps"): "the Trace's lazily built steps (trace layer, not a scene)"
       for m in ("vizgrad.graph.convert", "vizgrad.graph.lite")},
    ("vizgrad.graph.convert", "_graph_rows"): "the Trace's rows for the graph (trace layer, "
    "not a scene)",
}


def _modules(root: Path = PACKAGE) -> dict[str, ast.Module]:
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return out


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _own(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def defined(tree: ast.Module) -> set[str]:
    """The private attributes and methods the classes of one module define."""
    out: set[str] = set()
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        for node in ast.walk(cls):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _private(node.name):
                out.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                    and _own(node.value) and _private(node.attr):
                out.add(node.attr)
    return out


def reads(tree: ast.Module) -> list[tuple[int, str, str]]:
    """Every private attribute read of an object other than self or cls:
    (line, the object's source text, the attribute)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr) and not _own(node.value):
            out.append((node.lineno, ast.unparse(node.value), node.attr))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2
              and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
              and _private(node.args[1].value) and not _own(node.args[0])):
            out.append((node.lineno, ast.unparse(node.args[0]), node.args[1].value))
    return sorted(out)


def _is_scene(source: str) -> bool:
    return source.split(".")[-1].lower() in ("scene", "sc")


def violations(modules: dict[str, ast.Module]) -> list[str]:
    owners: dict[str, set[str]] = {}
    for name, tree in modules.items():
        for attr in defined(tree):
            owners.setdefault(attr, set()).add(name)
    out = []
    for name, tree in modules.items():
        for line, obj, attr in reads(tree):
            if _is_scene(obj) and name != SCENE_MODULE:
                out.append(f"{name}:{line} reads {obj}.{attr}, a private part of a Scene")
                continue
            where = owners.get(attr, set())
            if where and name not in where and (name, attr) not in ALLOWED:
                out.append(f"{name}:{line} reads {obj}.{attr}, private to "
                           f"{', '.join(sorted(where))}")
    return out


def test_no_module_reads_a_private_attribute_of_another_modules_objects():
    found = violations(_modules())
    assert not found, "\n".join(found)


def test_the_check_finds_a_writer_reading_a_scene_or_another_modules_private_parts():
    scene_module = ast.parse("class Scene:\n    def __init__(self):\n        self._notes = []\n"
                             "    def _box_texts(self, n):\n        return n\n")
    writer = ast.parse("def page(scene, d):\n    a = scene._lines\n"
                       "    b = getattr(d.scene, '_notes', ())\n    return d._box_texts(1)\n")
    found = violations({SCENE_MODULE: scene_module, "vizgrad.write.slides": writer})
    assert found == [
        "vizgrad.write.slides:2 reads scene._lines, a private part of a Scene",
        "vizgrad.write.slides:3 reads d.scene._notes, a private part of a Scene",
        "vizgrad.write.slides:4 reads d._box_texts, private to vizgrad.scene.scene",
    ]


def test_the_allowed_reads_are_still_there():
    """An entry of ALLOWED that no module needs any more goes: the list only shrinks."""
    modules = _modules()
    used = {(name, attr) for name, tree in modules.items() for _, _, attr in reads(tree)}
    assert not set(ALLOWED) - used - {(m, a) for m, a in ALLOWED if a in
                                       ("_prev", "_op", "_backward", "_local")}
