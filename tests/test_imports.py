"""What importing vizgrad loads, checked in a fresh interpreter (as click's test_imports)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import vizgrad

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import json, sys
before = set(sys.modules)
{statement}
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def newly_loaded(statement: str) -> list[str]:
    """Modules that ``statement`` adds to ``sys.modules`` in a fresh interpreter."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(statement=statement)],
        capture_output=True, text=True, env=env, cwd=ROOT, check=True, timeout=60,
    )
    return json.loads(out.stdout)


def third_party(modules: list[str]) -> list[str]:
    allowed = set(sys.stdlib_module_names) | {"vizgrad"}
    return [m for m in modules if m.split(".")[0] not in allowed]


@pytest.mark.parametrize(
    "statement",
    [
        "import vizgrad.core.value",
        "import vizgrad",
        "from vizgrad import Value, VizgradError",
        "import vizgrad.exceptions",
        "import vizgrad.tracing.recorder",
        "import vizgrad.core.expr",
        "import vizgrad.graph.gradcheck",
        "import vizgrad.graph.examples",
        "import vizgrad; vizgrad.trace(vizgrad.Value(1.0) * 2)",
        "import vizgrad; vizgrad.parse('a*b', a=1, b=2).backward()",
        "import vizgrad.embed.notebook, vizgrad.embed.blocks",
        "import vizgrad; x = vizgrad.Value(1.0) * 2; x._repr_mimebundle_(); x.backward()",
    ],
)
def test_core_modules_load_only_the_standard_library(statement):
    loaded = newly_loaded(statement)
    assert any(m.startswith("vizgrad") for m in loaded)
    assert third_party(loaded) == []


def test_the_probe_can_see_a_third_party_import():
    """The check above would fail if a core module imported networkx."""
    loaded = newly_loaded("import vizgrad; vizgrad.to_networkx(vizgrad.Value(1.0) * 2)")
    assert "networkx" in third_party(loaded)


def test_the_probe_does_not_miss_lazy_exports():
    loaded = newly_loaded("import vizgrad.core.value")
    assert "vizgrad.core.value" in loaded
    assert "vizgrad.tracing.recorder" not in loaded and "vizgrad.graph.convert" not in loaded


@pytest.mark.parametrize(
    "name, module",
    [
        ("Value", "vizgrad.core.value"),
        ("VizgradError", "vizgrad.exceptions"),
        ("Trace", "vizgrad.tracing.recorder"),
        ("trace", "vizgrad.tracing.recorder"),
        ("to_networkx", "vizgrad.graph.convert"),
        ("to_json", "vizgrad.graph.convert"),
        ("from_json", "vizgrad.graph.convert"),
        ("parse", "vizgrad.core.expr"),
        ("gradcheck", "vizgrad.graph.gradcheck"),
    ],
)
def test_lazy_exports_resolve_to_the_core_modules(name, module):
    obj = getattr(vizgrad, name)
    assert obj.__module__ == module
    assert name in vizgrad.__all__ and name in dir(vizgrad)


@pytest.mark.parametrize("name", ["examples", "collapse", "nn"])
def test_submodules_load_on_first_use_as_themselves(name):
    """``vizgrad.graph.examples`` is not loaded by ``import vizgrad``; the attribute loads it."""
    probe = (f"import sys, vizgrad; before = 'vizgrad.{name}' in sys.modules; "
             f"m = vizgrad.{name}; print(before, m is sys.modules['vizgrad.{name}'], m.__name__)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True, timeout=60)
    assert out.stdout.split() == ["False", "True", f"vizgrad.{name}"]


def test_unknown_attribute_raises_attribute_error():
    with pytest.raises(AttributeError, match="no_such_thing"):
        vizgrad.no_such_thing  # noqa: B018


@pytest.mark.parametrize(
    "module",
    ["engine", "exceptions", "tracing", "graph", "core.expr", "graph.gradcheck", "examples",
     "collapse", "nn", "options"],
)
def test_core_modules_have_an_explicit_public_surface(module):
    import importlib

    mod = importlib.import_module(f"vizgrad.{module}")
    assert isinstance(mod.__all__, list) and mod.__all__
    for name in mod.__all__:
        assert hasattr(mod, name), f"vizgrad.{module}.__all__ names a missing {name!r}"


def test_every_vizgrad_error_also_is_a_builtin_error():
    from vizgrad import exceptions

    for name in exceptions.__all__:
        cls = getattr(exceptions, name)
        assert issubclass(cls, exceptions.VizgradError)
        if cls is not exceptions.VizgradError:
            builtins = [b for b in cls.__mro__ if b.__module__ == "builtins" and b not in
                        (object, BaseException, Exception)]
            assert builtins, f"{name} should also derive from ValueError/TypeError/..."
