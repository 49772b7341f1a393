"""The compact Face to Face position and the one place that lists whole turns.

Glossary (the hot code uses short names):
- a set of cards is an int bitmask (bit c = card c): ``hands[p]``;
- a position ``Pos`` is a plain tuple ``(h0, h1, p0, p1, a0, d0, a1, d1, cur)``:
  both hands, both draw-pile positions (cards dealt from ``decks[p]``), the
  four tops (player p's ascending pile is ``a{p}``, descending ``d{p}``;
  engine pile indices ``2p`` and ``2p + 1``, ``A1 D1 A2 D2``) and the
  player to move. The tuple is the transposition-table key: it is the exact
  position (rules D1-D6 need nothing else at the start of a turn).
- a turn is its plays (``(card, pile)`` pairs) and the position after it,
  drawing included (D5), or ``None`` when the turn wins at once (D6).

Placement comes from ``models.the_game.placement`` (C5/D3 on one's own
piles, D4 on the opponent's); nothing here re-derives it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ....models.the_game import Deal, GameState
from ....models.the_game.placement import accepts, improves

Pos = tuple[int, int, int, int, int, int, int, int, int]
Plays = tuple[tuple[int, int], ...]
# One whole turn: its plays and the position after it (None: won at once, D6).
TurnResult = tuple[Plays, Pos | None]

H0, H1, P0, P1, A0, D0, A1, D1, CUR = range(9)


def cards_of(mask: int) -> Iterator[int]:
    """The cards of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass(frozen=True)
