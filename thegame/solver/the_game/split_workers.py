"""The split search's workers: local processes or Ray actors, one unit each
at a time.

The parent (``parallel``) gives each worker, by its slot number, one unit
at a time with what the other workers proved since its last unit, and
hears back the result with what this worker proved (``run_unit``). A
worker keeps its table of dead positions between units, so each one is a
long-lived process (a local process with its own queue, or a Ray actor),
not a task any free process may take: the parent must know which worker
has seen which entries.
"""

from __future__ import annotations

import logging
import multiprocessing
import queue
import socket
import traceback
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from ...models import Backend, InvalidInputError, interrupt
from .split_units import ignore_sigint, run_unit


class Workers(Protocol):
    slots: int
    # Whether the workers see this machine's files (the tables beside the checkpoint).
    local: bool

    def submit(self, slot: int, job: dict[str, Any]) -> None: ...

    def results(self, timeout: float) -> list[dict[str, Any]]: ...

    def stop(self) -> None: ...


# What a worker does with a job: a unit of the split search by default
# (``run_unit``); the duel's split search hands its own (``duel.parallel``).
Handler = Callable[[dict[str, Any]], dict[str, Any]]


def _serve(slot: int, inbox: Any, outbox: Any, handler: Handler = run_unit) -> None:
    """A local worker's life: jobs from its own queue until None."""
    ignore_sigint()
    outbox.put({"ready": slot})
    while True:
        job = inbox.get()
        if job is None:
            return
        try:
            out = handler(job)
        except BaseException:  # the parent raises it, with the worker's traceback
            out = {"error": traceback.format_exc()}
        out["slot"] = slot
        outbox.put(out)


class LocalWorkers:
    """``slots`` worker processes on this machine (spawned, deaf to Ctrl-C:
    the parent stops them and writes the checkpoint)."""

    local = True

    def __init__(self, slots: int, handler: Handler = run_unit) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.slots = slots
        self.outbox = ctx.Queue()
        self.inboxes = [ctx.SimpleQueue() for _ in range(slots)]
        with interrupt.deaf_children():
            self.procs = [
                ctx.Process(
                    target=_serve, args=(i, self.inboxes[i], self.outbox, handler), daemon=True
                )
                for i in range(slots)
            ]
            for p in self.procs:
                p.start()
        self.busy: set[int] = set()
        self._wait_ready()

    def _wait_ready(self) -> None:
        """Hand out no unit before every worker is up: on a loaded machine
        one spawn can take seconds, and a slot whose first unit waits on it
        would hold that unit while the others finish the search."""
        ready: set[int] = set()
        while len(ready) < self.slots:
            try:
                ready.add(self.outbox.get(timeout=0.25)["ready"])
            except queue.Empty:
                if interrupt.requested():
                    return  # the pool's loop stops and writes the checkpoint
                try:
                    self._check_alive(range(self.slots))
                except RuntimeError:
                    self.stop()  # the caller has no pool to stop yet
                    raise

    def _check_alive(self, slots: Iterable[int]) -> None:
        for i in slots:
            if not self.procs[i].is_alive():
                raise RuntimeError(f"a worker of the split search died (slot {i + 1})")

    def submit(self, slot: int, job: dict[str, Any]) -> None:
        self.busy.add(slot)
        self.inboxes[slot].put(job)

    def results(self, timeout: float) -> list[dict[str, Any]]:
        got: list[dict[str, Any]] = []
        try:
            got.append(_checked(self.outbox.get(timeout=timeout)))
            while True:
                got.append(_checked(self.outbox.get_nowait()))
        except queue.Empty:
            pass
        # A worker's "ready" can come late: when Ctrl-C ended the wait for it.
        got = [out for out in got if "ready" not in out]
        for out in got:
            self.busy.discard(out["slot"])
        if not got:
            self._check_alive(self.busy)
        return got

    def stop(self) -> None:
        for p in self.procs:
            p.terminate()
        for p in self.procs:
            p.join()


