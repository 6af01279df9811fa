"""The step player's bundle of the shared ES modules (player/bundle.py)."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import pytest

from vizgrad import examples
from vizgrad.player import bundle as _bundle
from vizgrad.player.bundle import BundleError, bundle, order, transform
from vizgrad.player.page import player_html

from .vg_page import VG

LAB = Path(_bundle.__file__).parents[1] / "lab" / "static"
IMPORT = re.compile(r'^import \{[^}]*\} from "\./([\w/]+\.js)";', re.M)


def _imports(text: str) -> list[str]:
    return IMPORT.findall(text)


def test_every_module_comes_after_the_ones_it_imports():
    names = order("player.js")
    assert names[-1] == "player.js" and len(names) == len(set(names))
    for i, name in enumerate(names):
        for dep in _imports((VG / name).read_text(encoding="utf-8")):
            assert dep in names[:i], (name, dep)


def test_every_shared_module_is_used_by_the_player_or_the_lab():
    lab = {m[3:] for p in LAB.glob("*.js") for m in _imports(p.read_text(encoding="utf-8"))
           if m.startswith("vg/")}
    shared = {p.name for p in VG.glob("*.js")}
    assert shared == set(order("player.js")) | lab
    assert {"playback.js", "table.js", "zoom.js", "caption.js", "ids.js", "words.js"} <= lab


@pytest.mark.parametrize("line", [
    'export default function f() {}',
    'export { f };',
    'import "./words.js";',
    'import { fill } from "../words.js";',
    'import * as w from "./words.js";',
    'export async function f() {}',
])
def test_syntax_the_bundler_does_not_read_is_refused(line):
    with pytest.raises(BundleError, match="x.js: the bundler reads only"):
        transform("x.js", f"const a = 1;\n{line}\n")


def test_an_import_with_a_bad_name_list_is_refused():
    with pytest.raises(BundleError, match="cannot read the import of 'a as'"):
        transform("x.js", 'import { a as } from "./words.js";\n')


def test_a_circle_of_imports_is_refused(monkeypatch):
    texts = {"a.js": 'import { b } from "./b.js";\nexport const a = 1;\n',
             "b.js": 'import { a } from "./a.js";\nexport const b = 2;\n'}
    monkeypatch.setattr(_bundle, "module_text", texts.__getitem__)
    with pytest.raises(BundleError, match="in a circle: a.js → b.js → a.js"):
        order("a.js")


def test_a_module_keeps_its_own_scope_and_reads_its_imports(monkeypatch):
    texts = {"a.js": "const hidden = 1;\nexport function f() { return hidden; }\n",
             "b.js": 'import { f as g } from "./a.js";\nconst hidden = 2;\n'
                     "export const h = g() + hidden;\n"}
    monkeypatch.setattr(_bundle, "module_text", texts.__getitem__)
    out = _bundle.bundle.__wrapped__("b.js")
    assert "import" not in out and "export" not in out
    assert out.index("var __vg_a = (function () {") < out.index("var __vg_b = (function () {")
    assert "var g = __vg_a.f;" in out and "return { h: h };" in out


def test_the_page_inlines_the_bundle_under_its_hash():
    page = player_html(examples.graph("fork"))
    script = bundle("player.js")
    assert f"<script>{script}</script>" in page
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    assert f"'sha256-{digest}'" in page
    # each shared module's code is in the page once
    for name in order("player.js"):
        assert page.count(f"var __vg_{name[:-3]} = (function () {{") == 1


def test_the_bundle_compiles_as_a_classic_script_in_chromium(browser):
    page = browser.new_page()
    error = page.evaluate("""(script) => {
      try { new Function(script); return null; } catch (e) { return e.message; }
    }""", bundle("player.js"))
    bad = page.evaluate("""(script) => {
      try { new Function(script); return null; } catch (e) { return e.message; }
    }""", bundle("player.js").replace("var __vg_words", 'import "x";\nvar __vg_words'))
    page.close()
    assert error is None and bad  # the check can fail: a module's import would not compile


def test_comment_lines_stay_in_the_files_and_out_of_the_page():
    out = transform("x.js", "// about f\nexport function f() {\n  // inside\n"
                            "  return '//'; // end\n}\n")
    assert "about f" not in out and "inside" not in out
    assert "return '//'; // end" in out  # code, and a comment after code, are kept whole
    assert not re.search(r"^\s*//", bundle("player.js"), re.M)
    assert (VG / "table.js").read_text(encoding="utf-8").startswith("// The node table")


def test_a_template_literal_over_several_lines_is_refused():
    with pytest.raises(BundleError, match="x.js: a template literal spans lines"):
        transform("x.js", "const s = `one\n// two\n`;\n")
    assert "`a${1}b`" in transform("x.js", "export const s = `a${1}b`;\n")
