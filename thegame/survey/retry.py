"""``survey run --retry-unknown``: the stored unknown deals again, each with
the split search on all the workers and a checkpoint beside the database.

A deal left unknown by a budget is a long search; it is run one deal at a
time (its workers split that deal's search), and its state is saved in a
checkpoint file per deal (``<db>.split/<variant>-<players>p-<seed>.json``).
The next run of the same command goes on from that file, so a proof can be
run an hour at a time. Only an answer is stored: a retry that its budget or
Ctrl-C cut short stores nothing (the old ``unknown`` row stays, with its
smaller budget, so the next run retries it again) and keeps its checkpoint.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..models import Backend, interrupt
from ..models.outcome import Limit, Verdict
from ..models.the_game import Deal, get_rules
from ..solver.the_game.parallel import solve_split
from ..solver.the_game.solution import Solution
from ..solver.the_game.split_workers import ray_module, start_ray
from .work import Row, deal_row


@dataclass(frozen=True)
class Retry:
    """How the unknown deals are retried: workers, the backend and the
    folder of the checkpoints."""

    folder: Path
    jobs: int | None = 1  # Ray: None for every CPU of the cluster
    backend: Backend = Backend.LOCAL
    address: str | None = None


def checkpoint_folder(db: str) -> Path:
    """The folder of the retries' checkpoints: beside the database."""
    return Path(f"{db}.split")


def checkpoint_of(folder: Path, variant: str, players: int, seed: int) -> Path:
    return folder / f"{variant}-{players}p-{seed}.json"


def retry_deal(
    how: Retry, variant: str, players: int, seed: int, time_limit: float | None
) -> tuple[Row | None, Solution]:
    """One unknown deal, searched on from its checkpoint for ``time_limit``
    seconds (all workers together): its row when decided (the checkpoint
    is then removed), else None (the checkpoint stays for the next run).
    Ctrl-C writes the checkpoint and raises ``KeyboardInterrupt``."""
    deal = Deal.from_seed(seed, get_rules(variant), players)
    how.folder.mkdir(parents=True, exist_ok=True)
    path = checkpoint_of(how.folder, variant, players, seed)
    sol = solve_split(
        deal, Limit(time_limit), how.jobs, str(path), backend=how.backend, address=how.address
    )
    interrupt.check()
    if sol.verdict == Verdict.UNKNOWN:
        return None, sol
    row = deal_row(variant, players, seed, sol, time_limit)
    return row, sol


def retry_all(
    how: Retry,
    variant: str,
    players: int,
    seeds: list[int],
    time_limit: float | None,
    on_row: Callable[[Row], None],
    on_unknown: Callable[[int, Solution], None],
) -> None:
    """Every seed of ``seeds`` in turn; ``on_row`` stores a decided one (its
    checkpoint is removed after), ``on_unknown`` hears of one still open.
    With Ray, one instance serves every deal (it takes seconds to start)."""
    with _ray_for(how):
        for seed in seeds:
            row, sol = retry_deal(how, variant, players, seed, time_limit)
            if row is None:
                on_unknown(seed, sol)
                continue
            on_row(row)  # stored first: a kill between the two keeps the file
            checkpoint_of(how.folder, variant, players, seed).unlink(missing_ok=True)


@contextlib.contextmanager
def _ray_for(how: Retry) -> Iterator[None]:
    if how.backend is not Backend.RAY:
        yield
        return
    started = start_ray(how.jobs, how.address)
    try:
        yield
    finally:
        if started:
            ray_module().shutdown()
