"""The compiled kernel on The Game: Extreme (rules X) against the Python
reference, ``ExtremeKernel`` and ``ExtremeBeamSearcher``.

As in ``the_game/test_ckernel.py`` the comparison is exact: along random games every
observable of the two kernels agrees (moves, keys, dead masks, the turn
lists of the beam), and the searches visit the same nodes and report the
same verdicts and lines, on small generalised Extreme deals (rule X6: any
number of each command, here 0-2, with 1-2 piles each way) and on seeded
printed deals of 1-5 players under a node budget. Skipped where the
extension is not built.
"""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support import DATA
from tests.support.brute import starts
from tests.support.deals import small_extreme_deals
from tests.support.kernels import engine_paths, kernel_paths, same_position, walk_kernels
from tests.support.the_game import examples, step_along
from thegame.models import Limit, Verdict
from thegame.models.outcome import Status
from thegame.models.the_game import COMMAND_KINDS, Deal, GameState, get_rules
from thegame.solver.the_game import api, backend, ckernel
from thegame.solver.the_game.ckernel import BUILT, CKernel
from thegame.solver.the_game.dfs import Searcher, SearchResult
from thegame.solver.the_game.extreme import beam as extreme_beam
from thegame.solver.the_game.extreme.kernel import ExtremeKernel
from thegame.solver.the_game.kernel import END, INF, Kernel

pytestmark = pytest.mark.skipif(not BUILT, reason="the C extension is not built")

EXTREME = get_rules("extreme")


def xk(state: GameState) -> ExtremeKernel:
    k = ExtremeKernel.from_state(state)
    assert isinstance(k, ExtremeKernel)
    return k


def random_small_extreme(rng: random.Random) -> Deal:
    """A small generalised Extreme deal (X6): 1-2 piles each way, 0-2 of
    each command, 1-3 players, a Profi-like minimum sometimes."""
    players = rng.randint(1, 3)
    hand = rng.randint(3, 4)
    high = rng.randint(max(16, players * hand + 4), 30)
    rules = EXTREME.with_changes(
        high=high,
        asc_piles=rng.randint(1, 2),
        desc_piles=rng.randint(1, 2),
        hand_sizes=(hand,) * 5,
        step=rng.choice([3, 5, 7, 10]),
        min_play=rng.choice([2, 2, 3]),
    )
    deck = list(rules.cards)
    rng.shuffle(deck)
    marked = rng.sample(list(rules.cards), 14)
    commands: dict[int, str] = {}
    for kind in COMMAND_KINDS:
        for _ in range(rng.randint(0, 2)):
            commands[marked.pop()] = kind
    return Deal.create(rules, players, [deck], rng.randint(1, players), commands)


def random_extreme(rng: random.Random, full: bool) -> Deal:
    if full:
        players = rng.randint(1, 5)
        return Deal.from_seed(rng.randrange(2**32), EXTREME, players, rng.randint(1, players))
    return random_small_extreme(rng)


def same_extreme(py: ExtremeKernel, c: CKernel, complete_turns: bool) -> None:
    """Every observable, the draw after the turn (X4c) and the beam's turn
    lists (the complete list too where it is cheap)."""
    same_position(py, c)
    hand = py.hands[py.cur]
    assert c.draw_need(hand) == py.draw_need(hand)
    b, e = extreme_beam.BRANCH, extreme_beam.EXTRA
    assert c.extreme_turns(b, py.turn_min + 1, e) == py.extreme_turns(b, py.turn_min + 1, e)
    if complete_turns:
        assert c.extreme_turns() == py.extreme_turns()


def walk_both(deal: Deal, rng: random.Random, complete_turns: bool) -> int:
    """A random game on both kernels, compared after every action and after
    undoing it; returns the positions compared."""
    state = GameState(deal)
    py = ExtremeKernel(deal, state.first - 1)
    c = CKernel.of(ExtremeKernel(deal, state.first - 1))
    assert c.extreme

    def pick(moves: list[tuple[int, int, int]]) -> tuple[int, int, int]:
        # Mostly among the best few moves, so that games last (random
        # plays break on the commands' traps within a few turns).
        if rng.random() < 0.8:
            return moves[rng.randrange(min(3, len(moves)))]
        return moves[rng.randrange(len(moves))]

    return walk_kernels(py, c, rng, lambda p, k: same_extreme(p, k, complete_turns), pick)


