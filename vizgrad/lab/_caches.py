"""The lab's in-memory caches: rendered text (with the shared folder of :mod:`._disk` behind
it), the step and key of a render request, and laid-out scenes; each thread-safe and bounded.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from starlette.concurrency import run_in_threadpool

if TYPE_CHECKING:
    from ._disk import DiskCache
    from ._requests import Query

__all__ = ["RenderCache", "KeyMemo", "SceneCache", "Flights", "query_key", "cached", "keep"]


class RenderCache:
    """A thread-safe LRU of rendered text keyed by (graph hash, step, theme, format, rankdir).

    >>> c = RenderCache(2)
    >>> c.get(("k", 0), lambda: "svg"), c.get(("k", 0), lambda: "other")
    (('svg', False), ('svg', True))
    """

    def __init__(self, maxsize: int, disk: DiskCache | None = None) -> None:
        self.maxsize = maxsize
        self.disk = disk  # shared by the workers: looked up after memory, before a layout
        self._data: OrderedDict[tuple[Any, ...], str] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: tuple[Any, ...], compute: Callable[[], str]) -> tuple[str, bool]:
        """The cached text and True, or the computed (and now cached) text and False."""
        found = self.lookup(key)
        if found is not None:
            return found, True
        value = compute()
        self.store(key, value)
        return value, False

    def lookup(self, key: tuple[Any, ...], disk: bool = True) -> str | None:
        """The cached text (a hit in memory, else looked up on disk unless ``disk`` is
        False), or None (a miss)."""
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                self.hits += 1
                return self._data[key]
            self.misses += 1
        return self.from_disk(key) if disk else None

    def from_disk(self, key: tuple[Any, ...]) -> str | None:
        """The text in the shared folder (now kept in memory too), or None."""
        found = self.disk.lookup(key) if self.disk is not None else None
        if found is not None:
            self._keep(key, found)
        return found

    def store(self, key: tuple[Any, ...], value: str) -> None:
        """Keep ``value`` (in memory and on disk)."""
        self._keep(key, value)
        if self.disk is not None:
            self.disk.store(key, value)

    def _keep(self, key: tuple[Any, ...], value: str) -> None:
        """Keep ``value`` in memory, dropping the least recently used beyond ``maxsize``."""
        if self.maxsize > 0:
            with self._lock:
                self._data[key] = value
                self._data.move_to_end(key)
                while len(self._data) > self.maxsize:
                    self._data.popitem(last=False)

    def __len__(self) -> int:
        return len(self._data)


class KeyMemo(OrderedDict[str, tuple[int, tuple[Any, ...]]]):
    """An LRU of render requests (as exact text) to their step and cache key, so a cached
    drawing is found without building its graph again.

    >>> m = KeyMemo(1); m["a"] = (0, ("k",)); m["b"] = (1, ("j",)); list(m), m.get("a")
    (['b'], None)
    """

    def __init__(self, maxsize: int) -> None:
        super().__init__()
        self.maxsize = maxsize
        self._lock = threading.Lock()

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        with self._lock:
            if key in self:
                self.move_to_end(key)
            return super().get(key, default)

    def __setitem__(self, key: str, value: tuple[int, tuple[Any, ...]]) -> None:
        with self._lock:
            super().__setitem__(key, value)
            self.move_to_end(key)
            while len(self) > self.maxsize:
                self.popitem(last=False)


class SceneCache:
    """A small thread-safe LRU of :class:`~vizgrad.scene.scene.Scene` objects (one layout
    each), so every step and the scene endpoint of one graph share one Graphviz run."""

    def __init__(self, maxsize: int = 16) -> None:
        self.maxsize = maxsize
        self._data: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...], compute: Callable[[], Any]) -> Any:
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                return self._data[key]
        value = compute()
        with self._lock:
            self._data[key] = value
            while len(self._data) > self.maxsize:
                self._data.popitem(last=False)
        return value


def query_key(q: Query) -> str:
    """The request as exact text: equal for equal requests only (``1`` is not ``1.0``).

    >>> from vizgrad.lab._requests import Query
    >>> query_key(Query(example="fork", values={"a": 1})) == query_key(
    ...     Query(example="fork", values={"a": 1.0}))
    False
    """
    return json.dumps(dataclasses.asdict(q), sort_keys=True, separators=(",", ":"))


async def cached(cache: RenderCache, key: tuple[Any, ...]) -> str | None:
    """The cached text: memory on the event loop, the shared folder in a thread."""
    found = cache.lookup(key, disk=False)
    if found is None and cache.disk is not None:
        found = await run_in_threadpool(cache.from_disk, key)
    return found


async def keep(cache: RenderCache, key: tuple[Any, ...], text: str) -> None:
    """Cache ``text``; writing the shared folder (and evicting from it) runs in a thread."""
    if cache.disk is None:
        cache.store(key, text)
    else:
        await run_in_threadpool(cache.store, key, text)


class Flights:
    """Layouts in flight, by cache key: a request for a drawing that another request is
    laying out now waits for that one instead of queueing at the gate for its own.

    The first request's answer (or its error) is every waiter's; if its client left and
    its layout was stopped (``None``), the next waiter lays out itself. Used on the event
    loop only (no lock needed).

    >>> async def demo():
    ...     f, runs = Flights(), []
    ...     async def make():
    ...         runs.append(1); await asyncio.sleep(0.01); return "svg"
    ...     answers = await asyncio.gather(*(f.share("k", make) for _ in range(3)))
    ...     return answers, len(runs)
    >>> asyncio.run(demo())
    ([('svg', False), ('svg', True), ('svg', True)], 1)
    """

    def __init__(self) -> None:
        self._running: dict[Any, asyncio.Future[Any]] = {}

    async def share(self, key: Any, make: Callable[[], Awaitable[Any]]) -> tuple[Any, bool]:
        """``(answer, shared)``: ``make()``'s answer, or that of the same key in flight."""
        while (running := self._running.get(key)) is not None:
            answer = await asyncio.shield(running)
            if answer is not None:
                return answer, True
        mine: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._running[key] = mine
        try:
            answer = await make()
        except Exception as err:
            mine.set_exception(err)
            mine.exception()  # seen here: no "never retrieved" warning when nobody waits
            raise
        except BaseException:
            mine.set_result(None)  # cancelled: a waiter lays out itself
            raise
        finally:
            del self._running[key]
        mine.set_result(answer)
        return answer, False
