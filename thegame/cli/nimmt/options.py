"""6 nimmt!'s options and inputs: the deal of ``--seed``/``--deck``/``--deal``,
a record FILE (a round or a whole game) and the round and player in it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from ...analysis.nimmt.budget import SAMPLES
from ...models.check import illegal_record
from ...models.errors import InvalidInputError
from ...models.jsonio import in_file, load_json
from ...models.nimmt.deal import Deal, check_players
from ...models.nimmt.record import GameRecord, Record, load_file
from ...models.nimmt.record import check as check_round
from ...models.nimmt.rules import HAND, HIGH, LOW, ROWS
from ...models.words import plural
from ..common import read_text
from ..options import deal_source_options

F = TypeVar("F", bound=Callable[..., Any])


def load(path: str) -> Record | GameRecord:
    data = load_json(read_text(path), path)
    try:
        return load_file(data)
    except InvalidInputError as err:
        raise in_file(err, path) from None


def round_of(path: str, round_no: int | None) -> tuple[Record, str]:
    """One round of a record file, and how to name it ('' for a round file).
    A game file without ``--round``: its last round, in every command.
    An illegal round is named as ``nimmt check`` names it, after the file."""
    data = load(path)
    if isinstance(data, Record):
        if round_no not in (None, 1):
            raise InvalidInputError(f"{path} is one round, not a game", "--round")
        _legal(data, path)
        return data, ""
    n = len(data.rounds)
    if round_no is None:
        round_no = n
    if not 1 <= round_no <= n:
        raise InvalidInputError(
            f"{path} holds {plural(n, 'round')}, not round {round_no}", "--round"
        )
    _legal(data.rounds[round_no - 1], path, round_no)
    return data.rounds[round_no - 1], f"round {round_no}: "


def _legal(record: Record, path: str, round_no: int | None = None) -> None:
    error = check_round(record).error
    if error is not None:
        raise illegal_record(error if round_no is None else {"round": round_no, **error}, path)


def player_index(record: Record, player: int) -> int:
    """The 0-based index of a 1-based ``--player``."""
    if not 1 <= player <= record.deal.players:
        raise InvalidInputError(f"{player} is not a player 1..{record.deal.players}", "--player")
    return player - 1


def _parse_deck(text: str, players: int) -> Deal:
    """Rows then hands from a deck in deal order (rule S6): 4 row starters,
    then 10 cards per player; more cards are left undealt."""
    check_players(players)
    cards = []
    for word in text.replace(",", " ").split():
        if not word.isdigit() or not LOW <= int(word) <= HIGH:
            raise InvalidInputError(f"{word!r} is not a card {LOW}..{HIGH}", "--deck")
        cards.append(int(word))
    need = ROWS + HAND * players
    if len(set(cards)) != len(cards):
        raise InvalidInputError("a card appears twice (rule S1)", "--deck")
    if len(cards) < need:
        raise InvalidInputError(
            f"{len(cards)} cards; {players} players need {need}: {ROWS} row starters, "
            f"then {HAND} per player",
            "--deck",
        )
    rows = tuple(cards[:ROWS])
    hands = tuple(
        tuple(sorted(cards[ROWS + HAND * p : ROWS + HAND * (p + 1)])) for p in range(players)
    )
    return Deal(rows, hands)


def deal_from_options(
    seed: int | None, deck: str | None, deal_file: str | None, players: int
) -> Deal:
    """The deal of exactly one of ``--seed``, ``--deck``, ``--deal``."""
    given = [n for n, v in (("--seed", seed), ("--deck", deck), ("--deal", deal_file)) if v]
    if seed == 0:
        given.insert(0, "--seed")
    if len(given) != 1:
        what = " and ".join(given) if given else "none"
        raise InvalidInputError(
            f"give one deal: --seed N, --deck CARDS or --deal FILE (given: {what})", "options"
        )
    if seed is not None:
        check_players(players)
        return Deal.from_seed(seed, players)
    if deck is not None:
        return _parse_deck(deck, players)
    assert deal_file is not None
    data = load_json(read_text(deal_file), deal_file)
    if isinstance(data, dict) and "deal" in data:
        record = Record.from_json(data)
        if record.turns:
            raise InvalidInputError(
                f"holds {plural(len(record.turns), 'turn')} played; --deal starts from the deal",
                deal_file,
            )
        return record.deal
    return Deal.from_json(data, deal_file)


SEED_HELP = "Deal by seed (rule S6; the same deal on every machine)."
DECK_HELP = (
    'The deck in deal order, "c1 c2 ..." (spaces or commas): the 4 row starters, then '
    "10 cards per player."
)


def deal_options(deal_help: str) -> Callable[[F], F]:
    """``--seed N`` / ``--deck CARDS`` / ``--deal FILE`` with 6 nimmt!'s help."""
    return deal_source_options(seed_help=SEED_HELP, deck_help=DECK_HELP, deal_help=deal_help)


PLAYERS_OPTION = click.option(
    "--players", type=int, default=4, show_default=True, help="2 to 10 (rule S1)."
)
ROUND_OPTION = click.option(
    "--round",
    "round_no",
    type=click.IntRange(min=1),
    default=None,
    help="Which round of a game file (from 1; default its last, as the output names it); a "
    "round file is its one round.",
)
PLAYER_OPTION = click.option(
    "--player", type=int, required=True, help="The player (from 1) to answer for."
)
SAMPLES_OPTION = click.option(
    "--samples",
    type=click.IntRange(min=1),
    default=SAMPLES,
    show_default=True,
    help="Guesses at the unseen cards per turn, for the best card by what the player knew.",
)