@settings(max_examples=examples(60), deadline=None)
@given(full=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_move_by_move(full: bool, seed: int) -> None:
    """Small generalised and full printed Extreme deals of 1-5 players:
    random games, every position compared."""
    rng = random.Random(seed)
    assert walk_both(random_extreme(rng, full), rng, complete_turns=not full) > 0


def test_move_by_move_many_games() -> None:
    """Seeded: enough games that every command shows up in play."""
    rng = random.Random(2026)
    positions = 0
    for n in range(40):
        positions += walk_both(random_extreme(rng, n % 4 == 0), rng, complete_turns=n % 4 != 0)
    assert positions > 400


def walk_line(deal: Deal, line: list[tuple[int, int]]) -> int:
    """Along a search's line (long games, unlike random ones): every
    position compared, and after each move the kernel could make there."""
    first = deal.first - 1 if deal.first is not None else 0
    py = ExtremeKernel(deal, first)
    c = CKernel.of(ExtremeKernel(deal, first))
    seen = 0
    for action in line:
        same_extreme(py, c, complete_turns=False)
        for _, card, pile in py.moves():
            saved_p, saved_c = py.play(card, pile), c.play(card, pile)
            same_position(py, c)
            py.unplay(card, pile, saved_p)
            c.unplay(card, pile, saved_c)
        seen += 1
        if action == END:
            if py.won():
                break
            py.end_turn()
            c.end_turn()
        else:
            py.play(*action)
            c.play(*action)
    same_position(py, c)
    return seen


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_along_search_lines(players: int) -> None:
    """Printed deals, along the compiled search's line (a win, or the best
    line found within the budget)."""
    seen = 0
    for seed in range(1, 4):
        deal = Deal.from_seed(seed, EXTREME, players, 1)
        res, _ = ckernel.search(xk(GameState(deal)), Limit(nodes=20_000), None)
        seen += walk_line(deal, res.actions)
    assert seen > 100


def test_mid_turn_positions() -> None:
    """A kernel taken from a position inside a turn (``from_state``: the
    turn state rebuilt from this turn's plays) is the same in C."""
    rng = random.Random(5)
    checked = 0
    for seed in range(1, 30):
        deal = Deal.from_seed(seed, EXTREME, rng.randint(1, 3), 1)
        state = GameState(deal)
        for _ in range(rng.randint(0, 12)):
            plays = state.legal_plays()
            if state.placed and state.can_end_turn() and (not plays or rng.random() < 0.3):
                state.end_turn()
            elif plays:
                p = rng.choice(plays)
                state.play(p.card, p.pile)
            if state.over:
                break
        if state.over:
            continue
        same_extreme(xk(state), CKernel.from_state(state), complete_turns=False)
        checked += 1
    assert checked > 20


def python_search(kernel: ExtremeKernel, limit: Limit) -> SearchResult:
    assert backend.searcher_of(kernel) is extreme_beam.ExtremeBeamSearcher
    return extreme_beam.ExtremeBeamSearcher(kernel, limit, None).run()


def same_search(state: GameState, nodes: int) -> SearchResult:
    """Both searches from ``state``: equal results, node counts, lines."""
    py = python_search(xk(state), Limit(nodes=nodes))
    kernel = ExtremeKernel.from_state(state)
    assert ckernel.use_compiled(kernel)
    c, _ = ckernel.search(kernel, Limit(nodes=nodes), None)
    assert (c.win, c.proven, c.best_left) == (py.win, py.proven, py.best_left)
    assert c.stats == py.stats
    assert c.actions == py.actions
    return c


@settings(max_examples=examples(150), deadline=None)
@given(deal=small_extreme_deals() | small_extreme_deals(players=(2, 3)))
def test_verdicts_and_nodes_on_small_deals(deal: Deal) -> None:
    """Verdict by verdict and node by node on small deals (each start)."""
    for first in starts(deal):
        state = GameState(deal, first=first)
        if state.over:
            continue
        res = same_search(state, 200_000)
        assert res.proven


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), nodes=st.integers(1, 2_000))
def test_node_budget_cuts_both_alike(seed: int, nodes: int) -> None:
    """A budget that runs out mid-search (in the beam or in the play-level
    search) stops both at the same node, with the same best line so far."""
    deal = random_small_extreme(random.Random(seed))
    state = GameState(deal)
    if not state.over:
        res = same_search(state, nodes)
        assert res.stats.nodes <= nodes


