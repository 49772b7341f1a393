"""The Game's deal options: ``--seed`` / ``--deck`` / ``--deal`` and friends."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from ...models import InvalidInputError
from ...models.jsonio import load_json
from ...models.the_game import Deal, Record, get_rules
from ..common import read_text

F = TypeVar("F", bound=Callable[..., Any])


def deal_options(func: F) -> F:
    """``--seed`` / ``--deck`` / ``--deal`` with ``--variant``, ``--players``, ``--first``."""
    decorators = [
        click.option("--seed", type=click.IntRange(min=0), help="Deal by seed (stable shuffle)."),
        click.option("--deck", help='Deck in deal order, "c1 c2 ..." (spaces or commas).'),
        click.option(
            "--deal",
            "deal_file",
            metavar="FILE",
            help="Deal file: deal JSON, a record JSON, or the one-line text form ('-': stdin).",
        ),
        click.option("--variant", default=None, help="Rules preset (default: classic)."),
        click.option("--players", type=int, default=None, help="Number of players."),
        click.option("--first", type=int, default=None, help="Starting player (1-based)."),
    ]
    for deco in reversed(decorators):
        func = deco(func)
    return func


def load_deal(
    seed: int | None,
    deck: str | None,
    deal_file: str | None,
    variant: str | None,
    players: int | None,
    first: int | None,
) -> Deal:
    """Build the deal that the options describe (exactly one source)."""
    given = [name for name, v in (("--seed", seed), ("--deck", deck), ("--deal", deal_file)) if v]
    if seed == 0:
        given.insert(0, "--seed")
    if len(given) > 1:
        raise InvalidInputError(f"give one deal source, not {' and '.join(given)}", "options")
    if not given:
        raise InvalidInputError(
            "no deal given: use --seed N, --deck '...' or --deal FILE", "options"
        )
    if deal_file is not None:
        deal = parse_deal_text(read_text(deal_file), deal_file)
        if variant and variant != deal.rules.name:
            raise InvalidInputError(
                f"--variant {variant} contradicts the file's {deal.rules.name}", "options"
            )
        if players and players != deal.players:
            raise InvalidInputError(
                f"--players {players} contradicts the file's {deal.players}", "options"
            )
    else:
        rules = get_rules(variant or "classic")
        if seed is not None:
            deal = Deal.from_seed(seed, rules, players)
        else:
            assert deck is not None
            # Face to Face takes both decks separated by "/".
            n = players or rules.min_players
            deal = Deal.from_text(f"{rules.name} {n}p : {deck}", "--deck")
    if first is not None:
        deal = deal.with_first(first)
        deal.validate()
    return deal


def parse_deal_text(text: str, where: str) -> Deal:
    """A deal from a file's text: deal JSON, a record's deal, or the text line."""
    stripped = text.strip()
    if not stripped:
        raise InvalidInputError("the file is empty", where)
    if stripped.startswith("{"):
        data = load_json(stripped, where)
        if isinstance(data, dict) and "deal" in data:
            return Record.from_dict(data, where).deal
        return Deal.from_dict(data, where)
    lines = [line for line in stripped.splitlines() if line.strip()]
    if len(lines) != 1:
        raise InvalidInputError("a text deal is one line", where)
    return Deal.from_text(lines[0], where)


def load_record(path: str) -> Record:
    return Record.from_json(read_text(path), path)


