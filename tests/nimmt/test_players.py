"""Blind players (they see only a ``View``) and the review of a played round."""

from __future__ import annotations

from tests.support.nimmt import random_record
from thegame.analysis.nimmt.players import BlindPlayer, FlatMonteCarlo, LowestPlayer, RandomPlayer
from thegame.analysis.nimmt.review import hint, known_means, review, view_at
from thegame.analysis.nimmt.sampling import sample_sequences, unseen
from thegame.models.nimmt.record import Record, replay
from thegame.models.nimmt.state import Player, play_game
from thegame.models.seeds import SplitMix64
from thegame.solver.nimmt.problem import problem_from_record
from thegame.solver.nimmt.search import Searcher


def test_view_shows_only_what_a_player_saw() -> None:
    record = random_record(12, 4)
    view = view_at(record, 2, 3)
    assert len(view.hand) == 7
    assert set(view.hand) == set(record.deal.hands[2]) - {t.cards[2] for t in record.turns[:3]}
    assert view.seen == set(record.deal.rows) | {c for t in record.turns[:3] for c in t.cards}
    pool = unseen(view)
    assert len(pool) == 104 - len(view.seen) - len(view.hand)
    # every other player's real hand is hidden among the unseen cards
    for p in (0, 1, 3):
        assert {t.cards[p] for t in record.turns[3:]} <= set(pool)


def test_samples_deal_distinct_unseen_cards() -> None:
    view = view_at(random_record(12, 5), 0, 2)
    seqs = sample_sequences(SplitMix64(1), view, 8, unseen(view))
    cards = [c for trick in seqs for _, c in trick]
    assert len(seqs) == 8 and len(cards) == 8 * 4 == len(set(cards))
    assert set(cards) <= set(unseen(view))
    assert {p for trick in seqs for p, _ in trick} == {1, 2, 3, 4}


def test_review_adds_up() -> None:
    """The per-turn losses (each priced with best play afterwards) add up to
    the heads taken minus the hindsight optimum; hindsight is never worse."""
    record = random_record(31, 4)
    for p in range(4):
        r = review(record, p, samples=3, seed=1)
        assert r.played_heads == replay(record).heads[p]
        assert r.optimal_heads == Searcher(problem_from_record(record, p)).best()
        assert sum(t.lost for t in r.turns) == r.lost >= 0
        assert r.turns[0].best_heads == r.optimal_heads
        for t in r.turns:
            assert t.best_heads <= min(t.played_heads, t.blind_heads)
            assert t.played.card == record.turns[t.turn - 1].cards[p]
        assert review(record, p, samples=3, seed=1) == r  # seeded: reproducible


def test_the_blind_choice_is_the_strong_players_from_the_view() -> None:
    """The review's blind card at each turn is the strong player's choice from
    the view of that turn (the same budget and seed), and its score that
    card's expected heads; the hint of an unfinished round is the same."""
    record = random_record(44, 4)
    r = review(record, 1, samples=40, seed=2)
    for t in r.turns:
        means = known_means(view_at(record, 1, t.turn - 1), 40, 2 * 1000 + t.turn - 1)
        assert set(means) == set(view_at(record, 1, t.turn - 1).hand)
        assert t.blind_card == min(means, key=lambda c: (means[c], c))
        assert t.blind_score == means[t.blind_card]
    part = Record(record.deal, record.turns[:4])
    h = hint(part, 1, samples=40, seed=5)
    means = known_means(view_at(part, 1, 4), 40, 5)
    assert h.card == min(means, key=lambda c: (means[c], c)) and h.samples == 40


def test_games_with_every_player_are_legal_and_reproducible() -> None:
    """Rule S5 games with the built-in players (short game: end at 20)."""

    def seats() -> list[Player]:
        return [BlindPlayer(1, 3), FlatMonteCarlo(2, 40), RandomPlayer(3), LowestPlayer()]

    a = play_game(seats(), seed=8, end=20)
    b = play_game(seats(), seed=8, end=20)
    assert a == b
    assert all(replay(r).legal for r in a.rounds)
    assert max(a.scores) >= 20


def test_blind_player_beats_random_players() -> None:
    """A sanity check on seeded games: fewer heads than each random player."""
    totals = [0, 0, 0]
    for seed in range(3):
        game = play_game([BlindPlayer(seed, 4), RandomPlayer(seed), RandomPlayer(seed + 9)], seed)
        totals = [t + s for t, s in zip(totals, game.scores, strict=True)]
    assert totals[0] < min(totals[1:])
