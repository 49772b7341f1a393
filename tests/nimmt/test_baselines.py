"""The published Monte-Carlo baselines follow their descriptions, and the
compiled playouts equal the Python reference draw for draw."""

from __future__ import annotations

from itertools import product
from math import factorial

import pytest

from tests.support.nimmt import random_record
from thegame.analysis.nimmt import playout
from thegame.analysis.nimmt.baselines import MCS, MCS100
from thegame.analysis.nimmt.budget import steps
from thegame.analysis.nimmt.playout import Objective, Policy, run_python
from thegame.analysis.nimmt.review import view_at
from thegame.analysis.nimmt.row_choice import after_own_trick
from thegame.analysis.nimmt.sampling import unseen
from thegame.models.errors import InvalidInputError
from thegame.models.nimmt.deal import Deal
from thegame.models.nimmt.record import replay
from thegame.models.nimmt.rules import fewest_heads_row, row_heads
from thegame.models.nimmt.state import View, play_round
from thegame.models.outcome import Limit
from thegame.models.seeds import SplitMix64
from thegame.solver.nimmt.problem import to_slots

needs_c = pytest.mark.skipif(not playout.HAVE_C, reason="the C playouts are not built")


@needs_c
@pytest.mark.parametrize("players", [2, 4, 7, 10])
@pytest.mark.parametrize("turn", [0, 4, 8])
def test_c_playouts_equal_python_for_the_same_stream(players: int, turn: int) -> None:
    view = view_at(random_record(players * 13 + turn, players), 1, turn)
    hand, pool, slots = list(view.hand), unseen(view), to_slots(view.rows)
    others = players - 1
    for me, them, common, goal in product(Policy, Policy, (False, True), Objective):
        firsts = [*hand, 0]
        a, b = SplitMix64(99), SplitMix64(99)
        three = Limit(nodes=3)
        want = run_python(a, slots, hand, firsts, pool, others, three, me, them, common, goal)
        got = playout.run_c(b, slots, hand, firsts, pool, others, three, me, them, common, goal)
        assert got == want
        assert a.state == b.state  # the stream is advanced alike


def test_a_playout_is_a_legal_round_priced_by_the_rules() -> None:
    """One playout with one other player whose hand is the whole pool: its
    heads equal the rules engine's for the same two card sequences."""
    deal = Deal.from_seed(3, 2)
    rows = tuple((c,) for c in deal.rows)
    hand = list(deal.hands[0])
    pool = list(deal.hands[1])
    # random policy, this player's first card fixed: replay the same draws by hand
    rng = SplitMix64(5)
    got = playout.playout(rng, to_slots(rows), hand, hand[3], pool, 1, Policy.RANDOM, Policy.RANDOM)
    margin = playout.playout(
        SplitMix64(5),
        to_slots(rows),
        hand,
        hand[3],
        pool,
        1,
        Policy.RANDOM,
        Policy.RANDOM,
        Objective.MARGIN,
    )
    rng = SplitMix64(5)
    theirs = list(pool)
    rng.shuffle(theirs)
    mine = [c for c in hand if c != hand[3]]
    order = [[hand[3]], []]
    for t in range(10):
        if t:
            i = rng.below(len(mine))
            order[0].append(mine[i])
            mine[i] = mine[-1]
            mine.pop()
        j = rng.below(len(theirs))
        order[1].append(theirs[j])
        theirs[j] = theirs[-1]
        theirs.pop()

    class Fixed:
        def __init__(self, cards: list[int]) -> None:
            self.cards = cards

        def choose_card(self, view: View) -> int:
            return self.cards[view.turn]

        def choose_row(self, view: View) -> int:
            return fewest_heads_row(view.rows)

    record = play_round(deal, [Fixed(order[0]), Fixed(order[1])])
    heads = replay(record).heads
    assert got == heads[0]
    assert margin == heads[0] - heads[1]  # one other player: the margin is the difference


def test_mcs_rollout_counts_follow_min_mc_max_10_n_factorial() -> None:
    player = MCS(1)
    assert [player.rollouts(n) for n in range(2, 11)] == [
        min(200, 10 * factorial(n)) for n in range(2, 11)
    ]
    assert player.rollouts(3) == 60 and player.rollouts(4) == 200
    record = random_record(5, 4)
    for turn, per_card in [(0, 200), (7, 60), (8, 20)]:
        view = view_at(record, 0, turn)
        player.choose_card(view)
        assert player.last_rollouts == per_card


def test_mcs_plays_the_card_with_the_fewest_mean_heads() -> None:
    """The choice is the argmin of the rollout totals the same stream gives."""
    view = view_at(random_record(8, 4), 2, 5)
    hand = list(view.hand)
    n = MCS(4).rollouts(len(hand))
    limit = Limit(nodes=n)
    totals, _ = playout.run(SplitMix64(4), to_slots(view.rows), hand, hand, unseen(view), 3, limit)
    want = hand[min(range(len(hand)), key=lambda k: (totals[k], k))]
    assert MCS(4).choose_card(view) == want


