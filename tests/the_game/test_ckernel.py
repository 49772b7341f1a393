"""The compiled kernel against the Python reference.

``CKernel`` and ``ckernel.search`` port ``Kernel`` and the searches over it
line by line, so the comparison is exact: the same moves in the same order,
the same memo keys, the same turn lists, and searches that visit the same
number of nodes and report the same line. Checked move by move along random
games and verdict by verdict on small hypothesis deals and seeded full
deals of every covered variant. Skipped where the extension is not built.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.brute import starts
from tests.support.deals import random_deal, small_deals
from tests.support.kernels import same_position, walk_kernels
from tests.support.the_game import examples
from thegame.models import Limit, Verdict
from thegame.models.outcome import Status
from thegame.models.the_game import Deal, GameState, get_rules, small_rules
from thegame.solver.the_game import api, backend, ckernel
from thegame.solver.the_game.beam import BRANCH, EXTRA
from thegame.solver.the_game.ckernel import BUILT, CKernel
from thegame.solver.the_game.dfs import Searcher, SearchResult
from thegame.solver.the_game.kernel import END, Kernel

pytestmark = pytest.mark.skipif(not BUILT, reason="the C extension is not built")


def same_turns(py: Kernel, c: CKernel) -> None:
    """The beam's turn lists (several players: the mover's turns, listed
    as with fire cards), and the complete one where it is cheap."""
    if py.t:
        return
    if py.fire or py.players != 1:
        assert c.fire_turns(BRANCH, py.turn_min + 1, EXTRA) == py.fire_turns(
            BRANCH, py.turn_min + 1, EXTRA
        )
    else:
        assert c.solo_turns(BRANCH, py.turn_min + 1, EXTRA) == py.solo_turns(
            BRANCH, py.turn_min + 1, EXTRA
        )
        assert c.solo_turns() == py.solo_turns()


def walk_both(deal: Deal, rng: random.Random, turns: bool = True) -> int:
    """A random game played on both kernels, compared after every action and
    after undoing it; returns the positions compared."""
    state = GameState(deal)

    def check(py: Kernel, c: CKernel) -> None:
        same_position(py, c)
        if turns:
            same_turns(py, c)

    def pick(moves: list[tuple[int, int, int]]) -> tuple[int, int, int]:
        return rng.choice(moves)

    return walk_kernels(
        Kernel(deal, state.first - 1), CKernel(deal, state.first - 1), rng, check, pick
    )


def python_search(kernel: Kernel, limit: Limit) -> SearchResult:
    return backend.searcher_of(kernel)(kernel, limit, None).run()


def same_search(state: GameState, nodes: int) -> SearchResult:
    """Both searches from ``state``: equal results, node counts, lines."""
    py = python_search(Kernel.from_state(state), Limit(nodes=nodes))
    c, _ = ckernel.search(Kernel.from_state(state), Limit(nodes=nodes), None)
    assert (c.win, c.proven, c.best_left) == (py.win, py.proven, py.best_left)
    assert c.stats == py.stats
    assert c.actions == py.actions
    return c


@settings(max_examples=examples(60), deadline=None)
@given(kind=st.integers(0, 5), seed=st.integers(0, 2**32 - 1))
def test_move_by_move(kind: int, seed: int) -> None:
    """Small plain and fire deals, and full classic, profi, on-fire and
    profi-hard deals of 1-5 players: random games, every position compared
    (full fire deals skip the beam's turn lists, slow in Python)."""
    rng = random.Random(seed)
    deal = random_deal(rng, kind)
    assert walk_both(deal, rng, turns=kind < 4 or deal.players > 1 or kind == 5) > 0


@settings(max_examples=examples(300), deadline=None)
@given(deal=small_deals() | small_deals(fire=True))
def test_verdicts_and_nodes_on_small_deals(deal: Deal) -> None:
    """Verdict by verdict and node by node on small deals (each start)."""
    for first in starts(deal):
        state = GameState(deal, first=first)
        if state.over:
            continue
        res = same_search(state, 200_000)
        assert res.proven


@settings(max_examples=examples(100), deadline=None)
@given(deal=small_deals(), nodes=st.integers(1, 400))
def test_node_budget_cuts_both_alike(deal: Deal, nodes: int) -> None:
    """A budget that runs out mid-search stops both at the same node, with
    the same best line so far."""
    state = GameState(deal)
    if not state.over:
        res = same_search(state, nodes)
        assert res.stats.nodes <= nodes


FULL = [
    ("classic", 1, range(1, 13), 30_000),
    ("classic", 2, range(1, 5), 20_000),
    ("classic", 3, range(1, 5), 20_000),
    ("classic", 5, range(1, 4), 20_000),
    ("profi", 1, range(1, 5), 10_000),
    ("on-fire", 1, range(1, 5), 10_000),
    ("on-fire", 3, range(1, 4), 10_000),
    ("profi-hard", 1, range(1, 3), 5_000),
]


@pytest.mark.parametrize(("variant", "players", "seeds", "nodes"), FULL)
def test_full_deals_node_for_node(variant: str, players: int, seeds: range, nodes: int) -> None:
    """Seeded full deals: the same nodes, verdict and line (a budget stops
    the undecided ones at the same node)."""
    for seed in seeds:
        same_search(GameState(Deal.from_seed(seed, get_rules(variant), players)), nodes)


@settings(max_examples=examples(25), deadline=None)
@given(
    variant=st.sampled_from(["classic", "profi", "on-fire", "profi-hard"]),
    players=st.integers(1, 5),
    seed=st.integers(0, 2**32 - 1),
    nodes=st.integers(1, 3_000),
)
def test_full_deals_drawn_by_hypothesis(variant: str, players: int, seed: int, nodes: int) -> None:
    """Full deals of every covered variant: the same nodes, verdict and line
    under a node budget drawn too (most stop mid-search, a few decide)."""
    same_search(GameState(Deal.from_seed(seed, get_rules(variant), players)), nodes)


# Words of the compiled memo key per game: the compact layout where it is
# shorter than a 128-bit mask per hand (``key_words`` in _ckernel.c).
KEY_WORDS = [
    ("profi-hard", 1, 2),
    ("classic", 1, 3),
    ("on-fire", 2, 3),
    ("profi-hard", 3, 3),
    ("classic", 5, 5),
]


@pytest.mark.parametrize(("variant", "players", "words"), KEY_WORDS)
def test_compiled_keys_are_equal_exactly_when_python_keys_are(
    variant: str, players: int, words: int
) -> None:
    """Random games on one full deal, each position's compiled key words
    beside its Python key: one maps to the other both ways (the games share
    the deck, so many positions differ in a hand or a top alone)."""
    rng = random.Random(players)
    deal = Deal.from_seed(7, get_rules(variant), players)
    to_words: dict[tuple[int, ...], tuple[int, ...]] = {}
    to_key: dict[tuple[int, ...], tuple[int, ...]] = {}

    def check(py: Kernel, c: CKernel) -> None:
        key, got = py.key(), c._key_words()
        assert len(got) == words
        assert to_words.setdefault(key, got) == got
        assert to_key.setdefault(got, key) == key

    def pick(moves: list[tuple[int, int, int]]) -> tuple[int, int, int]:
        return rng.choice(moves[:3])

    for _ in range(20):
        walk_kernels(Kernel(deal, 0), CKernel(deal, 0), rng, check, pick)
    assert len(to_words) > 400


@settings(max_examples=examples(300), deadline=None)
@given(
    variant=st.sampled_from(["classic", "profi-hard", "on-fire"]),
    players=st.integers(1, 5),
    data=st.data(),
)
def test_compiled_keys_tell_near_positions_apart(
    variant: str, players: int, data: st.DataObject
) -> None:
    """A position and the same position with one thing changed (a card of a
    hand, the draw position, the plays this turn, the player, a top, a fire
    mark): the compiled key words are equal exactly when the keys are."""
    c = CKernel(Deal.from_seed(1, get_rules(variant), players), 0)
    cards = st.integers(2, c.size - 2)
    tmax = max(c.hand_size, c.min_play, 3)

    def hand() -> int:
        got = data.draw(st.sets(cards, max_size=c.hand_size))
        return sum(1 << x for x in got)

    tops = [data.draw(st.integers(1, c.size - 1)) for _ in range(c.n_piles)]
    hands = [hand() for _ in range(players)]
    pos = data.draw(st.integers(0, c.total))
    cur = data.draw(st.integers(0, players - 1))
    t = data.draw(st.integers(0, tmax))

    def words_and_key(
        tops: list[int], hands: list[int], pos: int, cur: int, t: int, pending: int
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        un = 0
        for h in hands:
            un |= h
        for x in c.deck[pos:]:
            un |= 1 << x
        c._set_state(tops, hands, pos, un, cur, t, pending, c.turn_min, c.max_turn)
        return c._key_words(), c.key()

    before = words_and_key(tops, hands, pos, cur, t, 0)
    what = data.draw(st.integers(0, 5))
    tops, hands, pending = list(tops), list(hands), 0
    if what == 0:
        p = data.draw(st.integers(0, players - 1))
        held = [x for x in range(c.size) if hands[p] >> x & 1]
        if held:
            hands[p] &= ~(1 << data.draw(st.sampled_from(held)))
        hands[p] |= 1 << data.draw(cards)
    elif what == 1:
        pos = data.draw(st.integers(0, c.total))
    elif what == 2:
        t = data.draw(st.integers(0, tmax))
    elif what == 3:
        cur = data.draw(st.integers(0, players - 1))
    elif what == 4:
        tops[data.draw(st.integers(0, c.n_piles - 1))] = data.draw(st.integers(1, c.size - 1))
    elif c.fire:
        pending = data.draw(st.integers(0, (1 << c.n_piles) - 1))
    after = words_and_key(tops, hands, pos, cur, t, pending)
    assert (before[0] == after[0]) == (before[1] == after[1])
    for words, key in (before, after):
        assert read_compact_key(c, words) == (key[-1], key[-2], key[-3], key[c.n_piles : -3])


def read_compact_key(c: CKernel, words: tuple[int, ...]) -> tuple[int, int, int, tuple[int, ...]]:
    """The turn count, player, draw position and hands a compact key holds,
    read back as its layout says (``key_words`` in _ckernel.c)."""
    stream = sum(w << (64 * i) for i, w in enumerate(words[1:]))

    def take(bits: int) -> int:
        nonlocal stream
        got = stream & ((1 << bits) - 1)
        stream >>= bits
        return got

    t = take(max(c.hand_size, c.min_play, 3).bit_length())
    cur = take((c.players - 1).bit_length())
    pos = take(c.total.bit_length())
    hands = []
    for _ in range(c.players):
        held = [take(7) for _ in range(c.hand_size)]
        hands.append(sum(1 << x for x in held if x != 127))
    assert stream == 0
    return t, cur, pos, tuple(hands)


def test_a_hand_over_the_hand_size_is_refused() -> None:
    """The compact key holds at most the hand size per hand."""
    c = CKernel(Deal.from_seed(1, get_rules("classic")), 0)
    with pytest.raises(ValueError, match="hand size"):
        nine = c.hands[0] | 1 << c.deck[-1]  # a card still in the draw pile
        c._set_state(c.tops, [nine], c.pos, c.unplayed, 0, 0, 0, c.turn_min, c.max_turn)


TIGHT = small_rules(high=30, hand=3, step=7)
TIGHT_FIRE = get_rules("on-fire").with_changes(
    high=30,
    asc_piles=1,
    desc_piles=1,
    hand_sizes=(3,) * 5,
    step=7,
    fire_cards=frozenset({9, 18, 27}),
)


@pytest.mark.parametrize(
    "deal",
    [Deal.from_seed(2, TIGHT), Deal.from_seed(6, TIGHT, 2), Deal.from_seed(6, TIGHT_FIRE, 2)],
)
def test_dead_positions_are_the_python_searchs(deal: Deal) -> None:
    """The compiled search's dead set answers the Python memo keys (pending
    fire marks too): every position the Python search proved dead, and as
    many of them."""
    state = GameState(deal)
    kernel = Kernel.from_state(state)
    searcher = backend.searcher_of(kernel)(kernel, Limit(nodes=200_000), None)
    py = searcher.run()
    c, dead = ckernel.search(Kernel.from_state(state), Limit(nodes=200_000), None)
    assert py.proven and c.stats == py.stats
    assert searcher.dead and all(key in dead for key in searcher.dead)
    assert len(dead) == len(searcher.dead)  # type: ignore[arg-type]
    assert (1, 2, 3) not in dead  # not a key of this game


def lost_deal(seed: int) -> Deal:
    """Cards 2..50, one pile each way, hand 4: lost for seeds 1-2, with
    proofs of some 10^5 nodes (the loss-argument benchmark's ``lost-50``)."""
    rules = get_rules("classic").with_changes(
        high=50, hand_sizes=(4,) * 5, min_play=2, asc_piles=1, desc_piles=1
    )
    deck = list(rules.cards)
    random.Random(seed).shuffle(deck)
    return Deal.create(rules, 1, [deck], first=1)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_full_memo_keeps_the_costly_proofs(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a memo of a few thousand positions the search still ends with
    the same proof and the same best line length: the full table takes new
    keys in place of cheaper proofs (``tab_keep``), soundly."""
    state = GameState(lost_deal(seed))
    roomy, _ = ckernel.search(Kernel.from_state(state), Limit(nodes=5_000_000), None)
    monkeypatch.setattr(ckernel, "MEMO_BYTES", 1 << 17)
    tight, dead = ckernel.search(Kernel.from_state(state), Limit(nodes=5_000_000), None)
    assert roomy.proven and not roomy.win
    assert (tight.proven, tight.win, tight.best_left) == (True, False, roomy.best_left)
    assert dead.replaced > 0 and len(dead) < roomy.stats.dead_positions  # type: ignore[arg-type]


def test_the_memory_budget_sizes_the_tables() -> None:
    """``Limit.memory`` is what the compiled tables get: with 1 MiB the dead
    table of this proof is full (it keeps 14,745 of its 24,507 positions,
    putting cheaper proofs out), with 4 MiB it holds them all (the same
    search as with the default); the proof is the same either way."""
    state = GameState(lost_deal(1))
    default, _ = ckernel.search(Kernel.from_state(state), Limit(nodes=5_000_000), None)
    tight, dead = ckernel.search(Kernel.from_state(state), Limit(nodes=5_000_000, memory=1), None)
    roomy, kept = ckernel.search(Kernel.from_state(state), Limit(nodes=5_000_000, memory=4), None)
    assert (tight.proven, tight.win, tight.best_left) == (True, False, default.best_left)
    assert dead.replaced > 0 and len(dead) < default.stats.dead_positions  # type: ignore[attr-defined, arg-type]
    assert kept.replaced == 0 and roomy.stats == default.stats  # type: ignore[attr-defined]


def test_the_last_iteration_gives_the_tried_tables_room_to_the_chains() -> None:
    """The unlimited iteration asks the tried table nothing, so its quarter
    of the budget goes to the chains of dominance. With 1 MiB the chains
    hold 2^13 positions before (an eighth of the budget at 12 bytes an
    entry) and 21,845 more after: all 24,507 dead positions of this proof.
    So dominance (equal tops included) answers what the full dead table put
    out, and the search takes exactly the default's nodes."""
    state = GameState(lost_deal(1))
    default, _ = ckernel.search(Kernel.from_state(state), Limit(nodes=5_000_000), None)
    tight, dead = ckernel.search(Kernel.from_state(state), Limit(nodes=5_000_000, memory=1), None)
    assert (tight.proven, tight.win, tight.best_left) == (True, False, default.best_left)
    assert dead.replaced > 0  # type: ignore[attr-defined]  # the dead table is full,
    assert dead.chained == default.stats.dead_positions > 1 << 13  # type: ignore[attr-defined]
    assert tight.stats.nodes == default.stats.nodes


def test_a_search_without_a_node_budget_has_no_node_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without ``Limit.nodes`` only the clock stops a search: the budget
    handed to the compiled search has no node limit (and the Python one's
    is out of reach), not ``kernel.INF`` (2^30 nodes: some 18 minutes of a
    compiled search)."""
    k = Kernel.from_state(GameState(Deal.from_seed(1, get_rules("profi-hard"))))
    assert Searcher(k, Limit(60), None).node_limit >= 1 << 62
    handed: list[ckernel.CBudget] = []
    real = CKernel._search

    def spy(self: CKernel, *args: Any, **kwargs: Any) -> Any:
        handed.append(args[6])
        return real(self, *args, **kwargs)

    monkeypatch.setattr(CKernel, "_search", spy)
    res, _ = ckernel.search(k, Limit(60, memory=64), 1e12)
    assert res.win and handed[0][:3] == (None, 1e12, 64 << 20)
    ckernel.search(k, Limit(60, 12_345), None)
    assert handed[-1][0] == 12_345


def test_search_position_uses_the_compiled_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Same verdicts and lines through ``search_position`` either way;
    ``THEGAME_KERNEL=python`` forces the reference."""
    states = [GameState(Deal.from_seed(s, get_rules("classic"))) for s in (1, 2)]
    states.append(GameState(Deal.from_seed(2, TIGHT)))
    compiled = [api.search_position(s, Limit(nodes=50_000)) for s in states]
    assert ckernel.use_compiled(Kernel.from_state(states[0]))
    monkeypatch.setenv("THEGAME_KERNEL", "python")
    assert not ckernel.use_compiled(Kernel.from_state(states[0]))
    assert "python" in ckernel.kernel_name()
    reference = [api.search_position(s, Limit(nodes=50_000)) for s in states]
    for a, b in zip(compiled, reference, strict=True):
        assert (a.verdict, a.actions, a.cards_left, a.lower_bound) == (
            b.verdict,
            b.actions,
            b.cards_left,
            b.lower_bound,
        )
        assert a.stats == b.stats and a.opt_nodes == b.opt_nodes
    assert compiled[0].verdict == Verdict.WIN and compiled[2].verdict == Verdict.LOSS


def test_the_winning_line_replays() -> None:
    sol = api.solve(Deal.from_seed(3, get_rules("classic")), Limit(nodes=100_000))
    assert sol.verdict == Verdict.WIN
    _, final = api.replay_actions(GameState(sol.deal, first=sol.first), sol.actions())
    assert final.status == Status.WON


def test_deadline_and_progress() -> None:
    """The time budget stops the search (checked every 64 nodes, as in
    Python); the progress callback hears the node counts and may stop it."""
    # profi-hard seed 108: undecided even after 150 s
    state = GameState(Deal.from_seed(108, get_rules("profi-hard")))
    start = time.monotonic()
    res, _ = ckernel.search(Kernel.from_state(state), Limit(), start + 0.2)
    assert not res.proven and time.monotonic() - start < 2.0
    heard: list[int] = []
    res, _ = ckernel.search(
        Kernel.from_state(state), Limit(nodes=1000, progress=heard.append), None
    )
    assert heard == list(range(64, 1000, 64)) and res.stats.nodes == 1000

    def stop(nodes: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        ckernel.search(Kernel.from_state(state), Limit(progress=stop), None)


def test_the_kernel_does_not_move() -> None:
    state = GameState(Deal.from_seed(5, get_rules("classic"), 2))
    kernel = Kernel.from_state(state)
    before = kernel.snapshot()
    ckernel.search(kernel, Limit(nodes=5_000), None)
    assert kernel.snapshot() == before


def test_coverage() -> None:
    """Cards must fit the 128-bit masks; what does not runs in Python."""
    assert ckernel.covers(get_rules("classic"), 5)
    big = small_rules(high=140)
    assert not ckernel.covers(big, 1)
    kernel = Kernel(Deal.from_seed(1, big), 0)
    assert not ckernel.use_compiled(kernel)
    with pytest.raises(ValueError):
        CKernel.of(kernel)
    # Extreme runs in C too (extreme/test_ckernel.py), not mixed with fire cards.
    assert ckernel.covers(get_rules("extreme"), 1)
    assert not ckernel.covers(get_rules("extreme").with_changes(fire_cards=frozenset({22})), 1)


def test_undo_lines_are_kernel_actions() -> None:
    """A line from the compiled search is a list of (card, pile) and END."""
    res, _ = ckernel.search(
        Kernel.from_state(GameState(Deal.from_seed(2, get_rules("classic")))), Limit(), None
    )
    assert res.win and res.actions[-1] == END
    assert all(isinstance(a, tuple) and len(a) == 2 for a in res.actions)


@pytest.mark.parametrize(
    "deal",
    [
        Deal.from_text(
            "classic 1p first=1 high=20 asc_piles=1 desc_piles=1 hand_sizes=3,3,3,3,3 : "
            "12 16 18 19 10 5 6 17 7 14 11 13 3 20 2 8 4 15 9"
        ),
        # the quick search leaves positions undecided: the shared memo is used
        Deal.from_seed(7, small_rules(high=40, asc_piles=2, desc_piles=1, hand=4, step=7)),
    ],
)
def test_puzzle_rating_is_the_same(deal: Deal, monkeypatch: pytest.MonkeyPatch) -> None:
    """The puzzle rating's searches (play level, dead turn-start positions
    shared between the searches of a deal) give the same rating and node
    counts on either kernel."""
    from thegame.puzzles.the_game.rating import Oracle, rate

    state = GameState(deal)
    c_oracle = Oracle()
    compiled = rate(state, c_oracle)
    assert not c_oracle.dead  # the compiled searches keep theirs in c_dead
    monkeypatch.setenv("THEGAME_KERNEL", "python")
    py_oracle = Oracle()
    reference = rate(state, py_oracle)
    assert compiled == reference
    assert c_oracle.nodes == py_oracle.nodes
    assert len(c_oracle.c_dead or ()) == len(py_oracle.dead)
    assert deal.rules.high == 20 or len(py_oracle.dead) > 100


def test_search_settings_by_keyword_are_the_positional_ones() -> None:
    """``Core._search`` reads its settings by name as by position."""
    kernel = Kernel.from_state(GameState(Deal.from_seed(3, get_rules("classic"), 1)))
    budget = (3000, None, 1 << 24, None)
    args = (ckernel.TURN, (64,), BRANCH, 8, EXTRA, ckernel.INF, budget)
    names = ("mode", "beam_widths", "branch", "per_parent", "extra_cost", "endgame", "budget")
    by_position = CKernel.of(kernel)._search(*args)
    by_name = CKernel.of(kernel)._search(**dict(zip(names, args, strict=True)))
    assert by_position[:10] == by_name[:10]
    assert 0 < by_position[4] <= 3000
    with pytest.raises(TypeError):
        CKernel.of(kernel)._search(*args, colour=1)  # type: ignore[call-arg]
    for bad in ((3000, None, 1 << 24), [3000, None, 1 << 24, None], (3000, None, -1, None)):
        with pytest.raises((TypeError, ValueError)):
            CKernel.of(kernel)._search(*args[:6], bad)  # type: ignore[arg-type]


def test_every_stub_is_package_data() -> None:
    """Each extension's ``.pyi`` ships with the package (pyproject.toml)."""
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    data = tomllib.loads((root / "pyproject.toml").read_text())
    listed = set(data["tool"]["setuptools"]["package-data"]["thegame"])
    stubs = {p.relative_to(root / "thegame").as_posix() for p in root.glob("thegame/**/*.pyi")}
    assert {"solver/the_game/_ckernel.pyi", "analysis/the_game/_crollout.pyi"} <= stubs
    assert stubs <= listed
