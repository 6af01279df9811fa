"""Load benchmark of the lab's HTTP API on loopback.

Run: ``python benchmarks/bench_lab.py [--quick] [--workers 1,2] [--concurrency 8]``.

For each worker count it starts ``vizgrad serve --workers N`` on 127.0.0.1 (a free port),
then runs a bounded number of concurrent clients
(at most ``--requests`` requests and ``--time-limit`` seconds per scenario)
against: trace, gradcheck, render with a warm cache (the same step every
time) and render with a cold cache (new input values every request, so every
render runs Graphviz). It prints requests/s, p50/p95 latency and errors as
a Markdown table, and exits 1 if any request failed.

``--hostile`` measures instead what ``tests/lab/test_lab_load.py`` only counts: the latency of
fork traces while 40 renders of ``a*b+a*b+...`` (125 terms, the slowest kind of graph for
``dot``) flood one worker (target: p95 under 1 s), and how long SIGTERM takes to stop the
server while 10 such renders are in flight (target: under 5 s), each ``--repeat`` times.

``--class 200`` runs a class of simulated students on 2 workers (``benchmarks/_class_load.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import httpx

HOST = "127.0.0.1"  # loopback only: this benchmark never talks to another machine


@dataclass
class Result:
    name: str
    server: str
    workers: int
    concurrency: int
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    misses: int = 0
    elapsed: float = 0.0

    @property
    def rps(self) -> float:
        return len(self.latencies) / self.elapsed if self.elapsed else 0.0

    def pct(self, q: float) -> float:
        if not self.latencies:
            return float("nan")
        xs = sorted(self.latencies)
        return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))] * 1000


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


LAUNCHERS = {
    # the documented way: vizgrad serve keeps TCP_NODELAY with several workers
    "serve": lambda port, w: [sys.executable, "-m", "vizgrad", "serve", "--host", HOST,
                              "--port", str(port), "--workers", str(w), "--log-level", "warning"],
    # plain uvicorn, for comparison (its --workers path loses TCP_NODELAY, uvicorn #3149)
    "uvicorn": lambda port, w: [sys.executable, "-m", "uvicorn", "--factory",
                                "vizgrad.lab.app:create_app", "--host", HOST, "--port", str(port),
                                "--workers", str(w), "--log-level", "warning", "--no-access-log"],
}


def start_server(workers: int, launcher: str = "serve") -> tuple[subprocess.Popen, str]:
    port = free_port()
    cmd = LAUNCHERS[launcher](port, workers)
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONWARNINGS": "ignore"})
    base = f"http://{HOST}:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(base + "/api/health", timeout=2).status_code == 200:
                return proc, base
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            stop_server(proc)
            sys.exit(f"the lab server did not start: {proc.stderr.read() if proc.stderr else ''}")
        time.sleep(0.2)


def stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


async def run(base: str, name: str, path: str, body: Callable[[int], dict[str, Any]],
              server: str, workers: int, concurrency: int, requests: int,
              time_limit: float) -> Result:
    result = Result(name, server, workers, concurrency)
    counter = iter(range(requests))
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30) as client:
        deadline = time.perf_counter() + time_limit

        async def one_client() -> None:
            for i in counter:
                if time.perf_counter() > deadline:
                    return
                t0 = time.perf_counter()
                try:
                    r = await client.post(path, json=body(i))
                except httpx.HTTPError as err:
                    result.errors.append(f"{type(err).__name__}: {err}")
                    continue
                dt = time.perf_counter() - t0
                if r.status_code != 200:
                    result.errors.append(f"HTTP {r.status_code}: {r.text[:200]}")
                    continue
                result.latencies.append(dt)
                result.misses += r.headers.get("x-vizgrad-cache") == "miss"

        start = time.perf_counter()
        await asyncio.gather(*(one_client() for _ in range(concurrency)))
        result.elapsed = time.perf_counter() - start
    return result


def scenarios(requests: int) -> list[tuple[str, str, Callable[[int], dict[str, Any]]]]:
    fork = {"example": "fork", "values": {"a": -2, "b": 3}}

    def cold(i: int) -> dict[str, Any]:
        # a new input value per request: a new graph, so a render cache miss every time
        return {"example": "fork",
                "values": {"a": -19.9 + 39.8 * i / max(requests, 1) + 1e-7, "b": 3},
                "step": 7}

    return [
        ("trace (fork)", "/api/trace", lambda i: fork),
        ("gradcheck (fork)", "/api/gradcheck", lambda i: {**fork, "h": 1e-6}),
        ("render, cached", "/api/render", lambda i: {**fork, "step": 7}),
        ("render, uncached", "/api/render", cold),
    ]


HOSTILE = "+".join(["a*b"] * 125)


def _hostile(base: str, n: int, statuses: list[int]) -> list[threading.Thread]:
    """``n`` renders of the hostile sum at once, each with new values (never cached)."""
    def one(k: int) -> None:
        body = {"expression": HOSTILE, "values": {"a": k / 1000 + time.time() % 1, "b": 1.5}}
        try:
            statuses.append(httpx.post(base + "/api/render", json=body, timeout=60).status_code)
        except httpx.TransportError:
            statuses.append(0)

    threads = [threading.Thread(target=one, args=(k,), daemon=True) for k in range(n)]
    for t in threads:
        t.start()
    return threads


def traces_beside_hostile_renders() -> tuple[list[float], list[int]]:
    """Latencies (s) of 40 fork traces, 0.2 s apart, while 40 hostile renders run."""
    proc, base = start_server(1)
    try:
        with httpx.Client(timeout=30) as c:
            c.post(base + "/api/trace", json={"example": "fork"})
            statuses: list[int] = []
            threads = _hostile(base, 40, statuses)
            times = []
            for _ in range(40):
                t0 = time.perf_counter()
                c.post(base + "/api/trace", json={"example": "fork"}).raise_for_status()
                times.append(time.perf_counter() - t0)
                time.sleep(0.2)
            for t in threads:
                t.join(timeout=120)
        return times, statuses
    finally:
        stop_server(proc)


def sigterm_stop() -> tuple[float, list[int]]:
    """Seconds from SIGTERM to exit, with 10 hostile renders in flight."""
    proc, base = start_server(1)
    try:
        statuses: list[int] = []
        threads = _hostile(base, 10, statuses)
        time.sleep(1.5)  # layouts run and wait now
        t0 = time.perf_counter()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        stopped = time.perf_counter() - t0
        for t in threads:
            t.join(timeout=60)
        return stopped, statuses
    finally:
        if proc.poll() is None:
            stop_server(proc)


def hostile(repeat: int) -> int:
    rows = []
    bad: list[int] = []
    for _ in range(repeat):
        times, statuses = traces_beside_hostile_renders()
        xs = sorted(times)
        rows.append(("fork trace beside 40 hostile renders, p95", xs[int(0.95 * len(xs)) - 1],
                     1.0, f"p50 {statistics.median(xs) * 1000:.0f} ms, "
                          f"max {xs[-1] * 1000:.0f} ms"))
        bad += [s for s in statuses if s not in (200, 422, 503)]
        stopped, statuses = sigterm_stop()
        rows.append(("SIGTERM to exit, 10 hostile renders in flight", stopped, 5.0, ""))
        bad += [s for s in statuses if s not in (0, 200, 503)]
    print(f"Lab under hostile load on {HOST}, 1 worker, {os.cpu_count()} CPUs, "
          f"{repeat} run(s)\n")
    print("| measurement | seconds | target | met | note |")
    print("|---|---:|---:|---|---|")
    for name, value, target, note in rows:
        print(f"| {name} | {value:.2f} | < {target:g} | {'yes' if value < target else 'no'} "
              f"| {note} |")
    if bad:
        print(f"\nunexpected statuses: {sorted(bad)}", file=sys.stderr)
        return 1
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="1,2", help="comma-separated uvicorn worker counts")
    parser.add_argument("--concurrency", type=int, default=8, help="concurrent clients (1-64)")
    parser.add_argument("--requests", type=int, default=400, help="requests per scenario")
    parser.add_argument("--time-limit", type=float, default=20.0, help="seconds per scenario")
    parser.add_argument("--servers", default="serve",
                        help="comma-separated launchers: serve (vizgrad serve), uvicorn (plain)")
    parser.add_argument("--quick", action="store_true", help="60 requests, 4 clients, 1 worker")
    parser.add_argument("--hostile", action="store_true",
                        help="trace latency beside hostile renders, and the SIGTERM stop time")
    parser.add_argument("--repeat", type=int, default=1, help="runs of --hostile (1-10)")
    parser.add_argument("--class", dest="students", type=int, default=0, metavar="N",
                        help="N simulated students on 2 workers (see benchmarks/_class_load.py)")
    parser.add_argument("--class-seconds", type=float, default=60.0,
                        help="seconds each student's 20 steps and 5 changes take (10-120)")
    args = parser.parse_args()
    if args.students:
        if not 1 <= args.students <= 400 or not 10 <= args.class_seconds <= 120:
            parser.error("--class takes 1-400 students and --class-seconds 10-120")
        from _class_load import run_class

        return run_class(args.students, args.class_seconds, start_server, stop_server)
    if args.hostile:
        if not 1 <= args.repeat <= 10:
            parser.error("--repeat must be 1-10")
        return hostile(args.repeat)
    if args.quick:
        args.workers, args.concurrency, args.requests = "1", 4, 60
    workers = [int(w) for w in args.workers.split(",")]
    servers = args.servers.split(",")
    if not 1 <= args.concurrency <= 64 or not all(1 <= w <= 8 for w in workers):
        parser.error("--concurrency must be 1-64 and each worker count 1-8")
    if any(s not in LAUNCHERS for s in servers):
        parser.error(f"--servers takes {', '.join(LAUNCHERS)}")

    results: list[Result] = []
    for launcher, w in [(s, w) for s in servers for w in workers]:
        proc, base = start_server(w, launcher)
        try:
            # warm up: load Graphviz in every worker and fill the cached render
            warm = [httpx.post(base + "/api/render", json={"example": "fork", "step": 7},
                               timeout=60) for _ in range(2 * w)]
            if any(r.status_code != 200 for r in warm):
                sys.exit(f"warm-up failed: {warm[0].text}")
            for name, path, body in scenarios(args.requests):
                results.append(asyncio.run(run(base, name, path, body, launcher, w,
                                               args.concurrency, args.requests,
                                               args.time_limit)))
        finally:
            stop_server(proc)

    print(f"Lab API on {HOST}, {args.concurrency} concurrent clients, up to {args.requests} "
          f"requests or {args.time_limit:g} s per scenario, {os.cpu_count()} CPUs, "
          f"Python {sys.version.split()[0]}\n")
    print("| server | workers | scenario | requests | req/s | p50 ms | p95 ms | cache misses "
          "| errors |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    for r in results:
        print(f"| {r.server} | {r.workers} | {r.name} | {len(r.latencies)} | {r.rps:.0f} | "
              f"{r.pct(0.5):.1f} | {r.pct(0.95):.1f} | {r.misses} | {len(r.errors)} |")
    print()
    for launcher, w in [(s, w) for s in servers for w in workers]:
        rs = {r.name: r for r in results if r.workers == w and r.server == launcher}
        hot, cold = rs["render, cached"], rs["render, uncached"]
        if cold.rps:
            print(f"{launcher}, {w} worker(s): cached renders serve {hot.rps / cold.rps:.1f}x the "
                  f"requests/s of uncached ones (p50 {hot.pct(0.5):.1f} ms vs "
                  f"{cold.pct(0.5):.1f} ms).")
    errors = [e for r in results for e in r.errors]
    if errors:
        print(f"\n{len(errors)} errors, first: {errors[0]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
