"""The engine-only references: ``Brute`` (is a perfect clear reachable?) and
``BruteOptimum`` (the fewest cards left), which use nothing but the rules
engine (``GameState``) and none of the solver's shortcuts, and
``check_solution``, the rules every solver verdict must keep."""

from __future__ import annotations

import json

from thegame.models.outcome import Status
from thegame.models.the_game import (
    Deal,
    GameState,
    Record,
    get_rules,
    replay,
)
from thegame.solver.the_game.api import Solution
from thegame.solver.the_game.brute import Brute

__all__ = ["Brute", "BruteOptimum", "check_solution", "describe", "optimum_from", "starts"]

# Small deals take at most a few thousand nodes; a limit this generous means
# an 'unknown' verdict is a failure, not a budget question.
NODE_LIMIT = 300_000


def starts(deal: Deal) -> list[int]:
    """Rule C3: the deal's starting player, or else every player may start."""
    return [deal.first] if deal.first is not None else list(range(1, deal.players + 1))


def describe(deal: Deal) -> str:
    """The deal's text form; a custom fire set is not part of it, so add it."""
    text = deal.to_text()
    fire = deal.rules.fire_cards
    if fire != get_rules(deal.rules.name).fire_cards:
        text += f"   [fire_cards={sorted(fire)}]"
    return text


def fire_set_in_formats(deal: Deal) -> bool:
    """Whether JSON and text can carry the deal's rules (a fire set cannot be
    overridden there, only the preset's is known)."""
    return deal.rules.fire_cards == get_rules(deal.rules.name).fire_cards


def check_solution(sol: Solution, deal: Deal) -> None:
    """Rules for every verdict: a win replays won and round-trips through
    JSON; a loss has a proof and cards left; the line shown replays legally."""
    text = describe(deal)
    record = sol.record()
    result = replay(record)
    assert result.legal, f"line does not replay ({result.error}): {text}"
    json.dumps(sol.to_dict())  # serialisable
    if sol.verdict == "win":
        assert result.status == Status.WON, f"win line ends {result.status}: {text}"
        assert sol.cards_left == 0
        assert result.cards_left == 0
        assert deal.first is None or sol.first == deal.first
        parsed = Record.from_json(record.to_json())
        assert parsed.turns == record.turns
        assert parsed.to_dict() == record.to_dict()
        if fire_set_in_formats(deal):
            assert parsed == record
            assert replay(parsed).status == Status.WON
    elif sol.verdict == "loss":
        assert sol.proof, f"a loss without proof: {text}"
        assert sol.cards_left > 0
        assert result.status != Status.WON
        assert result.cards_left == sol.cards_left


INF = 1 << 30


class BruteOptimum:
    """Fewest cards left over every whole game from a position."""

    def __init__(self) -> None:
        self.memo: dict[tuple[object, ...], int] = {}

    def value(self, state: GameState) -> int:
        return self._search(state.copy())

    def _search(self, s: GameState) -> int:
        if s.status == Status.WON:
            return 0
        if s.status == Status.LOST:
            return s.cards_left()
        key = s.key()
        known = self.memo.get(key)
        if known is not None:
            return known
        best = INF  # no legal way to finish this turn from here
        for play in s.legal_plays():
            s.play(play.card, play.pile)
            best = min(best, self._search(s))
            s.undo_play()
        if s.can_end_turn():
            after = s.copy()
            after.end_turn()
            best = min(best, self._search(after))
        self.memo[key] = best
        return best


def optimum_from(state: GameState) -> int:
    """The decision brute force first (it stops at the first win); the
    exhaustive one only for positions without a perfect clear."""
    if Brute().wins_from(state):
        return 0
    return BruteOptimum().value(state)
