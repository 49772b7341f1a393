"""A played level judged: each life lost, and what a star at the start would change (M6)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...models.mind import Play, Record, Star, State
from ...models.mind.record import check
from ...models.mind.state import LevelStatus
from ...solver.mind.gap import GapResult, check_tolerance, play_gap


@dataclass(frozen=True)
class LifeLost:
    """One collision of the record (rule M3)."""

    event: int  # the record's event, counted from 1
    player: int  # who played too early (from 1)
    played: int
    lower: tuple[tuple[int, int], ...]  # (holder from 1, card): the cards it jumped

    def to_dict(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "player": self.player,
            "played": self.played,
            "lower": [{"player": p, "card": c} for p, c in self.lower],
            "waited": sorted({p for p, _ in self.lower}),
        }


@dataclass(frozen=True)
class StarWhatIf:
    """The level under rule M6 with tolerance d, without and with a star at the start."""

    tolerance: int
    without: GapResult
    with_star: GapResult

    @property
    def changes(self) -> bool:
        return self.without.lives_lost != self.with_star.lives_lost

    def to_dict(self) -> dict[str, Any]:
        return {
            "tolerance": self.tolerance,
            "lives_lost_without_star": self.without.lives_lost,
            "lives_lost_with_star": self.with_star.lives_lost,
            "star_changes_outcome": self.changes,
            "lives_saved_by_star": self.without.lives_lost - self.with_star.lives_lost,
        }


@dataclass(frozen=True)
class LevelAnalysis:
    record: Record
    legal: bool
    status: LevelStatus
    lives_lost: int
    stars_used: int
    lives: tuple[LifeLost, ...]
    what_if: tuple[StarWhatIf, ...]
    error: dict[str, Any] | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "status": str(self.status),
            "lives_lost": self.lives_lost,
            "stars_used": self.stars_used,
            "collisions": [x.to_dict() for x in self.lives],
            "star_at_start": [w.to_dict() for w in self.what_if],
            "error": self.error,
        }


def analyze_level(record: Record, tolerances: tuple[int, ...] = (2, 3, 5)) -> LevelAnalysis:
    """Replay the record (up to its first illegal event) and judge it."""
    for d in tolerances:
        check_tolerance(d)
    result = check(record)
    # Up to the first illegal event (counted from 1), or every event.
    last = result.error["event"] - 1 if result.error else len(record.events)
    state = State(record.deal)
    lives: list[LifeLost] = []
    for i, event in enumerate(record.events[:last]):
        if isinstance(event, Star):
            state.star()
            continue
        assert isinstance(event, Play)
        collision = state.play(event.player, event.card)
        if collision is not None:
            lives.append(
                LifeLost(i + 1, collision.player, collision.played, collision.discarded)
            )
    what_if = tuple(
        StarWhatIf(d, play_gap(record.deal, d), play_gap(record.deal, d, star=True))
        for d in tolerances
    )
    return LevelAnalysis(
        record,
        result.legal,
        result.state.status,
        result.state.lives_lost,
        result.state.stars_used,
        tuple(lives),
        what_if,
        result.error,
    )
