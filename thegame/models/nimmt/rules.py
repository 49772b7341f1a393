"""The table of 6 nimmt!: penalty heads (rule S4) and placing one trick (rules S2, S3)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..errors import IllegalMoveError

LOW, HIGH = 1, 104  # rule S1
ROWS = 4  # rule S1
ROW_LIMIT = 5  # rule S3: the sixth card takes the row
HAND = 10  # rule S1
MIN_PLAYERS, MAX_PLAYERS = 2, 10  # rule S1
GAME_END = 66  # rule S5

Row = tuple[int, ...]
Rows = tuple[Row, ...]


def heads(card: int) -> int:
    """Penalty heads of one card (rule S4)."""
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1


HEADS = tuple(heads(c) if c else 0 for c in range(HIGH + 1))
"""``HEADS[c]`` is ``heads(c)``; a tuple lookup is what the search loops use."""


def row_heads(row: Sequence[int]) -> int:
    return sum(HEADS[c] for c in row)


def row_for(ends: Sequence[int], card: int) -> int | None:
    """Rule S3, where a card goes: the row (0-based) whose end (last card,
    ``ends[i]``) is the highest below ``card``, or ``None`` when ``card`` is
    lower than every row's end (its player then takes a row). Every
    placement of the package asks this one function (the compiled playouts
    mirror it, tested draw for draw against the Python reference)."""
    best, top = None, 0
    for i, end in enumerate(ends):
        if top < end < card:
            best, top = i, end
    return best


def target_row(rows: Sequence[Sequence[int]], card: int) -> int | None:
    """``row_for`` on whole rows (rule S3)."""
    return row_for([row[-1] for row in rows], card)


def fewest_heads_row(rows: Sequence[Sequence[int]]) -> int:
    """The row with the fewest heads, ties to the lowest row number (0-based).

    A decision where rule S3 is silent (docs/games/nimmt.md, "Decisions"):
    the default row choice of every built-in player and of the other
    players in a best response when the record gives no choice that applies."""
    return min(range(len(rows)), key=lambda i: (row_heads(rows[i]), i))


@dataclass(frozen=True)
class Placement:
    """What one card did: the row it went on (0-based), the cards taken."""

    player: int
    card: int
    row: int
    taken: Row
    chose: bool


ChooseRow = Callable[[int, Rows], int]
"""``choose(player, rows) -> row`` (0-based) for a card below every row."""


def place_trick(
    rows: Rows, cards: Sequence[int], choose: ChooseRow
) -> tuple[Rows, list[Placement]]:
    """Place one card per player (index = player, 0-based), lowest first
    (rule S2), each by rule S3; ``choose`` is asked only when a card is lower
    than every row's end. Only the lowest card of a trick can be: once it is
    placed it ends a row, and every other card of the trick is higher."""
    table = [list(r) for r in rows]
    placements: list[Placement] = []
    for card, player in sorted((c, p) for p, c in enumerate(cards)):
        i = target_row(table, card)
        chose = i is None
        if i is None:
            i = choose(player, tuple(tuple(r) for r in table))
            if not 0 <= i < len(table):
                raise IllegalMoveError("S3", f"row {i + 1} does not exist")
            taken: Row = tuple(table[i])
            table[i] = [card]
        elif len(table[i]) == ROW_LIMIT:
            taken = tuple(table[i])
            table[i] = [card]
        else:
            taken = ()
            table[i].append(card)
        placements.append(Placement(player, card, i, taken, chose))
    return tuple(tuple(r) for r in table), placements


def chooser(rows: Sequence[Sequence[int]], cards: Sequence[int]) -> int | None:
    """The player (0-based) who must choose a row this trick, if any (rule S3)."""
    low = min(cards)
    if target_row(rows, low) is None:
        return list(cards).index(low)
    return None


def choices_from(choices: Mapping[int, int]) -> ChooseRow:
    """A ``choose`` that reads fixed choices (player -> 0-based row)."""

    def choose(player: int, rows: Rows) -> int:
        if player not in choices:
            raise IllegalMoveError("S3", f"player {player + 1} must choose a row")
        return choices[player]

    return choose
