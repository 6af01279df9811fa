"""No line of the tracked Python source under vizgrad/, tests/ and benchmarks/ is longer than
pyproject.toml's ``[tool.ruff] line-length`` (100 characters; Ruff itself is not run in CI)."""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("vizgrad", "tests", "benchmarks")

def _limit() -> int:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return config["tool"]["ruff"]["line-length"]


def long_lines(text: str, limit: int) -> list[tuple[int, int]]:
    """(line number, length in characters) of each line of ``text`` longer than ``limit``.

    >>> long_lines("x = 1\\n" + "#" * 101 + "\\n" + "é" * 100 + "\\n", 100)
    [(2, 101)]
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return [(n, len(line)) for n, line in enumerate(lines, 1) if len(line) > limit]


def _tracked_sources() -> list[str]:
    """The tracked .py files under FOLDERS, as paths relative to the repository root."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed: the line-length check lists the tracked files "
                    "with `git ls-files`")
    done = subprocess.run(["git", "ls-files", "-z", "--", *(f"{d}/*.py" for d in FOLDERS)],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, f"git ls-files failed in {ROOT}: {done.stderr.strip()}"
    found = [p for p in done.stdout.split("\0") if p and (ROOT / p).is_file()]
    assert "vizgrad/core/value.py" in found, f"git ls-files in {ROOT} did not list the package"
    return sorted(found)


def _too_long(path: str, limit: int) -> list[str]:
    text = (ROOT / path).read_text(encoding="utf-8")
    return [f"{path}:{n} ({length})" for n, length in long_lines(text, limit)]


def test_the_limit_is_read_from_pyproject():
    assert _limit() == 100


def test_the_check_counts_characters_and_finds_every_long_line():
    text = "a" * 100 + "\n" + "b" * 101 + "\r\n" + "∂" * 100 + "\n\n" + "c" * 150
    assert long_lines(text, 100) == [(2, 101), (5, 150)]
    assert long_lines("", 100) == []


def test_no_line_is_longer_than_the_limit():
    limit = _limit()
    found = [hit for path in _tracked_sources() for hit in _too_long(path, limit)]
    assert not found, (f"lines longer than {limit} characters (wrap them; [tool.ruff] "
                       f"line-length in pyproject.toml), {len(found)} in all:\n"
                       + "\n".join(found))

