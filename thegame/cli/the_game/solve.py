"""``thegame solve`` and ``solve-batch``: verdicts for one deal or many."""

from __future__ import annotations

import click

from ..common import err, out, print_json, searching, user_errors, write_atomic
from .options import deal_options, load_deal


@click.command()
@deal_options
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0),
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
    engine: str,
    record_file: str | None,
    as_json: bool,
) -> None:
    """Decide whether a perfect clear exists, and show the line."""
    from ...models.outcome import Limit
    from ...solver.the_game.portfolio import solve_with
    from .render import solution_view

    d = load_deal(seed, deck, deal_file, variant, players, first)
    with searching(enabled=not as_json) as tick:
        result = solve_with(d, engine, Limit(time_limit, node_limit, tick))
    if record_file:
        write_atomic(record_file, result.record().to_json(indent=1) + "\n")
    if as_json:
        print_json(result.to_dict())
    else:
        out.print(solution_view(result))




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
    type=click.FloatRange(min=0),
    default=10.0,
    show_default=True,
    help="Seconds per deal.",
)
@click.option("--node-limit", type=click.IntRange(min=1), default=None, help="Nodes per deal.")
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
    jobs: int | None,
) -> None:
    """Solve many deals on all cores; one JSON line per deal on stdout."""
    from rich.progress import Progress

    from ...models.outcome import Limit
    from ...solver.the_game.batch import batch_items, run_batch

    items = batch_items(seeds, deals_file, variant, players)
    with Progress(transient=True, console=err) as progress:
        task = progress.add_task("solving", total=len(items))
        for line in run_batch(items, Limit(time_limit, node_limit), jobs):
            progress.advance(task)
            print_json(line)
