"""A game of Cento played turn by turn: a person's steps, the solver's turns.

The person builds a turn one step at a time (``draw``, ``trick``, ``treat``,
a card, a free card named a value); each step obeys the rules engine or is
refused with its rule id. The other seat of a two-player game is the
solver: the first turn of its proven line when the search decides within
the budget, else the turn that sheds the most cards.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from ...models.cento.deal import Deal
from ...models.cento.record import Record
from ...models.cento.rules import FREE, MAX_NAMED
from ...models.cento.state import (
    State,
    Turn,
    TurnBuilder,
    TurnError,
    apply_turn,
    initial_state,
)
from ...models.errors import InvalidInputError
from ...models.outcome import Limit
from ...solver.cento.table import TableVerdict, greedy_turn, solve_table
from .engine import Choice
from .sampler import engine_choice


class Opponent(StrEnum):
    """Who plays the seats no person plays."""

    SOLVER = "solver"  # sees everything (Cento's deal is open): the exact table search
    ENGINE = "engine"  # sees only its own seat: determinized search (``engine``)


class StepKind(StrEnum):
    PLAY = "play"
    DRAW = "draw"
    TRICK = "trick"  # rule Z5: show the 100
    TREAT = "treat"  # rule Z5: lay the 100 out


@dataclass(frozen=True)
class Step:
    """One step of a turn as a person types it."""

    kind: StepKind
    card: int = 0
    named: int | None = None


def parse_steps(text: str) -> list[Step]:
    """``37``, ``free 45`` (or ``f45``), ``draw``, ``trick``, ``treat``;
    several steps in one line separated by spaces or commas (``33 13 31``)."""
    words = text.replace(",", " ").lower().split()
    steps: list[Step] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w in ("draw", "d", "trick", "treat"):
            steps.append(Step(StepKind.DRAW if w == "d" else StepKind(w)))
        elif m := re.fullmatch(r"(?:free|f)(\d*)", w):
            rest = m.group(1)
            if not rest:
                i += 1
                rest = words[i] if i < len(words) else ""
            if not rest.isdigit():
                raise InvalidInputError("a free card is named a value: 'free 45' or 'f45'", w)
            steps.append(Step(StepKind.PLAY, FREE, int(rest)))
        elif w.isdigit():
            steps.append(Step(StepKind.PLAY, int(w)))
        else:
            raise InvalidInputError(
                "expected a card (37), a free card named a value (free 45), draw, trick or treat",
                w,
            )
        i += 1
    return steps


@dataclass
class Session:
    """A game from a deal; ``human`` is the set of 0-based seats a person plays."""

    deal: Deal
    human: frozenset[int]
    think: Limit = field(default_factory=lambda: Limit(time=2.0))
    turns: list[Turn] = field(default_factory=list)
    states: list[State] = field(default_factory=list)
    builder: TurnBuilder | None = None
    vs: Opponent = Opponent.SOLVER
    last_choice: Choice | None = None
    strength: str = "strong"  # the engine's (``sampler.STRENGTHS``)

    def __post_init__(self) -> None:
        if not self.states:
            self.states.append(initial_state(self.deal))

    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def record(self) -> Record:
        return Record(self.deal, tuple(self.turns))

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def to_move(self) -> int:
        return self.state.to_move

    def open_value(self) -> int:
        """The open card's value, with the steps of the turn so far."""
        return self.builder.open if self.builder is not None else self.state.open

    def hand(self) -> tuple[int, ...]:
        """The hand of the player to move, with the steps of the turn so far."""
        if self.builder is not None:
            return tuple(sorted(self.builder.hand, key=lambda c: 1000 if c == FREE else c))
        return self.state.hands[self.to_move]

    def step(self, steps: list[Step]) -> bool:
        """Apply the person's steps; True when the turn ended. On an illegal
        step the turn is taken back to its start and ``TurnError`` raised."""
        b = self.builder or TurnBuilder(self.deal, self.state)
        try:
            for s in steps:
                if s.kind == StepKind.DRAW:
                    b.draw()
                elif s.kind == StepKind.TRICK:
                    b.trick()
                elif s.kind == StepKind.TREAT:
                    b.treat()
                else:
                    b.play(s.card, s.named)
        except TurnError:
            self.builder = None
            raise
        self.builder = b
        if not b.can_continue():
            self._end(b)
            return True
        return False

    def end_turn(self) -> None:
        """End the turn being built (refused by the rules when it has no play yet)."""
        b = self.builder or TurnBuilder(self.deal, self.state)
        self._end(b)

    def _end(self, b: TurnBuilder) -> None:
        state = b.copy().finish()  # raises TurnError when the turn is not complete
        self.turns.append(b.turn())
        self.states.append(state)
        self.builder = None

    def undo(self) -> bool:
        """Take back the turn being built, or else the last turns back to the
        person's. Against the engine the cards are hidden: a drawn card (in
        the turn being built, or in a whole turn) stays drawn, so only the
        steps of a turn that drew nothing are taken back."""
        if self.vs == Opponent.ENGINE:
            if self.builder is None or self.builder.drew or self.builder.trick_shown:
                return False
            self.builder = None
            return True
        if self.builder is not None:
            self.builder = None
            return True
        if not self.turns:
            return False
        while self.turns:
            self.turns.pop()
            self.states.pop()
            if self.state.to_move in self.human:
                break
        return True

    def solver_turn(self) -> tuple[Turn, bool]:
        """The turn of the seat to move when no person plays it, and whether it
        is from a proven line. The solver: the first turn of a proven win (or
        shared win), else the greedy turn. The engine: its estimate from what
        the seat sees (``last_choice`` says how many worlds it rests on)."""
        if self.vs == Opponent.ENGINE:
            self.last_choice = engine_choice(
                self.deal, self.state, self.turns, self.think, self.strength, len(self.turns)
            )
            turn = self.last_choice.turn
            self.states.append(apply_turn(self.deal, self.state, turn))
            self.turns.append(turn)
            return turn, False
        result = solve_table(self.deal, self.to_move + 1, self.think, self.state)
        if result.verdict in (TableVerdict.WIN, TableVerdict.TIE) and result.turns:
            turn = result.turns[0]
            proven = True
        else:
            turn = greedy_turn(self.deal, self.state)
            proven = False
        self.states.append(apply_turn(self.deal, self.state, turn))
        self.turns.append(turn)
        return turn, proven


