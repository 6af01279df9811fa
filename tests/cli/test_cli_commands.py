"""``vizgrad --version``, ``list``, ``check``, ``python -m vizgrad`` and the lazy ``serve``."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

import vizgrad
from vizgrad import examples
from vizgrad.cli import commands as cli


def _rows(output: str) -> dict[str, list[str]]:
    """The check table's rows by input name: [backprop, numeric, abs error]."""
    lines = output.strip().splitlines()
    header = lines.index(next(line for line in lines if line.startswith("input")))
    assert lines[header].split() == ["input", "backprop", "numeric", "abs", "error"]
    return {line.split()[0]: line.split()[1:] for line in lines[header + 1:]}


def test_version(run):
    assert run("--version").output == f"vizgrad {vizgrad.__version__}\n"
    assert run("-V").output.startswith("vizgrad ")


def test_help_lists_every_command(run):
    out = run("--help").output
    for name in ("render", "list", "check"):
        assert name in out


def test_list_prints_every_example_with_its_description(run):
    lines = run("list").output.splitlines()
    assert [line.split()[0] for line in lines] == examples.names()
    for line, name in zip(lines, examples.names()):
        assert line.endswith(examples.describe(name))


def test_list_json(run):
    data = json.loads(run("list", "--json").output)
    assert [d["name"] for d in data] == examples.names()
    fork = data[examples.names().index("fork")]
    assert fork["inputs"] == {"a": -2.0, "b": 3.0}
    assert fork["description"] == examples.describe("fork")


def test_check_fork_prints_the_central_difference_table(run):
    out = run("check", "fork", "--h", "1e-6").output
    assert "h = 1e-06" in out and "q = u × v = −6" in out
    rows = _rows(out)
    assert list(rows) == ["a", "b"]
    assert rows["a"][0] == "-3.0000000000" and rows["a"][2] == "4.1933e-10"
    assert rows["b"][0] == "-8.0000000000" and rows["b"][2] == "1.1182e-09"
    assert float(rows["a"][1]) == pytest.approx(-3.0, abs=1e-8)


def test_check_an_expression_gives_the_same_numbers(run):
    out = run("check", "--expr", "(a*b)*(a+b)", "--set", "a=-2", "--set", "b=3").output
    assert out.startswith("(a*b)*(a+b) = -6; central differences, h = 1e-06")
    assert _rows(out)["a"][2] == "4.1933e-10"


def test_check_h_changes_only_the_numeric_column(run):
    coarse = _rows(run("check", "fork", "--h", "1e-2").output)
    fine = _rows(run("check", "fork", "--h", "1e-6").output)
    assert coarse["a"][0] == fine["a"][0]
    assert coarse["a"][2] != fine["a"][2]


def test_check_prints_numbers_as_the_pictures_do(run):
    """exp(709) = 8.218407461554972e307: ten decimals in scientific notation, not 308 digits."""
    out = run("check", "--expr", "exp(a)", "--set", "a=709").output
    assert out.startswith("exp(a) = 8.2184074616e307; central differences")
    backprop, numeric, _ = _rows(out)["a"]
    assert backprop == "8.2184074616e307"
    assert re.fullmatch(r"8\.\d{10}e307", numeric) and float(numeric) == pytest.approx(
        8.218407461554972e307, rel=1e-6)
    assert max(map(len, out.splitlines())) < 80
    small = _rows(run("check", "--expr", "a*1e-11", "--set", "a=1").output)["a"]
    assert small[0] == "1.0e-11"  # not 0.0000000000: the two significant digits of fmt


def test_check_json_and_example_inputs(run):
    data = json.loads(run("check", "fork", "--set", "a=1", "--set", "b=2", "--json").output)
    assert data["h"] == 1e-6
    a, b = data["rows"]
    assert (a["input"], a["backprop"], b["backprop"]) == ("a", 8.0, 5.0)  # q = a²b + ab²


def test_check_tol_fails_on_the_overwrite_bug(run):
    res = run("check", "overwrite-bug", "--tol", "1e-6", code=1)
    assert "a (1.0000e+00)" in res.output  # backprop says 1, the numbers say 2
    run("check", "shared-node", "--tol", "1e-6")


@pytest.mark.parametrize("h", ["0", "-1e-6", "nan", "inf"])
def test_check_rejects_a_bad_h(run, h):
    assert "'--h'" in run("check", "fork", "--h", h, code=2).output


@pytest.mark.parametrize("args", [[], ["fork", "--expr", "a"]], ids=["nothing", "both"])
def test_check_needs_exactly_one_graph(run, args):
    run("check", *args, code=2)


def test_check_unknown_example_lists_the_valid_ones(run):
    out = run("check", "forkk", code=2).output
    assert "did you mean 'fork'" in out
    assert all(n in out for n in examples.names())


def test_check_a_model_file(run, model):
    path = model("""
        from vizgrad import Value
        def build():
            x = Value(3.0, label="x")
            y = x * x + x
            y.backward()
            return y
    """)
    assert _rows(run("check", f"{path}:build").output)["x"][0] == "7.0000000000"


def test_python_dash_m_vizgrad():
    res = subprocess.run([sys.executable, "-m", "vizgrad", "--version"], capture_output=True,
                         text=True, check=False)
    assert res.returncode == 0 and res.stdout.strip() == f"vizgrad {vizgrad.__version__}"
    res = subprocess.run([sys.executable, "-m", "vizgrad", "render", "nope"], capture_output=True,
                         text=True, check=False)
    assert res.returncode == 2 and "Traceback" not in res.stderr and "fork" in res.stderr


def test_serve_comes_from_the_lab_when_installed(run):
    pytest.importorskip("starlette", reason="the lab needs starlette")
    assert "serve" in run("--help").output
    assert "--port" in run("serve", "--help").output


def test_a_missing_optional_command_is_hidden(run, monkeypatch):
    monkeypatch.setitem(cli.LAZY_COMMANDS, "serve", ("vizgrad.no_such_module", "serve"))
    assert "serve" not in run("--help").output
    assert "No such command" in run("serve", code=2).output


def test_a_missing_dependency_of_a_command_says_what_to_install(run, monkeypatch, tmp_path):
    (tmp_path / "broken_cmd.py").write_text("import no_such_package_xyz\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(cli.LAZY_COMMANDS, "serve", ("broken_cmd", "serve"))
    assert "pip install no_such_package_xyz" in run("--help").output
    res = run("serve", "--port", "9000", code=1)
    assert "'vizgrad serve' needs the 'no_such_package_xyz' package" in res.output
