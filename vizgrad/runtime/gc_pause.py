"""The garbage collector around a one-shot command's bulk phase (``vizgrad render``).

Building a graph of a million values makes millions of objects that all live on; the cyclic
collector's full collections would scan them again and again for nothing. The collector is
process-wide, so only a one-shot command pauses it, never a library call (a user's program
may trace from several threads) nor the lab. Both managers restore what they found on every
way out, an exception included::

    >>> import gc
    >>> with paused_collector():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused_collector", "frozen_heap"]


@contextmanager
def paused_collector() -> Iterator[None]:
    """No collection at all while the graph is built (it makes no garbage cycles worth it)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@contextmanager
def frozen_heap() -> Iterator[None]:
    """Everything alive now (the graph just built) is left out of every collection until the
    block ends, so rendering's collections scan only what rendering makes."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
