"""The rules engine: the single source of truth for legality.

A ``GameState`` is mutable: ``play`` and ``end_turn`` change it, ``undo_play``
takes back a play of the current turn, ``copy`` gives an independent state.
Players are 0-based inside (``current``) and 1-based at every boundary
(records, messages). Piles are indices; ``pile_name``/``pile_index`` map them
to the names of the record format.
"""

from __future__ import annotations

from dataclasses import dataclass

from .deal import Deal
from .errors import IllegalMoveError, InvalidInputError
from .rules import DUEL, Rules

IN_PROGRESS = "in_progress"
WON = "won"
LOST = "lost"


@dataclass(frozen=True, order=True)
class Play:
    card: int
    pile: int


def pile_name(rules: Rules, pile: int) -> str:
    """Classic: A1..An ascending, D1..Dn descending. Face to Face: ``A1``/``D1``
    are player 1's ascending/descending piles, ``A2``/``D2`` player 2's."""
    if rules.kind == DUEL:
        return ("A" if pile % 2 == 0 else "D") + str(pile // 2 + 1)
    if pile < rules.asc_piles:
        return f"A{pile + 1}"
    return f"D{pile - rules.asc_piles + 1}"


def pile_index(rules: Rules, name: str) -> int:
    for i in range(rules.n_piles):
        if pile_name(rules, i) == name.upper():
            return i
    names = ", ".join(pile_name(rules, i) for i in range(rules.n_piles))
    raise InvalidInputError(f"unknown pile {name!r} (piles: {names})", "pile")


def is_ascending(rules: Rules, pile: int) -> bool:
    if rules.kind == DUEL:
        return pile % 2 == 0
    return pile < rules.asc_piles


def pile_owner(rules: Rules, pile: int) -> int | None:
    """Duel: the 0-based player who owns ``pile``; classic: None (shared)."""
    return pile // 2 if rules.kind == DUEL else None


@dataclass
class _Placed:
    play: Play
    previous_top: int
    previous_turn: int


class GameState:
    """One position of a game, from the deal to the end."""

    def __init__(self, deal: Deal, first: int | None = None) -> None:
        rules = deal.rules
        self.deal = deal
        self.rules = rules
        self.players = deal.players
        start = first if first is not None else deal.first
        if start is None:
            start = 1  # rule C3: without any choice stated, player 1 starts
        if not 1 <= start <= self.players:
            raise InvalidInputError(f"player {start} does not exist", "first")
        self.first = start
        self.duel = rules.kind == DUEL
        # Stocks: the draw pile(s), dealt from the front. Classic has one
        # shared stock (C2); Face to Face one per player (D1).
        self.hands: list[set[int]] = []
        self.stocks: list[list[int]] = []
        self.stock_pos: list[int] = []
        if self.duel:
            for deck in deal.decks:
                size = rules.hand_size(2)
                self.hands.append(set(deck[:size]))
                self.stocks.append(list(deck))
                self.stock_pos.append(size)
        else:
            size = rules.hand_size(self.players)
            deck = deal.deck
            for p in range(self.players):
                self.hands.append(set(deck[p * size : (p + 1) * size]))
            self.stocks.append(list(deck))
            self.stock_pos.append(self.players * size)
        self.tops: list[int] = [
            rules.asc_start if is_ascending(rules, i) else rules.desc_start
            for i in range(rules.n_piles)
        ]
        # The turn number at which each pile's top card was laid (-1: start);
        # needed for the fire deadline (rule F2).
        self.top_turn: list[int] = [-1] * rules.n_piles
        self.current = start - 1
        self.turn = 0  # turns actually taken so far (rule F2 counts these)
        self.placed: list[_Placed] = []  # plays of the current turn
        self.status = IN_PROGRESS
        self.reason: str | None = None  # why the game ended, with rule id
        self.winner: int | None = None  # duel only, 1-based
        self.turn_min = self._minimum()
        self._check_can_move()

    # -- basic queries -------------------------------------------------------

    def copy(self) -> GameState:
        new = GameState.__new__(GameState)
        new.__dict__.update(self.__dict__)
        new.hands = [set(h) for h in self.hands]
        new.stocks = self.stocks  # never mutated
        new.stock_pos = list(self.stock_pos)
        new.tops = list(self.tops)
        new.top_turn = list(self.top_turn)
        new.placed = list(self.placed)
        return new

    def stock_of(self, player: int) -> int:
        return player if self.duel else 0

    def stock_left(self, player: int | None = None) -> int:
        s = self.stock_of(self.current if player is None else player)
        return len(self.stocks[s]) - self.stock_pos[s]

    def draw_pile(self, player: int | None = None) -> list[int]:
        s = self.stock_of(self.current if player is None else player)
        return self.stocks[s][self.stock_pos[s] :]

    def hand(self, player: int | None = None) -> list[int]:
        return sorted(self.hands[self.current if player is None else player])

    def cards_left(self) -> int:
        """Cards not played: all hands plus the draw pile(s) (rule C8 score)."""
        return sum(len(h) for h in self.hands) + sum(
            len(s) - p for s, p in zip(self.stocks, self.stock_pos, strict=True)
        )

    @property
    def plays_this_turn(self) -> list[Play]:
        return [p.play for p in self.placed]

    @property
    def over(self) -> bool:
        return self.status != IN_PROGRESS

    def key(self) -> tuple[object, ...]:
        """An exact identity of the position (for perft counts and memo)."""
        return (
            tuple(self.tops),
            tuple(tuple(sorted(h)) for h in self.hands),
            tuple(self.stock_pos),
            self.current,
            tuple(self.plays_this_turn),
            tuple(self.top_turn) if self.rules.fire_cards else (),
            self.status,
        )

    def _minimum(self) -> int:
        # C4/P1/D2: m depends on the draw pile at the start of the turn.
        if self.stock_left() > 0:
            return self.rules.min_play
        return self.rules.min_play_empty

    # -- commands (rule X) -----------------------------------------------------

    def _showing(self, kind: str) -> bool:
        """Rule X4: an infinity command holds while its card is on top."""
        return any(self.deal.command(t) == kind for t in self.tops)

    def _played_command(self, kind: str) -> bool:
        """Rule X3: a lightning command binds for the rest of the turn."""
        return any(self.deal.command(p.play.card) == kind for p in self.placed)

    # -- legality ----------------------------------------------------------------

    def check_play(self, card: int, pile: int) -> None:
        """Raise ``IllegalMoveError`` (with the rule id) unless the play is legal."""
        rules = self.rules
        if self.over:
            raise IllegalMoveError("C8", f"the game is over ({self.reason})")
        if card not in self.hands[self.current]:
            raise IllegalMoveError("C4", f"card {card} is not in player {self.current + 1}'s hand")
        if not 0 <= pile < rules.n_piles:
            raise IllegalMoveError("C1", f"there is no pile {pile}")
        name = pile_name(rules, pile)
        top = self.tops[pile]
        n_played = len(self.placed)
        if rules.commands:
            if self._played_command("stop"):
                raise IllegalMoveError("X3a", "a stop card ended this turn")
            three = self._played_command("three") or self.deal.command(card) == "three"
            if three and n_played >= 3:
                raise IllegalMoveError("X3c", "a three card allows exactly 3 cards this turn")
            if self.deal.command(card) == "stop" and three and n_played != 2:
                raise IllegalMoveError("X3c", "with a three card, stop may only be the third card")
            if self._showing("one-pile") and any(p.play.pile != pile for p in self.placed):
                raise IllegalMoveError(
                    "X4b", "a one-pile card is showing: this turn's cards go onto one pile"
                )
        asc = is_ascending(rules, pile)
        owner = pile_owner(rules, pile)
        if owner is not None and owner != self.current:
            # Face to Face: the opponent's piles (rules D2, D4).
            if any(pile_owner(rules, p.play.pile) != self.current for p in self.placed):
                raise IllegalMoveError(
                    "D2", "only one card per turn may go onto the opponent's piles"
                )
            ok = card < top if asc else card > top
            if not ok:
                word = "lower" if asc else "higher"
                raise IllegalMoveError(
                    "D4", f"{card} on the opponent's {name} (top {top}) must be {word}"
                )
            return
        trick = card == top - rules.step if asc else card == top + rules.step
        normal = card > top if asc else card < top
        if trick and not normal and rules.commands and self._showing("no-trick"):
            raise IllegalMoveError(
                "X4a", f"{card} on {name} would be a backward trick; no-trick is showing"
            )
        if not (normal or trick):
            word = "higher than" if asc else "lower than"
            back = top - rules.step if asc else top + rules.step
            raise IllegalMoveError(
                "C5", f"{card} on {name} (top {top}) must be {word} {top} or exactly {back}"
            )

    def is_legal(self, card: int, pile: int) -> bool:
        try:
            self.check_play(card, pile)
        except IllegalMoveError:
            return False
        return True

    def legal_plays(self) -> list[Play]:
        """Every legal next play of the current turn, sorted."""
        if self.over:
            return []
        return [
            Play(c, p)
            for c in sorted(self.hands[self.current])
            for p in range(self.rules.n_piles)
            if self.is_legal(c, p)
        ]

    def check_end_turn(self) -> None:
        """Raise ``IllegalMoveError`` unless the current turn may end now."""
        if self.over:
            raise IllegalMoveError("C8", f"the game is over ({self.reason})")
        n = len(self.placed)
        rules = self.rules
        if rules.commands:
            if self._played_command("three") and n != 3:
                raise IllegalMoveError("X3c", f"a three card needs exactly 3 cards, played {n}")
            for top in self.tops:
                if self.deal.command(top) == "skull" and any(
                    p.play.card == top for p in self.placed
                ):
                    raise IllegalMoveError("X3b", f"the skull card {top} must be covered this turn")
            if self._played_command("stop"):
                return  # X3a: a stop ends the turn legally, even as first card
        if n < self.turn_min:
            profi = rules.name.startswith("profi") and self.stock_left() > 0
            rule = "D2" if self.duel else ("P1" if profi else "C4")
            raise IllegalMoveError(rule, f"a turn needs at least {self.turn_min} cards, played {n}")

    def can_end_turn(self) -> bool:
        try:
            self.check_end_turn()
        except IllegalMoveError:
            return False
        return True

    # -- changing the position -------------------------------------------------

    def play(self, card: int, pile: int) -> None:
        self.check_play(card, pile)
        self.placed.append(_Placed(Play(card, pile), self.tops[pile], self.top_turn[pile]))
        self.hands[self.current].discard(card)
        self.tops[pile] = card
        self.top_turn[pile] = self.turn
        if (
            self.duel
            and not self.hands[self.current]
            and self.stock_left() == 0
            and len(self.placed) >= self.turn_min
        ):
            # D6: whoever has played all their cards wins at once; a lone
            # last card cannot meet the minimum (D6 decision), so a win
            # needs a turn of at least the minimum.
            self._finish(WON, "D6", f"player {self.current + 1} played all their cards")
            self.winner = self.current + 1

    def undo_play(self) -> Play:
        """Take back the last play of the current turn."""
        if not self.placed:
            raise IllegalMoveError("C4", "no play of this turn to take back")
        last = self.placed.pop()
        self.tops[last.play.pile] = last.previous_top
        self.top_turn[last.play.pile] = last.previous_turn
        self.hands[self.current].add(last.play.card)
        if self.status == WON and self.duel:
            self.status, self.reason, self.winner = IN_PROGRESS, None, None
        return last.play

    def end_turn(self) -> None:
        self.check_end_turn()
        rules = self.rules
        # Draw: D5 (duel), X4c (draw-one showing), else back to H (C6).
        target = rules.hand_size(self.players)
        hand = self.hands[self.current]
        if self.duel:
            on_opponent = any(pile_owner(rules, p.play.pile) != self.current for p in self.placed)
            want = target - len(hand) if on_opponent else 2
        elif rules.commands and self._showing("draw-one"):
            want = 1
        else:
            want = target - len(hand)
        s = self.stock_of(self.current)
        take = max(0, min(want, len(self.stocks[s]) - self.stock_pos[s]))
        hand.update(self.stocks[s][self.stock_pos[s] : self.stock_pos[s] + take])
        self.stock_pos[s] += take
        all_played = self.cards_left() == 0
        if rules.fire_cards and not (all_played and rules.fire_safe_at_clear):
            for pile, top in enumerate(self.tops):
                # F2: a fire card laid in an earlier turn had this turn as its
                # deadline (turns skipped under C7 are not taken, so they
                # don't count); F4: a newer fire card has its own deadline.
                if top in rules.fire_cards and self.top_turn[pile] < self.turn:
                    self.placed = []
                    self.turn += 1
                    self._finish(
                        LOST,
                        "F2",
                        f"fire card {top} on {pile_name(rules, pile)} was not covered in time",
                    )
                    return
        self.placed = []
        self.turn += 1
        if self.over:
            return
        if all_played and not self.duel:
            self._finish(WON, "C7", "all cards played: a perfect clear")
            return
        self._advance()

    def _advance(self) -> None:
        nxt = (self.current + 1) % self.players
        if not self.duel:
            # C7: once the draw pile is empty, a player with no cards is skipped.
            for _ in range(self.players):
                if self.hands[nxt]:
                    break
                nxt = (nxt + 1) % self.players
        self.current = nxt
        self.turn_min = self._minimum()
        self._check_can_move()

    def _finish(self, status: str, rule: str, message: str) -> None:
        self.status = status
        self.reason = f"{message} (rule {rule})"

    def _check_can_move(self) -> None:
        """C8 / D6 / X5: the game ends at once if no legal turn exists."""
        if self.has_legal_turn():
            return
        who = self.current + 1
        if self.duel:
            self._finish(LOST, "D6", f"player {who} cannot play {self.turn_min} cards")
            self.winner = 2 - self.current
        else:
            rule = "X5" if self.rules.commands else "C8"
            self._finish(LOST, rule, f"player {who} cannot play {self.turn_min} cards")

    def has_legal_turn(self) -> bool:
        """Whether some sequence of plays lets the current turn end legally."""
        seen: set[tuple[object, ...]] = set()

        def search() -> bool:
            if self.placed and (self.status == WON or self.can_end_turn()):
                return True
            # What the rest of the turn may do depends on the tops, the hand,
            # and (Extreme, duel) how many cards went onto which piles.
            key = (
                tuple(self.tops),
                frozenset(self.hands[self.current]),
                len(self.placed),
                frozenset(p.play.pile for p in self.placed),
                frozenset(self.deal.command(p.play.card) for p in self.placed),
            )
            if key in seen:
                return False
            seen.add(key)
            for play in self.legal_plays():
                self.play(play.card, play.pile)
                found = search()
                self.undo_play()
                if found:
                    return True
            return False

        if self.over:
            return False
        if self.placed:
            raise RuntimeError("has_legal_turn is asked at the start of a turn")
        return search()
