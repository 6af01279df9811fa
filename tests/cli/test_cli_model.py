"""``vizgrad render path/to/model.py:build``: a user's own graph, and every way it can go wrong."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from vizgrad import from_json
from vizgrad.cli.model_file import load_model, split_spec
from vizgrad.exceptions import ModelLoadError

VALUE = """
    from vizgrad import Value

    def build():
        a, b = Value(-2.0, label="a"), Value(3.0, label="b")
        q = (a * b) * (a + b)
        q.label = "q"
        q.backward()
        return q
"""


def _graph(run, tmp_path, spec, *extra):
    out = tmp_path / "out.json"
    run("render", spec, *extra, "-o", str(out))
    return from_json(out.read_text(encoding="utf-8"))


def test_build_returning_a_value(run, model, tmp_path):
    G = _graph(run, tmp_path, f"{model(VALUE)}:build")
    assert G.nodes[G.graph["root"]]["label"] == "q"
    assert (G.nodes["v0"]["grad"], G.nodes["v1"]["grad"]) == (-3.0, -8.0)


def test_the_function_defaults_to_build(run, model, tmp_path):
    G = _graph(run, tmp_path, str(model(VALUE)))
    assert G.nodes[G.graph["root"]]["data"] == -6.0


def test_a_list_of_values_draws_the_rest_beside_the_root(run, model, tmp_path):
    path = model("""
        from vizgrad import Value

        def build():
            x = Value(2.0, label="x")
            loss = x * x
            loss.label = "loss"
            other = x + 1
            other.label = "other"
            loss.backward()
            return [loss, other]
    """)
    G = _graph(run, tmp_path, f"{path}:build")
    (also,) = G.graph["also"]
    assert G.nodes[also]["label"] == "other" and not G.nodes[also]["on_path"]
    assert G.nodes[also]["grad"] is None


def test_a_micrograd_value(run, model, tmp_path):
    pytest.importorskip("micrograd", reason="micrograd is a test dependency")
    path = model("""
        from micrograd.engine import Value

        def make():
            a, b = Value(-2.0), Value(3.0)
            q = (a * b) * (a + b)
            q.backward()
            return q
    """)
    G = _graph(run, tmp_path, f"{path}:make")
    grads = sorted(attrs["grad"] for _, attrs in G.nodes(data=True) if attrs["kind"] == "input")
    assert grads == [-8.0, -3.0]


def test_set_passes_keyword_arguments_to_build(run, model, tmp_path):
    path = model("""
        from vizgrad import Value

        def build(x=1.0):
            v = Value(x, label="x")
            y = v * v
            y.backward()
            return y
    """)
    G = _graph(run, tmp_path, f"{path}:build", "--set", "x=4")
    assert G.nodes["v0"]["grad"] == 8.0


def test_a_model_batch_export_uses_the_file_name(run, model, tmp_path):
    path = model(VALUE, name="my_net.py")
    run("render", f"{path}:build", "--format", "svg,html", "--out", str(tmp_path / "out"),
        "-q", "-j1")
    assert (tmp_path / "out" / "my_net" / "my_net.svg").is_file()
    page = (tmp_path / "out" / "my_net" / "my_net.html").read_text(encoding="utf-8")
    assert "<h1>my_net.py:build</h1>" in page and str(tmp_path) not in page
    assert len(list((tmp_path / "out" / "my_net" / "steps").iterdir())) == 8


def test_sibling_imports_work(run, model, tmp_path):
    model("from vizgrad import Value\nSTART = 5.0\n", name="helpers.py")
    path = model("""
        from helpers import START, Value

        def build():
            v = Value(START, label="v")
            return v * 2
    """)
    G = _graph(run, tmp_path, f"{path}:build")
    assert G.nodes["v0"]["data"] == 5.0


@pytest.mark.parametrize("source, spec_suffix, message", [
    (VALUE, ":make", "has no function 'make'; its functions are: build"),
    ("def build(:\n    pass\n", ":build", "line 1: syntax error"),
    ("def build():\n    return 3.0\n", ":build",
     "must return a Value or a list of Values, got float"),
    ("def build():\n    return []\n", ":build", "got an empty list"),
    ("build = 3\n", ":build", "model.py:build is not a function but int 3"),
    (VALUE, ":9x", "is not a function name"),
    ("from vizgrad import Value\nx = Value(2.0)\nloss = x * x + x\nloss.backward()\n", "",
     "model.py has no function build(): it computes loss at module level; add "
     "'def build(): return loss' at the end of the file (after loss.backward())"),
    ("import math\n", "", "model.py has no function build(): add one that computes the loss, "
     "calls loss.backward() and returns it"),
], ids=["no-function", "syntax", "float", "empty", "not-callable", "bad-name", "script",
        "no-loss"])
def test_model_errors_are_clear(run, model, source, spec_suffix, message):
    path = model(source)
    out = run("render", f"{path}{spec_suffix}", "-o", "x.svg", code=2).output
    assert message in out


@pytest.mark.parametrize("source, message, line", [
    ("import no_such_module_xyz\n", "importing model.py raised ModuleNotFoundError",
     "import no_such_module_xyz"),
    ("def helper():\n    return 1 / 0\n\ndef build():\n    return helper()\n",
     "build() raised ZeroDivisionError: division by zero (at model.py, line 2)", "return 1 / 0"),
], ids=["import", "build"])
def test_an_exception_in_the_users_code_is_a_failure_with_their_frames(run, model, source,
                                                                         message, line):
    path = model(source)
    out = run("render", f"{path}:build", "-o", "x.svg", code=1).output
    assert message in out
    assert "where it failed (most recent call last):" in out
    assert f'File "{path}", line' in out and f"    {line}" in out
    assert "_load.py" not in out and "importlib" not in out  # only the user's own frames


def test_a_missing_file(run, tmp_path):
    out = run("render", f"{tmp_path}/nope.py:build", code=2).output
    assert "model file not found" in out and "nope.py" in out


def test_load_model_directly(model):
    root, also = load_model(str(model(VALUE)))
    assert root.data == -6.0 and also == []
    with pytest.raises(ModelLoadError):
        load_model("missing.py")
    assert split_spec("C:/models/net.py:build") == ("C:/models/net.py", "build")


def test_a_vizgrad_error_inside_build_is_a_failure_with_its_message(run, model):
    path = model("""
        from vizgrad import Value

        def build():
            return Value(-1.0, label="x").log()
    """)
    out = run("render", f"{path}:build", "-o", "x.svg", code=1).output
    assert "log is only defined for x > 0" in out


def test_the_readmes_own_net_renders_in_one_command(run, tmp_path):
    """The README's "Your own net" script, as written there, with the command it shows."""
    pytest.importorskip("micrograd", reason="micrograd 0.1.0 is a test dependency")
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    (script,) = [b for b in re.findall(r"```python\n(.*?)```", readme, re.DOTALL)
                 if "def build():" in b]
    (tmp_path / "model.py").write_text(script, encoding="utf-8")
    assert "vizgrad render model.py -o model.html" in readme
    run("render", str(tmp_path / "model.py"), "-o", str(tmp_path / "model.svg"))
    svg = (tmp_path / "model.svg").read_text(encoding="utf-8")
    assert re.search(r">L0(/N1)? · \d+ values<", svg) and "net read: model (MLP)" in svg
