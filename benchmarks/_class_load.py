"""``bench_lab.py --class N``: a class of N simulated students on ``vizgrad serve --workers 2``.

Each student loads the page (the HTML, its stylesheet and scripts, the examples, the words,
the trace and the scene of the ``fork`` example), then does 20 steps (``/api/render`` of step
0..7 in turn) and 5 input changes (a trace and a render with the values the teacher gave:
the same for the whole class) spread over ``--class-seconds`` with random pauses (seeded).
Students arrive over the first tenth of the time and are sent from 127.0.0.2 up (a few
students per address, each on its own keep-alive connection, under the lab's 64 per address).

"After arrivals" counts the requests sent once every student has loaded the page. Every
request must get a complete answer: 200, or 503 with ``Retry-After`` (then retried
after it); a timeout, a reset or another status is an error. It reports p50/p95 of the trace
and render APIs (renders split into cached and laid out), the peak memory of the server
processes, the load generator's own CPU share and the load average.
"""

from __future__ import annotations

import asyncio
import os
import random
import resource
import statistics
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx

PAGE = ["/", "/static/lab.css", "/static/vg/playback.js", "/static/lab.js", "/static/api.js",
        "/static/view.js", "/api/examples", "/api/words"]
#: the values the teacher asks for, one per input change (the same for every student)
CHANGES = [{"a": -1, "b": 2}, {"a": 0.5, "b": 3}, {"a": 2, "b": -1}, {"a": -3, "b": -2},
           {"a": 1.5, "b": 1.5}]
ADDRESSES = 8  # 127.0.0.2 .. 127.0.0.9


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _family(pid: int) -> list[int]:
    """The process and its children (uvicorn's workers)."""
    out = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


