"""The ``thegame`` command: click commands that only parse and present."""

from __future__ import annotations

import click

from .. import __version__
from .options import (
    deal_options,
    err,
    load_deal,
    load_record,
    out,
    print_json,
    user_errors,
)
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
        out.print(check_text(result, len(record.turns)))
    else:
        err.print(check_text(result, len(record.turns)), soft_wrap=True)
    if not result.legal:
        raise SystemExit(2)


def main() -> None:
    cli(prog_name="thegame")
