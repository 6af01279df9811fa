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

__all__ = ["write_atomic", "via_temp", "prune", "sweep", "sweep_one"]


def _file_mode() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


#: the mode a plain open() would give a new file (mkstemp makes them 0600)
_MODE = _file_mode()


def _named(err: OSError, path: Path) -> OSError:
    """The same error, naming the file the user asked for, not our temporary file."""
    return OSError(err.errno, err.strerror or str(err), str(path))


def write_atomic(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` through a temporary file; False if it already held them.

    An ``OSError`` (disk full, no permission) names ``path``, never the temporary file.
    """
    if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data:
        return False
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, _MODE)
        os.replace(tmp, path)
    except OSError as err:
        raise _named(err, path) from None
    finally:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
    return True


def via_temp(path: Path, produce: Callable[[Path], Any]) -> bool:
    """Let ``produce`` write a temporary file with the same suffix, then move it in place.

    The temporary file is removed whatever happens; an ``OSError`` names ``path``.
    """
    tmp = None
    try:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=path.suffix)
            os.close(fd)
        except OSError as err:
            raise _named(err, path) from None
        try:
            produce(Path(tmp))
        except OSError as err:
            if err.filename is not None and Path(err.filename) != Path(tmp):
                raise
            raise _named(err, path) from None
        data = Path(tmp).read_bytes()
        return write_atomic(path, data)
    finally:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)


def prune(folder: Path, keep: set[str], prefix: str, suffix: str) -> None:
    """Remove files an earlier, longer export left behind."""
    if folder.is_dir():
        for old in folder.iterdir():
            if old.name.startswith(prefix) and old.name.endswith(suffix) and old.name not in keep:
                old.unlink()


def sweep(folder: Path) -> None:
    """Remove temporary files a killed export left (``.name.XXXXXXXX.ext``).

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> for name in (".fork.gif.k9cfqn7_.tmp", ".fork.kt9cfqn7.gif", ".fork.0a1b2c3d.part.mp4",
    ...              "fork.gif", ".hidden"):
    ...     _ = (d / name).write_bytes(b"")
    >>> sweep(d); sorted(p.name for p in d.iterdir())
    ['.hidden', 'fork.gif']
    """
    for sub in (folder, folder / "steps", folder / "frames"):
        if sub.is_dir():
            for p in sub.iterdir():
                if _TEMP.fullmatch(p.name) and p.is_file():
                    p.unlink(missing_ok=True)


def sweep_one(target: Path) -> None:
    """Remove temporary files an interrupted write of ``target`` left beside it."""
    folder = target.parent
    if folder.is_dir():
        for p in folder.glob(f".{glob_escape(target.stem)}.*"):
            if _TEMP.fullmatch(p.name) and p.is_file():
                p.unlink(missing_ok=True)


def glob_escape(text: str) -> str:
    """``text`` with glob wildcards escaped."""
    return re.sub(r"([*?\[])", r"[\1]", text)


_TEMP = re.compile(r"\.[^/]+\.[a-z0-9_]{8}(\.tmp|\.part\.[a-z0-9]+|\.[a-z0-9]+)")
