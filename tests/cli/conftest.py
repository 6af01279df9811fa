"""Fixtures for the command-line tests: a click runner and model files."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from vizgrad.cli.commands import main


class Run:
    """``run("render", "fork", ...)``: invoke the CLI in-process and return the result."""

    def __init__(self) -> None:
        self.runner = CliRunner()

    def __call__(self, *args: str, code: int | None = 0):
        result = self.runner.invoke(main, list(args), prog_name="vizgrad")
        if code is not None:
            assert result.exit_code == code, (result.output, result.exception)
        if code == 2 or code == 1:  # a user mistake or a failure: a message, never a traceback
            assert isinstance(result.exception, SystemExit), result.exception
            assert "Traceback" not in result.output
            assert "Error: " in result.output
        return result


@pytest.fixture
def run() -> Run:
    return Run()


@pytest.fixture
def model(tmp_path):
    """``model("source")`` writes ``model.py`` into a temporary folder and returns its path."""

    def write(source: str, name: str = "model.py") -> Path:
        path = tmp_path / name
        path.write_text(textwrap.dedent(source), encoding="utf-8")
        return path

    return write
