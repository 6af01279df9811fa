"""The step player's script: the shared ES modules of ``player/assets/vg`` as one classic script.

The lab loads ``vg/*.js`` as ES modules (``/static/vg/``). A player page must work
from ``file://``, where a browser loads no module, so :func:`bundle` joins the
modules the entry imports, dependencies first, into one script, which the page
inlines under its Content-Security-Policy hash. Each module becomes a function
scope that returns its exports; an import becomes a ``var`` read from the
module it names. The modules keep to a small, checked subset of the syntax:

- ``import { a, b as c } from "./name.js";`` on one line, at the start of a line;
- ``export function name(``, ``export const name =`` or ``export let name =``;
- no other ``import`` or ``export`` (a default export, ``export { … }``, a bare import,
  an import from outside ``vg/`` raise :class:`BundleError`);
- lines that hold only a ``//`` comment are left out of the bundle (the page carries the
  code, the files keep the comments), so no template literal may span lines (a line with an
  odd number of backticks raises :class:`BundleError`).

Chosen over esbuild: no Node toolchain, no generated file to keep current, and the
transformation is a few checked lines of Python, tested in
``tests/render/test_bundle.py``.

    >>> script = bundle()
    >>> script.startswith("(function () {") and "import " not in script
    True
    >>> order("player.js")[:2]
    ['words.js', 'ids.js']
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

__all__ = ["BundleError", "bundle", "module_text", "order", "transform"]

_IMPORT = re.compile(r'^import \{([\w\s,]+)\} from "\./([a-z_]+\.js)";[ \t]*$', re.M)
_EXPORT = re.compile(r"^export (function|const|let) (\w+)", re.M)
_ANY = re.compile(r"^\s*(import|export)\b.*$", re.M)
_COMMENT = re.compile(r"^[ \t]*//.*\n?", re.M)


class BundleError(Exception):
    """A module of ``vg/`` that the bundler cannot join (a packaging mistake, not user input)."""


def module_text(name: str) -> str:
    """The source of module ``name`` of ``player/assets/vg``."""
    return resources.files("vizgrad.player").joinpath("assets", "vg", name).read_text(
        encoding="utf-8")


def _imports(text: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """(module, [(exported name, local name)]) of each import line of ``text``."""
    out = []
    for names, module in _IMPORT.findall(text):
        pairs = []
        for part in names.split(","):
            words = part.split()
            if len(words) == 1:
                pairs.append((words[0], words[0]))
            elif len(words) == 3 and words[1] == "as":
                pairs.append((words[0], words[2]))
            else:
                raise BundleError(f"cannot read the import of {part.strip()!r} from {module}")
        out.append((module, pairs))
    return out


def _var(module: str) -> str:
    return "__vg_" + module[:-3]


def transform(name: str, text: str) -> str:
    """Module ``name`` as a ``var`` holding its exports, for :func:`bundle`.

    >>> source = 'import { f as g } from "./a.js";\\n// h is g\\nexport const h = g;'
    >>> print(transform("b.js", source))
    var __vg_b = (function () {
    var g = __vg_a.f;
    const h = g;
    return { h: h };
    })();
    """
    reads = ["var %s = %s.%s;" % (local, _var(module), exported)
             for module, pairs in _imports(text) for exported, local in pairs]
    body = _COMMENT.sub("", _IMPORT.sub("", text))
    for line in body.splitlines():
        if line.count("`") % 2:
            raise BundleError(f"{name}: a template literal spans lines, which the bundler "
                              f"cannot keep whole: {line.strip()}")
    exports = [m[1] for m in _EXPORT.findall(body)]
    body = _EXPORT.sub(lambda m: f"{m[1]} {m[2]}", body)
    stray = _ANY.search(body)
    if stray:
        raise BundleError(f"{name}: the bundler reads only `import {{ … }} from \"./x.js\";` "
                          f"and `export function|const|let`, not: {stray[0].strip()}")
    ret = "return { " + ", ".join(f"{e}: {e}" for e in exports) + " };"
    lines = [f"var {_var(name)} = (function () {{", *reads, body.strip(), ret, "})();"]
    return "\n".join(lines)


def order(entry: str) -> list[str]:
    """The modules ``entry`` needs, each after the ones it imports, ``entry`` last."""
    done: list[str] = []

    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in done:
            return
        if name in path:
            raise BundleError("the modules import each other in a circle: "
                              + " → ".join(path + (name,)))
        for module, _ in _imports(module_text(name)):
            visit(module, path + (name,))
        done.append(name)

    visit(entry, ())
    return done


@lru_cache(maxsize=4)
def bundle(entry: str = "player.js") -> str:
    """One classic script of ``entry`` and the modules it imports: an IIFE in strict mode."""
    parts = [transform(name, module_text(name)) for name in order(entry)]
    return '(function () {\n"use strict";\n' + "\n".join(parts) + "\n})();\n"
