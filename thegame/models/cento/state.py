"""The rules engine of Cento game 2: a position, a turn and its plays, one turn built
step by step, and every legal turn (the exhaustive generator behind the brute-force tests)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from ..errors import IllegalMoveError, InvalidInputError
from .deal import Deal, card_to_json
from .rules import (
    FREE,
    HUNDRED,
    MAX_NAMED,
    CentoStatus,
    card_text,
    digits,
    fits,
    is_single,
    repdigit,
)


@dataclass(frozen=True)
class Play:
    """One card laid on the open card; ``named`` is the value a free card is
    given (rule Z4), None for a number card."""

    card: int
    named: int | None = None

    @property
    def value(self) -> int:
        """The value the open card takes."""
        return self.named if self.named is not None else self.card

    def to_dict(self) -> dict[str, Any]:
        if self.card == FREE:
            return {"card": "free", "as": self.named}
        return {"card": self.card}

    @classmethod
    def from_dict(cls, data: Any, where: str) -> Play:
        if not isinstance(data, dict) or "card" not in data:
            raise InvalidInputError('a play must be an object with "card"', where)
        extra = set(data) - {"card", "as"}
        if extra:
            raise InvalidInputError(f"unknown field {sorted(extra)[0]!r}", where)
        card = data["card"]
        if card == "free":
            named = data.get("as")
            if not isinstance(named, int) or isinstance(named, bool):
                raise InvalidInputError('a free card needs "as": the value it is named', where)
            return cls(FREE, named)
        if not isinstance(card, int) or isinstance(card, bool) or not 1 <= card <= HUNDRED:
            raise InvalidInputError(f'card must be 1..100 or "free", not {card!r}', where)
        if "as" in data:
            raise InvalidInputError('only a free card is named with "as"', where)
        return cls(card)


@dataclass(frozen=True)
class Turn:
    """One turn: the player (from 1), whether the 100 was shown as Trick
    first or laid out as Treat (rule Z5), the cards drawn, then the plays."""

    player: int
    plays: tuple[Play, ...] = ()
    draw: int = 0
    trick: bool = False
    treat: bool = False

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"player": self.player}
        if self.trick:
            d["trick"] = True
        if self.treat:
            d["treat"] = True
        d["plays"] = [p.to_dict() for p in self.plays]
        d["draw"] = self.draw
        return d

    @classmethod
    def from_dict(cls, data: Any, where: str) -> Turn:
        if not isinstance(data, dict):
            raise InvalidInputError("a turn must be a JSON object", where)
        extra = set(data) - {"player", "plays", "draw", "trick", "treat"}
        if extra:
            raise InvalidInputError(f"unknown field {sorted(extra)[0]!r}", where)
        player = data.get("player")
        if not isinstance(player, int) or isinstance(player, bool) or player < 1:
            raise InvalidInputError("player must be an integer from 1", f"{where}.player")
        plays_raw = data.get("plays", [])
        if not isinstance(plays_raw, list):
            raise InvalidInputError("plays must be a list", f"{where}.plays")
        plays = tuple(Play.from_dict(p, f"{where}.plays[{i}]") for i, p in enumerate(plays_raw))
        draw = data.get("draw", 0)
        if not isinstance(draw, int) or isinstance(draw, bool) or draw < 0:
            raise InvalidInputError("draw must be an integer >= 0", f"{where}.draw")
        flags = {}
        for key in ("trick", "treat"):
            value = data.get(key, False)
            if not isinstance(value, bool):
                raise InvalidInputError(f"{key} must be true or false", f"{where}.{key}")
            flags[key] = value
        return cls(player, plays, draw, flags["trick"], flags["treat"])


@dataclass(frozen=True)
class State:
    """A position between turns. ``obliged``: the player to move is bound by
    rule Z2 (the last card played was single-digit); ``immune``: per player,
    a Treat lies before them (rule Z5); ``passes``: passes in a row (rule Z1)."""

    hands: tuple[tuple[int, ...], ...]
    open: int
    draw_pos: int
    to_move: int  # 0-based seat
    obliged: bool = False
    immune: tuple[bool, ...] = ()
    passes: int = 0
    status: CentoStatus = CentoStatus.IN_PROGRESS
    winners: tuple[int, ...] = ()  # 0-based seats

    @property
    def over(self) -> bool:
        return self.status != CentoStatus.IN_PROGRESS

    @property
    def winner(self) -> int | None:
        """The single winner (from 1); None while in progress or on a shared win."""
        return self.winners[0] + 1 if len(self.winners) == 1 else None

    @property
    def reason(self) -> str | None:
        """Why the game ended, with the rule id; None while it goes on."""
        if self.status == CentoStatus.WON:
            return f"Z1: player {self.winners[0] + 1} emptied their hand"
        if self.status == CentoStatus.BLOCKED:
            return "Z1: every player passed in a row; the fewest cards win"
        return None

    def cards_left(self) -> int:
        """The cards in all hands."""
        return sum(len(h) for h in self.hands)

    def check_fields(self) -> dict[str, Any]:
        """The fields of ``thegame cento check --json`` after ``legal``; the
        turns played and the draw pile left are the replay's to fill in (a
        position does not hold its deal)."""
        return {
            "error": None,  # the check's error goes here
            "turns_played": None,
            "status": self.status,
            "winner": self.winner,
            "winners": [w + 1 for w in self.winners],
            "cards_left": self.cards_left(),  # a number, as in every game's check
            "hand_sizes": [len(h) for h in self.hands],
            "hands": [[card_to_json(c) for c in h] for h in self.hands],
            "open": self.open,
            "draw_left": None,
        }


def initial_state(deal: Deal) -> State:
    """Player 1 moves first; nobody is bound by the open card (Decision: only a
    played single-digit card binds, rule Z2)."""
    return State(deal.hands, deal.open, 0, 0, False, (False,) * deal.players)


class Phase(Enum):
    START = "start"
    TRICKED = "tricked"  # the 100 was shown (rule Z5 Trick); the turn goes on
    TREATED = "treated"  # the 100 was laid out (rule Z5 Treat): the whole turn
    DRAWN = "drawn"  # drew one card (rule Z1); it may be played at once
    PENALTY = "penalty"  # drew the rule Z2 penalty: the turn is missed
    PASSED = "passed"  # could not play, the draw pile is empty (rule Z1)
    PLAYING = "playing"
    OVER = "over"  # the player's hand is empty: they won


class TurnError(IllegalMoveError):
    """An illegal step; ``play`` is the 1-based index of the play, or None."""

    def __init__(self, rule: str, message: str, play: int | None = None) -> None:
        super().__init__(rule, message)
        self.play = play


def _sorted(cards: list[int]) -> tuple[int, ...]:
    return tuple(sorted(cards, key=lambda c: 1000 if c == FREE else c))


class TurnBuilder:
    """One turn of the player to move, built from steps that each obey the
    rules or raise ``TurnError`` with the rule id."""

    def __init__(self, deal: Deal, state: State) -> None:
        if state.over:
            raise TurnError("Z1", "the game is over")
        self.deal = deal
        self.rules = deal.rules
        self.state = state
        self.player = state.to_move
        self.hands = [list(h) for h in state.hands]
        self.pos = state.draw_pos
        self.open = state.open
        self.immune = list(state.immune)
        self.bound = state.obliged and not state.immune[self.player]
        self.phase = Phase.START
        self.chain: int | None = None  # the repdigit's digit (rule Z3)
        self.plays: list[Play] = []
        self.drawn: int | None = None
        self.drew = 0
        self.trick_shown = False
        self.treated = False

    def copy(self) -> TurnBuilder:
        other = TurnBuilder.__new__(TurnBuilder)
        other.__dict__.update(self.__dict__)
        other.hands = [list(h) for h in self.hands]
        other.immune = list(self.immune)
        other.plays = list(self.plays)
        return other

    @property
    def hand(self) -> list[int]:
        return self.hands[self.player]

    def _take(self, count: int) -> list[int]:
        cards = list(self.deal.draw[self.pos : self.pos + count])
        self.pos += len(cards)
        return cards

    def _check_open(self, rule: str) -> None:
        if self.phase == Phase.OVER:
            raise TurnError("Z1", "the game is over: the hand is empty", len(self.plays) + 1)
        if self.phase == Phase.TREATED:
            raise TurnError("Z5", "a Treat is the whole turn", len(self.plays) + 1)
        if self.phase == Phase.PENALTY:
            raise TurnError(
                "Z2", "a player who draws the penalty misses the turn", len(self.plays) + 1
            )
        if self.phase == Phase.PASSED:
            raise TurnError(rule, "the turn has passed", len(self.plays) + 1)

    def can_play(self) -> bool:
        """Rule Z1: some card of the hand fits the open card (a free card always does)."""
        return any(c == FREE or (self.rules.is_number(c) and fits(c, self.open)) for c in self.hand)

    def trick(self) -> None:
        """Rule Z5 Trick: show the 100 first; every other player draws."""
        if not self.rules.special_hundred:
            raise TurnError("Z5", "the 100 is a plain card in these rules")
        if self.phase != Phase.START:
            raise TurnError("Z5", "the Trick is shown at the start of the turn")
        if HUNDRED not in self.hand:
            raise TurnError("Z5", "the player does not hold the 100")
        self.hand.remove(HUNDRED)
        self.trick_shown = True
        n = len(self.hands)
        for k in range(1, n):  # rule Z5: every other player, in seat order
            self.hands[(self.player + k) % n].extend(self._take(self.rules.trick_draw))
        self.phase = Phase.OVER if not self.hand else Phase.TRICKED

    def treat(self) -> None:
        """Rule Z5 Treat: lay the 100 out instead of playing; immune to Z2 from
        the next turn on."""
        if not self.rules.special_hundred:
            raise TurnError("Z5", "the 100 is a plain card in these rules")
        if self.phase != Phase.START:
            raise TurnError("Z5", "a Treat is the whole turn")
        if HUNDRED not in self.hand:
            raise TurnError("Z5", "the player does not hold the 100")
        if self.bound:
            # Decision: a bound player has exactly the two choices of rule Z2.
            raise TurnError("Z2", "a bound player plays a single-digit card or draws")
        self.hand.remove(HUNDRED)
        self.immune[self.player] = True
        self.treated = True
        self.phase = Phase.OVER if not self.hand else Phase.TREATED

    def draw(self) -> int:
        """Draw: the rule Z2 penalty when bound, else one card when no card
        fits (rule Z1). Returns the number of cards drawn."""
        self._check_open("Z1")
        if self.phase not in (Phase.START, Phase.TRICKED):
            raise TurnError("Z1", "the player draws before playing", len(self.plays) + 1)
        if self.bound:
            got = self._take(self.rules.penalty)
            self.hand.extend(got)
            self.drew = len(got)
            self.phase = Phase.PENALTY
            return self.drew
        if self.can_play():
            raise TurnError("Z1", "a player who holds a fitting card must play")
        got = self._take(1)
        self.hand.extend(got)
        self.drew = len(got)
        if got:
            self.drawn = got[0]
            self.phase = Phase.DRAWN
        else:
            self.phase = Phase.PASSED
        return self.drew

    def play(self, card: int, named: int | None = None) -> None:
        index = len(self.plays) + 1
        self._check_open("Z1")
        rules = self.rules
        if card == FREE:
            if named is None or not 1 <= named <= MAX_NAMED:
                raise TurnError("Z4", f"a free card is named 1..99, not {named}", index)
            value = named
        else:
            if named is not None:
                raise TurnError("Z4", "only a free card is named", index)
            if not rules.is_number(card):
                raise TurnError(
                    "Z5", "the 100 is shown (Trick) or laid out (Treat), never played", index
                )
            value = card
        if self.phase == Phase.DRAWN and card != self.drawn:
            raise TurnError(
                "Z1",
                f"after drawing, only the drawn card ({card_text(self.drawn or 0)}) may be played",
                index,
            )
        if card not in self.hand:
            raise TurnError("Z1", f"the player does not hold {card_text(card)}", index)
        if not self.plays:
            if self.bound:
                if not is_single(value):
                    raise TurnError(
                        "Z2", f"a bound player must play a single-digit card, not {value}", index
                    )
            elif not fits(value, self.open):
                rule = "Z4" if card == FREE else "Z1"
                raise TurnError(
                    rule, f"{value} shares no digit with the open card {self.open}", index
                )
            self.chain = repdigit(value)
        else:
            if self.bound:
                raise TurnError("Z2", "a bound player plays one single-digit card", index)
            if self.chain is None:
                raise TurnError("Z3", "only a repdigit lets the player go on", index)
            if self.chain not in digits(value):
                raise TurnError("Z3", f"{value} does not contain the digit {self.chain}", index)
        self.hand.remove(card)
        self.open = value
        self.plays.append(Play(card, named))
        self.phase = Phase.OVER if not self.hand else Phase.PLAYING

    def can_continue(self) -> bool:
        """Whether a further play is possible in this turn: the drawn card
        fits (rule Z1: it may be played at once), or a repdigit's chain goes
        on (rule Z3) with a card of its digit."""
        if self.phase == Phase.DRAWN:
            d = self.drawn
            return d is not None and (
                d == FREE or (self.rules.is_number(d) and (fits(d, self.open)))
            )
        if self.phase == Phase.PLAYING and self.chain is not None:
            return any(
                c == FREE or (self.rules.is_number(c) and self.chain in digits(c))
                for c in self.hand
            )
        return self.phase in (Phase.START, Phase.TRICKED)

    def finish(self) -> State:
        """End the turn; the position the next player faces."""
        if self.phase in (Phase.START, Phase.TRICKED):
            if self.bound:
                raise TurnError("Z2", "a bound player must play a single-digit card or draw")
            raise TurnError("Z1", "the turn needs a play, or a draw when no card fits")
        if self.rules.chain_all and self.chain is not None and self.phase != Phase.OVER:
            left = [c for c in self.hand if self.rules.is_number(c) and self.chain in digits(c)]
            if left:
                raise TurnError(
                    "Z3", f"chain_all: {left[0]} contains {self.chain} and must be played"
                )
        n = len(self.hands)
        hands = tuple(_sorted(h) for h in self.hands)
        base = replace(
            self.state,
            hands=hands,
            open=self.open,
            draw_pos=self.pos,
            immune=tuple(self.immune),
            to_move=(self.player + 1) % n,
            obliged=bool(self.plays) and is_single(self.open),  # rule Z2
            passes=self.state.passes + 1 if self.phase == Phase.PASSED else 0,
        )
        if self.phase == Phase.OVER:
            return replace(base, status=CentoStatus.WON, winners=(self.player,))
        if base.passes >= n:  # rule Z1 Decision: every player passed in a row
            winners: tuple[int, ...] = ()
            if n > 1:  # Decision: alone, a blocked game is lost
                fewest = min(len(h) for h in hands)
                winners = tuple(i for i, h in enumerate(hands) if len(h) == fewest)
            return replace(base, status=CentoStatus.BLOCKED, winners=winners)
        return base

    def turn(self) -> Turn:
        return Turn(self.player + 1, tuple(self.plays), self.drew, self.trick_shown, self.treated)


def apply_turn(deal: Deal, state: State, turn: Turn) -> State:
    """Replay one record turn; raises ``TurnError`` naming the rule and play."""
    if state.over:
        raise TurnError("Z1", "the game is already over")
    if turn.player != state.to_move + 1:
        raise TurnError(
            "Z1", f"it is player {state.to_move + 1}'s turn, not player {turn.player}'s"
        )
    b = TurnBuilder(deal, state)
    if turn.trick:
        b.trick()
    if turn.treat:
        b.treat()
    if turn.draw > 0 or (not turn.plays and not turn.treat and b.phase != Phase.OVER):
        got = b.draw()
        if got != turn.draw:
            rule = "Z2" if b.bound else "Z1"
            raise TurnError(rule, f"the record draws {turn.draw} but the rules give {got}")
    for play in turn.plays:
        b.play(play.card, play.named)
    return b.finish()


class _Step(Enum):
    """A step ``legal_turns`` tries."""

    TRICK = "trick"
    TREAT = "treat"
    DRAW = "draw"
    PLAY = "play"


def legal_turns(deal: Deal, state: State) -> list[tuple[Turn, State]]:
    """Every legal turn, found by trying every step the engine might accept
    (every card, every name 1..99 for a free card, every order). Exhaustive
    and slow: for brute-force checks on small decks."""
    found: list[tuple[Turn, State]] = []
    if state.over:
        return found

    visited: set[tuple[object, ...]] = set()

    def explore(b: TurnBuilder) -> None:
        # Two step orders that reach the same partial turn continue alike.
        sig = (
            tuple(_sorted(h) for h in b.hands),
            b.open,
            b.pos,
            b.phase,
            b.chain,
            bool(b.plays),
            tuple(b.immune),
            b.drawn,
            b.trick_shown,
        )
        if sig in visited:
            return
        visited.add(sig)
        with contextlib.suppress(IllegalMoveError):
            found.append((b.turn(), b.copy().finish()))
        steps: list[tuple[_Step, int, int | None]] = [
            (_Step.TRICK, 0, None),
            (_Step.TREAT, 0, None),
            (_Step.DRAW, 0, None),
        ]
        for card in sorted(set(b.hand)):
            if card == FREE:
                steps.extend((_Step.PLAY, FREE, v) for v in range(1, MAX_NAMED + 1))
            else:
                steps.append((_Step.PLAY, card, None))
        for kind, card, named in steps:
            nb = b.copy()
            try:
                if kind == _Step.TRICK:
                    nb.trick()
                elif kind == _Step.TREAT:
                    nb.treat()
                elif kind == _Step.DRAW:
                    nb.draw()
                else:
                    nb.play(card, named)
            except IllegalMoveError:
                continue
            explore(nb)

    explore(TurnBuilder(deal, state))
    return found
