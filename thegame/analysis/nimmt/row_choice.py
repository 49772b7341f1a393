"""What a player's own row choice does to the table, from its view of the trick."""

from __future__ import annotations

from ...models.nimmt.rules import Rows, fewest_heads_row, place_trick, row_heads
from ...models.nimmt.state import View


def own_card(view: View) -> int:
    """This player's card of the revealed trick (a row-choice view)."""
    assert view.trick is not None
    return view.trick[view.player]


def after_own_trick(view: View, card: int, row: int) -> tuple[Rows, int]:
    """The rows after this turn's revealed trick (``view.trick``) when this
    player's card (below every row) takes ``row``, and the heads it takes."""
    rows, mine, _ = trick_outcome(view, card, row)
    return rows, mine


def trick_outcome(view: View, card: int, row: int) -> tuple[Rows, int, int]:
    """``after_own_trick`` and the heads the others take in the same trick."""
    assert view.trick is not None

    def choose(p: int, rows: Rows) -> int:
        return row if p == view.player else fewest_heads_row(rows)

    rows, placed = place_trick(view.rows, view.trick, choose)
    mine = sum(row_heads(pl.taken) for pl in placed if pl.player == view.player)
    return rows, mine, sum(row_heads(pl.taken) for pl in placed) - mine
