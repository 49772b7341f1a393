"""The review page's figures: the win-chance curve per turn as inline SVG,
with the marked actions on it, and the rows of the marked actions."""

from __future__ import annotations

from html import escape
from typing import Any

from markupsafe import Markup

from ..models.the_game import Record

WIDTH, HEIGHT, PAD = 640, 220, 36
MARK_WORDS = {"?!": "inaccuracy", "?": "mistake", "??": "blunder"}


def _x(turn: float, turns: int) -> float:
    return PAD + (WIDTH - 2 * PAD) * (turn - 1) / max(1, turns - 1)


def _y(chance: float) -> float:
    return HEIGHT - PAD - (HEIGHT - 2 * PAD) * chance


def win_chart(review: dict[str, Any]) -> Markup:
    """Win chance at the start of each turn (the blind policy's playouts,
    an estimate with its sample size) and a mark where a marked action was made."""
    starts = review["turn_starts"]
    turns = max([s["turn"] for s in starts] + [1])
    parts = [
        f'<svg data-chart="win-chance" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'class="chart" aria-label="win chance at the start of each turn">',
        f"<title>Win chance at the start of each turn (estimate over "
        f"{starts[0]['samples'] if starts else 0} sampled orders)</title>",
    ]
    for level in (0, 0.25, 0.5, 0.75, 1):
        y = _y(level)
        parts.append(
            f'<line class="grid" x1="{PAD}" x2="{WIDTH - PAD}" y1="{y:.1f}" y2="{y:.1f}"/>'
        )
        parts.append(f'<text class="axis" x="4" y="{y + 4:.1f}">{int(level * 100)}%</text>')
    for t in range(1, turns + 1):
        if t == 1 or t % 5 == 0 or t == turns:
            parts.append(
                f'<text class="axis" x="{_x(t, turns):.1f}" y="{HEIGHT - 12}" '
                f'text-anchor="middle">{t}</text>'
            )
    if starts:
        band_top = " ".join(
            f"{_x(s['turn'], turns):.1f},{_y(s['win_chance_interval'][1]):.1f}" for s in starts
        )
        band_low = " ".join(
            f"{_x(s['turn'], turns):.1f},{_y(s['win_chance_interval'][0]):.1f}"
            for s in reversed(starts)
        )
        parts.append(f'<polygon class="band" points="{band_top} {band_low}"/>')
        line = " ".join(f"{_x(s['turn'], turns):.1f},{_y(s['win_chance']):.1f}" for s in starts)
        parts.append(f'<polyline class="curve" points="{line}"/>')
        for s in starts:
            parts.append(
                f'<circle class="point" cx="{_x(s["turn"], turns):.1f}" '
                f'cy="{_y(s["win_chance"]):.1f}" r="2.5"><title>turn {s["turn"]}: '
                f"{100 * s['win_chance']:.0f}%</title></circle>"
            )
    by_turn = {s["turn"]: s["win_chance"] for s in starts}
    for a in review["actions"]:
        if not a["mark"]:
            continue
        x, y = _x(a["turn"], turns), _y(by_turn.get(a["turn"], 0.5))
        label = (
            f"turn {a['turn']}, play {a['play']}: {a['played']['text']} "
            f"({MARK_WORDS[a['mark']]}; better {a['better']['text']})"
        )
        parts.append(
            f'<g class="mark mark-{len(a["mark"]) + (a["mark"] == "?!")}" '
            f'data-mark="{escape(a["mark"])}"><title>{escape(label)}</title>'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6"/>'
            f'<text x="{x:.1f}" y="{y - 10:.1f}" text-anchor="middle">'
            f"{escape(a['mark'])}</text></g>"
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def hindsight_chart(review: dict[str, Any]) -> Markup | None:
    """Best reachable cards left (the deck's order known) before the first
    action and after each: a step down never happens, a step up is a loss."""
    hs = review.get("hindsight")
    if not hs or not hs["curve"]:
        return None
    curve = hs["curve"]
    top = max(max(curve), 1)
    n = len(curve)
    pts = " ".join(
        f"{PAD + (WIDTH - 2 * PAD) * i / max(1, n - 1):.1f},"
        f"{HEIGHT - PAD - (HEIGHT - 2 * PAD) * v / top:.1f}"
        for i, v in enumerate(curve)
    )
    return Markup(
        f'<svg data-chart="hindsight" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" class="chart" '
        f'aria-label="best reachable cards left after each action, in hindsight">'
        f"<title>Best reachable cards left after each action (hindsight)</title>"
        f'<text class="axis" x="4" y="{PAD + 4}">{top}</text>'
        f'<text class="axis" x="4" y="{HEIGHT - PAD + 4}">0</text>'
        f'<line class="grid" x1="{PAD}" x2="{WIDTH - PAD}" y1="{HEIGHT - PAD}" '
        f'y2="{HEIGHT - PAD}"/><polyline class="curve hindsight" points="{pts}"/></svg>'
    )


def review_context(record: Record, review: dict[str, Any]) -> dict[str, Any]:
    """What review.html shows: the summary, the charts, the marked actions
    with the better action on their position and the hindsight beside it."""
    starts = review["turn_starts"]
    marked = [a for a in review["actions"] if a["mark"]]
    counts = {m: sum(1 for a in marked if a["mark"] == m) for m in ("??", "?", "?!")}
    return {
        "data": review,
        "variant": record.deal.rules.name,
        "turns": len(record.turns),
        "start": starts[0] if starts else None,
        "marked": marked,
        "counts": {MARK_WORDS[m]: n for m, n in counts.items() if n},
        "chart": win_chart(review) if starts else None,
        "hindsight_chart": hindsight_chart(review),
        "differ": [a for a in review["actions"] if not a["same"] and a["drop"] is not None],
    }


def mind_chart(odds: dict[str, Any]) -> Markup:
    """The Mind, per level: the chance to lose no life without a star and
    with one thrown at the start (bars), and the chance to complete the
    level with the best star policy (the line); all exact."""
    levels = odds["levels"]
    done = odds["campaign"]["p_complete_level"]
    n = len(levels)
    step = (WIDTH - 2 * PAD) / max(1, n)
    parts = [
        f'<svg data-chart="mind-odds" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" class="chart" '
        f'aria-label="The Mind: the odds of each level">',
        "<title>Chance to lose no life per level (without and with a star), and to "
        "complete it with the best star policy</title>",
    ]
    for level in (0, 0.5, 1):
        y = _y(level)
        parts.append(
            f'<line class="grid" x1="{PAD}" x2="{WIDTH - PAD}" y1="{y:.1f}" y2="{y:.1f}"/>'
        )
        parts.append(f'<text class="axis" x="4" y="{y + 4:.1f}">{int(level * 100)}%</text>')
    points = []
    for i, row in enumerate(levels):
        x = PAD + i * step
        for k, (key, cls) in enumerate((("lives_lost", "plain"), ("lives_lost_with_star", "star"))):
            p = row[key][0]
            top = _y(p)
            parts.append(
                f'<rect class="bar {cls}" x="{x + 4 + k * (step - 8) / 2:.1f}" y="{top:.1f}" '
                f'width="{(step - 8) / 2:.1f}" height="{HEIGHT - PAD - top:.1f}">'
                f"<title>level {row['level']}, {'a star at the start' if k else 'no star'}: "
                f"{100 * p:.1f}% lose no life</title></rect>"
            )
        parts.append(
            f'<text class="axis" x="{x + step / 2:.1f}" y="{HEIGHT - 12}" '
            f'text-anchor="middle">{row["level"]}</text>'
        )
        points.append(f"{x + step / 2:.1f},{_y(done[i]):.1f}")
    parts.append(f'<polyline class="curve" points="{" ".join(points)}"/>')
    parts.append("</svg>")
    return Markup("".join(parts))


def mind_context(odds: dict[str, Any]) -> dict[str, Any]:
    camp = odds["campaign"]
    reachable = [e for e in camp["star_policy"] if e["reachable"]]
    return {
        "odds": odds,
        "chart": mind_chart(odds),
        "p_win": camp["p_win"],
        "p_win_without_stars": camp["p_win_without_stars"],
        "policy": reachable,
    }
