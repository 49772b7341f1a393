"""``explain``: a solved Cento line turn by turn, each turn with its reasons.

The line is the solver's (the fewest turns alone; best play from both sides
with two players). Each turn is replayed through the rules engine and
explained by the rules that allow it: why the player may play the card (a
shared digit, Z1; single-digit on single-digit, Z2; a free card's name, Z4),
why a repdigit lets the player go on (Z3), why a player draws (Z1, Z2), the
100's Trick and Treat (Z5), and what the turn leaves the next player.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...models.cento.record import Record, check
from ...models.cento.rules import FREE, digits, is_single, repdigit
from ...models.cento.state import State, Turn, apply_turn
from ...models.errors import IllegalMoveError
from ...models.outcome import Limit, Verdict
from ...solver.cento.duel import solve_duel
from ...solver.cento.solo import solve_solo
from ...solver.cento.table import TableVerdict, solve_table


@dataclass(frozen=True)
class Step:
    turn: int  # from 1
    played: Turn
    reasons: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, **self.played.to_dict(), "reasons": list(self.reasons)}


@dataclass(frozen=True)
class Explanation:
    headline: str
    result: dict[str, Any]  # the solver's answer (``solve --json``)
    steps: tuple[Step, ...]

    def to_dict(self) -> dict[str, Any]:
        return {**self.result, "turns": [s.to_dict() for s in self.steps]}


def _digits_text(a: int, b: int) -> str:
    shared = sorted(digits(a) & digits(b))
    return " and ".join(str(d) for d in shared)


def turn_reasons(state: State, turn: Turn, after: State) -> list[str]:
    """The rules behind one legal turn from ``state``."""
    reasons: list[str] = []
    open_value = state.open
    bound = state.obliged and not state.immune[state.to_move]
    if turn.trick:
        reasons.append("shows the 100 (Trick): every other player draws (rule Z5)")
    if turn.treat:
        reasons.append(
            "lays out the 100 (Treat): that is the whole turn, and from now on a "
            "single-digit card does not bind this player (rule Z5)"
        )
    if turn.draw:
        if bound:
            reasons.append(
                f"bound by the single-digit {open_value} and holding no single-digit card "
                f"it wants to play: draws {turn.draw} and misses the turn (rule Z2)"
            )
        else:
            reasons.append(f"no card fits {open_value}: draws {turn.draw} (rule Z1)")
    elif not turn.plays and not turn.treat and not turn.trick:
        reasons.append("no card fits and the draw pile is empty: passes (rule Z1)")
    chain: int | None = None
    for i, play in enumerate(turn.plays):
        value = play.value
        name = f"a free card named {value}" if play.card == FREE else str(value)
        if i == 0:
            if bound:
                reasons.append(f"bound by the single-digit {open_value}: plays {name} (rule Z2)")
            elif is_single(value) and is_single(open_value):
                reasons.append(f"{name} is single-digit on single-digit {open_value} (rule Z2)")
            elif turn.draw:
                reasons.append(f"the drawn card {name} fits {open_value}: played at once (rule Z1)")
            else:
                shared = _digits_text(value, open_value)
                rules = "rules Z1, Z4" if play.card == FREE else "rule Z1"
                reasons.append(f"{name} shares the digit {shared} with {open_value} ({rules})")
            chain = repdigit(value)
            if chain is not None:
                reasons.append(
                    f"{value} is a repdigit: the player may go on with cards holding a {chain} "
                    "(rule Z3)"
                )
        else:
            reasons.append(f"goes on with {name}: it holds the digit {chain} (rule Z3)")
        open_value = value
    if turn.plays and is_single(open_value) and not after.over:
        reasons.append(
            f"ends on the single-digit {open_value}: the next player must answer with a "
            "single-digit card or draw (rule Z2)"
        )
    if after.over:
        reasons.append(
            "the hand is empty: the game is won (rule Z1)"
            if after.winners
            else ("every player passed in a row: the game is over (rule Z1)")
        )
    return reasons


def explain_line(record: Record, limit: Limit) -> Explanation:
    """Solve from the record's position and explain the line found."""
    result = check(record)
    if result.error is not None:
        e = result.error
        raise IllegalMoveError(e["rule"], f"turn {e['turn']}: {e['message']}")
    deal, state = record.deal, result.state
    if deal.players == 1:
        solo = solve_solo(deal, limit, state)
        data, line = solo.to_dict(), solo.turns
        if solo.verdict == Verdict.WIN:
            headline = f"fewest turns: {solo.turn_count} (proven optimal)"
        elif solo.verdict == Verdict.LOSS:
            headline = "the hand cannot be emptied (proven)"
        else:
            headline = f"unknown: the budget ran out (at least {solo.lower_bound} turns)"
    elif deal.players > 2:
        k = state.to_move + 1
        table = solve_table(deal, k, limit, state)
        data, line = table.to_dict(), table.turns
        others = f"the other {deal.players - 1} players"
        headline = {
            TableVerdict.WIN: f"player {k} can force a win whatever {others} do together (proven)",
            TableVerdict.LOSS: f"{others} together can stop player {k} from winning (proven)",
            TableVerdict.TIE: "a shared win with best play (proven)",
            TableVerdict.UNKNOWN: f"player {k}: unknown: the budget ran out",
        }[table.verdict]
    else:
        duel = solve_duel(deal, limit, state)
        data, line = duel.to_dict(), duel.turns
        headline = {
            "win": "player 1 wins with best play (proven)",
            "loss": "player 2 wins with best play (proven)",
            "tie": "a shared win with best play (proven)",
            "unknown": "unknown: the budget ran out",
        }[data["verdict"]]
    steps = []
    for i, turn in enumerate(line, len(record.turns) + 1):
        after = apply_turn(deal, state, turn)
        steps.append(Step(i, turn, tuple(turn_reasons(state, turn, after))))
        state = after
    return Explanation(headline, data, tuple(steps))
