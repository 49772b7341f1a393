"""The rules engine: the single source of truth for legality.

A ``GameState`` is mutable: ``play`` and ``end_turn`` change it, ``undo_play``
takes back a play of the current turn, ``copy`` gives an independent state.
Players are 0-based inside (``current``) and 1-based at every boundary
(records, messages). Piles are indices; ``pile_name``/``pile_index`` map them
to the names of the record format.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import IllegalMoveError, InvalidInputError
from ..outcome import Status
from ..words import plural
from . import placement
from .deal import Deal
from .rules import Rules, TurnKind


@dataclass(frozen=True, order=True)
class Play:
    """A card onto a pile (pile indices as in ``pile_name``)."""

    card: int
    pile: int


def pile_name(rules: Rules, pile: int) -> str:
    """Classic: A1..An ascending, D1..Dn descending. Face to Face: ``A1``/``D1``
    are player 1's ascending/descending piles, ``A2``/``D2`` player 2's."""
    if rules.is_duel:
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
    if rules.is_duel:
        return pile % 2 == 0
    return pile < rules.asc_piles


def pile_owner(rules: Rules, pile: int) -> int | None:
    """Duel: the 0-based player who owns ``pile``; classic: None (shared)."""
    return pile // 2 if rules.is_duel else None


@dataclass(frozen=True)
class PlayUndo:
    """What ``undo_play`` restores: the play and the pile's top and its turn."""

    play: Play
    previous_top: int
    previous_turn: int


