"""A bounded pool of worker processes, one search each at a time; a job
waits for a free worker up to ``wait`` seconds (then ``PoolBusy``, the
503), and its budget ends it as Ctrl-C would (docs/serve.md)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import time
from collections.abc import Awaitable, Callable
from enum import StrEnum
from multiprocessing.connection import Connection
from types import FrameType
from typing import Any

from ..models import ThegameError, interrupt

log = logging.getLogger("thegame.serve")

# Seconds a job may run past its budget before its worker is killed.
GRACE = 5.0
# How often a waiting request looks whether its client is still there.
POLL = 0.2
# Seconds a new worker may take to start and import the library's engines.
START_WAIT = 120.0
# What a worker sends once it is ready for jobs.
READY = "ready"
# Seconds between two progress reports a worker sends (the page polls slower).
REPORT_EVERY = 0.1
# The pipe of this process when it is a worker (None in the server).
_CONN: Connection | None = None
_LAST_REPORT = 0.0


# Where the server hears a job's progress: ``progress(done, total)``.
Progress = Callable[[int, int], None]


class Reply(StrEnum):
    """What a worker's message on its pipe is: a job's progress, or how it ended."""

    PROGRESS = "progress"
    OK = "ok"  # the job's answer
    BAD = "bad"  # the input was refused (a ThegameError)
    CUT = "cut"  # the budget's stop flag ended a step with nothing to return
    FAIL = "fail"  # a server fault


class PoolBusy(Exception):
    """Every worker stayed busy for the whole wait."""

    def __init__(self, retry_after: int) -> None:
        super().__init__("the server is busy: every worker is searching; try again shortly")
        self.retry_after = retry_after


class JobCancelled(Exception):
    """The client went away: the job was stopped."""


class JobOverran(Exception):
    """A job ran past its budget and grace: its worker was killed."""


class JobInterrupted(JobOverran):
    """A job stopped by its budget without an answer (the library raised
    ``KeyboardInterrupt`` where it keeps no best so far): its worker is kept."""


class JobFailed(Exception):
    """A fault of the server inside a job (logged with its traceback in the worker)."""


class WorkerDied(JobFailed):
    """A worker process ended mid-job (killed from outside, out of memory)."""


class BadInput(ThegameError):
    """A ``ThegameError`` raised in a worker, carried back as its one line."""


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    interrupt.request()  # the budget is spent: searches stop with their best so far


def _warm_up() -> None:
    """Import what the library loads lazily on a first use, before any job.

    A job's budget starts when the worker takes it, but the library keeps
    OR-Tools (about a second to load, more on a busy machine) and networkx
    out of a plain import: a fresh worker's first ``auto`` solve spent its
    budget importing CP-SAT, the alarm stopped the search at its first
    check, and a deal won in a few hundred nodes came back ``unknown``. Here,
    not in the forkserver's preload: OR-Tools starts a thread on import, and
    a process with threads should not fork.
    """
    with contextlib.suppress(ImportError):  # a job that needs them reports it itself
        import networkx  # noqa: F401  (the graph bounds)

        from ..solver.the_game import cpsat  # noqa: F401  (the portfolio's second engine)


def report(done: int, total: int) -> None:
    """Progress of the job running in this worker (``done`` of ``total``),
    sent to the server at most every ``REPORT_EVERY`` seconds (and always
    at the end); nothing outside a worker."""
    global _LAST_REPORT
    now = time.monotonic()
    if _CONN is None or (now - _LAST_REPORT < REPORT_EVERY and done < total):
        return
    _LAST_REPORT = now
    with contextlib.suppress(BrokenPipeError, OSError):
        _CONN.send((Reply.PROGRESS, (done, total)))


def _worker_main(conn: Connection) -> None:
    """A worker: run jobs from ``conn`` until it closes."""
    global _CONN, _LAST_REPORT
    _CONN = conn
    # The server's Ctrl-C is the server's business; the pool ends its workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGALRM, _on_alarm)
    _warm_up()
    try:
        conn.send(READY)
    except (BrokenPipeError, OSError):
        return
    while True:
        try:
            func, args, budget = conn.recv()
        except (EOFError, OSError):
            return
        interrupt.reset()
        _LAST_REPORT = 0.0
        signal.setitimer(signal.ITIMER_REAL, budget)
        try:
            with interrupt.polling():
                reply: tuple[Reply, Any] = (Reply.OK, func(*args))
        except ThegameError as e:
            reply = (Reply.BAD, str(e))
        except KeyboardInterrupt:
            # The budget's stop flag, raised by a step that has no best so far
            # to return: the job ends here and the worker stays for the next.
            reply = (Reply.CUT, f"ran out of its budget of {budget:g} s")
        except Exception as e:  # a server fault: logged here, reported as one line
            log.exception("job %s failed", getattr(func, "__name__", func))
            reply = (Reply.FAIL, f"{type(e).__name__}: {e}")
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):
            return


class _Worker:
    def __init__(self, ctx: Any) -> None:
        parent, child = ctx.Pipe()
        self.conn: Connection = parent
        self.process = ctx.Process(target=_worker_main, args=(child,), daemon=True)
        self.process.start()
        child.close()
        # Ready only once its imports are done: no job's clock runs through them.
        try:
            ready = self.conn.poll(START_WAIT) and self.conn.recv() == READY
        except (EOFError, OSError):
            ready = False
        if not ready:
            self.kill()
            raise JobFailed("a worker process did not start")

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError, AttributeError, TypeError):
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.join(5)
        self.conn.close()

    def stop(self) -> None:
        self.conn.close()  # the worker's recv ends: it returns
        self.process.join(2)
        if self.process.is_alive():
            self.kill()


class WorkerPool:
    """``size`` worker processes; ``run`` gives a job to a free one."""

    def __init__(self, size: int, wait: float, grace: float = GRACE) -> None:
        self.size = max(1, size)
        self.wait = wait
        self.grace = grace
        self._ctx = multiprocessing.get_context("forkserver")
        # The workers start with the library already imported.
        self._ctx.set_forkserver_preload(
            ["thegame.serve.jobs", "thegame.serve.game_jobs", "thegame.serve.cento_view"]
        )
        self._idle: asyncio.Queue[_Worker] | None = None
        self._all: set[_Worker] = set()
        self._spawning: set[asyncio.Task[None]] = set()
        self.busy = 0
        self.done = 0
        self.cancelled = 0
        self.refused = 0

    async def start(self) -> None:
        self._idle = asyncio.Queue()
        for _ in range(self.size):
            w = await asyncio.to_thread(_Worker, self._ctx)
            self._all.add(w)
            self._idle.put_nowait(w)

    async def close(self) -> None:
        for task in list(self._spawning):
            task.cancel()
        workers, self._all = list(self._all), set()
        for w in workers:
            await asyncio.to_thread(w.stop)

    def pids(self) -> list[int]:
        return [w.process.pid for w in self._all if w.process.pid is not None]

    async def run(
        self,
        func: Callable[..., Any],
        args: tuple[Any, ...],
        budget: float,
        gone: Callable[[], Awaitable[bool]] | None = None,
        progress: Progress | None = None,
    ) -> Any:
        """Run ``func(*args)`` in a worker within ``budget`` seconds; ``gone``
        says whether the client went away (the job is then cancelled);
        ``progress(done, total)`` hears what the job ``report``s."""
        assert self._idle is not None, "the pool is not started"
        try:
            worker = await asyncio.wait_for(self._idle.get(), self.wait)
        except TimeoutError:
            self.refused += 1
            raise PoolBusy(max(1, round(self.wait))) from None
        self.busy += 1
        keep: _Worker | None = worker
        try:
            return await self._run_on(worker, func, args, budget, gone, progress)
        except (BadInput, JobInterrupted):
            raise  # the worker answered: it is ready for the next job
        except BaseException:
            # Cancelled, overran, died, or the request task itself was cancelled:
            # the worker may be mid-search; a fresh one takes its place.
            keep = None
            raise
        finally:
            self.busy -= 1
            if keep is not None:
                self._idle.put_nowait(keep)
            else:
                # Replaced in the background: the answer (a 503, a cancel) does
                # not wait for a new process to start, and no dead worker ever
                # goes back to the queue, whatever interrupted this request.
                task = asyncio.get_running_loop().create_task(self._respawn(worker))
                self._spawning.add(task)
                task.add_done_callback(self._spawning.discard)

    async def _respawn(self, old: _Worker) -> None:
        assert self._idle is not None
        self._all.discard(old)
        await asyncio.to_thread(old.kill)
        while True:
            try:
                fresh = await asyncio.to_thread(_Worker, self._ctx)
            except JobFailed:
                log.error("a worker process did not start; trying again")
                await asyncio.sleep(1.0)
                continue
            self._all.add(fresh)
            self._idle.put_nowait(fresh)
            return

    async def _run_on(
        self,
        worker: _Worker,
        func: Callable[..., Any],
        args: tuple[Any, ...],
        budget: float,
        gone: Callable[[], Awaitable[bool]] | None,
        progress: Progress | None,
    ) -> Any:
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()
        if worker.conn.closed:
            raise WorkerDied("a worker process died")
        fd = worker.conn.fileno()

        def readable() -> None:
            if not ready.done():
                ready.set_result(None)

        answer: tuple[Reply, Any] | None = None

        try:
            worker.conn.send((func, args, budget))
        except (BrokenPipeError, OSError):
            raise WorkerDied("a worker process died") from None
        loop.add_reader(fd, readable)
        deadline = time.monotonic() + budget + self.grace
        try:
            while True:
                done, _ = await asyncio.wait({ready}, timeout=POLL)
                if done:
                    ready = loop.create_future()
                    answer = self._read(worker, progress)
                    if answer is not None:
                        break
                # Checked whatever arrived: a job reporting often is still watched.
                if not worker.process.is_alive():
                    raise WorkerDied("a worker process died")
                if gone is not None and await gone():
                    self.cancelled += 1
                    raise JobCancelled("the client went away")
                if time.monotonic() > deadline:
                    raise JobOverran(f"the job ran past its budget of {budget:g} s")
        finally:
            loop.remove_reader(fd)
        assert answer is not None  # the loop ends with one or raises
        kind, value = answer
        self.done += 1
        if kind is Reply.BAD:
            raise BadInput(value)
        if kind is Reply.CUT:
            raise JobInterrupted(f"the job {value}")
        if kind is Reply.FAIL:
            raise JobFailed(value)
        return value

    @staticmethod
    def _read(worker: _Worker, progress: Progress | None) -> tuple[Reply, Any] | None:
        """The worker's messages waiting on its pipe: progress goes to
        ``progress``; the job's answer is returned (None: none yet)."""
        try:
            while worker.conn.poll():
                kind, value = worker.conn.recv()
                if kind is not Reply.PROGRESS:
                    return kind, value
                if progress is not None:
                    progress(*value)
        except (EOFError, OSError):
            raise WorkerDied("a worker process died") from None
        return None
