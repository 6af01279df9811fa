"""Atomic file writes for the batch export: a temporary file, then ``os.replace``.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> write_atomic(path, b"hi"), write_atomic(path, b"hi")
    (True, False)
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Any, Callable

__all__ = ["write_atomic", "via_temp", "prune", "sweep"]


def _file_mode() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


#: the mode a plain open() would give a new file (mkstemp makes them 0600)
_MODE = _file_mode()


def write_atomic(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` through a temporary file; False if it already held them."""
    if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, _MODE)
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)
    return True


def via_temp(path: Path, produce: Callable[[Path], Any]) -> bool:
    """Let ``produce`` write a temporary file with the same suffix, then move it in place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=path.suffix)
    os.close(fd)
    try:
        produce(Path(tmp))
        return write_atomic(path, Path(tmp).read_bytes())
    finally:
        Path(tmp).unlink(missing_ok=True)


def prune(folder: Path, keep: set[str], prefix: str, suffix: str) -> None:
    """Remove files an earlier, longer export left behind."""
    if folder.is_dir():
        for old in folder.iterdir():
            if old.name.startswith(prefix) and old.name.endswith(suffix) and old.name not in keep:
                old.unlink()


def sweep(folder: Path) -> None:
    """Remove temporary files a killed export left (``.name.XXXXXXXX.ext``)."""
    for sub in (folder, folder / "steps"):
        if sub.is_dir():
            for p in sub.iterdir():
                if _TEMP.fullmatch(p.name) and p.is_file():
                    p.unlink()


_TEMP = re.compile(r"\.[^/]+\.[a-z0-9_]{8}(\.tmp|\.[a-z0-9]+)")
