"""``thegame solve`` and ``solve-batch``: verdicts for one deal or many."""

from __future__ import annotations

import contextlib
from dataclasses import replace

import click

from ...models.outcome import Backend, Limit
from ...models.the_game import variants
from ...solver.the_game.portfolio import ENGINES
from ...solver.the_game.solution import EngineName
from ..common import err, out, print_json, searching, user_errors, writable, write_atomic
from ..options import (
    backend_option,
    choice_option,
    jobs_option,
    json_option,
    limit_options,
    record_argument,
    save_option,
)
from .kinds import kind_of
from .options import deal_options, load_game

ENGINE_HELP = (
    "dfs: the search; cpsat: CP-SAT (counts no nodes: not with --node-limit); auto: the "
    "search, then CP-SAT with the time left (the search alone under a node budget)."
)


@click.command()
@record_argument(required=False)
@deal_options
@limit_options(60.0, memory=True)
@choice_option("--engine", ENGINES, ENGINE_HELP, default=EngineName.AUTO.value)
@save_option("Write the line as a game record ('thegame check' replays it).")
@click.option("--record", "old_record", metavar="FILE", hidden=True)  # the old --save
@jobs_option(
    "Split this deal's search over N worker processes (the budget covers them all). "
    "Face to Face: 2 or more race df-pn against the depth-first search, each in a "
    "process of its own, for each start (two workers, whatever N)."
)
@click.option(
    "--checkpoint",
    metavar="FILE",
    default=None,
    help="Save the search to FILE (or to the deal's own file in a folder) every few "
    "seconds and at Ctrl-C; the same command with the same FILE goes on from there.",
)
@backend_option(
    "The workers of --jobs: processes on this machine, or Ray actors (the ray "
    "extra; a local Ray of --jobs CPUs, or the cluster at --address)."
)
@click.option("--address", default=None, metavar="ADDR", help="--backend ray: join this cluster.")
@json_option()
@user_errors
def solve(
    record_file: str | None,
    seed: int | None,
    deck: str | None,
    deal_file: str | None,
    variant: str | None,
    players: int | None,
    first: int | None,
    limit: Limit,
    engine: str,
    save_file: str | None,
    old_record: str | None,
    jobs: int | None,
    checkpoint: str | None,
    backend: Backend,
    address: str | None,
    as_json: bool,
) -> None:
    """Decide whether a perfect clear exists, and show the line.

    A deal (--seed, --deck, --deal) is solved from its start; a record or
    puzzle (FILE, or --deal) from its position: the turns it holds stay as
    played. Face
    to Face: who wins the duel under best play, for the deal's start or for
    each start; each player's race alone too.

    --jobs and --checkpoint split the search of a deal into units (the
    classic family): over worker processes (or Ray actors, --backend ray),
    which tell one another what they proved, and resumable after Ctrl-C
    or a kill. Face to Face: --jobs 2 races two searches for each start's
    proof, each in a process of its own.
    """
    from ...models import InvalidInputError
    from ...models.the_game.record import replayed
    from ...solver.the_game.api import Solution
    from ...solver.the_game.duel.api import DuelSolution
    from ...solver.the_game.portfolio import solve_game
    from .duel_view import duel_solution_view
    from .render import solution_view

    if old_record is not None:
        if save_file is not None:
            raise InvalidInputError("give --save once", "options")
        save_file = old_record
    if record_file is not None:
        if deal_file is not None:
            raise InvalidInputError("give a record FILE or --deal FILE, not both", "options")
        deal_file = record_file
    if save_file is not None:
        writable(save_file)  # before the search, not after it
    game = load_game(seed, deck, deal_file, variant, players, first)
    if game.turns and deal_file is not None:
        replayed(game, deal_file)  # an illegal record is named by its file, before any search
    # A duel's --jobs races its proof search (``solve_game``), not the split.
    splits = jobs is not None and kind_of(game.deal.rules).split_jobs
    split = splits or checkpoint is not None or backend is Backend.RAY
    if split:
        if checkpoint is not None:
            from ...solver.the_game.split_units import checkpoint_path

            checkpoint = checkpoint_path(checkpoint, game.deal)
        _check_split(bool(game.turns), engine, checkpoint, backend)
    elif address is not None:
        raise InvalidInputError("--address goes with --backend ray", "options")
    result: Solution | DuelSolution
    with searching(enabled=not as_json) as tick:
        if split:
            from ...solver.the_game.parallel import solve_split

            jobs = jobs if backend is Backend.RAY else jobs or 1  # Ray: all its CPUs by default
            lim = replace(limit, progress=tick)
            result = solve_split(game.deal, lim, jobs, checkpoint, backend=backend, address=address)
        else:
            result = solve_game(game, engine, replace(limit, progress=tick), jobs=jobs or 1)
    if save_file:
        write_atomic(save_file, result.record().to_json(indent=1) + "\n")
    if as_json:
        print_json(result.to_dict())
    elif isinstance(result, DuelSolution):
        out.print(duel_solution_view(result))
    else:
        out.print(solution_view(result))


def _check_split(record: bool, engine: str, checkpoint: str | None, backend: Backend) -> None:
    """The split search's options, refused in one line before any search."""
    from ...models import InvalidInputError

    if record:
        raise InvalidInputError(
            "--jobs and --checkpoint solve a deal from its start, not a record", "options"
        )
    if engine == EngineName.CPSAT:
        raise InvalidInputError("--jobs and --checkpoint split the search: drop --engine cpsat")
    if checkpoint is not None:
        writable(checkpoint)
    if backend is Backend.RAY:
        from ...solver.the_game.split_workers import ray_module

        ray_module()


@click.command("solve-batch")
@click.option("--seeds", metavar="A-B", help="Seed range, e.g. 1-1000.")
@click.option(
    "--deals",
    "deals_file",
    metavar="FILE",
    help='File of deals: JSON lines, a JSON list, or {"deals": [...]}.',
)
@choice_option(
    "--variant", list(variants.names()), "Rules preset for --seeds.", default=variants.DEFAULT
)
@click.option(
    "--players",
    type=click.IntRange(1, 5),
    default=None,
    help="Number of players for --seeds (default: the variant's fewest).",
)
@limit_options(10.0, time_help="Seconds per deal.", nodes_help="Search nodes per deal.",
               memory=True, memory_help="MiB for each worker's tables of proven positions "
               "(default 768).")  # fmt: skip
@jobs_option("Worker processes (default: all cores).")
@user_errors
def solve_batch(
    seeds: str | None,
    deals_file: str | None,
    variant: str,
    players: int | None,
    limit: Limit,
    jobs: int | None,
) -> None:
    """Solve many deals on all cores; one JSON line per deal on stdout."""
    from rich.progress import Progress

    from ...solver.the_game.batch import batch_items, run_batch

    items = batch_items(seeds, deals_file, variant, players)
    # A bar on a terminal only: into a file or a pipe it would write a blank line.
    with Progress(transient=True, console=err, disable=not err.is_terminal) as progress:
        task = progress.add_task("solving", total=len(items))
        lines = run_batch(items, limit, jobs)
        with contextlib.closing(lines):  # a closed stdout stops the pool here
            for line in lines:
                progress.advance(task)
                print_json(line)
