"""The best-response problem: one player's hand against the others' fixed cards.

A decision where rule S3 is silent (the others' row choices in a best
response, docs/games/nimmt.md, "Decisions"): when another player's
card is lower than every row's end (rule S3), that player takes the row the
record names for it on that turn if the record names one; otherwise the row
with the fewest heads, ties to the lowest row number. Only the lowest card of
a trick can be below every row, so the recorded choice applies exactly when
that player was the chooser in the record too (the row is read by its number
even if the rows now differ). Replaying the recorded cards therefore
reproduces the record exactly.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...models.check import illegal_record
from ...models.errors import InvalidInputError
from ...models.nimmt.record import Record, RoundStatus, replay
from ...models.nimmt.rules import HEADS, ROW_LIMIT, Rows, row_for, row_heads

Slot = tuple[int, int, int]
"""A row in the search: (last card, number of cards, heads in it)."""
Slots = tuple[Slot, Slot, Slot, Slot]


@dataclass(frozen=True)
class Problem:
    """Player ``player`` (0-based) holds ``hand``; on turn t the others play
    ``others[t]`` (pairs player, card) and ``recorded[t]`` is the record's
    row choices of the others (player -> 0-based row). The number of turns
    is ``len(hand)``: a generalised round (rule S1 has 10) for small tests."""

    rows: Rows
    hand: tuple[int, ...]
    others: tuple[tuple[tuple[int, int], ...], ...]
    recorded: tuple[Mapping[int, int], ...]
    player: int = 0

    def __post_init__(self) -> None:
        if len(self.others) != len(self.hand) or len(self.recorded) != len(self.hand):
            raise ValueError("one trick of other cards per card in hand")
        if list(self.hand) != sorted(set(self.hand)):
            raise ValueError("the hand must be ascending, without repeats")

    @property
    def slots(self) -> Slots:
        return to_slots(self.rows)


def to_slots(rows: Rows) -> Slots:
    """The rows as the search sees them: (last card, count, heads) each."""
    s = [(r[-1], len(r), row_heads(r)) for r in rows]
    return (s[0], s[1], s[2], s[3])


def problem_from_record(record: Record, player: int, start: int = 0) -> Problem:
    """The best response of ``player`` (0-based) from turn ``start`` on: the
    rows before that turn and the cards still to come. The record must be
    legal and finished, since the others' later cards are needed."""
    if not 0 <= player < record.deal.players:
        raise InvalidInputError(
            f"player {player + 1} is not in 1..{record.deal.players}", "--player"
        )
    result = replay(record)
    if result.error is not None:
        raise illegal_record(result.error.to_json(), "record")
    if result.status != RoundStatus.FINISHED:
        raise InvalidInputError(
            f"the record has {len(record.turns)} of 10 turns; a best response needs every "
            "other player's cards",
            "record",
        )
    turns = record.turns[start:]
    return Problem(
        rows=result.rows[start],
        hand=tuple(sorted(t.cards[player] for t in turns)),
        others=tuple(tuple((p, c) for p, c in enumerate(t.cards) if p != player) for t in turns),
        recorded=tuple({p: r for p, r in t.choices.items() if p != player} for t in turns),
        player=player,
    )


def other_row(slots: Sequence[Slot], player: int, recorded: Mapping[int, int]) -> int:
    """The row another player takes when below every row (the Decision above)."""
    if player in recorded:
        return recorded[player]
    return min(range(len(slots)), key=lambda i: (slots[i][2], i))


def place(table: list[Slot], c: int, choice: int | None = None) -> int:
    """Place card ``c`` on ``table`` in place (rule S3, ``row_for``);
    ``choice`` is the row taken when ``c`` is below every row (``None``: the
    fewest-heads row, the Decision above). Returns the heads taken."""
    best = row_for([s[0] for s in table], c)
    if best is None:
        if choice is None:
            choice = other_row(table, -1, {})
        taken = table[choice][2]
        table[choice] = (c, 1, HEADS[c])
        return taken
    _, n, h = table[best]
    if n == ROW_LIMIT:
        table[best] = (c, 1, HEADS[c])
        return h
    table[best] = (c, n + 1, h + HEADS[c])
    return 0


def trick(
    slots: Slots,
    others: Sequence[tuple[int, int]],
    recorded: Mapping[int, int],
    card: int,
    row: int | None,
    me: int = -1,
) -> tuple[Slots, int]:
    """Place ``card`` of the player and the others' cards, lowest first
    (rules S2, S3); ``row`` is the player's own choice (0-based) when its card
    is below every row. Returns the new rows and the player's heads (S4)."""
    table = list(slots)
    taken = 0
    for c, p in sorted([(card, me), *((c, p) for p, c in others)]):
        if p == me:
            below = row_for([s[0] for s in table], c) is None
            if below and row is None:
                raise ValueError(f"card {card} needs a row choice")
            taken = place(table, c, row if below and row is not None else 0)
        else:
            place(table, c, other_row(table, p, recorded))
    return (table[0], table[1], table[2], table[3]), taken


class Trick:
    """The tricks of one turn from one position, sharing the work of placing
    the others' cards below the player's card (they come first, rule S2).

    The player's heads are known as soon as its card is placed: later
    cards of the trick never take its row back. So ``heads`` is cheap and
    the rows after the whole trick (``after``) are built only when needed.
    """

    __slots__ = ("cards", "done", "players", "prefix", "recorded")

    def __init__(
        self,
        slots: Slots,
        cards: Sequence[int],
        players: Sequence[int],
        recorded: Mapping[int, int],
    ) -> None:
        self.cards = cards  # the others' cards of this turn, ascending
        self.players = players  # who played them
        self.recorded = recorded
        self.prefix: list[list[Slot]] = [list(slots)]
        self.done: dict[tuple[int, int], Slots] = {}

    def _prefix(self, k: int) -> list[Slot]:
        """The rows after the k lowest other cards. Only the first card
        placed can be below every row (later ones are higher than a row's
        end), so only it may need a choice."""
        prefix = self.prefix
        while len(prefix) <= k:
            j = len(prefix) - 1
            table = list(prefix[j])
            c = self.cards[j]
            below = j == 0 and row_for([s[0] for s in table], c) is None
            place(table, c, other_row(table, self.players[j], self.recorded) if below else 0)
            prefix.append(table)
        return prefix[k]

    def below_all(self, card: int) -> bool:
        """Whether ``card`` goes below every row (rule S3)."""
        t = self.prefix[0]
        return (not self.cards or card < self.cards[0]) and row_for([s[0] for s in t], card) is None

    def heads(self, card: int, row: int) -> int:
        """The heads ``card`` takes (``row``: the choice if below every row)."""
        table = self._prefix(bisect_left(self.cards, card))
        best = row_for([s[0] for s in table], card)
        if best is None:
            return table[row][2]
        return table[best][2] if table[best][1] == ROW_LIMIT else 0

    def after(self, card: int, row: int) -> Slots:
        """The rows after this trick."""
        done = self.done.get((card, row))
        if done is not None:
            return done
        k = bisect_left(self.cards, card)
        table = list(self._prefix(k))
        place(table, card, row)
        for c in self.cards[k:]:
            place(table, c, 0)  # above a row's end: never a choice
        done = self.done[(card, row)] = (table[0], table[1], table[2], table[3])
        return done
