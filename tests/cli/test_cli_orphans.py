"""Killing ``vizgrad render`` alone must not leave its pool or layout workers running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="needs /proc to list child processes (Linux)")


def _children(pid: int) -> set[int]:
    """Every process whose parent is ``pid``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_workers_exit_when_the_cli_is_killed(tmp_path, sig):
    proc = subprocess.Popen([sys.executable, "-m", "vizgrad", "render", "--out", str(tmp_path),
                             "-q", "--jobs", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    family: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            kids = _children(proc.pid)
            family |= kids | {g for k in kids for g in _children(k)}
            if any(_children(k) for k in kids):  # a pool worker has started its layout worker
                break
            time.sleep(0.1)
        assert proc.poll() is None and family, "the export ended before it could be killed"
        os.kill(proc.pid, sig)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and any(_alive(p) for p in family):
            time.sleep(0.2)
        assert not [p for p in family if _alive(p)]
    finally:
        for p in family | {proc.pid}:
            if _alive(p):
                os.kill(p, signal.SIGKILL)
        proc.wait(timeout=10)
