"""``thegame deal``: show a deal of The Game family."""

from __future__ import annotations

import click

from ...models import InvalidInputError
from ..common import out, print_json, user_errors
from ..options import json_option
from .options import deal_options, load_deal
from .render import deal_table, deal_title, legend


@click.command()
@deal_options
@json_option("Print the deal as JSON.")
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
    if as_json and as_text:
        raise InvalidInputError("give --json or --text, not both", "options")
    d = load_deal(seed, deck, deal_file, variant, players, first, turns_ok=True)
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
