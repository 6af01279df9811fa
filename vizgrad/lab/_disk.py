"""A render cache on disk, shared by the worker processes of ``vizgrad serve --workers N``.

Each worker keeps its own in-memory LRU of renders; this folder sits behind it,
so a drawing one worker laid out is read, not laid out again, by the others:
memory first, then disk, then a layout.

Plain files, not SQLite: one file per entry, written to a temporary file in the
same folder and renamed into place with :func:`os.replace`, so a reader sees a
whole entry or none, and writers in different processes never wait on a
database lock (SQLite serialises writers, and a busy class is many writers at
once). Each file starts with a header holding the body's length and SHA-256; an
entry that is truncated, corrupt or unreadable is a miss, never an error. The
folder is bounded in bytes: past the bound, the least recently used entries
(oldest modification time; a hit touches its file) are removed::

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     disk = DiskCache(folder, max_bytes=1 << 20)
    ...     disk.store(("k", 0, "light"), "<svg/>")
    ...     disk.lookup(("k", 0, "light")), disk.lookup(("k", 1, "light"))
    ('<svg/>', None)
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import tempfile
import threading
from pathlib import Path
from typing import Any

from .. import __version__
from ..exceptions import DomainError, OptionError

__all__ = ["DiskCache", "ENV_CACHE_DIR", "ENV_CACHE_MB", "DEFAULT_MB", "READ_SECONDS",
           "TEMP_PREFIX", "check_folder", "disk_from_env", "read_regular", "sweep_dead",
           "temporary_folder"]

#: the folder workers share (set by ``vizgrad serve``; unset: no disk cache)
ENV_CACHE_DIR = "VIZGRAD_LAB_CACHE_DIR"
#: the folder's bound in megabytes
ENV_CACHE_MB = "VIZGRAD_LAB_CACHE_MB"
#: the default bound of the folder, in megabytes
DEFAULT_MB = 256
#: the longest a cache read may wait: a file is opened without blocking, and anything but
#: a regular file (a FIFO, a device, a symbolic link) is a miss at once
READ_SECONDS = 0.0
#: the temporary cache folder of ``vizgrad serve --workers N``: PREFIX + its pid + "-"
TEMP_PREFIX = "vizgrad-lab-cache-"
_MAGIC = b"vizgrad-cache 1"
_SUFFIX = ".entry"


class DiskCache:
    """Rendered text in ``folder``, keyed by a hash of the key and vizgrad's version,
    at most ``max_bytes`` in all (checked after every eighth of the bound written)."""

    def __init__(self, folder: str | os.PathLike[str], max_bytes: int) -> None:
        check_folder(folder)
        self.folder = Path(folder)
        self.max_bytes = max_bytes
        self.hits = 0
        self.misses = 0
        self._written = 0
        self._lock = threading.Lock()

    def path(self, key: tuple[Any, ...]) -> Path:
        """The file of ``key`` (another version of vizgrad uses other files)."""
        raw = json.dumps([__version__, *key], default=str, separators=(",", ":"))
        return self.folder / (hashlib.sha256(raw.encode("utf-8")).hexdigest() + _SUFFIX)

    def lookup(self, key: tuple[Any, ...]) -> str | None:
        """The stored text, or None when it is missing, truncated or corrupt."""
        path = self.path(key)
        data = read_regular(path, self.max_bytes)
        if data is None:
            return self._miss()
        head, newline, body = data.partition(b"\n")
        parts = head.split(b" ")
        if (not newline or len(parts) != 4 or b" ".join(parts[:2]) != _MAGIC
                or parts[2] != str(len(body)).encode()
                or parts[3] != hashlib.sha256(body).hexdigest().encode()):
            self._discard(path)
            return self._miss()
        try:
            text = body.decode("utf-8")
            os.utime(path)  # recently used: evicted last
        except UnicodeDecodeError:  # pragma: no cover - the checksum matched
            return self._miss()
        except OSError:  # evicted by another worker meanwhile: the text is still good
            pass
        with self._lock:
            self.hits += 1
        return text

    def store(self, key: tuple[Any, ...], text: str) -> None:
        """Write the entry atomically; a full or read-only disk only loses the entry."""
        body = text.encode("utf-8")
        head = b"%s %d %s\n" % (_MAGIC, len(body), hashlib.sha256(body).hexdigest().encode())
        try:
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as out:
                    out.write(head + body)
                os.replace(tmp, self.path(key))
            except BaseException:
                self._discard(Path(tmp))
                raise
        except OSError:
            return
        with self._lock:
            self._written += len(head) + len(body)
            due = self._written >= self.max_bytes // 8
            if due:
                self._written = 0
        if due:
            self.evict()

    def evict(self) -> int:
        """Remove the least recently used entries beyond the bound; how many went."""
        entries = []
        for path in self.folder.glob("*" + _SUFFIX):
            try:
                st = path.stat()
            except OSError:
                continue
            entries.append((st.st_mtime_ns, path.name, st.st_size, path))
        total = sum(e[2] for e in entries)
        removed = 0
        for _, _, size, path in sorted(entries):
            if total <= self.max_bytes:
                break
            self._discard(path)
            total -= size
            removed += 1
        return removed

    def _miss(self) -> None:
        with self._lock:
            self.misses += 1
        return None

    @staticmethod
    def _discard(path: Path) -> None:
        try:
            path.unlink()
        except OSError:
            pass


def read_regular(path: Path, limit: int) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes, else None.

    It is opened non-blocking and without following a link, so a FIFO or a device planted
    in the folder is refused at once rather than waited on (:data:`READ_SECONDS`)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            return None
        chunks, left = [], st.st_size + 1
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def temporary_folder() -> str:
    """A new temporary cache folder named after this process (see :func:`sweep_dead`)."""
    return tempfile.mkdtemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-")


def sweep_dead(where: str | None = None) -> list[str]:
    """Remove the temporary cache folders (:data:`TEMP_PREFIX` + pid) of this user whose
    server process is gone (a ``kill -9`` leaves them); return their paths."""
    root = Path(where or tempfile.gettempdir())
    removed = []
    for folder in sorted(root.glob(TEMP_PREFIX + "*")):
        pid_text = folder.name[len(TEMP_PREFIX):].split("-", 1)[0]
        try:
            if not pid_text.isdigit() or folder.is_symlink() or not folder.is_dir() or \
                    folder.stat().st_uid != os.getuid():
                continue
            os.kill(int(pid_text), 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(str(folder))
        except (OSError, OverflowError, ValueError):
            continue  # alive (another user's: PermissionError) or unreadable: left alone
    return removed


def disk_from_env(environ: Any = None) -> DiskCache | None:
    """The disk cache ``vizgrad serve`` named in the environment, or None.

    >>> disk_from_env({}) is None
    True
    >>> disk_from_env({ENV_CACHE_DIR: "/tmp", ENV_CACHE_MB: "-1"})
    Traceback (most recent call last):
    vizgrad.exceptions.DomainError: VIZGRAD_LAB_CACHE_MB='-1': must be whole megabytes > 0
    """
    environ = os.environ if environ is None else environ
    folder = environ.get(ENV_CACHE_DIR, "")
    if not folder:
        return None
    raw = environ.get(ENV_CACHE_MB, "")
    if raw and not (raw.isdigit() and int(raw) > 0):
        raise DomainError(f"{ENV_CACHE_MB}={raw!r}: must be whole megabytes > 0")
    mb = int(raw) if raw else DEFAULT_MB
    return DiskCache(folder, mb * 1024 * 1024)


def check_folder(folder: str | os.PathLike[str]) -> None:
    """Make ``folder`` if needed and check that files can be written there.

    Raises :class:`~vizgrad.exceptions.OptionError`, which says what to choose instead.
    """
    try:
        os.makedirs(folder, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as err:
        raise OptionError(
            f"cannot use {os.fspath(folder)} as the cache folder: {err.strerror or err}; "
            "choose another --cache-dir (cache_dir=) or use --no-disk-cache (cache_dir=None)"
        ) from None
