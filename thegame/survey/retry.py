"""``survey run --retry-unknown``: the stored unknown deals again, each with
the split search on all the workers and a checkpoint beside the database.

The deal's stored best line is an input of that search: it walks the line
back from its end (a proof unit at each of its turn starts, the last
first), so a proof reaches further back along the line at each run, and a
clear from any turn of the line (the start the search from the deal's
start went wrong after) wins the deal.

A deal left unknown by a budget is a long search; it is run one deal at a
time (its workers split that deal's search), and its state is saved in a
checkpoint file per deal (``<db>.split/<variant>-<players>p-<seed>.json``).
The next run of the same command goes on from that file, so a proof can be
run an hour at a time. A retry that its budget cuts short stays
``unknown``: its row keeps its smaller budget, so the next run retries it
again, and its checkpoint stays; only a better line (fewer cards left,
replayed) replaces the row's best. Ctrl-C stores nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..models import Backend, interrupt
from ..models.outcome import Limit, Verdict
from ..models.the_game import Deal, Rules, get_rules
from ..solver.the_game.kernel import END, Action
from ..solver.the_game.parallel import solve_split
from ..solver.the_game.solution import Solution
from ..solver.the_game.split_workers import ray_module, start_ray
from .work import Row, deal_row, line_turns


@dataclass(frozen=True)
class Retry:
    """How the unknown deals are retried: workers, the backend and the
    folder of the checkpoints."""

    folder: Path
    jobs: int | None = 1  # Ray: None for every CPU of the cluster
    backend: Backend = Backend.LOCAL
    address: str | None = None
    progress: Callable[[int, int], None] | None = None  # hears (seed, nodes) now and then
    seconds: float | None = None  # this run's seconds a deal (None: the time limit)


def stored_line(rules: Rules, row: Row) -> tuple[int, list[Action]] | None:
    """A stored row's best line as the split search takes it: its start and
    its whole turns as actions (None: the row keeps no line)."""
    if not row.get("line"):
        return None
    actions: list[Action] = []
    for turn in line_turns(rules, row["line"]):
        actions.extend((p.card, p.pile) for p in turn.plays)
        actions.append(END)
    return int(row["first"]), actions


def checkpoint_folder(db: str) -> Path:
    """The folder of the retries' checkpoints: beside the database."""
    return Path(f"{db}.split")


def checkpoint_of(folder: Path, variant: str, players: int, seed: int) -> Path:
    return folder / f"{variant}-{players}p-{seed}.json"


def retry_deal(
    how: Retry,
    variant: str,
    players: int,
    seed: int,
    limit: Limit,
    line: tuple[int, list[Action]] | None = None,
) -> tuple[Row | None, Solution]:
    """One unknown deal, searched on from its checkpoint for ``how.seconds``
    or else ``limit``'s (all workers together; a row stores ``limit``'s
    seconds), walking back along ``line`` first: its row
    when decided (the checkpoint is then removed), else None (the
    checkpoint stays for the next run). Ctrl-C writes the checkpoint and
    raises ``KeyboardInterrupt``."""
    deal = Deal.from_seed(seed, get_rules(variant), players)
    how.folder.mkdir(parents=True, exist_ok=True)
    path = checkpoint_of(how.folder, variant, players, seed)
    sitting = Limit(how.seconds or limit.time, progress=_progress_of(how, seed))
    sol = solve_split(
        deal, sitting, how.jobs, str(path), backend=how.backend, address=how.address, line=line
    )
    interrupt.check()
    if sol.verdict == Verdict.UNKNOWN:
        return None, sol
    return deal_row(variant, players, seed, sol, limit), sol


def better_unknown(stored: Row, sol: Solution) -> Row | None:
    """The row of an undecided retry whose line leaves fewer cards than the
    stored row's (else None): still ``unknown`` with the stored budget, so
    the next run retries it; its bound the larger of the two proven."""
    if sol.verdict != Verdict.UNKNOWN or not sol.turns or sol.cards_left >= stored["cards_left"]:
        return None
    budget = Limit(stored["time_limit"])
    row = deal_row(stored["variant"], stored["players"], stored["seed"], sol, budget)
    row["lower_bound"] = max(row["lower_bound"], stored["lower_bound"])
    return row


def _progress_of(how: Retry, seed: int) -> Callable[[int], None] | None:
    tell = how.progress
    return None if tell is None else lambda nodes: tell(seed, nodes)


def retry_all(
    how: Retry,
    variant: str,
    players: int,
    rows: list[Row],
    limit: Limit,
    on_row: Callable[[Row], None],
    on_unknown: Callable[[int, Solution, Row | None], None],
) -> None:
    """Every stored unknown row of ``rows`` in turn (see ``retry_deal``);
    ``on_row`` stores a decided one (its checkpoint is removed after),
    ``on_unknown`` hears of one still open, with the row to store when the
    retry found a better line (``better_unknown``). With Ray, one instance
    serves every deal (it takes seconds to start)."""
    rules = get_rules(variant)
    with _ray_for(how):
        for stored in rows:
            seed = stored["seed"]
            line = stored_line(rules, stored)
            row, sol = retry_deal(how, variant, players, seed, limit, line)
            if row is None:
                on_unknown(seed, sol, better_unknown(stored, sol))
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