def _row_view(seed: int) -> View:
    """A view at a row choice: a record's first turn where someone chooses."""
    for s in range(seed, seed + 200):
        record = random_record(s, 4)
        for t, turn in enumerate(record.turns):
            if turn.choices:
                (p,) = turn.choices
                before = view_at(record, p, t)
                seen = before.seen | set(turn.cards)
                return View(
                    p,
                    4,
                    t,
                    before.hand,
                    before.rows,
                    frozenset(seen),
                    before.scores,
                    before.round_heads,
                    turn.cards,
                )
    raise AssertionError("no row choice in 200 rounds")


def test_mcs_takes_the_fewest_heads_row() -> None:
    for seed in (1, 50, 300):
        view = _row_view(seed)
        assert MCS(seed).choose_row(view) == fewest_heads_row(view.rows)


def test_mcs100_simulates_the_row_choice() -> None:
    """Per row: the heads now plus the mean of 100 rollouts of the rest,
    drawn in row order from the player's stream; 100 rollouts per card."""
    view = _row_view(7)
    player = MCS100(3)
    means = player.row_means(view)
    card = view.trick[view.player] if view.trick else 0
    rest = [c for c in view.hand if c != card]
    rng = SplitMix64(3)
    for r in range(4):
        rows, h = after_own_trick(view, card, r)
        assert h == row_heads(view.rows[r])
        total = playout.run(rng, to_slots(rows), rest, [0], unseen(view), 3, Limit(nodes=100))[0][0]
        assert means[r] == pytest.approx(h + total / 100)
    assert MCS100(3).choose_row(view) == min(range(4), key=lambda r: (means[r], r))
    MCS100(3).choose_card(view_at(random_record(2, 4), 0, 0))
    p = MCS100(3)
    p.choose_card(view_at(random_record(2, 4), 0, 0))
    assert p.last_rollouts == 100


def test_equal_time_mode_spends_about_its_seconds() -> None:
    import time

    view = view_at(random_record(4, 4), 0, 0)
    for player in (MCS(1, limit=Limit(time=0.05)), MCS100(1, limit=Limit(time=0.05))):
        start = time.process_time()
        player.choose_card(view)
        spent = time.process_time() - start
        assert 0.04 <= spent < 0.5
        assert player.last_rollouts > 0


def test_the_ranked_policy_draws_by_the_rank_in_hand() -> None:
    hand = [50, 3, 90, 20, 7, 61, 44, 12, 99, 30]
    # ranks 6 0 8 3 1 7 5 2 9 4: two cards in each fifth of the hand
    assert playout.rank_weights(hand) == [10, 10, 30, 5, 10, 10, 5, 5, 30, 5]
    assert playout.rank_weights([8, 2]) == [5, 10]  # ranks 1 and 0: fifths 2 and 0
    rng, counts = SplitMix64(4), [0] * len(hand)
    for _ in range(12_000):
        counts[playout.pick(rng, hand, to_slots(((1,), (2,), (4,), (5,))), Policy.RANKED)] += 1
    total = sum(playout.rank_weights(hand))
    for got, w in zip(counts, playout.rank_weights(hand), strict=True):
        assert abs(got / 12_000 - w / total) < 0.02


@pytest.mark.parametrize("backend", ["python", "c"])
def test_the_playouts_take_the_shared_budget(backend: str) -> None:
    """The playouts' budget is a ``Limit``, in C the ``Budget`` of budget.h:
    a node limit plays that many deals; the progress function, asked every
    ``BUDGET_EVERY`` deals, stops them by answering True; a spent deadline
    plays none. The reference counts alike."""
    if backend == "c" and not playout.HAVE_C:
        pytest.skip("the C playouts are not built")
    go = run_python if backend == "python" else playout.run_c
    view = view_at(random_record(5, 3), 0, 2)
    hand, pool, slots = list(view.hand), unseen(view), to_slots(view.rows)
    heard: list[int] = []

    def stop_at_128(nodes: int) -> bool:
        heard.append(nodes)
        return nodes >= 128

    for limit, want in (
        (Limit(nodes=5), 5),
        (Limit(progress=stop_at_128), 128),
        (Limit(time=0.0), 0),
    ):
        totals, done = go(SplitMix64(1), slots, hand, hand, pool, 2, limit)
        assert done == want and len(totals) == len(hand)
        assert (sum(totals) > 0) == (want > 0)
    assert heard == [0, playout.BUDGET_EVERY, 2 * playout.BUDGET_EVERY]


def test_a_decision_budget_is_a_limit() -> None:
    """``budget.steps``: node budgets count determinizations (``per`` a step,
    the first step always), a Limit with neither time nor nodes is refused."""
    assert list(steps(Limit(nodes=3))) == [0.0, 1 / 3, 2 / 3]
    assert list(steps(Limit(nodes=10), 4)) == [0.0, 0.4, 0.8]
    assert list(steps(Limit(nodes=0))) == [1.0]  # spent, but one step runs
    with pytest.raises(InvalidInputError):
        next(steps(Limit()))
