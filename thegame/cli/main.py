"""The ``thegame`` command: click commands that only parse and present."""

from __future__ import annotations

import sys

import click

from .. import __version__
from .common import err, out, print_json, searching, user_errors, write_atomic
from .options import deal_options, load_deal, load_record
from .render import check_text, deal_table, deal_title, legend


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="thegame")
def cli() -> None:
    """Exact solver and puzzle analyzer for The Game and its family."""


@cli.command()
@deal_options
@click.option("--json", "as_json", is_flag=True, help="Print the deal JSON.")
@click.option("--text", "as_text", is_flag=True, help="Print the one-line text form.")
@user_errors
def deal(
    seed: int | None,
    deck: str | None,
    deal_file: str | None,
    variant: str | None,
    players: int | None,
    first: int | None,
    as_json: bool,
    as_text: bool,
) -> None:
    """Show a deal: every hand and the draw pile."""
    d = load_deal(seed, deck, deal_file, variant, players, first)
    if as_json:
        print_json(d.to_dict())
        return
    if as_text:
        click.echo(d.to_text())
        return
    out.print(deal_table(d, deal_title(d, seed)))
    note = legend(d)
    if note:
        out.print(note)


@cli.command()
@click.argument("record_file", metavar="FILE")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@user_errors
def check(record_file: str, as_json: bool) -> None:
    """Replay a game record and say whether it is legal.

    Exit code 0 when legal, 2 when a play is illegal or the file is malformed.
    """
    from ..models import replay

    record = load_record(record_file)
    result = replay(record)
    if as_json:
        print_json(result.to_dict())
    elif result.legal:
        out.print(check_text(result, len(record.turns)), soft_wrap=True)
    else:
        err.print(check_text(result, len(record.turns)), soft_wrap=True)
    if not result.legal:
        raise SystemExit(2)


@cli.command()
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
    from ..solver.portfolio import solve_with
    from .render import solution_view

    d = load_deal(seed, deck, deal_file, variant, players, first)
    with searching(enabled=not as_json) as tick:
        result = solve_with(d, engine, time_limit=time_limit, node_limit=node_limit, progress=tick)
    if record_file:
        write_atomic(record_file, result.record().to_json(indent=1) + "\n")
    if as_json:
        print_json(result.to_dict())
    else:
        out.print(solution_view(result))


@cli.command("solve-batch")
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
    from ..solver.batch import batch_items, run_batch

    items = batch_items(seeds, deals_file, variant, players)
    for line in run_batch(items, time_limit, node_limit, jobs, show_progress=True):
        print_json(line)


from .explain import explain  # noqa: E402

cli.add_command(explain)

from .analyze import analyze, hint  # noqa: E402

cli.add_command(analyze)
cli.add_command(hint)


from .puzzles import daily, generate, play  # noqa: E402

cli.add_command(daily)
cli.add_command(generate)
cli.add_command(play)

from .nimmt import nimmt as nimmt_group  # noqa: E402

cli.add_command(nimmt_group)


def main() -> None:
    """The console script: click's usage errors become one line, exit 2."""
    try:
        code = cli.main(prog_name="thegame", standalone_mode=False)
    except click.ClickException as e:
        if type(e).__name__ == "NoArgsIsHelpError":
            click.echo(e.format_message())  # bare ``thegame``: the help
            sys.exit(0)
        err.print(f"error: {e.format_message()}", markup=False, soft_wrap=True)
        sys.exit(e.exit_code)
    except click.Abort:
        err.print("aborted", markup=False)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
