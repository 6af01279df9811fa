"""The attack suite: real ``vizgrad serve`` processes on loopback, attacked within bounds.

Every test module here is marked ``adversarial`` (``pytestmark``; run only them with
``-m adversarial``; they also run with the rest). Traffic goes to 127.0.0.0/8 only, every loop is
bounded in count and time, and every process a test starts is killed by the test.
Each attack is counted in a tally of tried / held / failed; with
``VIZGRAD_ADVERSARIAL_REPORT=FILE`` the tally is written there as a Markdown table.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

TALLY: dict[str, list[int]] = {}  # attack -> [tried, held]


def pytest_sessionfinish(session: pytest.Session) -> None:
    target = os.environ.get("VIZGRAD_ADVERSARIAL_REPORT")
    if target and TALLY:
        lines = ["| attack | tried | failed | held |", "|---|---:|---:|---:|"]
        lines += [f"| {name} | {t} | {t - h} | {h} |" for name, (t, h) in TALLY.items()]
        Path(target).write_text("\n".join(lines) + "\n", encoding="utf-8")


def tally(attack: str, tried: int, held: int) -> None:
    """Count ``tried`` attempts of ``attack``, of which ``held`` were answered as they must."""
    row = TALLY.setdefault(attack, [0, 0])
    row[0] += tried
    row[1] += held


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Lab:
    """A running ``vizgrad serve``: its base URL, port and process."""

    base: str
    port: int
    proc: subprocess.Popen
    extra: list[int] = field(default_factory=list)  # other process ids to kill at the end

    def children(self) -> list[int]:
        """The process ids whose parent is the server process (its workers)."""
        return children_of(self.proc.pid)


def children_of(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def start_lab(*args: str, prelude: str = "", timeout: float = 60) -> Lab:
    """Start ``vizgrad serve`` on a free loopback port (``prelude``: Python run first, in
    the server process, to inject a fault); return once /api/health answers."""
    port = free_port()
    argv = ["vizgrad", "serve", "--host", "127.0.0.1", "--port", str(port),
            "--log-level", "error", *args]
    code = f"{prelude}\nimport sys\nsys.argv = {argv!r}\nfrom vizgrad.cli import main\nmain()\n"
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=env)
    lab = Lab(f"http://127.0.0.1:{port}", port, proc)
    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(lab.base + "/api/health", timeout=2).status_code == 200:
                return lab
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            stop_lab(lab)
            raise RuntimeError(f"the lab did not start: {proc.stderr.read()!r}")
        time.sleep(0.2)


def stop_lab(lab: Lab) -> None:
    """Kill the server and every process it started that is still there."""
    pids = [*lab.children(), *lab.extra]
    if lab.proc.poll() is None:
        lab.proc.kill()
    for pid in pids:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)
    lab.proc.wait(timeout=10)
    if lab.proc.stderr:
        lab.proc.stderr.close()


@pytest.fixture
def lab() -> Iterator[Lab]:
    """A plain ``vizgrad serve`` (one worker)."""
    server = start_lab()
    try:
        yield server
    finally:
        stop_lab(server)


@pytest.fixture(scope="module")
def shared_lab() -> Iterator[Lab]:
    """One ``vizgrad serve`` for the attacks of a module that leave it as it was."""
    server = start_lab()
    try:
        yield server
    finally:
        stop_lab(server)
