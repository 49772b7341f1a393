"""What a played Face to Face duel teaches: the turn that threw a won duel
away, and the best next turn (rules D1-D7).

With both decks known the duel has a value at every turn start: the player
to move either has a forced win or a forced loss (``solver.the_game.duel``).
A turn is a mistake when its player had a forced win before it and a forced
loss after it; ``analyze_duel`` names the first such turn with a winning
turn instead. Each position gets the time budget; a position left undecided
is shown as unknown and never makes a mistake.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...models import InvalidInputError, Limit, Verdict
from ...models.the_game import GameState, Play, Record, Turn
from ...models.the_game.notation import plays_text
from ...models.the_game.record import replayed, turn_to_dict
from ...solver.the_game.duel.api import DuelResult, decide, first_guess, session
from ...solver.the_game.duel.pns import ProofNumberSearch

POSITION_LIMIT = Limit(2.0)
HINT_LIMIT = Limit(5.0)


@dataclass
class DuelMistake:
    turn: int  # 0-based turn of the record
    player: int  # 1-based
    played: Turn
    better: Turn  # a winning turn instead
    line: list[Turn]  # the winning line from the position before the mistake
    proven: bool  # both verdicts (before and after) are proven by a complete search


@dataclass
class DuelAnalysis:
    record: Record
    # The verdict for the player to move at each turn start of the record
    # (and where it ends), with that player: win, loss or unknown.
    values: list[tuple[int, Verdict]] = field(default_factory=list)
    mistake: DuelMistake | None = None
    winner: int | None = None  # where the record ends, if it is over
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        rules = self.record.deal.rules
        m = self.mistake
        return {
            "variant": rules.name,
            "hindsight": True,
            "values": [
                # The start of turn i + 1 (from 1, as on screen); after the
                # last turn of a finished duel, its end.
                {"turn": i + 1, "player": p, "verdict": v}
                for i, (p, v) in enumerate(self.values)
            ],
            "first_mistake": None
            if m is None
            else {
                "turn": m.turn + 1,
                "player": m.player,
                "played": turn_to_dict(rules, m.played),
                "better": turn_to_dict(rules, m.better),
                "proven": m.proven,
                "turns": [turn_to_dict(rules, t) for t in m.line],
            },
            "winner": self.winner,
            "stats": {"seconds": round(self.seconds, 3)},
        }


def analyze_duel(
    record: Record,
    limit: Limit = POSITION_LIMIT,
    progress: Callable[[int, int], None] | None = None,
    start_turn: int = 0,
) -> DuelAnalysis:
    """Judge every turn start of a duel record (see the module notes); the
    first ``start_turn`` turns are replayed without judging."""
    t0 = time.monotonic()
    replayed(record)  # one line naming the first illegal step, if any
    state = GameState(record.deal, first=record.first)
    states: list[GameState] = []
    for turn in record.turns:
        states.append(state.copy())
        for p in turn.plays:
            state.play(p.card, p.pile)
        if not state.over:
            state.end_turn()
    states.append(state)
    out = DuelAnalysis(record, winner=state.winner if state.over else None)
    results: list[DuelResult | None] = [None] * len(states)
    total = len(states) - start_turn
    # The last turn start first, all on one table: every position proven
    # near the end is known when the search reaches it again from earlier
    # turn starts (on printed duels that decides several more of them).
    search = session(record.deal)
    for k, n in enumerate(range(len(states) - 1, start_turn - 1, -1)):
        results[n] = decide(states[n], limit, search=search)
        if progress is not None:
            progress(k + 1, total)
    for n in range(start_turn, len(states)):
        res = results[n]
        assert res is not None
        out.values.append((states[n].current + 1, res.verdict))
    for i, turn in enumerate(record.turns):
        before, after = results[i], results[i + 1]
        if before is None or after is None:
            continue
        lost = after.winner is not None and after.winner != turn.player
        if before.verdict == Verdict.WIN and lost and before.turns:
            out.mistake = DuelMistake(
                turn=i,
                player=turn.player,
                played=turn,
                better=before.turns[0],
                line=before.turns,
                proven=True,  # both are complete searches: unknown never gets here
            )
            break
    out.seconds = time.monotonic() - t0
    return out


@dataclass
class DuelHint:
    turn: Turn  # the rest of the current turn (all of it at a turn start)
    verdict: Verdict  # for the player to move
    line: list[Turn]
    text: str

    def to_dict(self, record: Record) -> dict[str, Any]:
        rules = record.deal.rules
        return {
            "turn": turn_to_dict(rules, self.turn),
            "verdict": self.verdict,
            "turns": [turn_to_dict(rules, t) for t in self.line],
            "text": self.text,
        }


def turn_words(state: GameState, plays: tuple[Play, ...]) -> str:
    return plays_text(state.rules, plays)


def duel_hint(
    state: GameState, limit: Limit = HINT_LIMIT, search: ProofNumberSearch | None = None
) -> DuelHint:
    """The best next turn for the player to move (inside a turn: the rest of
    it); ``search``: a session of the same deal (``play`` keeps one)."""
    if state.over:
        raise InvalidInputError(f"the game is over ({state.reason})", "record")
    res = decide(state, limit, search=search)
    made = len(state.placed)
    if res.turns:
        turn = res.turns[0]
        rest = turn.plays[made:]
        if res.verdict == Verdict.WIN:
            keeps = "keeps a forced win"
        else:
            keeps = f"every turn loses against best play; player {res.winner} wins"
    else:
        guess = first_guess(state)
        if guess is None:
            raise InvalidInputError("no legal way to finish this turn", "record")
        turn = Turn(state.current + 1, (*state.plays_this_turn, *guess))
        rest = guess
        keeps = f"not decided within {limit.describe()} (the search's first choice)"
    text = f"play {turn_words(state, tuple(rest))}: {keeps}"
    return DuelHint(turn, res.verdict, res.turns, text)
