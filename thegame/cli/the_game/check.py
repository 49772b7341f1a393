"""``thegame check``: the referee; replays a record against the rules."""

from __future__ import annotations

import click

from ..common import err, out, print_json, user_errors
from ..options import json_option, record_argument
from .options import load_record
from .render import check_text


@click.command()
@record_argument()
@json_option()
@user_errors
def check(record_file: str, as_json: bool) -> None:
    """Replay a game record and say whether it is legal.

    Exit code 0 when legal, 2 when a play is illegal or the file is malformed.
    """
    from ...models.the_game import replay

    record = load_record(record_file)
    result = replay(record)
    if as_json:
        print_json(result.to_dict())
    elif result.legal:
        out.print(check_text(result), soft_wrap=True)
    else:
        err.print(check_text(result), soft_wrap=True)
    if not result.legal:
        raise SystemExit(2)