FULL = [(1, range(1, 7), 20_000), (2, range(1, 4), 10_000), (3, range(1, 4), 10_000)]
FULL += [(4, range(1, 3), 10_000), (5, range(1, 3), 10_000)]


@pytest.mark.parametrize(("players", "seeds", "nodes"), FULL)
def test_full_deals_node_for_node(players: int, seeds: range, nodes: int) -> None:
    """Seeded printed deals: the same nodes, verdict and line (a budget
    stops the undecided ones at the same node)."""
    for seed in seeds:
        same_search(GameState(Deal.from_seed(seed, EXTREME, players, 1)), nodes)


@settings(max_examples=examples(15), deadline=None)
@given(
    players=st.integers(1, 5),
    seed=st.integers(0, 2**32 - 1),
    nodes=st.integers(1, 3_000),
)
def test_full_deals_drawn_by_hypothesis(players: int, seed: int, nodes: int) -> None:
    same_search(GameState(Deal.from_seed(seed, EXTREME, players, 1)), nodes)


def small_losses() -> list[Deal]:
    """Small Extreme deals without a perfect clear (the branch and bound runs)."""
    rules = EXTREME.with_changes(high=24, asc_piles=1, desc_piles=1, hand_sizes=(4,) * 5)
    out = []
    for seed in range(1, 60):
        deal = Deal.from_seed(seed, rules, 1 + seed % 2, 1)
        if not python_search(xk(GameState(deal)), Limit(nodes=50_000)).win:
            out.append(deal)
        if len(out) == 4:
            break
    return out


