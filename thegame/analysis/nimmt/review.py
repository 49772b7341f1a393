"""The review of one player's round: per turn the card played, the best card
with hindsight (the others' cards known) and the best card by what the player
knew (the strong player's choice, ``known_means``), each priced in heads
with hindsight."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...models.advice import Advice
from ...models.check import illegal_record
from ...models.errors import InvalidInputError
from ...models.nimmt.record import Record, RoundStatus, replay
from ...models.nimmt.rules import row_heads
from ...models.nimmt.state import View
from ...models.outcome import Limit, Verdict
from ...models.words import plural
from ...solver.nimmt.problem import problem_from_record
from ...solver.nimmt.search import Move, Searcher
from .budget import SAMPLES
from .strong import StrongPlayer


@dataclass(frozen=True)
class TurnReview:
    """One turn. Every ``*_heads`` is exact with hindsight: the card's own
    heads on this turn plus the fewest heads possible on the later turns."""

    turn: int  # from 1
    played: Move
    played_heads: int
    best: Move
    best_heads: int
    blind_card: int
    blind_heads: int
    blind_score: float  # the blind choice's estimated heads to the end of the round

    @property
    def lost(self) -> int:
        return self.played_heads - self.best_heads

    def to_json(self) -> dict[str, Any]:
        def row(m: Move) -> int | None:
            return None if m.row is None else m.row + 1

        return {
            "turn": self.turn,
            "card": self.played.card,
            "row": row(self.played),
            "heads": self.played_heads,
            "best_card": self.best.card,
            "best_row": row(self.best),
            "best_heads": self.best_heads,
            "blind_card": self.blind_card,
            "blind_heads": self.blind_heads,
            "blind_score": round(self.blind_score, 3),
            "lost": self.lost,
        }


def nimmt_verdict(heads: int | None) -> Verdict:
    """6 nimmt!'s verdict, in the words of every game: ``win`` when the
    player can end the round taking no head (as a perfect clear in The
    Game), ``loss`` when a complete search proves every order takes some
    (``heads`` the fewest), ``unknown`` when the budget ran out first."""
    if heads is None:
        return Verdict.UNKNOWN
    return Verdict.WIN if heads == 0 else Verdict.LOSS


@dataclass(frozen=True)
class Review:
    player: int  # 0-based
    turns: tuple[TurnReview, ...]
    played_heads: int
    optimal_heads: int
    samples: int
    seed: int

    @property
    def lost(self) -> int:
        """Heads lost to hindsight in the whole round; equals the sum of the
        per-turn losses (each turn is priced with best play afterwards)."""
        return self.played_heads - self.optimal_heads

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player + 1,
            # The fewest heads with hindsight, always proven (as in 'solve').
            "verdict": nimmt_verdict(self.optimal_heads),
            "heads": self.optimal_heads,
            "optimal": True,
            "played_heads": self.played_heads,
            "lost": self.lost,
            "samples": self.samples,
            "sample_seed": self.seed,
            "turns": [t.to_json() for t in self.turns],
        }


def view_at(record: Record, player: int, turn: int) -> View:
    """What ``player`` (0-based) saw before ``turn`` (0-based) of the record."""
    result = replay(record)
    played = record.turns[:turn]
    seen = set(record.deal.rows) | {c for t in played for c in t.cards}
    hand = tuple(sorted(set(record.deal.hands[player]) - seen))
    heads = [0] * record.deal.players
    for placed in result.placements[:turn]:
        for pl in placed:
            heads[pl.player] += row_heads(pl.taken)
    n = record.deal.players
    return View(player, n, turn, hand, result.rows[turn], frozenset(seen), (0,) * n, tuple(heads))


def known_means(view: View, samples: int, seed: int) -> dict[int, float]:
    """Per card of ``view.hand``, the heads the strong player expects from
    playing it (this turn's and the rest of the round's) over ``samples``
    guesses at the unseen cards: mid-round one playout per guess and card
    (the same guesses for every card), with two cards or fewer the exact
    best response in each guess. Reads only what the player has seen."""
    player = StrongPlayer(seed, Limit(nodes=samples), phases=0, batch=1)
    return dict(zip(view.hand, player.card_means(view), strict=True))


def review(
    record: Record,
    player: int,
    samples: int = SAMPLES,
    seed: int = 0,
    step: Callable[[int], None] | None = None,
) -> Review:
    """Review ``player`` (0-based); ``step(t)`` is called after each turn."""
    problem = problem_from_record(record, player)  # checks: legal and finished
    optimal = Searcher(problem).best()
    actual = replay(record).heads[player]
    turns = []
    for t, turn in enumerate(record.turns):
        values = Searcher(problem_from_record(record, player, start=t)).root_values()
        played = Move(turn.cards[player], turn.choices.get(player))
        by_move = dict(values)
        best_move, best = min(values, key=lambda mv: (mv[1], mv[0].card, mv[0].row or 0))
        means = known_means(view_at(record, player, t), samples, seed * 1000 + t)
        blind_card = min(means, key=lambda c: (means[c], c))
        blind_heads = min(v for m, v in values if m.card == blind_card)
        turns.append(
            TurnReview(
                t + 1,
                played,
                by_move[played],
                best_move,
                best,
                blind_card,
                blind_heads,
                means[blind_card],
            )
        )
        if step is not None:
            step(t)
    return Review(player, tuple(turns), actual, optimal, samples, seed)


@dataclass(frozen=True)
class Hint:
    """The next card by what the player knows: each card's expected heads
    over ``samples`` guesses at the unseen cards (``known_means``; lower is
    better), best first."""

    player: int  # 0-based
    turn: int  # from 1
    means: tuple[tuple[int, float], ...]
    samples: int
    sample_seed: int

    @property
    def card(self) -> int:
        return self.means[0][0]

    def advice(self) -> Advice:
        """The hint in the shape every game's hint has: the move is a card;
        the verdict ``unknown``, since samples prove nothing."""
        figures = {
            "cards": [{"card": c, "score": round(m, 3)} for c, m in self.means],
            "samples": self.samples,
            "sample_seed": self.sample_seed,
        }
        text = (
            f"play {self.card} (expected heads {self.means[0][1]:.1f} over "
            f"{plural(self.samples, 'sample')})"
        )
        return Advice(
            self.player + 1, self.turn, {"card": self.card}, Verdict.UNKNOWN, text, figures
        )

    def to_json(self) -> dict[str, Any]:
        return self.advice().to_dict()


def hint(record: Record, player: int, samples: int = SAMPLES, seed: int = 0) -> Hint:
    """The best next card of ``player`` (0-based) in a legal unfinished round,
    chosen as the strong player chooses: from what the player has seen."""
    result = replay(record)
    if result.error is not None:
        raise illegal_record(result.error.to_json(), "record")
    if result.status == RoundStatus.FINISHED:
        raise InvalidInputError("the round is over: there is no next card", "record")
    t = len(record.turns)
    view = view_at(record, player, t)
    means = known_means(view, samples, seed)
    ranked = tuple(sorted(means.items(), key=lambda cm: (cm[1], cm[0])))
    return Hint(player, t + 1, ranked, samples, seed)
