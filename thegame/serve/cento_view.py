"""Cento's table as a page draws it (seat 1 sees only what it may), and the
table's work that runs in the worker pool (no web framework here)."""

from __future__ import annotations

from typing import Any

from ..analysis.cento.engine import Choice
from ..analysis.cento.review import review
from ..analysis.cento.sampler import engine_choice
from ..analysis.cento.session import (
    Opponent,
    Session,
    Step,
    StepKind,
    choices,
    session_of,
    step_text,
)
from ..models import InvalidInputError, Limit
from ..models.cento.deal import card_to_json
from ..models.cento.record import Record
from ..models.cento.rules import CentoStatus
from ..models.cento.state import TurnError
from .pool import report

# Sampled worlds an engine turn or a hint rests on at most (its time caps it
# too): a few tenths of a second of the compiled playouts.
ENGINE_WORLDS = 5000
# Seconds the review gives each position at most (the job's budget caps the whole).
REVIEW_POSITION = 0.5


def board_view(session: Session, steps: list[Step]) -> dict[str, Any]:
    """The position for the person to move: the open card, the draw pile,
    the hand, and the steps the rules allow next."""
    state = session.state
    c = choices(session) if not session.over else None
    b = session.builder
    pos = b.pos if b is not None else state.draw_pos
    left = session.deal.draw[pos:]
    status = state.status
    out: dict[str, Any] = {
        "state": "solved"
        if status == CentoStatus.WON
        else "lost"
        if status == CentoStatus.BLOCKED
        else "playing",
        "turn": len(session.turns) + 1,
        "turns": [t.to_dict() for t in session.turns],
        "steps": [step_text(s) for s in steps],
        "open": session.open_value(),
        "bound": bool(state.obliged and not state.immune[0] and b is None),
        "immune": bool(state.immune[0]),
        "hand": [card_to_json(x) for x in session.hand()],
        "draw_left": len(left),
        "draw_next": [card_to_json(x) for x in left[:5]],
        "cards_left": len(session.hand()),
    }
    if c is not None:
        out["playable"] = [*c.cards, *(["free"] if c.free_values else [])]
        out["free_values"] = list(c.free_values)
        out["can"] = {"draw": c.draw, "trick": c.trick, "treat": c.treat, "end": c.end}
    return out


def table_view(session: Session, steps: list[Step]) -> dict[str, Any]:
    """The table as seat 1 sees it: its own hand, the others' hand sizes,
    the draw pile's count (not its order); at the end, the winners."""
    out = board_view(session, steps)
    del out["draw_next"]  # the pile's order is hidden at a table
    state = session.state
    mine = session.hand() if session.to_move == 0 else state.hands[0]
    out["hand"] = [card_to_json(x) for x in mine]
    out["cards_left"] = len(mine)
    out["players"] = session.deal.players
    out["to_move"] = state.to_move + 1
    out["seats"] = [
        {"player": i + 1, "cards": len(h), "you": i == 0} for i, h in enumerate(state.hands)
    ]
    if session.over:
        winners = state.winners
        out["state"] = "over"
        out["winners"] = [w + 1 for w in winners]
        out["you"] = "win" if winners == (0,) else "shared" if 0 in winners else "loss"
    return out


def _limit(seconds: float) -> Limit:
    return Limit(time=seconds, nodes=ENGINE_WORLDS)


def _choice_dict(choice: Choice, key: str) -> dict[str, Any]:
    """The engine's turn under ``key`` and what it rests on: the share of
    sampled worlds it wins (an estimate, labelled as one), none for the
    only legal turn."""
    out: dict[str, Any] = {"player": choice.turn.player, key: choice.turn.to_dict()}
    if choice.share is not None:
        out["estimate"] = {"win_share": round(choice.share, 3), "worlds": choice.worlds}
    return out


def _undo(steps: list[Step]) -> list[Step]:
    """Against the engine a drawn card stays drawn (the CLI's rule): only a
    step of a turn that drew nothing and showed no 100 is taken back."""
    if not steps:
        raise InvalidInputError("a turn played at the table is not taken back", "action")
    if any(s.kind in (StepKind.DRAW, StepKind.TRICK) for s in steps):
        raise InvalidInputError("a card drawn (or the 100 shown) at the table stays", "action")
    return steps[:-1]


def cento_table_job(
    record: Record, steps: list[Step], action: Step | str | None, seconds: float
) -> dict[str, Any]:
    """One action of seat 1 (a step, ``end``, ``undo`` or ``hint``), then
    the engine's turns up to seat 1's next turn; ``seconds`` per engine turn."""
    try:
        session = session_of(record, frozenset({0}), _limit(seconds), Opponent.ENGINE)
        if steps and session.step(steps):
            raise InvalidInputError("the steps end the turn: send it under turns", "steps")
    except TurnError as e:
        raise InvalidInputError(str(e), "turns") from None
    extra: dict[str, Any] = {}
    if action is not None and session.over:
        raise InvalidInputError("the game is over", "action")
    try:
        if isinstance(action, Step):
            steps = [] if session.step([action]) else [*steps, action]
        elif action == "end":
            session.end_turn()
            steps = []
        elif action == "undo":
            steps = _undo(steps)
            session.builder = None
            if steps:
                session.step(steps)
    except TurnError as e:
        raise InvalidInputError(str(e), "action") from None
    if action == "hint":
        if steps:
            raise InvalidInputError("a hint is for a whole turn: undo its steps first", "action")
        # From what seat 1 sees: the engine's own choice for the seat.
        choice = engine_choice(
            record.deal, session.state, session.turns, _limit(seconds), seed=len(session.turns)
        )
        extra["hint"] = {"turn": len(session.turns) + 1, **_choice_dict(choice, "hint")}
    engine: list[dict[str, Any]] = []
    while not steps and not session.over and session.to_move != 0:
        session.solver_turn()
        assert session.last_choice is not None
        engine.append({"turn": len(session.turns), **_choice_dict(session.last_choice, "played")})
    out = table_view(session, steps)
    out["engine"] = engine
    out.update(extra)
    return out


def cento_review_job(record: Record, budget: float, watched: bool = False) -> dict[str, Any]:
    """``cento analyze`` of a finished or unfinished game; ``watched``: the
    positions judged so far reported to the server. Each position gets at
    most ``REVIEW_POSITION`` seconds, and all of them ``budget`` together."""
    n = len(record.turns) + (1 if record.deal.players <= 2 else 0)
    per = max(0.05, min(REVIEW_POSITION, budget / (2 * max(1, n))))

    def step(i: int) -> None:
        if watched:
            report(min(i + 1, len(record.turns)), len(record.turns))

    out = review(record, Limit(time=per), step).to_dict()
    out["seconds_per_position"] = round(per, 3)
    return out