class DuelGame:
    """What never changes during a duel: both decks and the rule parameters
    (rule D7: card range, hand size, minimum; D5's draw of 2 is the engine's)."""

    decks: tuple[tuple[int, ...], tuple[int, ...]]
    hand_size: int
    min_play: int  # D2 while the player's draw pile has cards
    min_play_empty: int  # D2 once it is empty (2 in the printed game)
    step: int  # D3: the backward trick on one's own piles
    low: int
    high: int
    draw_own: int = 2  # D5: only own piles played: draw 2

    @classmethod
    def of(cls, deal: Deal) -> DuelGame:
        r = deal.rules
        if not r.is_duel or r.asc_piles != 1 or r.desc_piles != 1:
            raise ValueError("DuelGame models Face to Face with one pile of each direction")
        d0, d1 = deal.decks
        return cls(
            (tuple(d0), tuple(d1)),
            r.hand_size(2),
            r.min_play,
            r.min_play_empty,
            r.step,
            r.low,
            r.high,
        )

    # -- positions ------------------------------------------------------------

    def start(self, first: int) -> Pos:
        """The deal's position with ``first`` (1-based) to move (D1)."""
        h = self.hand_size
        hands = [sum(1 << c for c in d[:h]) for d in self.decks]
        asc, desc = self.low - 1, self.high + 1
        return (hands[0], hands[1], h, h, asc, desc, asc, desc, first - 1)

    @staticmethod
    def from_state(state: GameState) -> Pos:
        """The engine's position, compacted (inside a turn: the hand and tops
        as they are now; ``turn_under_way`` says what the turn has done)."""
        hands = [sum(1 << c for c in state.hands[p]) for p in (0, 1)]
        t = state.tops
        return (
            hands[0],
            hands[1],
            state.stock_pos[0],
            state.stock_pos[1],
            t[0],
            t[1],
            t[2],
            t[3],
            state.current,
        )

    @staticmethod
    def turn_under_way(state: GameState) -> tuple[int, bool]:
        """The plays made this turn and whether one went onto the opponent."""
        me = state.current
        dumped = any(u.play.pile // 2 != me for u in state.placed)
        return len(state.placed), dumped

    def stock_left(self, pos: Pos, p: int) -> int:
        return len(self.decks[p]) - pos[P0 + p]

    def cards_left(self, pos: Pos, p: int) -> int:
        """Player p's cards still to play: hand and draw pile."""
        return pos[H0 + p].bit_count() + self.stock_left(pos, p)

    def minimum(self, pos: Pos, p: int) -> int:
        """D2: the minimum, fixed by the draw pile at the start of the turn."""
        return self.min_play if self.stock_left(pos, p) > 0 else self.min_play_empty

    # -- turns ----------------------------------------------------------------

    def turns(self, pos: Pos, done: int = 0, dumped: bool = False) -> list[TurnResult]:
        """Every distinct result of a whole turn of the player to move.

        ``done``/``dumped``: a turn already under way, with that many plays
        made and (``dumped``) a card already on the opponent's piles; ``pos``
        then holds the hand and tops as they are now.

        A turn is own plays plus at most one card onto the opponent's piles
        (D2). Plays on different piles commute only partly (a backward trick
        depends on the top), so the plays are searched as sequences, but the
        search merges every two sequences that reach the same hand and the
        same four tops: from there the rest of the turn and the position
        after it are the same (whether a card went to the opponent is seen
        in their tops: D4 changes a top strictly; the number of plays is the
        cards gone from the hand). Each intermediate state with at least the
        minimum of plays is one distinct turn result.
        """
        p = pos[CUR]
        o = 1 - p
        hand0 = pos[H0 + p]
        a0, d0 = pos[A0 + 2 * p], pos[D0 + 2 * p]
        oa0, od0 = pos[A0 + 2 * o], pos[D0 + 2 * o]
        m = self.minimum(pos, p)
        empty = self.stock_left(pos, p) == 0
        step = self.step
        own_a, own_d, opp_a, opp_d = 2 * p, 2 * p + 1, 2 * o, 2 * o + 1
        seen: set[tuple[int, int, int, int, int]] = set()
        out: list[TurnResult] = []
        plays: list[tuple[int, int]] = []

        def visit(hand: int, a: int, d: int, oa: int, od: int, n: int) -> None:
            key = (hand, a, d, oa, od)
            if key in seen:
                return
            seen.add(key)
            dumped = dumped0 or oa != oa0 or od != od0
            if n >= m:
                if hand == 0 and empty:
                    out.append((tuple(plays), None))  # D6: all cards played, won at once
                    return
                out.append((tuple(plays), self._after(pos, p, hand, a, d, oa, od, dumped)))
            for c in cards_of(hand):
                rest = hand & ~(1 << c)
                if accepts(True, a, c, step):  # D3 (C5) on one's own ascending pile
                    plays.append((c, own_a))
                    visit(rest, c, d, oa, od, n + 1)
                    plays.pop()
                if accepts(False, d, c, step):
                    plays.append((c, own_d))
                    visit(rest, a, c, oa, od, n + 1)
                    plays.pop()
                if not dumped:  # D2: at most one card onto the opponent's piles
                    if improves(True, oa, c):  # D4
                        plays.append((c, opp_a))
                        visit(rest, a, d, c, od, n + 1)
                        plays.pop()
                    if improves(False, od, c):
                        plays.append((c, opp_d))
                        visit(rest, a, d, oa, c, n + 1)
                        plays.pop()

        dumped0 = dumped
        visit(hand0, a0, d0, oa0, od0, done)
        return out

    def _after(
        self, pos: Pos, p: int, hand: int, a: int, d: int, oa: int, od: int, dumped: bool
    ) -> Pos:
        """The position after the turn: D5 draw, then the opponent moves."""
        want = self.hand_size - hand.bit_count() if dumped else self.draw_own
        deck = self.decks[p]
        at = pos[P0 + p]
        take = max(0, min(want, len(deck) - at))
        for c in deck[at : at + take]:
            hand |= 1 << c
        new = list(pos)
        new[H0 + p] = hand
        new[P0 + p] = at + take
        new[A0 + 2 * p], new[D0 + 2 * p] = a, d
        new[A0 + 2 * (1 - p)], new[D0 + 2 * (1 - p)] = oa, od
        new[CUR] = 1 - p
        return (new[0], new[1], new[2], new[3], new[4], new[5], new[6], new[7], new[8])

    def has_turn(self, pos: Pos, dump: bool = True) -> bool:
        """Whether the player to move has any legal turn (else they lose, D6).

        ``dump=False`` asks for a turn on their own piles alone."""
        p = pos[CUR]
        hand = pos[H0 + p]
        m = self.minimum(pos, p)
        if hand.bit_count() < m:
            return False
        if m == 2 and hand.bit_count() >= 2:
            return self._two_plays(pos, dump)
        # A generalised minimum (D7): list the turns.
        return any(dump or not _dumps(plays, p) for plays, _after in self.turns(pos))

    def _two_plays(self, pos: Pos, dump: bool) -> bool:
        """Two legal plays in a row (a longer turn starts with two)."""
        p = pos[CUR]
        o = 1 - p
        hand = pos[H0 + p]
        step = self.step
        a, d = pos[A0 + 2 * p], pos[D0 + 2 * p]
        oa, od = pos[A0 + 2 * o], pos[D0 + 2 * o]
        for c in cards_of(hand):
            rest = hand & ~(1 << c)
            firsts = []
            if accepts(True, a, c, step):
                firsts.append((c, d, False))
            if accepts(False, d, c, step):
                firsts.append((a, c, False))
            if dump and (improves(True, oa, c) or improves(False, od, c)):
                firsts.append((a, d, True))
            for na, nd, dumped in firsts:
                for c2 in cards_of(rest):
                    if accepts(True, na, c2, step) or accepts(False, nd, c2, step):
                        return True
                    # After a card onto the opponent, the second goes to own piles (D2).
                    if dump and not dumped and (improves(True, oa, c2) or improves(False, od, c2)):
                        return True
        return False


def _dumps(plays: Plays, p: int) -> bool:
    """Whether a turn of player p put a card onto the opponent's piles."""
    return any(pile // 2 != p for _, pile in plays)


# One player's state for the race alone: hand, draw-pile position, own tops.
Solo = tuple[int, int, int, int]
# A turn of the race alone: its plays and the state after it (None: all played).
SoloTurn = tuple[Plays, Solo | None]


def solo_of(pos: Pos, p: int) -> Solo:
    return (pos[H0 + p], pos[P0 + p], pos[A0 + 2 * p], pos[D0 + 2 * p])


def solo_turns(game: DuelGame, p: int, solo: Solo, robust: bool = False) -> list[SoloTurn]:
    """Player p's distinct turns on their own piles alone (draw 2 after, D5).

    ``robust``: the first card of the turn onto each pile is a normal play,
    never a backward trick. Such a turn stays legal whatever single card the
    opponent laid on that pile before it (D4 only moves an ascending top
    down and a descending top up, so a card beyond the old top is beyond the
    new one; the plays after it see the player's own cards only). A trick is
    the one play such a card can spoil."""
    hand0, at, a0, d0 = solo
    deck = game.decks[p]
    empty = at == len(deck)
    m = game.min_play_empty if empty else game.min_play
    step = game.step
    seen: set[tuple[int, int, int, bool, bool]] = set()
    out: list[SoloTurn] = []
    plays: list[tuple[int, int]] = []
    own_a, own_d = 2 * p, 2 * p + 1

    def visit(hand: int, a: int, d: int, ta: bool, td: bool, n: int) -> None:
        key = (hand, a, d, ta and robust, td and robust)
        if key in seen:
            return
        seen.add(key)
        if n >= m:
            if hand == 0 and empty:
                out.append((tuple(plays), None))
                return
            take = max(0, min(game.draw_own, len(deck) - at))
            drawn = hand
            for c in deck[at : at + take]:
                drawn |= 1 << c
            out.append((tuple(plays), (drawn, at + take, a, d)))
        for c in cards_of(hand):
            rest = hand & ~(1 << c)
            if accepts(True, a, c, step) and not (robust and not ta and c < a):
                plays.append((c, own_a))
                visit(rest, c, d, True, td, n + 1)
                plays.pop()
            if accepts(False, d, c, step) and not (robust and not td and c > d):
                plays.append((c, own_d))
                visit(rest, a, c, ta, True, n + 1)
                plays.pop()

    visit(hand0, a0, d0, False, False, 0)
    return out