def test_search_position_uses_the_compiled_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Same verdicts, lines, proven fewest cards left (the branch and bound
    over ``CKernel.of(ExtremeKernel)``) through ``search_position`` either
    way; ``THEGAME_KERNEL=python`` forces the reference."""
    states = [GameState(Deal.from_seed(s, EXTREME, 1, 1)) for s in (1, 3)]
    states += [GameState(d) for d in small_losses()]
    assert len(states) == 6
    assert ckernel.use_compiled(api.kernel_of(states[0]))
    compiled = [api.search_position(s, Limit(nodes=100_000)) for s in states]
    monkeypatch.setenv("THEGAME_KERNEL", "python")
    assert not ckernel.use_compiled(api.kernel_of(states[0]))
    reference = [api.search_position(s, Limit(nodes=100_000)) for s in states]
    for a, b in zip(compiled, reference, strict=True):
        assert (a.verdict, a.actions, a.cards_left, a.lower_bound, a.optimal) == (
            b.verdict,
            b.actions,
            b.cards_left,
            b.lower_bound,
            b.optimal,
        )
        assert a.stats == b.stats and a.opt_nodes == b.opt_nodes
    assert [r.verdict for r in compiled[:2]] == [Verdict.WIN, Verdict.WIN]
    assert all(r.verdict == Verdict.LOSS and r.optimal for r in compiled[2:])
    assert any(r.opt_nodes > 0 for r in compiled[2:])


def test_solve_mid_turn_record(monkeypatch: pytest.MonkeyPatch) -> None:
    """Solving on from inside a turn (a stop or three already played this
    turn is turn state) agrees with the reference."""
    rng = random.Random(1)
    checked = 0
    for seed in range(1, 8):
        state = GameState(Deal.from_seed(seed, EXTREME, 2, 1))
        for _ in range(rng.randint(1, 2)):
            plays = state.legal_plays()
            if plays and not state.over:
                p = rng.choice(plays)
                state.play(p.card, p.pile)
        if state.over:
            continue
        a = api.search_position(state, Limit(nodes=20_000))
        with monkeypatch.context() as m:
            m.setenv("THEGAME_KERNEL", "python")
            b = api.search_position(state, Limit(nodes=20_000))
        assert (a.verdict, a.actions, a.cards_left, a.stats) == (
            b.verdict,
            b.actions,
            b.cards_left,
            b.stats,
        )
        checked += 1
    assert checked >= 5


def test_dead_positions_are_the_python_searchs() -> None:
    """The compiled search's dead set answers the Python Extreme memo keys
    (turn marks and stop/three flags too), every one the Python search
    proved dead, and as many."""
    for deal in small_losses()[:2]:
        state = GameState(deal)
        searcher = extreme_beam.ExtremeBeamSearcher(xk(state), Limit(nodes=200_000), None)
        py = searcher.run()
        c, dead = ckernel.search(ExtremeKernel.from_state(state), Limit(nodes=200_000), None)
        assert py.proven and c.stats == py.stats
        assert searcher.dead and all(key in dead for key in searcher.dead)
        assert len(dead) == len(searcher.dead)  # type: ignore[arg-type]
        assert (1, 2, 3) not in dead


def test_play_level_search_and_a_shared_dead_set() -> None:
    """``play_level``: the plain ``Searcher`` over the Extreme kernel, node
    for node. With a shared ``DeadSet`` every dead position goes there
    (Extreme has no turn cap), as the puzzle rating's Python search shares
    them all in a plain set; a second search reuses them alike."""
    for deal in small_losses()[:2]:
        state = GameState(deal)
        py_dead: set[tuple[int, ...]] = set()
        shared = ckernel.new_dead_set(xk(state))
        for _ in range(2):
            searcher = Searcher(xk(state), Limit(nodes=100_000), None)
            searcher.dead = py_dead
            py = searcher.run()
            c, _ = ckernel.search(xk(state), Limit(nodes=100_000), None, True, shared)
            assert (c.win, c.proven, c.actions) == (py.win, py.proven, py.actions)
            assert (c.stats.nodes, c.stats.dead_card_cuts) == (
                py.stats.nodes,
                py.stats.dead_card_cuts,
            )
            assert c.stats.dead_positions == 0  # none kept apart from the shared set
            assert py_dead and all(key in shared for key in py_dead)
            assert len(shared) == len(py_dead)
    with pytest.raises(ValueError):  # a classic shared set is of another game shape
        classic = Kernel(Deal.from_seed(1, get_rules("classic")), 0)
        ckernel.search(
            xk(GameState(Deal.from_seed(1, EXTREME))),
            Limit(nodes=10),
            None,
            True,
            ckernel.new_dead_set(classic),
        )


def test_puzzle_rating_is_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Extreme puzzle rating (quick searches, then play-level searches
    sharing the dead positions) gives the same rating, node count and dead
    set on either kernel: a position of the stored seed-15 puzzle's policy
    path, 27 cards left."""
    from thegame.puzzles.the_game.files import Puzzle
    from thegame.puzzles.the_game.make import candidates
    from thegame.puzzles.the_game.rating import Oracle, rate

    puzzle = Puzzle.from_json((DATA / "puzzles" / "extreme-15.json").read_text())
    state = next(s for s, _ in candidates(puzzle.deal, 12, 36) if s.cards_left() == 27)
    c_oracle = Oracle()
    compiled = rate(state, c_oracle)
    monkeypatch.setenv("THEGAME_KERNEL", "python")
    py_oracle = Oracle()
    reference = rate(state, py_oracle)
    assert compiled is not None and compiled == reference
    assert c_oracle.nodes == py_oracle.nodes
    assert not c_oracle.dead and len(c_oracle.c_dead or ()) == len(py_oracle.dead) > 1000


def test_the_winning_line_replays() -> None:
    for seed, players in ((1, 1), (2, 3)):
        sol = api.solve(Deal.from_seed(seed, EXTREME, players, 1), Limit(nodes=100_000))
        assert sol.verdict == Verdict.WIN
        _, final = api.replay_actions(GameState(sol.deal, first=sol.first), sol.actions())
        assert final.status == Status.WON


