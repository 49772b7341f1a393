"""``thegame solve`` and ``solve-batch``: verdicts for one deal or many."""

from __future__ import annotations

from dataclasses import replace

import click

from ...models.outcome import Limit
from ...models.the_game import Deal, Record
from ..common import MEMORY, SECONDS, err, out, print_json, searching, user_errors, write_atomic
from .options import deal_options, load_game


@click.command()
@deal_options
@click.option(
    "--time-limit",
    type=SECONDS,
    default=60.0,
    show_default=True,
    help="Seconds before the verdict is 'unknown'.",
)
@click.option(
    "--node-limit",
    type=click.IntRange(min=1),
    default=None,
    help="Search nodes before the verdict is 'unknown'.",
)
@click.option(
    "--memory",
    type=MEMORY,
    default=None,
    metavar="MIB",
    help="MiB for the search's tables of proven positions (default 768: a "
    "worker stays under 1 GiB); more lets a deep loss proof go further.",
)
@click.option(
    "--engine",
    type=click.Choice(["dfs", "cpsat", "auto"]),
    default="auto",
    show_default=True,
    help="dfs: the search; cpsat: CP-SAT; auto: both, as a portfolio.",
)
@click.option(
    "--record",
    "record_file",
    metavar="FILE",
    help="Write the line as a game record that 'thegame check' accepts.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@user_errors
def solve(
    seed: int | None,
    deck: str | None,
    deal_file: str | None,
    variant: str | None,
    players: int | None,
    first: int | None,
    time_limit: float,
    node_limit: int | None,
    memory: int | None,
    engine: str,
    record_file: str | None,
    as_json: bool,
) -> None:
    """Decide whether a perfect clear exists, and show the line.

    A record or puzzle file (--deal FILE) is solved from its position: the
    turns it holds stay as played. Face to Face: who wins the duel under
    best play, for the deal's start or for each start; each player's race
    alone too.
    """
    from ...models import InvalidInputError
    from ...solver.the_game.api import solve_record
    from ...solver.the_game.portfolio import solve_with
    from .render import solution_view

    game = load_game(seed, deck, deal_file, variant, players, first)
    d = game.deal
    if d.rules.is_duel:
        _solve_duel(
            d, Limit(time_limit, node_limit, None, memory), engine, record_file, as_json,
            game if game.turns else None,
        )  # fmt: skip
        return
    if game.turns and engine == "cpsat":
        raise InvalidInputError("CP-SAT solves from a deal's start; drop --engine cpsat")
    with searching(enabled=not as_json) as tick:
        limit = Limit(time_limit, node_limit, tick, memory)
        result = solve_record(game, limit) if game.turns else solve_with(d, engine, limit)
    if record_file:
        write_atomic(record_file, result.record().to_json(indent=1) + "\n")
    if as_json:
        print_json(result.to_dict())
    else:
        out.print(solution_view(result))


def _solve_duel(
    deal: Deal,
    limit: Limit,
    engine: str,
    record_file: str | None,
    as_json: bool,
    played: Record | None = None,
) -> None:
    """Face to Face: who wins under best play (``solver.the_game.duel``);
    ``played``: a record, solved from where it stands."""
    from ...models import InvalidInputError
    from ...solver.the_game.duel.api import solve_duel, solve_duel_at
    from .duel_view import duel_solution_view

    if engine == "cpsat":
        raise InvalidInputError("Face to Face is solved by the duel search; drop --engine cpsat")
    with searching(enabled=not as_json) as tick:
        if played is not None:
            sol = solve_duel_at(played, replace(limit, progress=tick))
        else:
            sol = solve_duel(deal, replace(limit, progress=tick))
    if record_file:
        if len(sol.results) != 1:
            raise InvalidInputError("--record needs one start: give --first 1 or --first 2")
        res = sol.results[0]
        before = () if played is None else played.turns
        first = res.first if played is None else deal.first
        rec = Record(deal.with_first(first), (*before, *res.turns))
        write_atomic(record_file, rec.to_json(indent=1) + "\n")
    if as_json:
        print_json(sol.to_dict())
    else:
        out.print(duel_solution_view(sol))


@click.command("solve-batch")
@click.option("--seeds", metavar="A-B", help="Seed range, e.g. 1-1000.")
@click.option(
    "--deals",
    "deals_file",
    metavar="FILE",
    help='File of deals: JSON lines, a JSON list, or {"deals": [...]}.',
)
@click.option("--variant", default="classic", show_default=True, help="Rules preset for --seeds.")
@click.option("--players", type=int, default=None, help="Number of players for --seeds.")
@click.option(
    "--time-limit",
    type=SECONDS,
    default=10.0,
    show_default=True,
    help="Seconds per deal.",
)
@click.option("--node-limit", type=click.IntRange(min=1), default=None, help="Nodes per deal.")
@click.option(
    "--memory",
    type=MEMORY,
    default=None,
    metavar="MIB",
    help="MiB for each worker's tables of proven positions (default 768).",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes (default: all cores).",
)
@user_errors
def solve_batch(
    seeds: str | None,
    deals_file: str | None,
    variant: str,
    players: int | None,
    time_limit: float,
    node_limit: int | None,
    memory: int | None,
    jobs: int | None,
) -> None:
    """Solve many deals on all cores; one JSON line per deal on stdout."""
    from rich.progress import Progress

    from ...models.outcome import Limit
    from ...solver.the_game.batch import batch_items, run_batch

    items = batch_items(seeds, deals_file, variant, players)
    with Progress(transient=True, console=err) as progress:
        task = progress.add_task("solving", total=len(items))
        for line in run_batch(items, Limit(time_limit, node_limit, None, memory), jobs):
            progress.advance(task)
            print_json(line)
