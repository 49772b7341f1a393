"""The parallel searches of a duel's turn start (``duel/parallel.py``: its
children split over workers, and df-pn racing the depth-first search)
against the serial search: the same verdict wherever both decide, with a
line that replays through the rules engine to the proven winner."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.deals import small_generalised_duels
from tests.support.the_game import DUEL, examples, turn_starts
from thegame.models import Limit, Verdict
from thegame.models.the_game import Deal, GameState
from thegame.solver.the_game.duel.api import decide
from thegame.solver.the_game.duel.parallel import (
    RACERS,
    Racer,
    Share,
    _prove,
    _result,
    split_decide,
)
from thegame.solver.the_game.duel.pns import ProofNumberSearch
from thegame.solver.the_game.duel.position import DuelGame
from thegame.solver.the_game.duel.search import DuelSearch

NODES = 200_000


def shares_of(state: GameState, workers: int) -> tuple[list[Share], list[object]] | None:
    """The split search's shares computed in this process (no workers):
    the children dealt out as ``split_decide`` deals them, each share
    proven by a search of its own."""
    game = DuelGame.of(state.deal)
    pos = game.from_state(state)
    kids = ProofNumberSearch(game)._open(pos)
    if isinstance(kids, bool):
        return None
    shares = []
    for w in range(min(workers, len(kids))):
        index = list(range(w, len(kids), workers))
        share = _prove(ProofNumberSearch(game), [kids[i] for i in index], NODES, None)
        share.kid = index[share.kid]
        shares.append(share)
    refuted = [s for s in shares if s.refuted]
    return (refuted[:1] or shares), list(kids)


@settings(max_examples=examples(25), deadline=None)
@given(small_generalised_duels(), st.integers(0, 2**32 - 1), st.integers(2, 3))
def test_the_shares_decide_what_the_serial_search_decides(
    deal: Deal, seed: int, workers: int
) -> None:
    game = DuelGame.of(deal)
    for state, _plays in list(turn_starts(deal, seed))[:4]:
        got = shares_of(state, workers)
        if got is None:
            continue  # the turn start is settled by its turns alone
        shares, kids = got
        assert all(s.refuted or s.won for s in shares), "a small duel is decided"
        pos = game.from_state(state)
        res = _result(state, game, pos, kids, shares, 0, 0.0, workers)  # type: ignore[arg-type]
        serial = DuelSearch(game, NODES).wins(pos)
        assert res.verdict == (Verdict.WIN if serial else Verdict.LOSS)
        # The line was replayed by ``_result``; it ends with the proven winner.
        assert res.turns and res.winner == (pos[8] + 1 if serial else 2 - pos[8])


def test_the_workers_answer_as_the_serial_search() -> None:
    # End to end over two worker processes, the serial search not tried
    # first: the verdicts of several turn starts, wins and losses both.
    rnd = random.Random(3)
    rules = DUEL.with_changes(high=16, hand_sizes=(3, 3))
    cards = list(rules.cards)
    seen: set[Verdict] = set()
    asked = 0
    for i in range(3):
        decks = [rnd.sample(cards, len(cards)), rnd.sample(cards, len(cards))]
        deal = Deal.create(rules, 2, decks, 1)
        for state, _plays in list(turn_starts(deal, i))[:3]:
            serial = decide(state, Limit(nodes=NODES))
            split = split_decide(state, Limit(nodes=NODES), workers=2, serial_first=0)
            assert split.verdict == serial.verdict != Verdict.UNKNOWN
            assert split.winner == serial.winner and split.turns
            seen.add(split.verdict)
            asked += 1
            if asked >= 3 and len(seen) == 2:
                return
    assert seen == {Verdict.WIN, Verdict.LOSS}


def test_a_spent_budget_is_unknown() -> None:
    rnd = random.Random(4)
    rules = DUEL.with_changes(high=24, hand_sizes=(4, 4))
    cards = list(rules.cards)
    deal = Deal.create(rules, 2, [rnd.sample(cards, len(cards)), rnd.sample(cards, len(cards))], 1)
    res = split_decide(GameState(deal), Limit(nodes=50), workers=2, serial_first=0)
    assert res.verdict == Verdict.UNKNOWN and res.winner is None and not res.turns


@settings(max_examples=examples(10), deadline=None)
@given(small_generalised_duels(), st.integers(0, 2**32 - 1))
def test_each_racer_decides_what_the_serial_search_decides(deal: Deal, seed: int) -> None:
    # A racer's work, in this process: each search alone, with its line.
    game = DuelGame.of(deal)
    racer = Racer([0])
    for state, _plays in list(turn_starts(deal, seed))[:3]:
        pos = game.from_state(state)
        serial = DuelSearch(game, NODES).wins(pos)
        for depth_first in RACERS:
            job = {"pos": pos, "depth_first": depth_first, "nodes": NODES, "slot": 0}
            out = racer.run(job, ProofNumberSearch(game), None)
            assert out["won"] is serial and out["nodes"] > 0
            assert out["depth_first"] is depth_first
            assert out["line"][0][0] == pos[8]  # the line starts with the mover's turn