def session_of(
    record: Record,
    human: frozenset[int],
    think: Limit | None = None,
    vs: Opponent = Opponent.SOLVER,
) -> Session:
    """The session at the end of a record's turns, each replayed by the rules
    engine (an illegal turn raises ``TurnError`` with its rule id)."""
    states = [initial_state(record.deal)]
    for i, turn in enumerate(record.turns, 1):
        try:
            states.append(apply_turn(record.deal, states[-1], turn))
        except TurnError as e:
            raise TurnError(e.rule, f"turn {i}: {e.message}", e.play) from None
    session = Session(record.deal, human, turns=list(record.turns), states=states, vs=vs)
    if think is not None:
        session.think = think
    return session


def turn_steps(turn: Turn) -> list[Step]:
    """The steps a person takes to make ``turn``, in the order the rules
    engine takes them (``apply_turn``): the 100 (rule Z5), a draw, the plays."""
    steps: list[Step] = []
    if turn.trick:
        steps.append(Step(StepKind.TRICK))
    if turn.treat:
        steps.append(Step(StepKind.TREAT))
    emptied = turn.trick and not turn.plays and not turn.draw
    if turn.draw > 0 or (not turn.plays and not turn.treat and not emptied):
        steps.append(Step(StepKind.DRAW))
    steps.extend(Step(StepKind.PLAY, p.card, p.named) for p in turn.plays)
    return steps


def step_text(step: Step) -> str:
    """A step as ``parse_steps`` reads it: ``37``, ``free 45``, ``draw``."""
    if step.kind != StepKind.PLAY:
        return step.kind.value
    return f"free {step.named}" if step.card == FREE else str(step.card)


@dataclass(frozen=True)
class Choices:
    """What the player to move may do next in the turn being built: the
    cards that may be played now (a free card: the values it may be named,
    rule Z4), and whether a draw, the Trick, the Treat or ending the turn is
    allowed."""

    cards: tuple[int, ...]
    free_values: tuple[int, ...]
    draw: bool
    trick: bool
    treat: bool
    end: bool


def choices(session: Session) -> Choices:
    """Each next step tried on a copy of the turn by the rules engine."""
    b = session.builder or TurnBuilder(session.deal, session.state)

    def allowed(step: Step) -> bool:
        trial = b.copy()
        try:
            if step.kind == StepKind.DRAW:
                trial.draw()
            elif step.kind == StepKind.TRICK:
                trial.trick()
            elif step.kind == StepKind.TREAT:
                trial.treat()
            else:
                trial.play(step.card, step.named)
        except TurnError:
            return False
        return True

    cards = tuple(c for c in sorted(set(b.hand)) if c != FREE and allowed(Step(StepKind.PLAY, c)))
    free: tuple[int, ...] = ()
    if FREE in b.hand:
        free = tuple(v for v in range(1, MAX_NAMED + 1) if allowed(Step(StepKind.PLAY, FREE, v)))
    try:
        b.copy().finish()
        can_end = True
    except TurnError:
        can_end = False
    return Choices(
        cards,
        free,
        allowed(Step(StepKind.DRAW)),
        allowed(Step(StepKind.TRICK)),
        allowed(Step(StepKind.TREAT)),
        can_end,
    )