def _checked(out: dict[str, Any]) -> dict[str, Any]:
    if "error" in out:
        raise RuntimeError("a worker of the split search failed:\n" + out["error"])
    return out


def ray_module() -> Any:
    """Ray, or one clear line when the optional extra is not installed."""
    try:
        import ray
    except ImportError:
        raise InvalidInputError(
            "Ray is not installed: pip install 'thegame[ray]' (or use --backend local)",
            "--backend ray",
        ) from None
    return ray


def start_ray(cpus: int | None, address: str | None) -> bool:
    """Join the cluster at ``address``, or start a local Ray of ``cpus`` CPUs,
    quietly, unless Ray is running already; True when this call started it
    (so the caller shuts it down)."""
    ray = ray_module()
    if ray.is_initialized():
        return False
    quiet = {"log_to_driver": False, "logging_level": logging.ERROR}
    if address:
        check_address(address)
        try:
            ray.init(address=address, **quiet)
        except (ConnectionError, RuntimeError) as e:  # refused: another Ray, a token...
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise InvalidInputError(f"cannot join the Ray cluster: {first}", "--address") from None
    else:
        ray.init(num_cpus=cpus, include_dashboard=False, **quiet)
    return True


def check_address(address: str) -> None:
    """One line at once for an address nothing answers at: Ray itself
    retries for minutes, printing its own warnings."""
    if address == "auto":  # Ray finds the cluster this machine belongs to
        return
    host, _, port = address.rpartition(":")
    try:
        socket.create_connection((host or "127.0.0.1", int(port)), timeout=5).close()
    except (OSError, ValueError):
        raise InvalidInputError(
            f"no Ray cluster answers at {address}",
            "--address",
        ) from None


class UnitWorker:
    """A Ray actor: one worker of the split search (its table lives in the
    actor's process between units)."""

    def __init__(self, slot: int) -> None:
        self.slot = slot

    def ready(self) -> int:
        return self.slot

    def run(self, job: dict[str, Any]) -> dict[str, Any]:
        out = run_unit(job)
        out["slot"] = self.slot
        return out


class RayWorkers:
    """``slots`` Ray actors of one CPU each: a local Ray started for the
    search, or the cluster at ``address``."""

    def __init__(self, slots: int | None, address: str | None) -> None:
        self.started = start_ray(slots, address)
        ray = self.ray = ray_module()
        self.local = not address
        self.slots = slots or max(1, int(ray.cluster_resources().get("CPU", 1)))
        actor = ray.remote(num_cpus=1)(UnitWorker)
        self.actors = [actor.remote(i) for i in range(self.slots)]
        self.refs: dict[Any, int] = {}
        self._wait_ready()

    def _wait_ready(self) -> None:
        """Hand out no unit before every actor is up (as ``LocalWorkers``):
        on a loaded node an actor can take seconds to start, and its first
        unit would wait on it while the others finish the search."""
        waiting = [a.ready.remote() for a in self.actors]
        while waiting and not interrupt.requested():
            _, waiting = self.ray.wait(waiting, num_returns=len(waiting), timeout=0.25)

    def submit(self, slot: int, job: dict[str, Any]) -> None:
        self.refs[self.actors[slot].run.remote(job)] = slot

    def results(self, timeout: float) -> list[dict[str, Any]]:
        if not self.refs:
            return []
        ready, _ = self.ray.wait(list(self.refs), num_returns=1, timeout=timeout)
        got = []
        for ref in ready:
            del self.refs[ref]
            got.append(self.ray.get(ref))
        return got

    def stop(self) -> None:
        for a in self.actors:
            self.ray.kill(a)
        if self.started:
            self.ray.shutdown()


def start_workers(backend: Backend, slots: int | None, address: str | None) -> Workers:
    if backend is Backend.RAY:
        return RayWorkers(slots, address)
    return LocalWorkers(slots or 1)