class Memory(threading.Thread):
    """Samples the summed resident memory of the server's processes every 0.25 s."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak_kb, self.peak_one_kb = pid, 0, 0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(0.25):
            sizes = [_rss_kb(p) for p in _family(self.pid)]
            self.peak_kb = max(self.peak_kb, sum(sizes))
            self.peak_one_kb = max(self.peak_one_kb, max(sizes, default=0))


class Tally:
    def __init__(self) -> None:
        self.times: dict[str, list[float]] = defaultdict(list)
        self.after: dict[str, list[float]] = defaultdict(list)  # sent once all have arrived
        self.settled = float("inf")  # when the last student has loaded the page
        self.loaded = 0
        self.errors: list[str] = []
        self.busy: dict[str, int] = defaultdict(int)  # 503 with Retry-After, retried
        self.requests = 0


async def _ask(client: httpx.AsyncClient, tally: Tally, kind: str, path: str,
               body: dict[str, Any] | None = None) -> None:
    for _ in range(5):
        t0 = time.perf_counter()
        try:
            r = (await client.post(path, json=body) if body is not None
                 else await client.get(path))
        except httpx.HTTPError as err:
            tally.errors.append(f"{kind}: {type(err).__name__}: {err}")
            return
        dt = time.perf_counter() - t0
        tally.requests += 1
        if r.status_code == 503 and r.headers.get("retry-after", "").isdigit():
            tally.busy[kind] += 1
            await asyncio.sleep(int(r.headers["retry-after"]))
            continue
        if r.status_code != 200:
            tally.errors.append(f"{kind}: HTTP {r.status_code}: {r.text[:120]}")
            return
        if kind == "render":
            kind = "render, not cached" if r.headers.get("x-vizgrad-cache") == "miss" else (
                "render, cached")
        tally.times[kind].append(dt)
        if t0 > tally.settled:
            tally.after[kind].append(dt)
        return
    tally.errors.append(f"{kind}: still busy after 5 tries")


async def _student(k: int, students: int, base: str, seconds: float, tally: Tally) -> None:
    rng = random.Random(k)
    address = f"127.0.0.{2 + k % ADDRESSES}"
    transport = httpx.AsyncHTTPTransport(local_address=address)
    fork = {"example": "fork"}
    await asyncio.sleep(rng.uniform(0, seconds / 10))
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as client:
        for path in PAGE:
            await _ask(client, tally, "page", path)
        await _ask(client, tally, "trace", "/api/trace", fork)
        await _ask(client, tally, "scene", "/api/scene", fork)
        tally.loaded += 1
        if tally.loaded == students:
            tally.settled = time.perf_counter()
        actions = ["step"] * 20 + ["change"] * 5
        rng.shuffle(actions)
        pause = (seconds * 0.85) / len(actions)
        values, step, change = {"a": -2, "b": 3}, 0, 0
        for action in actions:
            await asyncio.sleep(rng.uniform(0.5, 1.5) * pause)
            if action == "change":
                values, change = CHANGES[change], change + 1
                await _ask(client, tally, "trace", "/api/trace", {**fork, "values": values})
            else:
                step = (step + 1) % 8
            await _ask(client, tally, "render", "/api/render",
                       {**fork, "values": values, "step": step})


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))] * 1000 if xs else float("nan")


def run_class(students: int, seconds: float, start_server: Any, stop_server: Any) -> int:
    """Run the class against a fresh 2-worker server; print a Markdown report; 1 if any error."""
    proc, base = start_server(2)
    memory = Memory(proc.pid)
    memory.start()
    tally = Tally()
    cpu0, wall0 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()

    async def everyone() -> None:
        tasks = [asyncio.create_task(_student(k, students, base, seconds, tally))
                 for k in range(students)]
        done, late = await asyncio.wait(tasks, timeout=seconds * 2 + 60)  # stops by itself
        for t in late:
            t.cancel()
        tally.errors += ["student still running at the deadline"] * len(late)

    try:
        asyncio.run(everyone())
    finally:
        wall = time.perf_counter() - wall0
        cpu1 = resource.getrusage(resource.RUSAGE_SELF)
        load = os.getloadavg()
        memory.stop.set()
        memory.join()
        stop_server(proc)
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    print(f"A class of {students} students on `vizgrad serve --workers 2`, {os.cpu_count()} "
          f"CPUs, {wall:.0f} s wall; {tally.requests} requests, {sum(tally.busy.values())} "
          f"answered 503 with Retry-After and retried ({dict(tally.busy)}), "
          f"{len(tally.errors)} errors\n")
    print("| API | requests | p50 ms | p95 ms | max ms | after arrivals: requests | p50 ms "
          "| p95 ms |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for kind in ("page", "trace", "scene", "render, cached", "render, not cached"):
        xs, ys = tally.times.get(kind, []), tally.after.get(kind, [])
        print(f"| {kind} | {len(xs)} | {_pct(xs, 0.5):.1f} | {_pct(xs, 0.95):.1f} | "
              f"{max(xs, default=float('nan')) * 1000:.1f} | {len(ys)} | {_pct(ys, 0.5):.1f} | "
              f"{_pct(ys, 0.95):.1f} |")
    print(f"\nThe last student had loaded the page {tally.settled - wall0:.0f} s in.")
    print(f"Peak memory of the server processes: {memory.peak_kb / 1024:.0f} MB in all, "
          f"{memory.peak_one_kb / 1024:.0f} MB the largest process. Load generator CPU: "
          f"{cpu:.1f} s in {wall:.0f} s = {100 * cpu / wall / (os.cpu_count() or 1):.0f}% of "
          f"the machine. Load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}.")
    drawings = (1 + len(CHANGES)) * 8
    print(f"Distinct drawings: at most {drawings} (8 steps of 6 sets of values); renders "
          f"with no cached copy: {len(tally.times.get('render, not cached', []))} on 2 workers "
          f"(two unshared caches could miss each drawing once per worker: {2 * drawings}).")
    cached = tally.times.get("render, cached", [])
    print(f"Targets: p95 of cached renders {_pct(cached, 0.95):.0f} ms (≤ 300), lost "
          f"requests {len(tally.errors)} (0).")
    if tally.errors:
        kinds = statistics.multimode(e.split(":")[0] for e in tally.errors)
        print(f"\nerrors, first: {tally.errors[0]} (most in: {', '.join(kinds)})")
        return 1
    return 0
