"""A game of 6 nimmt! advanced one turn at a time, for a person at seat 1
against ``by_level`` players: what a page needs between two clicks.

The game is its seed and the turns played, nothing else: every round's deal
comes from the seed (``round_deals``), and every other player's decision is
made by a player of its level seeded by the game, the round, the turn and
the seat, from a ``View`` of what that player sees. The same turns therefore
give the same decisions again, whoever asks and however often.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import islice
from typing import Any

from ...models.errors import IllegalMoveError, InvalidInputError
from ...models.jsonio import item
from ...models.nimmt.deal import check_players
from ...models.nimmt.record import GameRecord, Record, RoundStatus, Turn, replay, replay_game
from ...models.nimmt.rules import HAND, ROWS, chooser
from ...models.nimmt.state import View, game_over, round_deals
from .players import LEVELS, by_level
from .review import view_at

# Rounds a table takes: a game ends (rule S5) long before; this bounds what a
# client can send.
MAX_ROUNDS = 200


@dataclass(frozen=True)
class Table:
    """A game in play: its seed, players, the others' level, one round or a
    whole game to 66 (rule S5), and the rounds so far (the last may be
    unfinished)."""

    seed: int
    players: int
    level: str
    whole: bool
    game: GameRecord

    @property
    def current(self) -> Record:
        return self.game.rounds[-1]

    @property
    def scores(self) -> tuple[int, ...]:
        """The points before the current round."""
        before = self.game.rounds[:-1]
        if not before:
            return (0,) * self.players
        return tuple(replay_game(GameRecord(before, self.seed)).scores)

    @property
    def over(self) -> bool:
        """The round (one-round table) or the game (rule S5) is over."""
        done = replay(self.current).status == RoundStatus.FINISHED
        if not self.whole:
            return done
        return done and game_over(replay_game(self.game).scores)


def rounds_from_json(seed: int, players: int, data: Any) -> list[list[Turn]]:
    """The turns of each round, as a record holds them (rule S6), read
    against the game's deals: ``[[{"cards": [...], "rows": {...}}, ...], ...]``."""
    check_players(players, "players")
    if not isinstance(data, list) or not all(isinstance(r, list) for r in data):
        raise InvalidInputError("expected a list of rounds, each a list of turns", "rounds")
    if len(data) > MAX_ROUNDS:
        raise InvalidInputError(f"{len(data)} rounds; a game has {MAX_ROUNDS} at most", "rounds")
    deals = islice(round_deals(seed, players), len(data))
    out = []
    for i, (deal, turns) in enumerate(zip(deals, data, strict=False)):
        try:
            out.append(list(Record.from_json({"deal": deal.to_json(), "turns": turns}).turns))
        except InvalidInputError as e:
            raise InvalidInputError(e.message, f"{item('rounds', i)}.{e.where}") from None
    return out


def open_table(
    seed: int, players: int, level: str, whole: bool, rounds: Sequence[Sequence[Turn]]
) -> Table:
    """The table of a game seeded ``seed`` after ``rounds`` (each a list of
    turns), every turn checked by the referee (rules S2-S5); a finished
    round that does not end the game is followed by the next one's deal."""
    if level not in LEVELS:
        raise InvalidInputError(f"no level {level!r}; the levels are {', '.join(LEVELS)}", "level")
    check_players(players, "players")
    if not rounds:
        rounds = [[]]
    if len(rounds) > (MAX_ROUNDS if whole else 1):
        raise InvalidInputError(
            f"{len(rounds)} rounds; {'a game' if whole else 'this table'} has "
            f"{MAX_ROUNDS if whole else 1} at most",
            "rounds",
        )
    deals = list(islice(round_deals(seed, players), len(rounds)))
    game = GameRecord(tuple(Record(d, tuple(t)) for d, t in zip(deals, rounds, strict=True)), seed)
    checked = replay_game(game)
    if checked.error is not None:
        e = checked.error
        raise IllegalMoveError(e.error.rule, f"round {e.round}, turn {e.error.turn}: "
                               f"{e.error.message}")  # fmt: skip
    table = Table(seed, players, level, whole, game)
    if whole and not table.over and replay(table.current).status == RoundStatus.FINISHED:
        nxt = list(islice(round_deals(seed, players), len(rounds) + 1))[-1]
        table = replace(table, game=GameRecord((*game.rounds, Record(nxt, ())), seed))
    return table


def _seat_seed(table: Table, seat: int) -> int:
    """The seed of one seat's decision this turn (round, turn and seat apart)."""
    r, t = len(table.game.rounds), len(table.current.turns)
    return ((table.seed * MAX_ROUNDS + r) * HAND + t) * 16 + seat


def seat_view(table: Table, seat: int, trick: tuple[int, ...] | None = None) -> View:
    """What ``seat`` (0-based) sees before the current turn (and the trick,
    revealed, when it must choose a row)."""
    view = view_at(table.current, seat, len(table.current.turns))
    return replace(view, scores=table.scores, trick=trick)


def hand(table: Table) -> tuple[int, ...]:
    """The person's hand (seat 1) now."""
    return seat_view(table, 0).hand


def others_cards(table: Table) -> tuple[int, ...]:
    """The cards of seats 2..n this turn, each chosen by its level's player
    from what that seat sees (the person's card is not part of it: the cards
    are chosen face down and revealed together, rule S2)."""
    if table.over:
        raise InvalidInputError("the game is over: no next turn", "game")
    return tuple(
        by_level(table.level, _seat_seed(table, p)).choose_card(seat_view(table, p))
        for p in range(1, table.players)
    )


def next_turn(table: Table, card: int, others: tuple[int, ...], row: int | None) -> Turn | None:
    """The turn of the person's ``card`` and the others' cards, with the row
    choice rule S3 asks for; None when the person's card is below every row
    and ``row`` (0-based) is not given yet."""
    if card not in hand(table):
        raise IllegalMoveError("S2", f"card {card} is not in your hand")
    if row is not None and not 0 <= row < ROWS:
        raise InvalidInputError(f"row {row + 1} does not exist; rows are 1 to {ROWS}", "row")
    cards = (card, *others)
    must = chooser(replay(table.current).rows[-1], cards)
    choices: dict[int, int] = {}
    if must == 0:
        if row is None:
            return None
        choices[0] = row
    elif row is not None:
        raise IllegalMoveError(
            "S3", f"card {card} is not lower than every row's end: it takes no row of your choice"
        )
    elif must is not None:
        view = seat_view(table, must, cards)
        choices[must] = by_level(table.level, _seat_seed(table, must)).choose_row(view)
    return Turn(cards, choices)


def advance(table: Table, turn: Turn) -> Table:
    """The table after ``turn`` (checked by the referee), with the next
    round's deal when a whole game goes on."""
    rounds = [list(r.turns) for r in table.game.rounds]
    rounds[-1].append(turn)
    return open_table(table.seed, table.players, table.level, table.whole, rounds)
