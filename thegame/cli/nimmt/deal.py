"""``thegame nimmt deal`` and ``thegame nimmt check``: a deal shown, a round or
a whole game refereed."""

from __future__ import annotations

import click

from ...models.nimmt.deal import check_players
from ...models.nimmt.record import GameRecord, check_game
from ...models.nimmt.record import check as check_round
from ...models.words import plural
from ..common import err, out, print_json, user_errors
from ..options import json_option, record_argument
from .options import PLAYERS_OPTION, deal_from_options, deal_options, load


@click.command()
@deal_options("A deal file ('-': stdin), or a round record with no turn played.")
@PLAYERS_OPTION
@json_option("Print the deal as JSON.")
@user_errors
def deal(
    seed: int | None, deck: str | None, deal_file: str | None, players: int, as_json: bool
) -> None:
    """Show a deal: the four row starters and every hand (rule S6)."""
    check_players(players)
    d = deal_from_options(seed, deck, deal_file, players)
    players = d.players
    if as_json:
        print_json(d.to_json())
        return
    where = f" seed {seed}," if seed is not None else ""
    out.print(f"6 nimmt!{where} {plural(players, 'player')}")
    for i, c in enumerate(d.rows, 1):
        out.print(f"  row {i}: {c}")
    for p, hand in enumerate(d.hands, 1):
        out.print(f"  player {p}: {' '.join(map(str, hand))}")


@click.command()
@record_argument()
@json_option()
@user_errors
def check(record_file: str, as_json: bool) -> None:
    """Replay a round record by rules S1-S4, or a whole game's rounds and
    its end by rule S5.

    Exit code 0 when legal, 2 when a play is illegal or the file is malformed.
    """
    data = load(record_file)
    if isinstance(data, GameRecord):
        game = check_game(data)
        if as_json:
            print_json(game.to_dict())
        else:
            scores = " ".join(f"P{p}={s}" for p, s in enumerate(game.state.scores, 1))
            line = game.line("round", f"points {scores}", count=len(game.state.rounds))
            (out if game.legal else err).print(line, soft_wrap=True, markup=False)
        if not game.legal:
            raise SystemExit(2)
        return
    result = check_round(data)
    if as_json:
        print_json(result.to_dict())
    else:
        heads = " ".join(f"P{p}={h}" for p, h in enumerate(result.state.heads, 1))
        line = result.line("turn", f"heads {heads}")
        (out if result.legal else err).print(line, soft_wrap=True, markup=False)
    if not result.legal:
        raise SystemExit(2)
