"""The duel engine (``duel.engine``, ``duel.api.engine_answer``): its proven
values against the engine-only minimax and the exact search on small
generalised duels (rule D7), its lines replayed through the rules engine,
its playout policy against the fixed policy, and its estimate where no
proof is reached."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.duel_brute import EngineMinimax
from tests.support.the_game import DUEL, examples, random_duel, turn_starts
from thegame.models import Limit
from thegame.models.outcome import Verdict
from thegame.models.the_game import Deal, GameState, Play, Record, Turn, get_rules
from thegame.solver.the_game.duel.api import (
    engine_answer,
    engine_for,
    first_guess,
    solve_duel,
    solve_duel_at,
)
from thegame.solver.the_game.duel.engine import DuelEngine, policy_index
from thegame.solver.the_game.duel.position import DuelGame
from thegame.solver.the_game.duel.search import DuelSearch


@st.composite
def small_duels(draw: st.DrawFn) -> Deal:
    """Duels the engine-only minimax answers in well under a second."""
    hand = draw(st.sampled_from([2, 3]))
    high = draw(st.integers(6, 9)) if hand == 2 else 6
    rules = DUEL.with_changes(high=high, hand_sizes=(hand, hand))
    cards = list(rules.cards)
    d1 = draw(st.permutations(cards))
    d2 = draw(st.permutations(cards))
    return Deal.create(rules, 2, [list(d1), list(d2)], draw(st.sampled_from([1, 2])))


def replay_turns(state: GameState, turns: list[Turn]) -> GameState:
    """Play ``turns`` through the rules engine (an illegal play raises)."""
    s = state.copy()
    for turn in turns:
        assert s.current + 1 == turn.player
        made = len(s.placed)
        for p in turn.plays[made:]:
            s.play(p.card, p.pile)
        if not s.over:
            s.end_turn()
    return s


@settings(max_examples=examples(15), deadline=None)
@given(small_duels(), st.integers(0, 3))
def test_proven_values_agree_with_the_minimax_and_the_exact_search(deal: Deal, seed: int) -> None:
    state = GameState(deal)
    truth = EngineMinimax().wins(state)
    game = DuelGame.of(deal)
    engine = DuelEngine(game, seed=seed)
    pos = game.from_state(state)
    answer = engine.think(pos, playouts=5_000)
    assert answer.proven, "a duel this small is proven long before 5,000 playouts"
    assert (answer.win_chance == 1.0) == truth
    # Every value the engine proved on the way, against a fresh exact search.
    reference = DuelSearch(game)
    proven = [(p, n.proven) for p, n in engine.tree.items() if n.proven is not None]
    assert proven
    for p, value in proven:
        assert reference.wins(p) == value


@settings(max_examples=examples(15), deadline=None)
@given(small_duels())
def test_a_proven_answer_replays_to_the_winner(deal: Deal) -> None:
    state = GameState(deal)
    truth = DuelSearch(DuelGame.of(deal)).wins(DuelGame.of(deal).from_state(state))
    res = engine_answer(state, Limit(None, None), engine_for(deal))
    mover = state.current + 1
    assert res.verdict == (Verdict.WIN if truth else Verdict.LOSS)
    assert res.estimate is None
    end = replay_turns(state, res.turns)
    assert end.over and end.winner == res.winner
    assert (res.winner == mover) == truth


def test_the_engine_answers_inside_a_turn() -> None:
    """Asked after the first play of a turn, the move is the rest of the
    turn, and the line replays from there."""
    for seed in range(1, 4):
        deal = random_duel(random.Random(seed), 9, 2)
        for state, plays in turn_starts(deal, seed):
            inside = state.copy()
            inside.play(*plays[0])
            if inside.over:
                continue
            truth = EngineMinimax().wins(inside)
            res = engine_answer(inside, Limit(None, None), engine_for(deal))
            assert res.verdict == (Verdict.WIN if truth else Verdict.LOSS)
            assert res.turns[0].plays[0] == Play(*plays[0])
            end = replay_turns(inside, res.turns)
            assert end.over and end.winner == res.winner
            break


def printed(seed: int, first: int = 1) -> GameState:
    return GameState(Deal.from_seed(seed, get_rules("face-to-face"), first=first))


def test_on_a_printed_duel_the_estimate_is_labelled_and_its_line_replays() -> None:
    state = printed(4)
    res = engine_answer(state, Limit(None, None), engine_for(state.deal), playouts=40)
    assert res.verdict == Verdict.UNKNOWN and res.winner is None and res.proof is None
    est = res.estimate
    assert est is not None
    assert est.playouts == 40
    assert 0.0 <= est.win_chance <= 1.0
    assert est.turn is not None and est.turns and est.turns[0] == est.turn
    replay_turns(state, est.turns)  # legal turn after turn
    assert "estimate" in est.summary() and f"{est.playouts:,} playouts" in est.summary()
    d = res.to_dict()["estimate"]
    assert set(d) >= {"win_chance", "playouts", "turn", "turns"}


def test_probes_that_wait_run_none_before_a_proven_position() -> None:
    """``probe_waits``: at a printed duel's start no descent of 64 playouts
    meets a proven position, so no probe runs; without it probes run."""
    state = printed(1)
    game = DuelGame.of(state.deal)
    pos = game.from_state(state)
    counts = []
    for waits in (True, False):
        engine = DuelEngine(game)
        engine.probe_waits = waits
        engine.think(pos, playouts=64)
        assert engine.stats.playouts == 64 and engine.stats.bound_proofs == 0
        counts.append(engine.stats.probes)
    assert counts[0] == 0 < counts[1]


def test_the_playout_policy_is_the_fixed_policy() -> None:
    """Without noise the playouts play ``first_guess``'s turns (the same
    position after each, or a turn that also leaves the opponent stuck)."""
    state = printed(2)
    game = DuelGame.of(state.deal)
    engine = DuelEngine(game)
    pos = game.from_state(state)
    turns = 0
    while not state.over:
        plays = first_guess(state)
        assert plays is not None
        for p in plays:
            state.play(p.card, p.pile)
        if not state.over:
            state.end_turn()
        status, kids = (
            engine._expand(pos) if engine.compiled is None else engine.compiled.expand(pos)
        )
        if status != 2 or not all(has for _a, _s, has in kids):
            assert state.over
            break
        afters, scores, _has = zip(*kids, strict=True)
        pos = afters[policy_index(scores, None)]
        assert pos == game.from_state(state)
        turns += 1
    assert turns > 20


def test_solve_reports_the_estimate_beside_unknown() -> None:
    deal = Deal.from_seed(5, get_rules("face-to-face"))
    sol = solve_duel(deal, Limit(3.0), races=False)
    assert [r.first for r in sol.results] == [1, 2]
    for res in sol.results:
        assert res.verdict == Verdict.UNKNOWN
        assert res.estimate is not None and res.estimate.player == res.first
        assert res.estimate.playouts > 0
        assert res.to_dict()["estimate"]["playouts"] == res.estimate.playouts


def test_solve_from_a_record_position() -> None:
    """Late in a policy duel the position is decided and the line replays
    from the record's position to the proven winner."""
    state = printed(1)
    turns: list[Turn] = []
    while not state.over:
        plays = first_guess(state)
        assert plays is not None
        turns.append(Turn(state.current + 1, plays))
        for p in plays:
            state.play(p.card, p.pile)
        if not state.over:
            state.end_turn()
    record = Record(Deal.from_seed(1, get_rules("face-to-face"), first=1), tuple(turns[:-4]))
    sol = solve_duel_at(record, Limit(20.0))
    (res,) = sol.results
    assert res.at_turn == len(turns) - 3
    assert res.verdict in (Verdict.WIN, Verdict.LOSS)
    start = replay_turns(GameState(record.deal, first=1), list(record.turns))
    end = replay_turns(start, res.turns)
    assert end.over and end.winner == res.winner


