"""Jobs a page starts and then watches (a review, The Mind's odds): started,
asked how far they got, cancelled; one nobody asks about is stopped."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..models import InvalidInputError
from .pool import JobCancelled, JobFailed, PoolBusy

log = logging.getLogger("thegame.serve")

# Seconds without a question about a running job before it is stopped.
ABANDON = 20.0
KEEP = 32  # jobs kept, finished or not (the oldest finished go first)
# Jobs running at once: more wait for nothing but the pool; refused at once.
MAX_RUNNING = 8


class JobKind(StrEnum):
    """What a watched job does (the key ``POST /api/jobs`` takes)."""

    ANALYZE = "analyze"
    MIND_ODDS = "mind_odds"
    CENTO_REVIEW = "cento_review"
    DAILY = "daily"


class JobState(StrEnum):
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"


class UnknownJob(InvalidInputError):
    """An id no job has (any more): a 404, as a page that is gone."""


@dataclass
class Job:
    """One watched job: its progress as the worker reports it, then its answer."""

    id: str
    kind: JobKind
    unit: str  # what ``done`` and ``total`` count: "turns", "levels"
    context: dict[str, Any] = field(default_factory=dict)  # what its page shows beside it
    state: JobState = JobState.RUNNING
    done: int = 0
    total: int | None = None
    result: Any = None
    error: str | None = None
    started: float = field(default_factory=time.monotonic)
    seen: float = field(default_factory=time.monotonic)
    cancel_asked: bool = False
    ended: float | None = None

    def heard(self, done: int, total: int) -> None:
        """A progress report from the worker (the pool's ``progress``)."""
        self.done, self.total = done, total

    async def gone(self) -> bool:
        """Whether the job should stop: cancelled, or its page went away."""
        return self.cancel_asked or time.monotonic() - self.seen > ABANDON

    def to_dict(self) -> dict[str, Any]:
        end = self.ended if self.ended is not None else time.monotonic()
        out: dict[str, Any] = {
            "job": self.id,
            "kind": self.kind,
            "status": str(self.state),
            "done": self.done,
            "total": self.total,
            "unit": self.unit,
            "seconds": round(end - self.started, 1),
        }
        if self.state is JobState.DONE:
            out["result"] = self.result
        if self.error is not None:
            out["error"] = self.error
        return out


class Jobs:
    """The server's watched jobs. ``shown``: the exceptions whose one line
    a failed job reports as its ``error`` (the user's bad input, a busy
    pool, a job past the cap); any other is a fault of the server."""

    def __init__(self, shown: tuple[type[BaseException], ...]) -> None:
        self.shown = shown
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def start(
        self,
        kind: JobKind,
        unit: str,
        work: Callable[[Job], Awaitable[Any]],
        context: dict[str, Any] | None = None,
    ) -> Job:
        """Start ``work(job)`` in the background and return its job."""
        running = sum(1 for j in self._jobs.values() if j.state is JobState.RUNNING)
        if running >= MAX_RUNNING:
            raise PoolBusy(5)
        job = Job(secrets.token_urlsafe(12), kind, unit, context or {})
        self._jobs[job.id] = job
        task = asyncio.get_running_loop().create_task(self._run(job, work))
        self._tasks[job.id] = task
        task.add_done_callback(lambda _: self._tasks.pop(job.id, None))
        self._trim()
        return job

    async def _run(self, job: Job, work: Callable[[Job], Awaitable[Any]]) -> None:
        try:
            job.result = await work(job)
            job.state = JobState.DONE
        except (JobCancelled, asyncio.CancelledError):
            # Cancelled by its page (the task), or abandoned (the pool saw it gone).
            job.state = JobState.CANCELLED
        except self.shown as e:
            job.state, job.error = JobState.FAILED, " ".join(str(e).split())
        except JobFailed as e:
            log.error("server fault: %s", e)
            job.state, job.error = JobState.FAILED, "internal error: a fault of the server (logged)"
        except Exception:
            log.exception("server fault in a %s job", job.kind)
            job.state, job.error = JobState.FAILED, "internal error: a fault of the server (logged)"
        finally:
            job.ended = time.monotonic()

    def _trim(self) -> None:
        while len(self._jobs) > KEEP:
            old = next((k for k, j in self._jobs.items() if j.state is not JobState.RUNNING), None)
            if old is None:
                return
            del self._jobs[old]

    def get(self, job_id: str) -> Job:
        """The job (its page still watches it), or a 400 naming the id."""
        job = self._jobs.get(job_id)
        if job is None:
            raise UnknownJob("no such job (it ended long ago, or the server started again)", "id")
        job.seen = time.monotonic()
        return job

    async def cancel(self, job_id: str) -> Job:
        """Stop the job: one waiting for a worker leaves the queue; one
        running has its worker ended (the pool starts a fresh one)."""
        job = self.get(job_id)
        job.cancel_asked = True
        task = self._tasks.get(job_id)
        if task is not None:
            task.cancel()
            await asyncio.wait({task}, timeout=5)
        return job

    async def close(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()
