"""A time limit and a memory watchdog around a user's own code (``build()``, a training step).

The code runs in the calling process (training updates a net's parameters in place between
calls), so the bounds are in-process: ``SIGALRM`` in the main thread for the time, and a
thread that samples the resident size every :data:`SAMPLE_SECONDS` and sends ``SIGALRM`` to
the main thread when it is over the limit. Not ``RLIMIT_AS``: the embedded Graphviz reserves
address space far beyond what it touches, and an address-space limit would starve it.

The alarm repeats every :data:`REPEAT_SECONDS` until the block ends, so user code that
swallows the first stop (``except BaseException: pass``) is stopped again. A stop is a
:class:`~vizgrad.exceptions.ModelLimitError` naming the limit and the option that raises it::

    >>> with bounded(1.0, None, "build()", ("--build-seconds", "--build-memory")):
    ...     sum(range(10))
    45
    >>> import time
    >>> with bounded(0.2, None, "build()", ("--build-seconds", "--build-memory")):
    ...     while True:  # doctest: +ELLIPSIS
    ...         time.sleep(0.01)
    Traceback (most recent call last):
    ...
    vizgrad.exceptions.ModelLimitError: build() ran past its time limit of 0.2 s; ...

Outside the main thread (where no signal can be handled) the block runs unbounded.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from ..exceptions import ModelLimitError

__all__ = ["DEFAULT_BUILD_MEMORY", "DEFAULT_BUILD_SECONDS", "REPEAT_SECONDS", "SAMPLE_SECONDS",
           "WatchdogStop", "bounded", "resident_bytes"]

#: seconds a model file's code may run (``--build-seconds``)
DEFAULT_BUILD_SECONDS = 60.0
#: bytes the process may hold resident while it runs (``--build-memory``)
DEFAULT_BUILD_MEMORY = 4_000_000_000
#: how often the memory watchdog reads the resident size
SAMPLE_SECONDS = 0.05
#: how often a stop is repeated until the user's code lets it through
REPEAT_SECONDS = 0.5


class WatchdogStop(BaseException):
    """Raised in the main thread by the alarm; a BaseException so ``except Exception``
    in the user's code does not swallow it."""


def resident_bytes() -> int:
    """The process's resident size now (Linux ``/proc``), else its peak so far."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


#: the block being watched: (its memory limit, its reasons, its armed flag), or None
_WATCHED: list[tuple[int, list[str], list[bool]] | None] = [None]
_LOCK = threading.Lock()
_WATCHER: list[threading.Thread] = []


def _ignore(signum: int, frame: object) -> None:
    """What a SIGALRM sent just as a watched block ended meets: nothing."""


def _watch(memory: int, why: list[str], armed: list[bool]) -> None:
    """Watch this block's resident size with the one watcher thread of the process (started
    on first use, so a training step costs no thread of its own)."""
    with _LOCK:
        _WATCHED[0] = (memory, why, armed)
        if not _WATCHER or not _WATCHER[0].is_alive():
            _WATCHER[:] = [threading.Thread(target=_watcher, name="vizgrad-memory-watchdog",
                                            daemon=True)]
            _WATCHER[0].start()


def _watcher() -> None:
    main_id = threading.main_thread().ident
    while True:
        time.sleep(SAMPLE_SECONDS)
        seen = _WATCHED[0]  # read once: the block may end meanwhile
        if seen is None or resident_bytes() <= seen[0]:
            continue
        with _LOCK:
            watched = _WATCHED[0]
            if watched is None or not watched[2] or main_id is None:
                continue
            watched[1].append("memory")
            signal.pthread_kill(main_id, signal.SIGALRM)
        time.sleep(REPEAT_SECONDS)


def _gb(n: float) -> str:
    return f"{n / 1e9:.3g} GB" if n >= 1e9 else f"{n / 1e6:.3g} MB"


@contextmanager
def bounded(seconds: float | None, memory: int | None, what: str,
            options: tuple[str, str]) -> Iterator[None]:
    """Run the block under a time limit (``seconds``) and a resident-size limit (``memory``
    bytes); ``None`` leaves one out. ``what`` names the code in the message and
    ``options`` the two options that raise the limits."""
    main = threading.current_thread() is threading.main_thread()
    if not main or (seconds is None and memory is None):
        yield
        return
    why: list[str] = []
    armed = [True]  # cleared as soon as the block ends: a late alarm then does nothing

    def alarm(signum: int, frame: object) -> None:
        if armed:
            why.append("time")
            raise WatchdogStop()

    old = signal.signal(signal.SIGALRM, alarm)
    old_timer = signal.setitimer(signal.ITIMER_REAL, 0)
    stopped = False
    try:
        if seconds is not None:
            signal.setitimer(signal.ITIMER_REAL, seconds, REPEAT_SECONDS)
        if memory is not None:
            _watch(memory, why, armed)
        try:
            yield
            armed.clear()
        except WatchdogStop:
            armed.clear()
            stopped = True
    finally:
        armed.clear()
        with _LOCK:  # the watcher sends no alarm past here
            _WATCHED[0] = None
        signal.setitimer(signal.ITIMER_REAL, 0)
        # a late alarm must find a handler: never back to the default, which ends the process
        signal.signal(signal.SIGALRM, old if callable(old) else _ignore)
        if old_timer[0]:
            signal.setitimer(signal.ITIMER_REAL, *old_timer)
    if stopped and "memory" in why:
        raise ModelLimitError(
            f"{what} held more than {_gb(memory or 0)} of memory; raise the limit with "
            f"{options[1]} SIZE (e.g. 8G)")
    if stopped:
        raise ModelLimitError(f"{what} ran past its time limit of {seconds:g} s; raise it "
                              f"with {options[0]} SECONDS")
