"""The Face to Face solver (``thegame.solver.the_game.duel``) checked against
the engine-only minimax of ``duel_brute`` on small generalised duels (rule
D7), its turn lists against the engine's, its lines replayed through the
engine, and hand-made duels whose winner is clear by hand."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.duel_brute import EngineMinimax, engine_turn_results, relaxed_brute, result_key
from tests.support.the_game import (
    DUEL,
    after_turn,
    examples,
    random_duel,
    random_playout,
    turn_starts,
)
from thegame.models import Limit
from thegame.models.outcome import Status, Verdict
from thegame.models.the_game import Deal, GameState, Record, replay
from thegame.models.the_game.placement import takes_all_of
from thegame.solver.the_game.duel.api import decide, solve_duel
from thegame.solver.the_game.duel.nodes import _unplayed, undominated
from thegame.solver.the_game.duel.position import (
    A0,
    D0,
    H0,
    P0,
    DuelGame,
    Pos,
    solo_of,
    solo_turns,
)
from thegame.solver.the_game.duel.race import INF, RaceSolver, alone_floor, fewest_turns, solo_floor
from thegame.solver.the_game.duel.search import DuelSearch

NODE_LIMIT = 200_000  # small duels need far fewer: 'unknown' is a failure


@st.composite
def small_duels(draw: st.DrawFn, minimax: bool = True) -> Deal:
    """Small generalised duels (rule D7). For the engine-only minimax the
    sizes stay where it answers in well under a second (hand 3 multiplies
    its work: cards 2..7 then; hand 2: up to 2..11; the pinned larger duels
    are in ``test_duel_pinned``); for the turn lists
    they go up to cards 2..16, hand 4."""
    if minimax:
        hand = draw(st.sampled_from([2, 3, 3]))
        high = draw(st.integers(7, 11)) if hand == 2 else 7
    else:
        hand = draw(st.integers(2, 4))
        high = draw(st.integers(7, 16))
    rules = DUEL.with_changes(high=high, hand_sizes=(hand, hand))
    cards = list(rules.cards)
    d1 = draw(st.permutations(cards))
    d2 = draw(st.permutations(cards))
    first = draw(st.sampled_from([1, 2]))
    return Deal.create(rules, 2, [list(d1), list(d2)], first)


# -- turns: the compact state lists exactly the engine's distinct turn results ------


def compact_results(state: GameState) -> set[object]:
    game = DuelGame.of(state.deal)
    pos = game.from_state(state)
    out: set[object] = set()
    for plays, after in game.turns(pos):
        # Replay the representative plays through the engine: legal, and
        # the engine's position afterwards is the compact one.
        s = state.copy()
        for c, pile in plays:
            s.play(c, pile)
        if after is None:
            assert s.over and s.status == Status.WON
        else:
            assert not s.over
            s.end_turn()
            assert s.status != Status.WON
            assert game.from_state(s) == after
        out.add(result_key(s))
    return out


@settings(max_examples=examples(25), deadline=None)
@given(small_duels(minimax=False), st.integers(0, 2**32 - 1))
def test_turns_are_the_engines_distinct_turn_results(deal: Deal, seed: int) -> None:
    # D2-D6 through the compact state equal the engine's, turn start by turn start.
    pl = random_playout(deal, random.Random(seed), check_oracle=False)
    state = GameState(deal)
    for turn in pl.turns:
        if state.over:
            break
        engine = set(engine_turn_results(state))
        assert compact_results(state) == engine
        game = DuelGame.of(deal)
        assert game.has_turn(game.from_state(state)) == (len(engine) > 0)
        for p in turn.plays:
            state.play(p.card, p.pile)
        if not state.over:
            state.end_turn()
    if state.over and not state.placed:
        game = DuelGame.of(deal)
        if state.status == Status.LOST:  # D6: the player to move had no legal turn
            assert not game.has_turn(game.from_state(state))


@settings(max_examples=examples(25), deadline=None)
@given(small_duels(minimax=False), st.integers(0, 2**32 - 1))
def test_turns_inside_a_turn_match_the_engine(deal: Deal, seed: int) -> None:
    # A turn under way (some plays made, maybe one on the opponent's piles):
    # the rest of the turn lists exactly the engine's distinct results.
    pl = random_playout(deal, random.Random(seed), check_oracle=False)
    rnd = random.Random(seed)
    state = GameState(deal)
    game = DuelGame.of(deal)
    for turn in pl.turns:
        if state.over:
            break
        cut = rnd.randint(1, len(turn.plays))
        for k, p in enumerate(turn.plays):
            state.play(p.card, p.pile)
            if k + 1 == cut and not state.over:
                done, dumped = game.turn_under_way(state)
                ours = set()
                for plays, _after in game.turns(game.from_state(state), done, dumped):
                    s = state.copy()
                    for c, pile in plays:
                        s.play(c, pile)
                    if not s.over:
                        s.end_turn()
                    ours.add(result_key(s))
                assert ours == set(engine_turn_results(state))
        if not state.over:
            state.end_turn()


# -- verdicts: the searches equal the engine-only minimax -------------------


@settings(max_examples=examples(15), deadline=None)
@given(small_duels())
def test_solver_agrees_with_engine_minimax(deal: Deal) -> None:
    state = GameState(deal)
    expect = EngineMinimax().wins(state)
    res = decide(state, Limit(nodes=NODE_LIMIT))
    assert res.verdict != Verdict.UNKNOWN
    assert (res.verdict == Verdict.WIN) == expect
    mover = state.current + 1
    assert res.winner == (mover if expect else 3 - mover)
    # The principal line replays through the engine to that winner.
    if not state.over:
        result = replay(Record(deal, tuple(res.turns)))
        assert result.legal and result.status != Status.IN_PROGRESS
        assert result.winner == res.winner


@settings(max_examples=examples(8), deadline=None)
@given(small_duels(), st.integers(0, 2**32 - 1))
def test_solver_agrees_from_positions_of_a_game(deal: Deal, seed: int) -> None:
    # Positions along a random game, at turn starts and inside turns.
    rnd = random.Random(seed)
    brute = EngineMinimax()
    for state, plays in turn_starts(deal, seed):
        cut = rnd.randint(0, len(plays) - 1)
        here = state.copy()
        for c, pile in plays[:cut]:
            here.play(c, pile)
        if here.over:
            continue
        res = decide(here, Limit(nodes=NODE_LIMIT))
        expect = any(
            (a.over and a.winner == here.current + 1) or (not a.over and not brute.wins(a))
            for a in engine_turn_results(here).values()
        )
        assert res.verdict == (Verdict.WIN if expect else Verdict.LOSS)
        final = here.copy()
        for t in res.turns:
            rest = t.plays[len(final.placed) :] if t is res.turns[0] else t.plays
            final = after_turn(final, [(q.card, q.pile) for q in rest])
        assert final.over and final.winner == res.winner


@settings(max_examples=examples(8), deadline=None)
@given(small_duels(), st.integers(0, 2**32 - 1))
def test_dropping_dominated_turns_keeps_every_win(deal: Deal, seed: int) -> None:
    # Along a random game, at each turn start: the mover wins through some
    # turn the dominance filter keeps exactly when they win through any turn
    # (the engine-only minimax judges each turn's position).
    game = DuelGame.of(deal)
    brute = EngineMinimax()
    for state, _played in turn_starts(deal, seed):
        pos = game.from_state(state)
        children = game.turns(pos)
        kept = {after for _plays, after in undominated(game, pos, children)}
        wins_all = wins_kept = False
        for plays, after in children:
            s = after_turn(state, plays)
            won = s.winner == state.current + 1 if s.over else not brute.wins(s)
            wins_all |= won
            wins_kept |= won and after in kept
        assert wins_all == wins_kept


@settings(max_examples=examples(40), deadline=None)
@given(
    st.integers(8, 10),
    st.integers(2, 4),
    st.randoms(use_true_random=False),
)
def test_a_pile_no_better_for_its_owner_never_helps_them(
    high: int, step: int, rnd: random.Random
) -> None:
    # The relation behind the dominance filter, pile by pile: along a random
    # duel with a short backward trick (D7), move one top to a value
    # ``takes_all_of`` calls no better for the pile's owner; by the engine-only
    # minimax, the owner never does better from there.
    rules = DUEL.with_changes(high=high, hand_sizes=(2, 2), step=step)
    decks = [rnd.sample(list(rules.cards), len(rules.cards)) for _ in range(2)]
    deal = Deal.create(rules, 2, decks, 1)
    game = DuelGame.of(deal)
    brute = EngineMinimax()
    state = GameState(deal)
    while not state.over:
        pos = game.from_state(state)
        pile = rnd.randrange(4)
        owner, asc = pile // 2, pile % 2 == 0
        un = _unplayed(game, pos, owner)
        top = state.tops[pile]
        for worse in range(0, high + 2):
            if worse != top and takes_all_of(asc, top, worse, step, un):
                moved = state.copy()
                moved.tops[pile] = worse
                mover_wins, moved_wins = brute.wins(state), brute.wins(moved)
                if owner == state.current:
                    assert mover_wins or not moved_wins
                else:
                    assert moved_wins or not mover_wins
        turns = list(engine_turn_results(state).values())
        state = rnd.choice(turns)


def test_bounds_end_branches_and_stay_sound() -> None:
    # The race bounds fire on small duels; the verdicts above cover their
    # soundness, and here they agree with the brute force with bounds counted.
    rnd = random.Random(3)
    cuts = 0
    for _ in range(12):
        deal = random_duel(rnd, rnd.randint(7, 10), 2)
        state = GameState(deal)
        game = DuelGame.of(deal)
        search = DuelSearch(game, NODE_LIMIT)
        got = search.wins(game.from_state(state))
        assert got == EngineMinimax().wins(state)
        cuts += search.stats.bound_cuts
    assert cuts > 0


def relaxed_race(game: DuelGame, q: int, pos: Pos) -> int:
    """The fewest turns in which player q plays every card while the
    opponent lays nothing on q's piles, from the rules alone (D2, D3, D5),
    relaxed: any one card a turn may leave q's hand onto the opponent's
    piles (in the game it must also improve one, D4). So it is at most the
    real number, and a sound floor is at most it."""
    turns = relaxed_brute(game, q, (pos[H0 + q], pos[P0 + q], pos[A0 + 2 * q], pos[D0 + 2 * q]))
    return INF if turns is None else turns


@settings(max_examples=examples(30), deadline=None)
@given(small_duels(minimax=False), st.integers(0, 2**32 - 1))
def test_the_floor_alone_is_sound(deal: Deal, seed: int) -> None:
    # ``alone_floor`` never exceeds the relaxed race at the turn starts of a
    # random duel, for either player.
    game = DuelGame.of(deal)
    for state, _plays in turn_starts(deal, seed):
        pos = game.from_state(state)
        for q in (0, 1):
            assert alone_floor(game, pos, q) <= relaxed_race(game, q, pos)


def test_the_floor_alone_counts_dead_cards() -> None:
    # Along random duels the dead cards often raise the floor above
    # ``fewest_turns``, and the floor then often equals the relaxed race.
    rnd = random.Random(11)
    raised = tight = 0
    for _ in range(30):
        deal = random_duel(rnd, rnd.randint(10, 16), rnd.randint(2, 4))
        game = DuelGame.of(deal)
        for state, _plays in turn_starts(deal, rnd.randrange(2**32)):
            pos = game.from_state(state)
            for q in (0, 1):
                floor = alone_floor(game, pos, q)
                low = fewest_turns(game, pos[H0 + q].bit_count(), game.stock_left(pos, q))
                raised += floor > low
                tight += floor == relaxed_race(game, q, pos) and floor > 1
    assert raised > 20 and tight > 20


def test_dominance_between_positions_keeps_every_value() -> None:
    # Every value the search stores, read from a dominating or dominated
    # position or searched, equals the value a search without that
    # dominance finds (itself checked against the minimax above), and the
    # dominance does fire.
    rnd = random.Random(5)
    read = 0
    for _ in range(10):
        deal = random_duel(rnd, rnd.randint(9, 12), 3)
        game = DuelGame.of(deal)
        search = DuelSearch(game, NODE_LIMIT)
        search.wins(game.start(1))
        read += search.stats.dominated
        plain = DuelSearch(game, NODE_LIMIT)
        plain.dominance = False
        for pos, value in search.tt.items():
            assert plain.wins(pos) == value
    assert read > 0


# -- hand-made duels ------------------------------------------------------------------


def test_hand_made_the_starter_plays_everything_at_once() -> None:
    # Cards 2..7, hand 6: both hold all their cards; whoever starts lays
    # 2..7 on their ascending pile and wins at once (D6).
    rules = DUEL.with_changes(high=7, hand_sizes=(6, 6))
    for first in (1, 2):
        deal = Deal.create(rules, 2, [[7, 6, 5, 4, 3, 2], [2, 4, 6, 3, 5, 7]], first)
        sol = solve_duel(deal, Limit(nodes=1000))
        (res,) = sol.results
        assert res.winner == first and res.verdict == Verdict.WIN
        assert len(res.turns) == 1 and len(res.turns[0].plays) == 6


def test_hand_made_the_starter_finishes_in_two_turns() -> None:
    # Cards 2..9, hand 6, player 1's deck in ascending order: 2..7 now, draw
    # 8 and 9, lay them next turn. Player 2 can neither finish in one turn
    # (8 cards, 6 in hand) nor stop it: a card on player 1's ascending pile
    # must be lower than 7 (D4), and 8 and 9 still go on it.
    rules = DUEL.with_changes(high=9, hand_sizes=(6, 6))
    deck = list(range(2, 10))
    deal = Deal.create(rules, 2, [deck, deck])
    sol = solve_duel(deal, Limit(nodes=100_000))
    assert [r.winner for r in sol.results] == [1, 2]  # each start: the starter wins
    assert [r.verdict for r in sol.results] == [Verdict.WIN, Verdict.WIN]
    for race in sol.races:
        assert race.turns == 2 and race.proven


def test_hand_made_a_player_who_cannot_play_two_cards_loses() -> None:
    # Cards 2..7, hand 3: player 2 will be stuck. Player 1 holds 2, 3, 4 and
    # then 5, 6, 7: ascending twice, always playable. Player 2's deck is
    # 7, 6, 5 then 4, 3, 2: after laying 5, 6, 7 on the ascending pile or
    # 7, 6, 5 on the descending pile, the last three never fit both.
    rules = DUEL.with_changes(high=7, hand_sizes=(3, 3))
    deal = Deal.create(rules, 2, [[2, 3, 4, 5, 6, 7], [7, 6, 5, 4, 3, 2]], 1)
    state = GameState(deal)
    expect = EngineMinimax().wins(state)
    res = decide(state, Limit(nodes=10_000))
    assert (res.verdict == Verdict.WIN) == expect
    assert res.winner == 1


def test_budget_gives_unknown_on_the_printed_game() -> None:
    deal = Deal.from_seed(1, DUEL, first=1)
    res = decide(GameState(deal), Limit(nodes=50))
    assert res.verdict == Verdict.UNKNOWN and res.winner is None and res.turns == []
    assert res.proof is None


@pytest.mark.parametrize("first", [1, 2])
def test_solution_json_shape(first: int) -> None:
    rules = DUEL.with_changes(high=9, hand_sizes=(6, 6))
    deal = Deal.create(rules, 2, [list(range(2, 10))] * 2, first)
    d = solve_duel(deal, Limit(nodes=10_000)).to_dict()
    assert set(d) >= {"variant", "first", "winner", "verdict", "proof", "turns", "stats", "race"}
    assert d["first"] == first and d["winner"] == first and d["verdict"] == "win"
    assert set(d["stats"]) >= {"nodes", "seconds"}


# -- the race alone -----------------------------------------------------------------


@settings(max_examples=examples(30), deadline=None)
@given(small_duels(minimax=False), st.integers(0, 2**32 - 1))
def test_race_alone_dead_card_cut_is_sound(deal: Deal, seed: int) -> None:
    # The race alone with the dead-card cut equals the plain exhaustive one,
    # and a finish it reports replays on the player's own piles: from the
    # deal and from the turn starts of a random duel (where a backward trick
    # onto a top can bring a card back to life).
    game = DuelGame.of(deal)
    positions = [game.start(1)]
    positions += [game.from_state(state) for state, _plays in turn_starts(deal, seed)]
    for pos in positions:
        for p in (0, 1):
            solo = solo_of(pos, p)
            cut = RaceSolver(game, p)
            got = cut.fewest(solo)
            assert got == _plain_fewest(game, p, solo, {})
            if got < INF:
                assert len(cut.line(solo)) == got
            assert got >= solo_floor(game, p, solo)


def _plain_fewest(game: DuelGame, p: int, solo: object, memo: dict[object, int]) -> int:
    if solo in memo:
        return memo[solo]
    best = INF
    for _plays, after in solo_turns(game, p, solo):  # type: ignore[arg-type]
        value = 1 if after is None else 1 + _plain_fewest(game, p, after, memo)
        best = min(best, value)
    memo[solo] = best
    return best
