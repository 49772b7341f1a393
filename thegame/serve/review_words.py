"""The review page's honesty rules: which hindsight figures are proven, which
comparisons of actions hold; a flag an analysis lacks reads as unproven."""

from __future__ import annotations

from typing import Any

from ..analysis.the_game.review import figure_text
from ..models.the_game import Record


def full_view(record: Record, review: dict[str, Any]) -> bool:
    """The player saw the draw pile (a puzzle, a known order): no fair review."""
    return review.get("full_view") is True or record.full_view


def cards_figure(value: int, proven: bool) -> str:
    """A best reachable cards-left figure as the page prints it: 0 cannot be
    beaten, so a 0 is exact even when not flagged."""
    return figure_text(value, proven or value == 0)


def curve_point(point: Any) -> tuple[int | None, bool]:
    """A hindsight curve point as (cards left, proven): a point of
    ``points``, or a bare number of an older analysis's ``curve``
    (unproven, except a 0)."""
    if isinstance(point, dict):
        value, proven = point.get("cards_left"), point.get("proven") is True
    else:
        value, proven = point, False
    if not isinstance(value, int):
        return None, False
    return value, proven or value == 0


def curve(review: dict[str, Any]) -> list[tuple[int | None, bool]]:
    """The hindsight curve (before the first action and after each), each
    point with whether it is proven."""
    hs = review.get("hindsight") or {}
    # ``points`` carries each figure with its proof; an older analysis has
    # only the bare ``curve``.
    points = [curve_point(p) for p in hs.get("points") or hs.get("curve") or []]
    start = hs.get("best_at_start") or {}
    if points and points[0][0] is not None and start.get("optimal") is True:
        points[0] = (points[0][0], True)
    return points


def action_hindsight_proven(action: dict[str, Any]) -> bool:
    """Both hindsight figures of an action are exact (``hindsight_proven``;
    an older analysis says so only of a proven mistake)."""
    return action.get("hindsight_proven") is True or action.get("hindsight_optimal") is True


def action_hindsight(action: dict[str, Any]) -> str | None:
    """``best reachable 3 cards left before, 5 after`` with each figure exact
    or labelled best found; None without hindsight."""
    before, after = action.get("hindsight_before"), action.get("hindsight_after")
    if before is None or after is None:
        return None
    proven = action_hindsight_proven(action)
    return f"{cards_figure(before, proven)} → {cards_figure(after, proven)}"


def measured_better(action: dict[str, Any]) -> bool:
    """The other action measures better on the same samples as the one
    played: marked (a measure clear of its 95% interval) and not worse in
    win chance. A mark made by the cards left while the win chance says the
    opposite is no better action, and the page shows no mark for it."""
    drop = action.get("drop")
    if action.get("same") or not action.get("mark") or drop is None:
        return False
    if drop["win_chance_lost"] < 0:
        return False
    return bool(drop["win_chance_lost"] > 0 or drop["cards_left_gained"] > 0)


def shown_mark(action: dict[str, Any], full: bool) -> str:
    """The mark the page shows: none in a full-view game (no fair review)
    and none where the better action does not measure better."""
    if full or not measured_better(action):
        return ""
    return str(action["mark"])
