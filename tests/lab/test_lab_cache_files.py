"""The shared cache folder reads regular files only, without waiting, and a server at start
removes the temporary cache folders of servers that are gone (issue 31, item 6)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from vizgrad.lab._disk import DiskCache, TEMP_PREFIX, read_regular, sweep_dead
from tests.lab.test_lab_class import FORK, _worker


def test_a_fifo_over_a_cache_entry_is_a_miss_answered_at_once(tmp_path):
    first = _worker(tmp_path)
    good = first.post("/api/render", json=FORK)
    assert good.status_code == 200
    entries = list(tmp_path.glob("*.entry"))
    assert entries
    for entry in entries:  # each entry becomes a FIFO nobody writes into
        entry.unlink()
        os.mkfifo(entry)
    answers: list[object] = []
    second = _worker(tmp_path)
    thread = threading.Thread(target=lambda: answers.append(
        second.post("/api/render", json=FORK)), daemon=True)
    start = time.monotonic()
    thread.start()
    thread.join(30)
    assert answers, "the request waited on the FIFO"
    answer = answers[0]
    assert answer.status_code == 200 and answer.headers["x-vizgrad-cache"] == "miss"
    assert answer.content == good.content
    assert time.monotonic() - start < 10


def test_only_regular_files_are_read(tmp_path):
    regular = tmp_path / "a"
    regular.write_bytes(b"x" * 10)
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "link").symlink_to(regular)
    start = time.monotonic()
    assert read_regular(regular, 100) == b"x" * 10
    assert read_regular(regular, 9) is None  # longer than the bound
    assert read_regular(tmp_path / "fifo", 100) is None
    assert read_regular(tmp_path / "link", 100) is None
    assert read_regular(tmp_path / "missing", 100) is None
    assert read_regular(Path("/dev/zero"), 100) is None
    assert time.monotonic() - start < 1
    assert DiskCache(tmp_path, 1 << 20).lookup(("k",)) is None


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_the_folders_of_dead_servers_are_removed_and_live_ones_kept(tmp_path):
    dead = tmp_path / f"{TEMP_PREFIX}{_dead_pid()}-abc"
    alive = tmp_path / f"{TEMP_PREFIX}{os.getpid()}-def"
    other = tmp_path / f"{TEMP_PREFIX}nopid"
    for folder in (dead, alive, other):
        folder.mkdir()
        (folder / "x.entry").write_text("x")
    assert sweep_dead(str(tmp_path)) == [str(dead)]
    assert not dead.exists() and alive.exists() and other.exists()


def test_serve_removes_a_folder_left_by_a_killed_server():
    dead = Path(tempfile.gettempdir()) / f"{TEMP_PREFIX}{_dead_pid()}-test"
    dead.mkdir()
    (dead / "x.entry").write_text("x")
    import socket

    with socket.socket() as taken:  # a port in use: the server stops at once
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        proc = subprocess.run([sys.executable, "-m", "vizgrad", "serve", "--host", "127.0.0.1",
                               "--port", str(taken.getsockname()[1])],
                              capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "cannot listen" in proc.stderr
    try:
        assert not dead.exists()
    finally:
        if dead.exists():
            import shutil

            shutil.rmtree(dead)
