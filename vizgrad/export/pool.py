"""The worker processes of a batch export (see :func:`vizgrad.export.batch.export`).

Tasks run in spawned processes; each worker raises a shared counter after
every picture, so the parent's progress bar moves during long tasks. On an
error or Ctrl+C every worker is stopped at once and unwinds, removing its
temporary file; the export then sweeps whatever a worker stopped twice could
not remove.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any, Callable, Mapping

from ..runtime.children import exit_with_parent

__all__ = ["Work", "run_task", "run_parallel", "report", "set_progress"]

#: called with k after k pictures of the running task (a step SVG, a frame)
_progress: Callable[[int], None] | None = None
_in_task = False


def set_progress(callback: Callable[[int], None] | None) -> None:
    """Where :func:`report` sends the count of finished pictures in this process."""
    global _progress
    _progress = callback


def report(k: int = 1) -> None:
    """``k`` more pictures are done."""
    if _progress is not None:
        _progress(k)


def progress_hook() -> Callable[[int], None] | None:
    """The callback for a renderer's ``progress=`` option (None when nobody listens)."""
    return report if _progress is not None else None


#: writes one task: ``work(job, folder, opts)`` -> {path in folder: changed}; picklable
#: (a module-level function or a partial of one), so that a worker process can run it
Work = Callable[[Any, Path, Any], "dict[str, bool]"]


def run_task(work: Work, job: Any, out: str, opts: Any) -> dict[str, bool]:
    """One unit of work, run in a worker process; returns {relative path: changed}."""
    global _in_task
    folder = Path(out) / job.folder
    _in_task = True
    try:
        written = work(job, folder, opts)
    except KeyboardInterrupt:
        if multiprocessing.parent_process() is not None:
            os._exit(130)  # stopped by the parent: leave now, do not take the next task
        raise
    finally:
        _in_task = False
    return {f"{job.folder}/{rel}": changed for rel, changed in written.items()}


def _worker_init(counter: Any = None) -> None:
    """In a worker: leave Ctrl+C to the parent; on SIGTERM unwind, so temporary files go.

    ``counter`` is a shared integer that the worker raises after each picture,
    for the parent's progress bar.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _interrupt)
    exit_with_parent(_orphaned)
    if counter is not None:

        def count(k: int) -> None:
            with counter.get_lock():
                counter.value += k

        set_progress(count)


def _interrupt(signum: int, frame: Any) -> None:
    if not _in_task:
        os._exit(128 + signum)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second SIGTERM must not cut the unwinding
    raise KeyboardInterrupt  # unwinds the task (temporary files are removed), see run_task


def _orphaned() -> None:
    """The parent died (even by SIGKILL): unwind as on SIGTERM, then go anyway."""
    os.kill(os.getpid(), signal.SIGTERM)  # unwinds a running task (see _interrupt)
    time.sleep(5)
    os._exit(1)  # the task did not unwind in time


def run_parallel(work: Mapping[str, Work], tasks: list[tuple[str, Any]], root: Path, opts: Any,
                 workers: int, results: dict[str, bool], on_done: Callable[[str], None] | None,
                 on_step: Callable[[int], None] | None) -> None:
    """Run the tasks (kind, job) on a process pool, ``work[kind]`` for each; on an error or
    Ctrl+C stop every worker at once."""
    # spawn: a clean interpreter per worker on every OS (no inherited threads or
    # layout processes), and workers are children of this process, so their CPU
    # time is accounted to it
    ctx = multiprocessing.get_context("spawn")
    counter = ctx.Value("q", 0) if on_step else None
    before = {p.pid for p in multiprocessing.active_children()}
    pool = ProcessPoolExecutor(max_workers=min(workers, len(tasks)), mp_context=ctx,
                               initializer=_worker_init, initargs=(counter,))
    seen = 0

    def progress() -> None:
        nonlocal seen
        if counter is not None and on_step is not None:
            now = counter.get_obj().value  # a plain read: a stopped worker may hold the lock
            if now > seen:
                on_step(now - seen)
                seen = now

    try:
        futures = {pool.submit(run_task, work[kind], job, str(root), opts): f"{job.folder} {kind}"
                   for kind, job in tasks}
        pending = set(futures)
        while pending:
            done, pending = wait(pending, timeout=0.25 if on_step else None,
                                 return_when=FIRST_EXCEPTION)
            progress()
            for f in sorted(done, key=lambda f: futures[f]):
                error = f.exception()
                if error is not None:
                    raise error
                results.update(f.result())
                if on_done:
                    on_done(futures[f])
    except BaseException:
        # the remaining work is abandoned: running workers are stopped (each
        # removes its temporary file), not waited for
        # (this process's children that were not there before the pool: its workers)
        procs = [p for p in multiprocessing.active_children() if p.pid not in before]
        for proc in procs:
            proc.terminate()
        pool.shutdown(wait=True, cancel_futures=True)
        for proc in procs:
            proc.join()
        raise
    pool.shutdown(wait=True)
