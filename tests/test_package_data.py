"""Every file the package reads at run time ships in a wheel: the package-data globs of
pyproject.toml match every file under vizgrad/ that is not Python source."""

from __future__ import annotations

import fnmatch
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _globs() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return config["tool"]["setuptools"]["package-data"]["vizgrad"]


def _data_files() -> list[str]:
    """The tracked files under vizgrad/ that are not Python source, relative to vizgrad/."""
    listed = subprocess.run(["git", "ls-files", "vizgrad"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.split()
    return [p.removeprefix("vizgrad/") for p in listed if not p.endswith(".py")]


def _shipped(path: str, globs: list[str]) -> bool:
    # setuptools matches a glob against the path relative to the package; * stops at "/"
    return any(fnmatch.fnmatch(path, g) and path.count("/") == g.count("/") for g in globs)


def test_every_data_file_is_in_the_package_data():
    files = _data_files()
    assert any(f.endswith(".js") for f in files) and any(f.endswith(".json") for f in files)
    missing = [f for f in files if not _shipped(f, _globs())]
    assert missing == [], f"add globs for these to [tool.setuptools.package-data]: {missing}"


def test_the_check_sees_a_file_no_glob_matches():
    globs = ["player/assets/*.js"]
    assert _shipped("player/assets/player.js", globs)
    assert not _shipped("player/assets/vg/table.js", globs)
    assert not _shipped("player/assets/player.css", globs)
