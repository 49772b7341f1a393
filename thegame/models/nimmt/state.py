"""A round of 6 nimmt! and whole games (rule S5), played by players that see only their own
hand: what each player sees (View), what everyone sees after a turn, and the play itself."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..errors import IllegalMoveError
from ..seeds import SplitMix64
from .deal import Deal, check_players, deal_from_deck, shuffled_deck
from .record import Record, Turn, replay
from .rules import GAME_END, HAND, ChooseRow, Placement, Rows, place_trick, row_heads


@dataclass(frozen=True)
class View:
    """What player ``player`` (0-based) knows when it acts: its hand, the
    rows, every card seen this round, and the scores. ``trick`` is the
    revealed cards of this turn when it must choose a row, else ``None``."""

    player: int
    players: int
    turn: int
    hand: tuple[int, ...]
    rows: Rows
    seen: frozenset[int]
    scores: tuple[int, ...]
    round_heads: tuple[int, ...]
    trick: tuple[int, ...] | None = None


class Player(Protocol):
    def choose_card(self, view: View) -> int: ...

    def choose_row(self, view: View) -> int:
        """The 0-based row to take when this player's card is below every row."""
        ...


@dataclass(frozen=True)
class TurnShown:
    """What everyone sees after a turn: the cards revealed (player 0 first),
    where each went (lowest first, rule S2), the rows after it, the heads
    of the round so far and the record so far."""

    turn: int  # from 1
    cards: tuple[int, ...]
    placements: tuple[Placement, ...]
    rows: Rows
    round_heads: tuple[int, ...]
    record: Record


def play_round(
    deal: Deal,
    players: Sequence[Player],
    scores: Sequence[int] | None = None,
    watch: Callable[[TurnShown], None] | None = None,
) -> Record:
    """Ten turns of ``deal`` (rules S2-S4), each player asked through a
    ``View``; the result is a record that ``replay`` accepts.
    ``watch`` is told every turn once it is placed."""
    n = deal.players
    if len(players) != n:
        raise ValueError(f"{len(players)} players for a deal of {n}")
    before = tuple(scores) if scores is not None else (0,) * n
    hands = [set(h) for h in deal.hands]
    rows: Rows = tuple((c,) for c in deal.rows)
    seen = set(deal.rows)
    heads = [0] * n
    turns: list[Turn] = []
    for t in range(HAND):
        now = (t, rows, frozenset(seen), before, tuple(heads))
        cards = tuple(players[p].choose_card(_view(p, n, hands[p], now)) for p in range(n))
        for p, c in enumerate(cards):
            if c not in hands[p]:
                raise IllegalMoveError("S2", f"player {p + 1} played {c}, not in its hand")
        seen.update(cards)
        now = (t, rows, frozenset(seen), before, tuple(heads))
        choices: dict[int, int] = {}
        rows, placed = place_trick(rows, cards, _asker(players, hands, now, cards, choices))
        for pl in placed:
            hands[pl.player].discard(pl.card)
            heads[pl.player] += row_heads(pl.taken)
        turns.append(Turn(cards, choices))
        if watch is not None:
            record = Record(deal, tuple(turns))
            watch(TurnShown(t + 1, cards, tuple(placed), rows, tuple(heads), record))
    return Record(deal, tuple(turns))


_Now = tuple[int, Rows, frozenset[int], tuple[int, ...], tuple[int, ...]]


def _view(p: int, n: int, hand: set[int], now: _Now, trick: tuple[int, ...] | None = None) -> View:
    t, rows, seen, before, heads = now
    return View(p, n, t, tuple(sorted(hand)), rows, seen, before, heads, trick)


def _asker(
    players: Sequence[Player],
    hands: list[set[int]],
    now: _Now,
    cards: tuple[int, ...],
    choices: dict[int, int],
) -> ChooseRow:
    """Ask the player whose card is below every row which row it takes; it
    has seen every card of the trick (revealed together, rule S2)."""

    def choose(p: int, rows: Rows) -> int:
        choices[p] = players[p].choose_row(_view(p, len(players), hands[p], now, cards))
        return choices[p]

    return choose


@dataclass(frozen=True)
class GameResult:
    scores: tuple[int, ...]
    rounds: tuple[Record, ...]

    def shares(self) -> tuple[float, ...]:
        """Each player's share of the win: fewest points wins (rule S5);
        **Decision:** players tied for fewest share the win equally."""
        low = min(self.scores)
        winners = [s == low for s in self.scores]
        k = sum(winners)
        return tuple(1 / k if w else 0.0 for w in winners)


def game_deals(seed: int, players: int) -> SplitMix64:
    """The generator of a game: round r is the r-th ``shuffle([1..104])``
    of one ``SplitMix64(seed)``, so round 1 is ``Deal.from_seed(seed)``."""
    check_players(players)
    return SplitMix64(seed)


def game_over(scores: Sequence[int], end: int = GAME_END) -> bool:
    """Rule S5: the game ends when a player has ``end`` (66) or more after a round."""
    return bool(scores) and max(scores) >= end


def round_deals(seed: int, players: int) -> Iterator[Deal]:
    """The deals of a game's rounds, one after another (see ``game_deals``)."""
    rng = game_deals(seed, players)
    while True:
        rows, hands = deal_from_deck(shuffled_deck(rng), players)
        yield Deal(rows, hands)


def play_game(
    players: Sequence[Player], seed: int, end: int = GAME_END, max_rounds: int = 1000
) -> GameResult:
    """Rounds until a player has ``end`` (66) or more points after a round (rule S5)."""
    rng = game_deals(seed, len(players))
    scores = [0] * len(players)
    rounds: list[Record] = []
    while max(scores) < end and len(rounds) < max_rounds:
        rows, hands = deal_from_deck(shuffled_deck(rng), len(players))
        record = play_round(Deal(rows, hands), players, scores)
        result = replay(record)
        if result.error is not None:  # pragma: no cover - play_round plays by the rules
            raise IllegalMoveError("S3", result.error.message)
        scores = [s + h for s, h in zip(scores, result.heads, strict=True)]
        rounds.append(record)
    return GameResult(tuple(scores), tuple(rounds))
