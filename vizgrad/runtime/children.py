"""Child processes that leave when the process that started them dies.

A pool worker or a layout worker whose parent was killed (SIGKILL leaves it no
chance to clean up) would otherwise run on forever. :func:`exit_with_parent`
starts a daemon thread that notices the parent is gone (the parent process id
changes when the parent dies) and ends this process::

    >>> watch = exit_with_parent(lambda: None, interval=5)
    >>> watch.daemon, watch.is_alive()
    (True, True)

It polls rather than using Linux's ``PR_SET_PDEATHSIG``, which fires when the
parent *thread* that started the child ends: a layout worker is started from
whichever thread asked for a layout, and server threads come and go.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

__all__ = ["exit_with_parent"]


def _leave() -> None:
    os._exit(1)


def exit_with_parent(on_orphan: Callable[[], None] = _leave,
                     interval: float = 0.5, parent: int | None = None) -> threading.Thread:
    """Call ``on_orphan()`` (default: exit at once) when this process's parent dies;
    ``parent``: the process id the parent had (if it may have died already), else the
    current parent's."""
    parent = os.getppid() if parent is None else parent

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        on_orphan()

    thread = threading.Thread(target=watch, name="vizgrad-parent-watch", daemon=True)
    thread.start()
    return thread