def test_deadline_and_progress() -> None:
    """Time budget, progress callback and Ctrl-C (the tick) as in classic."""
    state = GameState(Deal.from_seed(2, EXTREME, 3, 1))
    start = time.monotonic()
    res, _ = ckernel.search(ExtremeKernel.from_state(state), Limit(), start + 0.2)
    assert time.monotonic() - start < 2.0
    heard: list[int] = []
    res, _ = ckernel.search(
        ExtremeKernel.from_state(state), Limit(nodes=1000, progress=heard.append), None
    )
    assert heard == list(range(64, 1000, 64)) and res.stats.nodes == 1000

    def stop(nodes: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        ckernel.search(ExtremeKernel.from_state(state), Limit(progress=stop), None)


def test_the_kernel_does_not_move() -> None:
    kernel = ExtremeKernel.from_state(GameState(Deal.from_seed(5, EXTREME, 2, 1)))
    before = kernel.snapshot()
    ckernel.search(kernel, Limit(nodes=5_000), None)
    assert kernel.snapshot() == before


def test_coverage() -> None:
    """Extreme is covered without fire cards; with them it is not modelled."""
    assert ckernel.covers(EXTREME, 5)
    assert not ckernel.covers(EXTREME.with_changes(fire_cards=frozenset({22})), 1)
    kernel = ExtremeKernel(Deal.from_seed(1, EXTREME), 0)
    assert ckernel.use_compiled(kernel)
    assert CKernel(Deal.from_seed(1, EXTREME), 0).extreme
    classic = CKernel(Deal.from_seed(1, get_rules("classic")), 0)
    assert not classic.extreme
    with pytest.raises(ValueError):
        classic.extreme_turns()
    assert "Extreme" in ckernel.kernel_name()


@pytest.mark.parametrize("players", [1, 2])
def test_perft_matches_the_engine(players: int) -> None:
    """The compiled Extreme kernel's legal plays and turn ends are the
    engine's (as the perft of the Python kernel in extreme/test_solver.py)."""
    rules = EXTREME.with_changes(high=40, asc_piles=1, desc_piles=1, hand_sizes=(4,) * 5)
    deal = Deal.from_seed(2 if players == 1 else 5, rules, players)
    state = GameState(deal)
    k = CKernel(deal, state.first - 1)
    for d in range(7):
        assert kernel_paths(k, d) == engine_paths(state, d), f"perft {d}"


def test_moves_match_the_engine() -> None:
    """Along games, ``legal_plays`` is the engine's and the turn may end
    exactly when the engine lets it (commands kept)."""
    steps = 0
    for seed in range(1, 11):
        rules = EXTREME.with_changes(high=40, asc_piles=2, desc_piles=1)
        state = GameState(Deal.from_seed(seed, rules, 1 + seed % 3, 1))
        while not state.over:
            steps += 1
            k = CKernel.from_state(state)
            engine = sorted((p.card, p.pile) for p in state.legal_plays())
            assert k.legal_plays() == engine
            assert {(c, p) for _, c, p in k.moves()} <= set(engine)
            assert k.can_end() == (bool(state.placed) and state.can_end_turn())
            if not step_along(state, steps):
                break
    assert steps > 50


def test_extreme_lines_are_kernel_actions() -> None:
    res, _ = ckernel.search(
        ExtremeKernel.from_state(GameState(Deal.from_seed(1, EXTREME, 1, 1))), Limit(), None
    )
    assert res.win and res.actions[-1] == END


def test_the_beams_endgame_allowance_node_for_node(monkeypatch: pytest.MonkeyPatch) -> None:
    """With several players the beam's endgame search gets
    ``ENDGAME_ALLOWANCE`` discrepancies (the C search takes it as an
    argument): for each allowance both kernels search alike, and the
    allowance does change the search (5 players seed 87 wins after about
    2,000 nodes with 1, far later with a complete endgame)."""
    state = GameState(Deal.from_seed(87, EXTREME, 5, 1))
    nodes: dict[int, int] = {}
    for allowance in (0, 1, 3, INF):
        monkeypatch.setattr(extreme_beam, "ENDGAME_ALLOWANCE", allowance)
        res = same_search(state, 60_000)
        nodes[allowance] = res.stats.nodes
    assert nodes[1] < 10_000 and nodes[INF] > nodes[1]
