"""The strong player: legal, blind to hidden cards, exact in its endgame,
reproducible with a step budget; and the levels of ``by_level``."""

from __future__ import annotations

import itertools

from tests.nimmt.test_solver import brute_force, engine_trick
from tests.support.nimmt import random_record
from thegame.analysis.nimmt.baselines import MCS
from thegame.analysis.nimmt.players import (
    LEVELS,
    BlindPlayer,
    RandomPlayer,
    TimedBlindPlayer,
    by_level,
)
from thegame.analysis.nimmt.review import view_at
from thegame.analysis.nimmt.sampling import sample_sequences, unseen
from thegame.analysis.nimmt.strong import StrongPlayer
from thegame.models.nimmt.deal import Deal
from thegame.models.nimmt.record import replay
from thegame.models.nimmt.state import View, play_game, play_round
from thegame.models.outcome import Limit
from thegame.models.seeds import SplitMix64
from thegame.solver.nimmt.problem import Problem


def quick(seed: int) -> StrongPlayer:
    """A step budget: reproducible, and fast enough for the default suite."""
    return StrongPlayer(seed, Limit(nodes=4))


class Scripted:
    """Plays a fixed order of cards and always takes row 4."""

    def __init__(self, order: list[int]) -> None:
        self.order = order

    def choose_card(self, view: View) -> int:
        return self.order[view.turn]

    def choose_row(self, view: View) -> int:
        return 3


class Recording:
    """Wraps a player and keeps every view it was shown and its answers."""

    def __init__(self, inner: StrongPlayer) -> None:
        self.inner = inner
        self.log: list[tuple[str, View, int]] = []

    def choose_card(self, view: View) -> int:
        card = self.inner.choose_card(view)
        self.log.append(("card", view, card))
        return card

    def choose_row(self, view: View) -> int:
        row = self.inner.choose_row(view)
        self.log.append(("row", view, row))
        return row


def test_choices_are_legal_in_whole_games() -> None:
    """Short games (to 20) against every other kind of player replay legally;
    the referee of ``play_round`` rejects a card not in hand."""
    seats = [quick(1), MCS(2, mc_max=20), BlindPlayer(3, 2), RandomPlayer(4)]
    game = play_game(seats, seed=11, end=20)
    assert all(replay(r).legal for r in game.rounds)
    assert max(game.scores) >= 20


def test_never_reads_hidden_cards() -> None:
    """Two deals that differ only in the others' cards of the last turn (one
    player's 10th card swapped with another's): everything player 1 can see
    is the same for nine turns, so its choices must be the same, cards and
    rows, whatever the hidden cards are."""
    for seed in (3, 17, 40):
        deal = Deal.from_seed(seed, 4)
        rng = SplitMix64(seed)
        orders = [list(h) for h in deal.hands]
        for o in orders[1:]:
            rng.shuffle(o)
        swapped = [list(o) for o in orders]
        swapped[1][9], swapped[2][9] = orders[2][9], orders[1][9]
        hands = [tuple(sorted(o)) for o in swapped]
        other = Deal(deal.rows, tuple(hands))
        logs = []
        for d, o in ((deal, orders), (other, swapped)):
            me = Recording(quick(seed))
            play_round(d, [me, Scripted(o[1]), Scripted(o[2]), Scripted(o[3])])
            logs.append([(kind, v, answer) for kind, v, answer in me.log if v.turn < 9])
        assert len(logs[0]) >= 9
        assert logs[0] == logs[1]  # the same views and the same answers


def test_reproducible_with_a_step_budget() -> None:
    def seats() -> list[StrongPlayer]:
        return [quick(s) for s in range(3)]

    deal = Deal.from_seed(5, 3)
    assert play_round(deal, seats()) == play_round(deal, seats())


def _first_card_values(problem: Problem) -> dict[int, int]:
    """Per first card: the brute-force fewest heads of the round starting with it."""
    values: dict[int, int] = {}
    for card in problem.hand:
        rest = tuple(c for c in problem.hand if c != card)
        _, _, asked = engine_trick(problem, 0, problem.rows, card, None)
        best = 1 << 30
        for row in range(4) if asked else [None]:
            rows, h, _ = engine_trick(problem, 0, problem.rows, card, row)
            tail = Problem(rows, rest, problem.others[1:], problem.recorded[1:], problem.player)
            best = min(best, h + (brute_force(tail) if rest else 0))
        values[card] = best
    return values


def test_exact_endgame_agrees_with_brute_force() -> None:
    """With at most ``endgame`` cards left, each card's score is the mean over
    the determinizations (drawn from the player's stream) of its brute-force
    value: every order of the hand, every row choice, by the rules engine."""
    checked = 0
    for seed, players, turn in itertools.product((2, 9), (2, 3, 5), (7, 8)):
        view = view_at(random_record(seed * 7 + players, players), 1, turn)
        player = StrongPlayer(seed, Limit(nodes=3), endgame=3)
        means = player.card_means(view)
        rng = SplitMix64(seed)
        want = dict.fromkeys(view.hand, 0)
        for _ in range(3):
            seqs = sample_sequences(rng, view, len(view.hand), unseen(view))
            problem = Problem(view.rows, view.hand, seqs, tuple({} for _ in seqs), view.player)
            for card, v in _first_card_values(problem).items():
                want[card] += v
        assert means == [want[c] / 3 for c in view.hand]
        checked += 1
    assert checked == 12


def test_row_choice_prices_each_row() -> None:
    """Rule S3 lets the player choose its row. Card 3 is below every row and
    the other player's 15 follows: taking row 2, 3 or 4 leaves row 1 full,
    so 15 takes it; taking row 1 (11 heads) lets 15 follow 3 there. Each
    row's score is its heads now plus the exact value of the last card,
    averaged over the same determinizations."""
    rows = ((10, 11, 12, 13, 14), (20,), (30,), (40,))
    seen = frozenset({10, 11, 12, 13, 14, 20, 30, 40, 3, 15})
    view = View(0, 2, 8, (3, 90), rows, seen, (0, 0), (0, 0), (3, 15))
    player = StrongPlayer(1, Limit(nodes=5))
    means = player.row_means(view)
    now = [11, 3, 3, 3]
    assert all(m >= h for m, h in zip(means, now, strict=True))
    assert means[0] > max(means[1:])  # 11 heads now cannot be won back with one card
    assert player.choose_row(view) == min(range(4), key=lambda r: (means[r], r))


def test_levels() -> None:
    assert set(LEVELS) == {"easy", "normal", "strong"}
    assert isinstance(by_level("easy", 1), RandomPlayer)
    normal = by_level("normal", 1)
    assert isinstance(normal, BlindPlayer) and not isinstance(normal, TimedBlindPlayer)
    strong = by_level("strong", 1)
    assert isinstance(strong, StrongPlayer)
    assert strong.limit.time is not None and 0 < strong.limit.time <= 0.5
