"""``thegame cento deal`` and ``thegame cento check``: a deal shown, a record refereed."""

from __future__ import annotations

from typing import Any

import click

from ...models.cento import State
from ...models.cento import check as check_record
from ...models.check import CheckResult
from ...models.words import plural
from ..common import out, print_json, tell, user_errors
from ..options import json_option, record_argument
from .options import deal_from_options, deal_options, load_record
from .render import hand_text


@click.command()
@deal_options(players=1)
@json_option("Print the deal as JSON.")
@user_errors
def deal(
    seed: int | None,
    deck: str | None,
    deal_file: str | None,
    players: int,
    as_json: bool,
    **kw: Any,
) -> None:
    """Show a deal: every hand, the open card and the draw pile (rule Z6)."""
    d = deal_from_options(seed, deck, deal_file, players, kw)
    if as_json:
        print_json(d.to_dict())
        return
    where = f", seed {d.seed}" if d.seed is not None else ""
    out.print(f"Cento, {plural(d.players, 'player')}{where}")
    for i, hand in enumerate(d.hands):
        out.print(f"player {i + 1}: {hand_text(hand)}")
    out.print(f"open card: {d.open}")
    out.print(f"draw pile (top first): {hand_text(d.draw)}")


@click.command()
@record_argument()
@json_option()
@user_errors
def check(record_file: str, as_json: bool) -> None:
    """Replay a record: legal, or the first illegal turn and play with its rule.

    Exit code 0 when legal, 2 when a step is illegal or the file is malformed.
    """
    result = check_record(load_record(record_file))
    if as_json:
        print_json(result.to_dict())
    elif result.legal:
        out.print(_check_text(result), soft_wrap=True, markup=False)
    else:
        # One line on stderr, the shape every game's check uses.
        e = result.error
        assert e is not None
        where = f"turn {e['turn']}" + (f", play {e['play']}" if e["play"] else "")
        tell(f"illegal: {where}: rule {e['rule']}: {e['message']}")
    if not result.legal:
        raise SystemExit(2)


def _check_text(result: CheckResult[State]) -> str:
    """A legal record: the turns, the status, the winners and every hand left."""
    lines = [f"legal: {plural(result.steps_ok, 'turn')}", f"status: {result.status}"]
    if result.state.winners:
        lines.append("winner: " + ", ".join(f"player {w + 1}" for w in result.state.winners))
    for i, hand in enumerate(result.state.hands):
        lines.append(f"player {i + 1}: {plural(len(hand), 'card')}: {hand_text(hand)}")
    return "\n".join(lines)
