"""Cento turns as a person's steps (``analysis.cento.session``): a session
from a record, the steps of a turn, and the next steps the rules allow."""

from __future__ import annotations

import pytest

from thegame.analysis.cento.session import (
    StepKind,
    choices,
    parse_steps,
    session_of,
    step_text,
    turn_steps,
)
from thegame.models.cento.deal import Deal
from thegame.models.cento.record import Record
from thegame.models.cento.rules import FREE, CentoStatus
from thegame.models.cento.state import Play, Turn, TurnError
from thegame.models.outcome import Limit
from thegame.solver.cento.solo import solve_solo


@pytest.mark.parametrize("seed", [1, 2, 5, 7])
def test_a_solved_line_made_step_by_step_from_its_turns_steps(seed: int) -> None:
    """Every step the line takes is among the choices offered before it, and
    the steps rebuild the same turns (round trip through their text too)."""
    deal = Deal.from_seed(seed, 1)
    line = solve_solo(deal, Limit(time=5.0)).turns
    session = session_of(Record(deal, ()), frozenset({0}))
    for turn in line:
        for step in turn_steps(turn):
            offered = choices(session)
            if step.kind == StepKind.PLAY and step.card == FREE:
                assert step.named in offered.free_values
            elif step.kind == StepKind.PLAY:
                assert step.card in offered.cards
            else:
                assert getattr(offered, step.kind.value)
            assert parse_steps(step_text(step)) == [step]
            ended = session.step([step])
        if not ended:
            assert choices(session).end
            session.end_turn()
        assert session.turns[-1] == turn
    if line:
        assert session.state.status == CentoStatus.WON


def test_session_of_a_record_replays_its_turns_and_names_a_bad_one() -> None:
    deal = Deal.from_seed(1, 1)
    line = solve_solo(deal, Limit(time=5.0)).turns
    session = session_of(Record(deal, line[:2]), frozenset({0}))
    assert session.turns == list(line[:2]) and len(session.states) == 3
    bad = Turn(1, (Play(deal.hands[0][0]),), 0)
    with pytest.raises(TurnError, match="turn 3"):
        session_of(Record(deal, (*line[:2], bad, bad)), frozenset({0}))


def test_turn_steps_of_the_100_and_of_a_pass() -> None:
    trick = Turn(1, (Play(37),), 0, trick=True)
    assert [step_text(s) for s in turn_steps(trick)] == ["trick", "37"]
    assert [step_text(s) for s in turn_steps(Turn(1, (), 0, treat=True))] == ["treat"]
    assert [step_text(s) for s in turn_steps(Turn(1, (), 0))] == ["draw"]  # a pass
    drawn = Turn(1, (Play(FREE, 45),), 1)
    assert [step_text(s) for s in turn_steps(drawn)] == ["draw", "free 45"]
