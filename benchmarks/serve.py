"""Load test of ``thegame serve``: many clients at once, mixed requests.

Usage (from the repository root, after ``pip install -e ".[serve]"``):

    nice -n 10 python benchmarks/serve.py --clients 50 --requests 2000

Starts ``thegame serve`` on 127.0.0.1 (a free port, ``--workers`` worker
processes), then ``--clients`` concurrent clients send ``--requests``
requests in all, drawn with a fixed seed: 50% ``GET /api/daily`` (five
days, each made once then served from memory), 40% ``POST /api/solve``
(seeds 1-500 of solo classic, ``--solve-time`` s each) and 10%
``POST /api/analyze`` (a whole game of the blind policy, ``--samples``
samples, no hindsight). It reports per endpoint the status codes and the latency
(p50, p99, max), and the resident memory of the server and its workers
after a warm-up round and at the end; then stops the server. Any 5xx
makes the exit code 1. Prints Markdown for docs/serve.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import shlex
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx

from thegame.analysis.the_game.blind import choose_turn
from thegame.models.the_game import Deal, GameState, Play, Record, Turn, get_rules

ROOT = Path(__file__).resolve().parent.parent
DAYS = ["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27"]


def sample_record(seed: int = 2) -> Record:
    """A whole solo classic game played by the blind policy."""
    state = GameState(Deal.from_seed(seed, get_rules("classic"), 1))
    turns = []
    while not state.over:
        plays: tuple[Play, ...] = tuple(choose_turn(state))
        for p in plays:
            state.play(p.card, p.pile)
        if not state.over:
            if not state.can_end_turn():
                break
            state.end_turn()
        turns.append(Turn(1, plays))
    return Record(state.deal, tuple(turns))


def rss_kib(pid: int) -> int:
    """Resident memory of ``pid`` and all its descendants, in KiB."""
    total = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
            for task in Path(f"/proc/{p}/task").iterdir():
                kids = (task / "children").read_text().split()
                todo.extend(int(k) for k in kids)
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def plan(n: int, rng: random.Random, record: dict[str, Any], args: argparse.Namespace) -> list:
    out: list[tuple[str, str, str, dict[str, Any] | None]] = []
    for _ in range(n):
        x = rng.random()
        if x < 0.5:
            out.append(("daily", "GET", f"/api/daily?date={rng.choice(DAYS)}", None))
        elif x < 0.9:
            body = {"seed": rng.randint(1, 500), "time_limit": args.solve_time}
            out.append(("solve", "POST", "/api/solve", body))
        else:
            body = {"record": record, "samples": args.samples, "hindsight": False}
            out.append(("analyze", "POST", "/api/analyze", body))
    return out


# The client errors behind the requests that got no answer, by exception name.
failures: dict[str, int] = defaultdict(int)


async def run_load(base: str, todo: list, clients: int) -> dict[str, list[tuple[int, float]]]:
    results: dict[str, list[tuple[int, float]]] = defaultdict(list)
    queue: asyncio.Queue[tuple[str, str, str, dict[str, Any] | None]] = asyncio.Queue()
    for item in todo:
        queue.put_nowait(item)
    limits = httpx.Limits(max_connections=clients)
    async with httpx.AsyncClient(base_url=base, timeout=300, limits=limits) as http:

        async def client() -> None:
            while not queue.empty():
                name, method, path, body = queue.get_nowait()
                start = time.perf_counter()
                try:
                    r = await http.request(method, path, json=body)
                    status = r.status_code
                except httpx.HTTPError as e:
                    status = 0  # no answer at all: which error, counted below
                    failures[type(e).__name__] += 1
                results[name].append((status, time.perf_counter() - start))

        await asyncio.gather(*(client() for _ in range(clients)))
    return results


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--solve-time", type=float, default=0.2)
    ap.add_argument("--samples", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--queue-wait", type=float, default=120.0, help="the server's --queue-wait (s)")
    args = ap.parse_args()

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    )
    cmd = [sys.executable, "-m", "thegame.cli.main", "serve", "--port", str(port)]
    cmd += ["--workers", str(args.workers), "--queue-wait", str(args.queue_wait)]
    # Its request log (a line each) is written as users get it, and not read here:
    # a pipe nobody reads would fill and stall the server.
    quiet = subprocess.DEVNULL
    server = subprocess.Popen(cmd, env=env, stdout=quiet, stderr=quiet)
    try:
        deadline = time.monotonic() + 300  # the workers' imports, on a busy machine
        while True:
            try:
                if httpx.get(base + "/static/style.css", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                print("the server did not start", file=sys.stderr)
                return 2
            time.sleep(0.2)
        rng = random.Random(args.seed)
        record = sample_record().to_dict()
        # Warm-up: the days' puzzles made, every worker through a search once.
        warm = [("daily", "GET", f"/api/daily?date={d}", None) for d in DAYS]
        warm += plan(4 * args.workers, random.Random(0), record, args)
        asyncio.run(run_load(base, warm, args.clients))
        before = rss_kib(server.pid)
        start = time.monotonic()
        results = asyncio.run(run_load(base, plan(args.requests, rng, record, args), args.clients))
        wall = time.monotonic() - start
        after = rss_kib(server.pid)
        load = os.getloadavg()
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()

    fives = 0
    print(f"`{shlex.join(['python', 'benchmarks/serve.py', *sys.argv[1:]])}`\n")
    print(
        f"{platform.node()}: {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}; "
        f"{args.workers} workers, queue wait {args.queue_wait:g} s, {args.clients} clients, "
        f"{args.requests} requests "
        f"in {wall:.0f} s; the machine's load average at the end {load[0]:.1f} "
        "(other work beside it)\n"
    )
    print("| endpoint | requests | status codes | p50 (s) | p99 (s) | max (s) |")
    print("|---|---|---|---|---|---|")
    for name in ("daily", "solve", "analyze"):
        rows = results.get(name, [])
        if not rows:
            continue
        codes: dict[int, int] = defaultdict(int)
        for status, _ in rows:
            codes[status] += 1
            fives += status >= 500 or status == 0
        times = [t for _, t in rows]
        code_text = ", ".join(f"{c}: {n}" for c, n in sorted(codes.items()))
        print(
            f"| {name} | {len(rows)} | {code_text} | {statistics.median(times):.2f} | "
            f"{pct(times, 0.99):.2f} | {max(times):.2f} |"
        )
    print(
        f"\nmemory of the server and its workers: {before / 1024:.0f} MiB after the warm-up, "
        f"{after / 1024:.0f} MiB at the end"
    )
    print(f"5xx or no answer: {fives}" + (f" (no answer: {dict(failures)})" if failures else ""))
    return 1 if fives else 0


if __name__ == "__main__":
    sys.exit(main())