def test_ctrl_c_stops_the_engine_at_once() -> None:
    from thegame.models import interrupt

    state = printed(3)
    game = DuelGame.of(state.deal)
    engine = DuelEngine(game)
    interrupt.request()
    try:
        answer = engine.think(game.from_state(state), Limit(30.0))
    finally:
        interrupt.reset()
    assert answer.playouts == 0 and answer.seconds < 5.0
    assert answer.move is not None  # still a legal move: the search's first choice
    replay_turns(state, [Turn(1, tuple(Play(c, p) for c, p in answer.move))])


def test_a_child_asked_before_without_a_playout_is_descended_into() -> None:
    """A question whose budget ends before its first playout leaves its
    root in the tree unvisited (as ``analyze`` does, last turn start first,
    on a busy machine); a later question from its parent goes into it
    rather than dividing by its zero visits."""
    deal = Deal.from_seed(4, get_rules("face-to-face"), first=1)
    game = DuelGame.of(deal)
    engine = DuelEngine(game)
    pos = game.start(1)
    kids = engine._node(pos).kids
    assert kids
    for kid in kids:
        engine.think(kid, playouts=0)
    answer = engine.think(pos, playouts=20)
    assert answer.playouts == 20
    assert sum(engine.tree[kid].visits for kid in kids) == 20
