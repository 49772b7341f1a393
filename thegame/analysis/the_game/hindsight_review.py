"""Reviews by hindsight alone, and the hindsight column of the fair review.

A game played with the draw pile in view (``Record.full_view``: a puzzle, a
known-order game) is judged by hindsight alone: the player saw what
hindsight sees, so an action is marked only where the best reachable result
provably got worse. A variant the blind policy does not play (Extreme's
commands) has hindsight alone too, without marks.
"""

from __future__ import annotations

import time

from ...models.outcome import Limit
from ...models.the_game import Record
from ...models.the_game.record import replayed
from .judgement import MARK_NAMES, MARKS, Annotation, MarkThresholds, Review, _action, _apply
from .review import Analysis, Mistake, analyze_record
from .strong import Level


def hindsight_only(
    record: Record,
    samples: int,
    seed: int,
    hindsight: Limit | None,
    start_turn: int,
    gap: str,
    start: float,
    total: Limit | None,
) -> Review:
    final = replayed(record)
    analysis = None
    if hindsight is not None:
        analysis = analyze_record(record, hindsight, start_turn=start_turn, total=total)
    return Review(
        record=record,
        annotations=[],
        samples=samples,
        seed=seed,
        turn_starts=[],
        hindsight=analysis,
        cards_left=final.cards_left(),
        status=final.status,
        seconds=time.monotonic() - start,
        fair_unavailable=gap,
    )


def hindsight_columns(annotations: list[Annotation], analysis: Analysis) -> None:
    """Copy the hindsight curve (best reachable cards left with the order
    known, before and after each action) onto the annotations."""
    at = {step: n for n, step in enumerate(analysis.steps)}
    proven = {(m.turn, m.play) for m in analysis.mistakes if m.proven}
    for a in annotations:
        n = at.get((a.turn, a.play))
        if n is None:
            continue
        a.hindsight_before = analysis.curve[n]
        a.hindsight_after = analysis.curve[n + 1]
        a.hindsight_proven = analysis.is_proven(n) and analysis.is_proven(n + 1)
        a.hindsight_mistake_proven = (a.turn, a.play) in proven


def hindsight_mark(mistake: Mistake, marks: MarkThresholds = MARKS) -> str:
    """The mark of a proven hindsight mistake (a full-view game): by the
    cards it provably lost, on the thresholds of expected cards left; one
    that threw a perfect clear away is at least ``?``."""
    if not mistake.proven:
        return ""
    lost = mistake.best_after - mistake.best_before
    level = max(1, sum(1 for t in marks.left if lost >= t))
    if mistake.best_before == 0:
        level = max(level, 2)
    return MARK_NAMES[min(level, 3)]


def full_view_review(
    record: Record,
    samples: int,
    seed: int,
    hindsight: Limit | None,
    start_turn: int,
    start: float,
    total: Limit | None,
) -> Review:
    """The review of a game played with the draw pile in view: hindsight
    alone, every action listed, marked only where it provably lost cards."""
    analysis = None
    if hindsight is not None:
        analysis = analyze_record(record, hindsight, start_turn=start_turn, total=total)
    mistakes = {} if analysis is None else {(m.turn, m.play): m for m in analysis.mistakes}
    state = replayed(Record(record.deal.with_first(record.first), record.turns[:start_turn]))
    annotations: list[Annotation] = []
    for i, turn in enumerate(record.turns[start_turn:], start_turn):
        for j, p in enumerate([*turn.plays, None]):
            if state.over:
                break
            m = mistakes.get((i, j))
            proven = m is not None and m.proven
            annotations.append(Annotation(
                turn=i, play=j, player=state.current + 1, played=p,
                better=m.better if m is not None and proven else None,
                same=not proven,
                tops=tuple(state.tops), hand=tuple(sorted(state.hands[state.current])),
                draw_left=state.stock_left(),
                continuation=[],
                better_by=Level.DEFAULT,
                mark=hindsight_mark(m) if m is not None else "",
                no_better=not proven,  # nothing proven better: no "better"
                by_hindsight=True,
            ))  # fmt: skip
            state = _apply(state, _action(p))
    if analysis is not None:
        hindsight_columns(annotations, analysis)
    return Review(
        record=record,
        annotations=annotations,
        samples=samples,
        seed=seed,
        turn_starts=[],
        hindsight=analysis,
        cards_left=state.cards_left(),
        status=state.status,
        seconds=time.monotonic() - start,
        full_view=True,
    )
