"""Cento's options and inputs: the rule parameters (Z1-Z6), the deal of
``--seed``/``--deck``/``--deal``, and a record FILE with its position."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from ...models.cento import Deal, HundredMode, Record, Rules, State, check
from ...models.cento.rules import FREE
from ...models.errors import InvalidInputError
from ...models.jsonio import load_json
from ...models.words import plural
from ..common import read_text
from ..options import choice_option, deal_source_options

F = TypeVar("F", bound=Callable[..., Any])


def _cards_range(text: str | None) -> tuple[int, int]:
    if text is None:
        return 1, 100
    try:
        low, high = (int(x) for x in text.split("-"))
    except ValueError:
        raise InvalidInputError(f"expected A-B such as 1-30, not {text!r}", "--cards") from None
    return low, high


def rule_options(func: F) -> F:
    """The rule parameters of Z1-Z6, for a seeded deal."""
    options = [
        click.option(
            "--free",
            type=click.IntRange(0, 20),
            default=4,
            show_default=True,
            help="Free cards in the deck (rule Z4).",
        ),
        click.option(
            "--cards",
            metavar="A-B",
            default=None,
            help="Number cards A..B (rule Z6), default 1-100.",
        ),
        click.option(
            "--hand-size",
            type=click.IntRange(1, 50),
            default=7,
            show_default=True,
            help="Cards dealt to each player (rule Z1).",
        ),
        click.option(
            "--penalty",
            type=click.IntRange(0, 10),
            default=3,
            show_default=True,
            help="Cards a bound player draws (rule Z2).",
        ),
        click.option(
            "--trick-draw",
            type=click.IntRange(0, 10),
            default=3,
            show_default=True,
            help="Cards every other player draws on a Trick (rule Z5).",
        ),
        choice_option(
            "--hundred", [m.value for m in HundredMode], "The 100 (rule Z5).", default="trick_treat"
        ),
        click.option(
            "--chain-all",
            is_flag=True,
            help="A repdigit's chain must shed every card with its digit (rule Z3).",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def make_rules(kw: dict[str, Any]) -> Rules:
    low, high = _cards_range(kw["cards"])
    return Rules(
        low=low,
        high=high,
        hand_size=kw["hand_size"],
        free_cards=kw["free"],
        penalty=kw["penalty"],
        trick_draw=kw["trick_draw"],
        hundred=HundredMode(kw["hundred"]),
        chain_all=kw["chain_all"],
    )


def _load_json(path: str) -> Any:
    return load_json(read_text(path), path)


def deal_options(players: int) -> Callable[[F], F]:
    """``--seed N`` / ``--deck`` / ``--deal FILE``, ``--players`` and the rules."""

    def decorate(func: F) -> F:
        options = [
            deal_source_options(
                seed_help="Deal by seed (rule Z6; the same deal on every machine).",
                deck_help="The deck in deal order, \"c1 c2 ...\" (spaces or commas; 'free' "
                "for a free card): player 1's hand first, then the open card and the draw pile.",
                deal_help="A deal file ('-': stdin), or a record with no turn played.",
            ),
            click.option(
                "--players",
                type=click.IntRange(1, 6),
                default=players,
                show_default=True,
                help="Players of a --seed or --deck deal (rule Z1).",
            ),
        ]
        func = rule_options(func)
        for option in reversed(options):
            func = option(func)
        return func

    return decorate


def _parse_deck(text: str) -> list[int]:
    cards = []
    for word in text.replace(",", " ").split():
        if word.lower() in ("free", "f"):
            cards.append(FREE)
        elif word.isdigit():
            cards.append(int(word))
        else:
            raise InvalidInputError(f"{word!r} is not a card (1..100 or 'free')", "--deck")
    return cards


def deal_from_options(
    seed: int | None, deck: str | None, deal_file: str | None, players: int, kw: dict[str, Any]
) -> Deal:
    """The deal of exactly one of ``--seed``, ``--deck``, ``--deal``. A file
    with turns is checked first (an illegal turn is named, exit 2), then
    refused: a deal option starts from the deal, and ignoring the turns
    would mislead."""
    given = [
        n for n, v in (("--seed", seed), ("--deck", deck), ("--deal", deal_file)) if v is not None
    ]
    if len(given) != 1:
        what = " and ".join(given) if given else "none"
        raise InvalidInputError(
            f"give one deal: --seed N, --deck CARDS or --deal FILE (given: {what})", "options"
        )
    if seed is not None:
        return Deal.from_seed(seed, players, make_rules(kw))
    if deck is not None:
        return Deal.from_deck(_parse_deck(deck), players, make_rules(kw))
    assert deal_file is not None
    data = _load_json(deal_file)
    if not (isinstance(data, dict) and "deal" in data):
        return Deal.from_dict(data, deal_file)
    record = Record.from_dict(data)
    if record.turns:
        error = check(record).error
        if error is not None:
            raise illegal(error, deal_file)
        raise InvalidInputError(
            f"holds {plural(len(record.turns), 'turn')} played; --deal starts from the deal: "
            f"'thegame cento solve {deal_file}' goes on from the position",
            deal_file,
        )
    return record.deal


def illegal(error: dict[str, Any], path: str) -> InvalidInputError:
    """The first illegal step of a record file, as one line: where, rule, why."""
    play = f", play {error['play']}" if error["play"] else ""
    return InvalidInputError(
        f"rule {error['rule']}: {error['message']}", f"{path}: turn {error['turn']}{play}"
    )


def checked(record: Record, path: str) -> None:
    """A record's first illegal step is an error (exit 2), in the one shape of
    ``illegal``."""
    error = check(record).error
    if error is not None:
        raise illegal(error, path)


def load_record(path: str) -> Record:
    return Record.from_dict(_load_json(path))


def _legal_position(record: Record, path: str) -> State:
    """The position a record reaches; its first illegal turn is an error (exit 2)."""
    result = check(record)
    if result.error is not None:
        raise illegal(result.error, path)
    if result.state.over:
        raise InvalidInputError("the game is over: there is nothing to solve", path)
    return result.state


def record_or_deal(
    command: str,
    record_file: str | None,
    seed: int | None,
    deck: str | None,
    deal_file: str | None,
    players: int,
    kw: dict[str, Any],
) -> tuple[Record, State | None]:
    """Where ``solve`` and ``explain`` start: the position a record FILE
    reaches (its turns checked first), or a deal option's deal (no position
    yet: None), as a record of the turns before it."""
    if record_file is None:
        start, position = Record(deal_from_options(seed, deck, deal_file, players, kw), ()), None
    else:
        if seed is not None or deck is not None or deal_file is not None:
            raise InvalidInputError("give a record FILE or a deal option, not both", command)
        start = load_record(record_file)
        position = _legal_position(start, record_file)
    return start, position
