"""Run a survey: the missing seeds, in chunks, on local processes or on Ray.

The main process is the only writer: workers return rows, the caller's
``on_rows`` stores each batch the moment it arrives. Stopping at any moment
loses nothing that was stored, and a rerun plans only the seeds not stored.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from ..models import Backend, interrupt
from ..models.outcome import NO_LIMIT, Limit
from ..solver.the_game.split_workers import ray_module, start_ray
from .store import Store
from .work import Chunk, Kind, Row, StrongSpec, run_chunk

OnRows = Callable[[list[Row]], None]


@dataclass(frozen=True)
class Plan:
    """What a run will do: decide the deals, or play them blind."""

    kind: Kind
    variant: str
    players: int
    seeds: tuple[int, ...]  # the seeds still to do, ascending
    skipped: int  # seeds of the range already stored
    limit: Limit  # each deal's budget (a row stores its seconds)
    strong: StrongSpec | None = None  # Kind.STRONG: the player and its budget

    def chunks(self, size: int) -> list[Chunk]:
        s = self.seeds
        return [
            (self.kind, self.variant, self.players, s[i : i + size], self.limit, self.strong)
            for i in range(0, len(s), size)
        ]


def plan(
    store: Store,
    kind: Kind,
    variant: str,
    players: int,
    seeds: Sequence[int],
    limit: Limit = NO_LIMIT,
    retry_unknown: bool = False,
    strong: StrongSpec | None = None,
) -> Plan:
    """The seeds of ``seeds`` not stored yet (and, with ``retry_unknown``,
    the unknown ones stored with a smaller budget than ``limit``'s time)."""
    if kind is Kind.DEAL:
        retry_below = (limit.time or float("inf")) if retry_unknown else None
        done = store.deal_seeds(variant, players, retry_below)
    elif kind is Kind.STRONG and strong is not None:
        done = store.strong_seeds(variant, players, strong.key())
    else:
        done = store.blind_seeds(variant, players)
    todo = tuple(s for s in seeds if s not in done)
    return Plan(kind, variant, players, todo, len(seeds) - len(todo), limit, strong)


def run(
    p: Plan,
    on_rows: OnRows,
    backend: Backend = Backend.LOCAL,
    jobs: int | None = None,
    chunk: int | None = None,
    address: str | None = None,
) -> list[int]:
    """Do every chunk of ``p``; ``on_rows`` gets each chunk's rows as it ends.
    Returns the seeds whose chunk failed for good (Ray: a worker lost more
    often than Ray retries); a rerun does them.

    ``KeyboardInterrupt`` stops the workers and propagates: what ``on_rows``
    stored stays stored."""
    if not p.seeds:
        return []
    if backend is Backend.LOCAL:
        size = chunk or 1  # one seed per task: each row is written at once
        return _local(p.chunks(size), on_rows, jobs or os.cpu_count() or 1)
    # Ray's guidance: batch tasks much shorter than ~10 ms; a deal takes 20 ms
    # to seconds, so a few seeds per task already amortise the scheduling
    # while keeping the rows flowing.
    return _ray(p.chunks(chunk or 4), on_rows, jobs, address)


def _quiet_worker() -> None:
    # Ctrl-C reaches the whole process group; only the main process reacts
    # (it stops the pool), so the workers do not print tracebacks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _local(chunks: list[Chunk], on_rows: OnRows, jobs: int) -> list[int]:
    """The chunks on local processes; the seeds of the chunks a crashed
    worker took down (none of their rows is written: a rerun does them)."""
    if jobs == 1:
        for c in chunks:  # in process: no pool to start, easy to profile
            on_rows(run_chunk(c))
        return []
    # A process pool that notices a lost worker (``BrokenProcessPool``):
    # ``multiprocessing.Pool`` waited for its task forever.
    pool = ProcessPoolExecutor(
        min(jobs, len(chunks)), multiprocessing.get_context("spawn"), _quiet_worker
    )
    queue = iter(chunks)
    pending: dict[Future[list[Row]], Chunk] = {}
    failed: list[int] = []

    def submit() -> None:
        for c in queue:
            pending[pool.submit(run_chunk, c)] = c
            return

    try:
        with interrupt.deaf_children():  # the first submissions start the workers
            for _ in range(2 * jobs):  # a few ahead: the workers never wait
                submit()
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                c = pending.pop(f)
                try:
                    rows = f.result()
                except BrokenProcessPool:
                    failed.extend(c[3])
                    continue
                on_rows(rows)
                submit()
            if failed:  # the pool is broken: what was not sent stays to do
                failed.extend(s for f, c in pending.items() for s in c[3])
                failed.extend(s for c in queue for s in c[3])
                pending.clear()
        return sorted(failed)
    finally:
        _stop(pool)


def _stop(pool: ProcessPoolExecutor) -> None:
    """End the pool now: its running tasks are dropped, not waited for."""
    processes = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        proc.terminate()
    for proc in processes:
        proc.join()


def _ray(
    chunks: list[Chunk], on_rows: OnRows, jobs: int | None, address: str | None
) -> list[int]:
    ray = ray_module()
    started = start_ray(jobs, address)
    # A task lost with its worker is run again by Ray (max_retries); its
    # rows reach the writer once, and the key on seed would refuse a second.
    task = ray.remote(max_retries=3)(run_chunk)
    window = 2 * max(1, int(ray.cluster_resources().get("CPU", 1)))
    queue: Iterator[Chunk] = iter(chunks)
    pending: list[Any] = []
    seeds_of: dict[Any, tuple[int, ...]] = {}
    failed: list[int] = []

    def submit(c: Chunk) -> None:
        ref = task.remote(c)
        seeds_of[ref] = c[3]
        pending.append(ref)

    try:
        for c in queue:
            submit(c)
            if len(pending) >= window:
                break
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            try:
                rows = ray.get(ready[0])
            except ray.exceptions.RayError:
                # Retries used up (a worker or node lost again and again):
                # the chunk's seeds stay missing, and a rerun does them.
                failed.extend(seeds_of[ready[0]])
            else:
                on_rows(rows)
            for c in queue:  # keep the cluster busy: one new chunk per one done
                submit(c)
                break
        return sorted(failed)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
