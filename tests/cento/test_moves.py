"""The Cento move generator's outcome: every field lands where its name says."""

from __future__ import annotations

from thegame.models.cento.rules import FREE
from thegame.solver.cento.moves import Outcome, _Turn


def test_turn_outcome_puts_every_field_under_its_name() -> None:
    """``_Turn.outcome`` builds the tuple in field order by hand (for speed).
    Numbers differ per field; each flag gets its own pattern over three
    outcomes, so any two fields swapped show."""
    plays = ((35, None), (FREE, 33))
    flags = ("immune", "trick", "obliged", "won", "passed", "treat")
    for bit in range(3):
        on = {name: bool((code >> bit) & 1) for code, name in enumerate(flags, start=1)}
        turn = _Turn(trick=on["trick"], trick_pos=11, immune=on["immune"], pos=7, drew=2)
        o = turn.outcome(
            mask=0b1010,
            free=3,
            open=53,
            obliged=on["obliged"],
            won=on["won"],
            passed=on["passed"],
            treat=on["treat"],
            plays=plays,
        )
        assert isinstance(o, Outcome)
        numbers = {"mask": 0b1010, "free": 3, "open": 53, "pos": 7, "trick_pos": 11, "drew": 2}
        assert o._asdict() == {**numbers, **on, "plays": plays}


def test_turn_outcome_flags_default_off_and_draws_move_the_position() -> None:
    drawn = _Turn(trick=False, trick_pos=4, immune=False, pos=4, drew=0).after_draw(3)
    o = drawn.outcome(mask=1, free=0, open=9)
    assert (o.pos, o.drew, o.trick_pos) == (7, 3, 4)
    assert not (o.obliged or o.won or o.passed or o.treat or o.trick or o.immune)
    assert o.plays == ()
