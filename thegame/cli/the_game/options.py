"""The Game's deal options: ``--seed`` / ``--deck`` / ``--deal`` and friends."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from ...models import InvalidInputError
from ...models.check import status_text
from ...models.jsonio import in_file, load_json
from ...models.outcome import Status
from ...models.the_game import Deal, Record, Turn, get_rules, variants
from ...models.the_game.notation import plural
from ...puzzles.the_game.files import game_from_json, parse_game_text
from ..common import read_text
from ..options import choice_option, deal_source_options

VARIANT_HELP = "Rules preset (default: classic)."

F = TypeVar("F", bound=Callable[..., Any])


def deal_options(func: F) -> F:
    """``--seed`` / ``--deck`` / ``--deal`` with ``--variant``, ``--players``, ``--first``."""
    decorators = [
        deal_source_options(
            deck_help='The deck in deal order, "c1 c2 ..." (spaces or commas; Face to Face: '
            'both decks, "/" between them).',
            deal_help="A deal file: deal JSON, the one-line text form, or a record or puzzle "
            "('-': stdin; solve goes on from a game in progress, explain and play refuse one).",
        ),
        choice_option("--variant", list(variants.names()), VARIANT_HELP),
        click.option(
            "--players",
            type=click.IntRange(1, 5),
            default=None,
            help="Number of players (1-5; Face to Face: 2; default: the variant's fewest).",
        ),
        click.option(
            "--first",
            type=click.IntRange(min=1),
            default=None,
            help="Starting player, from 1 (default: free, rule C3).",
        ),
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
    turns_ok: bool = False,
) -> Deal:
    """The deal that the options describe. A file that holds turns played
    (a record, a puzzle) is refused unless ``turns_ok``: the command starts
    from the deal, and ignoring the turns silently would mislead."""
    game = load_game(seed, deck, deal_file, variant, players, first)
    if game.turns and not turns_ok:
        from ...models.the_game import replay

        played = plural(len(game.turns), "turn")
        status = replay(game).status
        if status == Status.IN_PROGRESS:
            what = f"a game in progress ({played} played)"
            verbs = ("solve", "hint", "explain")
        else:  # a finished game is no position to go on from
            what = f"a finished game ({status_text(status)} after {played})"
            verbs = ("check", "analyze", "explain")
        commands = ", ".join(f"'thegame {v} {deal_file}'" for v in verbs)
        raise InvalidInputError(
            f"{deal_file} holds {what}; this command starts from the deal: give the file as "
            f"FILE ({commands})",
            "options",
        )
    return game.deal


def load_game(
    seed: int | None,
    deck: str | None,
    deal_file: str | None,
    variant: str | None,
    players: int | None,
    first: int | None,
) -> Record:
    """The deal that the options describe (exactly one source), with the
    turns a record or puzzle file holds (none for other sources)."""
    given = [name for name, v in (("--seed", seed), ("--deck", deck), ("--deal", deal_file)) if v]
    if seed == 0:
        given.insert(0, "--seed")
    if len(given) > 1:
        raise InvalidInputError(f"give one deal source, not {' and '.join(given)}", "options")
    if not given:
        raise InvalidInputError(
            "no deal given: use --seed N, --deck '...' or --deal FILE", "options"
        )
    turns: tuple[Turn, ...] = ()
    if deal_file is not None:
        game = read_game(deal_file)
        deal, turns = game.deal, game.turns
        if variant and variant != deal.rules.name:
            raise InvalidInputError(
                f"--variant {variant} contradicts the file's {deal.rules.name}", "options"
            )
        if players and players != deal.players:
            raise InvalidInputError(
                f"--players {players} contradicts the file's {deal.players}", "options"
            )
    else:
        rules = get_rules(variant or variants.DEFAULT)
        if seed is not None:
            deal = Deal.from_seed(seed, rules, players)
        else:
            assert deck is not None
            # Face to Face takes both decks separated by "/".
            n = players or rules.min_players
            deal = Deal.from_text(f"{rules.name} {n}p : {deck}", "--deck")
    if first is not None:
        started = Record(deal, turns).first
        if turns and first != started:
            raise InvalidInputError(
                f"--first {first} contradicts the file's turns (player {started} started)",
                "options",
            )
        deal = deal.with_first(first)
        deal.validate()
    return Record(deal, turns)


def load_record(path: str) -> Record:
    """A record, a puzzle file (its position) or a deal, as JSON."""
    try:
        return game_from_json(load_json(read_text(path), path), path)
    except InvalidInputError as err:
        raise in_file(err, path) from None


def read_game(path: str) -> Record:
    """What ``load_record`` reads, or a deal's one-line text form."""
    try:
        return parse_game_text(read_text(path), path)
    except InvalidInputError as err:
        raise in_file(err, path) from None