class GameState:
    """One position of a game, from the deal to the end.

    This class is the classic family (rules C, P, F). The variants that
    change what a turn is have their own classes, chosen from the deal's
    rules when a ``GameState`` is made: ``ExtremeState`` (rules X,
    ``extreme.py``) and ``DuelState`` (rules D, ``duel.py``), registered
    when the package is imported. They change the game only through the
    hooks marked below.
    """

    # The state class of each kind of turn (``Rules.turn_kind``); a variant's
    # class registers itself by naming its kind (``ExtremeState``, ``DuelState``).
    _classes: ClassVar[dict[str, type[GameState]]] = {}
    turn_kind: ClassVar[TurnKind] = TurnKind.CLASSIC

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        GameState._classes[cls.turn_kind] = cls

    def __new__(cls, deal: Deal, first: int | None = None) -> GameState:
        if cls is GameState:
            cls = GameState._classes.get(deal.rules.turn_kind, GameState)
        return super().__new__(cls)

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
        # Stocks: the draw pile(s), dealt from the front.
        self.hands: list[set[int]] = []
        self.stocks: list[list[int]] = []
        self.stock_pos: list[int] = []
        self._deal_hands()
        self.tops: list[int] = [
            rules.asc_start if is_ascending(rules, i) else rules.desc_start
            for i in range(rules.n_piles)
        ]
        # The turn number at which each pile's top card was laid (-1: start);
        # needed for the fire deadline (rule F2).
        self.top_turn: list[int] = [-1] * rules.n_piles
        self.current = start - 1
        self.turn = 0  # turns actually taken so far (rule F2 counts these)
        self.placed: list[PlayUndo] = []  # plays of the current turn
        self.status = Status.IN_PROGRESS
        self.reason: str | None = None  # why the game ended, with rule id
        self.winner: int | None = None  # duel only, 1-based
        self.turn_min = self._minimum()
        self._check_can_move()

    # -- hooks of the variants -------------------------------------------------

    def _deal_hands(self) -> None:
        """C2: one shared stock; player p gets the p-th H cards of the deck."""
        size = self.rules.hand_size(self.players)
        deck = self.deal.deck
        for p in range(self.players):
            self.hands.append(set(deck[p * size : (p + 1) * size]))
        self.stocks.append(list(deck))
        self.stock_pos.append(self.players * size)

    def stock_of(self, player: int) -> int:
        """The index of ``player``'s draw pile (one shared pile, C2)."""
        return 0

    def _check_turn_rules(self, card: int, pile: int) -> None:
        """Rules on the turn as a whole, before the placement (Extreme: X3, X4b)."""

    def _check_placement(self, card: int, pile: int) -> None:
        """C5 (D3): the card must go beyond the top or be a backward trick."""
        rules = self.rules
        asc = is_ascending(rules, pile)
        top = self.tops[pile]
        if placement.is_trick(asc, top, card, rules.step):
            self._check_trick(card, pile)
            return
        if not placement.beyond(asc, top, card):
            word = "higher than" if asc else "lower than"
            back = placement.trick_card(asc, top, rules.step)
            name = pile_name(rules, pile)
            # Name the backward trick only where such a card exists.
            trick = f" or exactly {back}" if rules.low <= back <= rules.high else ""
            raise IllegalMoveError(
                "C5", f"{card} {name}: {name} shows {top}; a card must be {word} {top}{trick}"
            )

    def _quick_turn(self) -> bool:
        """True when a legal turn plainly exists (C4, C5): ``turn_min`` cards
        of the hand each beyond the top of some pile can all be played, a
        pile taking its cards in order (each beyond the one before) and
        piles not affecting each other; nothing else in this class's turn
        rules can refuse such a turn (an uncovered fire card loses at the
        turn's end, F2, it does not forbid the turn). False means "search":
        the variants whose turn rules say more (commands, the duel) keep
        this answer and are always searched."""
        if self.turn_kind is not TurnKind.CLASSIC:
            return False
        rules = self.rules
        asc_low = min(self.tops[: rules.asc_piles], default=None)
        desc_high = max(self.tops[rules.asc_piles :], default=None)
        fits = sum(
            1
            for c in self.hands[self.current]
            if (asc_low is not None and c > asc_low) or (desc_high is not None and c < desc_high)
        )
        return fits >= max(self.turn_min, 1)  # the search wants a play, too

    def _check_trick(self, card: int, pile: int) -> None:
        """Whether a backward trick is allowed now (always, in every variant:
        Extreme's no-trick is a command a play may break, ``_breaks``)."""

    def _breaks(self, card: int, pile: int) -> tuple[str, str] | None:
        """The command (rule id, message) an accepted play breaks, if any.

        Extreme (X2): breaking a command is a move a player can make; it is
        played and the game is lost at once. None in the other variants."""
        return None

    def _end_breaks(self) -> tuple[str, str] | None:
        """The command (rule id, message) ending the turn now breaks, if any
        (Extreme: a skull left on top, X3b; a Three turn without 3 cards, X3c)."""
        return None

    def _check_turn_end(self) -> bool:
        """Rules on ending the turn before the minimum; True: the turn may end
        whatever the minimum (Extreme: a stop card, X3a)."""
        return False

    def _minimum_rule(self) -> str:
        # P1 while the draw pile lasts in Profi; C4 otherwise.
        if self.rules.min_play_rule != "C4" and self.stock_left() > 0:
            return self.rules.min_play_rule
        return "C4"

    def _after_play(self) -> None:
        """What a play may end at once (Face to Face: a win, D6)."""

    def _undo_after_play(self) -> None:
        """Take back what ``_after_play`` did."""

    def _draw_count(self, hand: set[int]) -> int:
        """C6: back to the hand size."""
        return self.rules.hand_size(self.players) - len(hand)

    def _clears(self, all_played: bool) -> bool:
        """C7: all cards played is the team's win."""
        return all_played

    def _next_player(self) -> int:
        nxt = (self.current + 1) % self.players
        # C7: once the draw pile is empty, a player with no cards is skipped.
        for _ in range(self.players):
            if self.hands[nxt]:
                break
            nxt = (nxt + 1) % self.players
        return nxt

    def _no_turn(self) -> None:
        """C8: the game ends at once when the player to move cannot meet m."""
        who = self.current + 1
        self._finish(Status.LOST, "C8", f"player {who} cannot play {plural(self.turn_min, 'card')}")

    def _turn_blocked(self) -> bool:
        """True when no continuation of this turn can end it legally, for a
        reason seen at once (Extreme: a skull no card in hand can cover);
        only prunes ``has_legal_turn``, never changes its answer."""
        return False

    def _turn_shape(self) -> tuple[object, ...]:
        """What of this turn's plays matters to the rest of the turn beyond
        the tops and the hand (Extreme, Face to Face: which piles, which commands)."""
        return (len(self.placed),)

    # -- basic queries -------------------------------------------------------

    def copy(self) -> GameState:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.hands = [set(h) for h in self.hands]
        new.stocks = self.stocks  # never mutated
        new.stock_pos = list(self.stock_pos)
        new.tops = list(self.tops)
        new.top_turn = list(self.top_turn)
        new.placed = list(self.placed)
        return new

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

    def check_fields(self) -> dict[str, Any]:
        """The fields of ``thegame check --json`` after the status."""
        out: dict[str, Any] = {
            "cards_left": self.cards_left(),
            # Why the game ended, with the rule id (C7, C8, F2, X2, D6); null
            # while it goes on.
            "reason": self.reason,
            "error": None,  # the check's error goes here, before a duel's winner
        }
        if self.rules.is_duel:
            out["winner"] = self.winner
        return out

    @property
    def plays_this_turn(self) -> list[Play]:
        return [p.play for p in self.placed]

    @property
    def over(self) -> bool:
        return self.status != Status.IN_PROGRESS

    def key(self) -> tuple[object, ...]:
        """An exact identity of the position (for perft counts and memo)."""
        return (
            tuple(self.tops),
            tuple(tuple(sorted(h)) for h in self.hands),
            tuple(self.stock_pos),
            self.current,
            tuple(self.plays_this_turn),
            tuple(self.top_turn) if self.rules.fire_cards else (),
            str(self.status),
        )

    def _minimum(self) -> int:
        # C4/P1/D2: m depends on the draw pile at the start of the turn.
        if self.stock_left() > 0:
            return self.rules.min_play
        return self.rules.min_play_empty

    # -- legality ----------------------------------------------------------------

    def check_play(self, card: int, pile: int) -> None:
        """Raise ``IllegalMoveError`` (with the rule id) unless the play is legal."""
        if self.over:
            raise IllegalMoveError("C8", f"the game is over ({self.reason})")
        if card not in self.hands[self.current]:
            raise IllegalMoveError("C4", f"card {card} is not in player {self.current + 1}'s hand")
        if not 0 <= pile < self.rules.n_piles:
            raise IllegalMoveError("C1", f"there is no pile {pile}")
        self._check_turn_rules(card, pile)
        self._check_placement(card, pile)

    def is_legal(self, card: int, pile: int) -> bool:
        """Whether the play is accepted and keeps the game going (one of
        ``legal_plays``); a play that breaks a command is not (``loses``)."""
        try:
            self.check_play(card, pile)
        except IllegalMoveError:
            return False
        return self._breaks(card, pile) is None

    def loses(self, card: int, pile: int) -> str | None:
        """The rule id of the command this accepted play breaks (Extreme, X2:
        ``play`` makes it and the game is lost at once); None when the play
        breaks none or is not accepted at all."""
        try:
            self.check_play(card, pile)
        except IllegalMoveError:
            return None
        broken = self._breaks(card, pile)
        return broken[0] if broken else None

    def legal_plays(self) -> list[Play]:
        """Every legal next play of the current turn that breaks no command,
        sorted: the moves a solver makes (X2: never a losing one)."""
        if self.over:
            return []
        rules = self.rules
        if self.turn_kind is TurnKind.CLASSIC:
            # C5 is all there is to a play here (no turn rules, no commands,
            # every trick allowed): ``is_legal`` without raising and
            # catching an error per refused play; the same list.
            tops = self.tops
            asc = [is_ascending(rules, p) for p in range(rules.n_piles)]
            return [
                Play(c, p)
                for c in sorted(self.hands[self.current])
                for p in range(rules.n_piles)
                if placement.accepts(asc[p], tops[p], c, rules.step)
            ]
        return [
            Play(c, p)
            for c in sorted(self.hands[self.current])
            for p in range(rules.n_piles)
            if self.is_legal(c, p)
        ]

    def _legal_plays_lazily(self) -> Iterator[Play]:
        """``legal_plays`` in its order, each checked only when asked for: a
        search that plays and takes back each one before asking for the next
        sees the same list, and one that stops at the first success (as
        ``has_legal_turn`` mostly does) checks a few plays, not the hand
        times the piles."""
        if self.over:
            return
        for c in sorted(self.hands[self.current]):
            for p in range(self.rules.n_piles):
                if self.is_legal(c, p):
                    yield Play(c, p)

    def losing_plays(self) -> list[Play]:
        """Plays a record may make that break a command and lose at once
        (Extreme, X2), sorted; empty in the other variants."""
        if self.over:
            return []
        return [
            Play(c, p)
            for c in sorted(self.hands[self.current])
            for p in range(self.rules.n_piles)
            if self.loses(c, p) is not None
        ]

    def check_end_turn(self) -> None:
        """Raise ``IllegalMoveError`` unless the current turn may end now."""
        if self.over:
            raise IllegalMoveError("C8", f"the game is over ({self.reason})")
        if self._check_turn_end():
            return
        n = len(self.placed)
        if n < self.turn_min:
            raise IllegalMoveError(
                self._minimum_rule(),
                f"a turn needs at least {plural(self.turn_min, 'card')}, played {n}",
            )

    def can_end_turn(self) -> bool:
        """Whether the turn may end now and the game go on; an end that
        breaks a command (``end_loses``) is accepted by ``end_turn`` but loses."""
        try:
            self.check_end_turn()
        except IllegalMoveError:
            return False
        return self._end_breaks() is None

    def end_loses(self) -> str | None:
        """The rule id of the command an accepted turn end breaks now
        (Extreme, X3b/X3c: ``end_turn`` ends the game as lost), else None."""
        try:
            self.check_end_turn()
        except IllegalMoveError:
            return None
        broken = self._end_breaks()
        return broken[0] if broken else None

    # -- changing the position -------------------------------------------------

    def play(self, card: int, pile: int) -> None:
        self.check_play(card, pile)
        broken = self._breaks(card, pile)
        self.placed.append(PlayUndo(Play(card, pile), self.tops[pile], self.top_turn[pile]))
        self.hands[self.current].discard(card)
        self.tops[pile] = card
        self.top_turn[pile] = self.turn
        self._after_play()
        if broken is not None:
            # X2: the command is broken; the game is lost at once.
            self._finish(Status.LOST, *broken)

    def undo_play(self) -> Play:
        """Take back the last play of the current turn."""
        if not self.placed:
            raise IllegalMoveError("C4", "no play of this turn to take back")
        last = self.placed.pop()
        self.tops[last.play.pile] = last.previous_top
        self.top_turn[last.play.pile] = last.previous_turn
        self.hands[self.current].add(last.play.card)
        self._undo_after_play()
        return last.play

    def end_turn(self) -> None:
        self.check_end_turn()
        broken = self._end_breaks()
        if broken is not None:
            # X2: ending the turn breaks a command (X3b, X3c): lost at once.
            self.placed = []
            self.turn += 1
            self._finish(Status.LOST, *broken)
            return
        rules = self.rules
        hand = self.hands[self.current]
        want = self._draw_count(hand)
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
                        Status.LOST,
                        "F2",
                        f"fire card {top} on {pile_name(rules, pile)} was not covered in time",
                    )
                    return
        self.placed = []
        self.turn += 1
        if self.over:
            return
        if self._clears(all_played):
            self._finish(Status.WON, "C7", "all cards played: a perfect clear")
            return
        self.current = self._next_player()
        self.turn_min = self._minimum()
        self._check_can_move()

    def _finish(self, status: Status, rule: str, message: str) -> None:
        self.status = status
        self.reason = f"{message} (rule {rule})"

    def _check_can_move(self) -> None:
        """C8 / D6 / X5: the game ends at once if no legal turn exists."""
        if not self.has_legal_turn():
            self._no_turn()

    def has_legal_turn(self) -> bool:
        """Whether some sequence of plays lets the current turn end legally."""
        if self.over:
            return False
        if self.placed:
            raise RuntimeError("has_legal_turn is asked at the start of a turn")
        return self._quick_turn() or self.searched_turn()

    def searched_turn(self) -> bool:
        """``has_legal_turn`` by searching the plays (the reference answer)."""
        seen: set[tuple[object, ...]] = set()

        def search() -> bool:
            if self.placed and (self.status == Status.WON or self.can_end_turn()):
                return True
            # What the rest of the turn may do depends on the tops, the hand,
            # and what ``_turn_shape`` says of the plays made.
            key = (tuple(self.tops), frozenset(self.hands[self.current]), self._turn_shape())
            if key in seen or self._turn_blocked():
                return False
            seen.add(key)
            for play in self._legal_plays_lazily():
                self.play(play.card, play.pile)
                found = search()
                self.undo_play()
                if found:
                    return True
            return False

        return not self.over and not self.placed and search()
