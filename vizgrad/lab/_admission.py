"""Admission of layouts: a bounded queue with a deadline per request, counted from arrival.

Layouts are expensive and run one at a time per process, so the lab lets at most
``active`` of them run and ``waiting`` more wait; anything beyond that, and any
request whose deadline passes while it waits, is answered 503 with
``Retry-After`` at once. A waiting request whose client has gone leaves the
queue. Trace, gradcheck and health never pass through here, so they do not
wait behind renders::

    >>> import asyncio
    >>> gate = LayoutGate(active=1, waiting=0)
    >>> async def two_at_once():
    ...     async with gate.slot(deadline=asyncio.get_running_loop().time() + 5):
    ...         try:
    ...             async with gate.slot(deadline=asyncio.get_running_loop().time() + 5):
    ...                 pass
    ...         except ApiError as err:
    ...             return err.status, err.error
    >>> asyncio.run(two_at_once())
    (503, 'busy')
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

from ._requests import ApiError

__all__ = ["RETRY_AFTER", "LayoutGate", "busy", "watch"]

#: seconds a client is asked to wait before it retries an overloaded request
RETRY_AFTER = 2
_POLL = 0.2  # seconds between checks that a waiting client is still connected
T = TypeVar("T")


def busy(detail: str) -> ApiError:
    """The 503 answer for an overloaded lab (the caller adds ``Retry-After``)."""
    return ApiError(503, "busy", detail, retry_after=RETRY_AFTER)


class LayoutGate:
    """At most ``active`` layouts run and ``waiting`` wait; the rest get 503 at once.

    It holds no lock: its counts change only between ``await`` points of one event
    loop, so a request cancelled anywhere (a client gone, a server shutting down)
    leaves them as they were, and nothing can be released that was not taken.
    """

    def __init__(self, active: int = 1, waiting: int = 8) -> None:
        self.active = active
        self.waiting = waiting
        self._running = 0
        self._queued = {False: 0, True: 0}  # big, small
        self._wakers: set[asyncio.Future[None]] = set()

    def _wake_all(self) -> None:
        for waker in self._wakers:
            if not waker.done():
                waker.set_result(None)

    async def _changed(self, timeout: float) -> None:
        """Return when a slot is freed, or after ``timeout`` seconds."""
        waker = asyncio.get_running_loop().create_future()
        self._wakers.add(waker)
        try:
            await asyncio.wait({waker}, timeout=timeout)  # never cancels the waker itself
        finally:
            self._wakers.discard(waker)

    def _must_wait(self, small: bool) -> bool:
        return self._running >= self.active or (not small and self._queued[True] > 0)

    @contextlib.asynccontextmanager
    async def slot(self, deadline: float, gone: Callable[[], Awaitable[bool]] | None = None,
                   small: bool = False) -> AsyncIterator[float]:
        """Wait for a free slot until ``deadline`` (event-loop time); yield the seconds left.

        ``gone()`` tells whether the client has disconnected; such a request leaves
        the queue with a 503 that nobody reads. ``small`` drawings (quick to lay out)
        have a queue of their own and go first, so slow ones cannot crowd them out.
        """
        loop = asyncio.get_running_loop()
        if self._running >= self.active and self._queued[small] >= self.waiting:
            raise busy(f"the lab is busy: {self._running} drawings are being laid out and "
                       f"{sum(self._queued.values())} wait; try again in {RETRY_AFTER} s")
        self._queued[small] += 1
        try:
            while self._must_wait(small):
                left = deadline - loop.time()
                if left <= 0:
                    raise busy("the lab is busy: this drawing waited its whole time limit "
                               f"for a free layout slot; try again in {RETRY_AFTER} s")
                await self._changed(min(left, _POLL))
                if self._must_wait(small) and gone is not None and await gone():
                    raise busy("the client disconnected while the drawing waited")
        finally:
            self._queued[small] -= 1
            self._wake_all()  # a big drawing may wait for this small one to leave the queue
        self._running += 1  # no await since the check above: the slot is this request's
        try:
            left = deadline - loop.time()
            if left <= 0:
                raise busy(f"the lab is busy: no time was left to lay out this drawing; "
                           f"try again in {RETRY_AFTER} s")
            yield left
        finally:
            self._running -= 1
            self._wake_all()


async def watch(work: Awaitable[T], gone: Callable[[], Awaitable[bool]],
                on_gone: Callable[[], Any]) -> T | None:
    """Await ``work``; if ``gone()`` turns true first, call ``on_gone()`` (which must make
    the work stop), wait for it to end and return None.

    >>> async def answer():
    ...     return 42
    >>> async def here():
    ...     return False
    >>> asyncio.run(watch(answer(), here, lambda: None))
    42
    """
    task = asyncio.ensure_future(work)
    while True:
        done, _ = await asyncio.wait({task}, timeout=_POLL)
        if done:
            return task.result()
        if await gone():
            on_gone()
            with contextlib.suppress(Exception):
                await task
            return None
