"""The review page's figures: the win-chance curve per turn as inline SVG,
with the marked actions on it, and the rows of the marked actions."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from markupsafe import Markup

from ..models.the_game import Record, Rules, pile_name, replay
from .rulebook import rule_link
from .views import percent, plural

WIDTH, HEIGHT, PAD = 640, 220, 36
MARK_WORDS = {"?!": "inaccuracy", "?": "mistake", "??": "blunder"}


def _x(turn: float, turns: int) -> float:
    return PAD + (WIDTH - 2 * PAD) * (turn - 1) / max(1, turns - 1)


def _y(chance: float) -> float:
    return HEIGHT - PAD - (HEIGHT - 2 * PAD) * chance


def first_actions(review: dict[str, Any]) -> dict[int, int]:
    """The index of each turn's first action in the review's actions."""
    out: dict[int, int] = {}
    for i, a in enumerate(review["actions"]):
        out.setdefault(a["turn"], i)
    return out


def _percent_axes(turns: int) -> list[str]:
    """The grid at every quarter, labelled in percent, and the turn ticks."""
    parts = []
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
    return parts


def win_chart(review: dict[str, Any]) -> Markup:
    """Win chance at the start of each turn (the blind policy's playouts,
    an estimate with its sample size) and a mark where a marked action was made.
    Each point and mark carries ``data-turn`` and ``data-position`` (the
    index of the action the replay board shows for it)."""
    starts = review["turn_starts"]
    first = first_actions(review)
    turns = max([s["turn"] for s in starts] + [1])
    parts = [
        f'<svg data-chart="win-chance" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'class="chart" aria-label="win chance at the start of each turn">',
        f"<title>Win chance at the start of each turn (estimate over "
        f"{starts[0]['samples'] if starts else 0} sampled orders)</title>",
    ]
    parts += _percent_axes(turns)
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
            at = first.get(s["turn"], len(review["actions"]))
            parts.append(
                f'<circle class="point" data-turn="{s["turn"]}" data-position="{at}" '
                f'cx="{_x(s["turn"], turns):.1f}" cy="{_y(s["win_chance"]):.1f}" r="5">'
                f"<title>turn {s['turn']}: {percent(s['win_chance'])}</title></circle>"
            )
    by_turn = {s["turn"]: s["win_chance"] for s in starts}
    for i, a in enumerate(review["actions"]):
        if not a["mark"]:
            continue
        x, y = _x(a["turn"], turns), _y(by_turn.get(a["turn"], 0.5))
        label = (
            f"turn {a['turn']}, play {a['play']}: {a['played']['text']} "
            f"({MARK_WORDS[a['mark']]}; better {a['better']['text']})"
        )
        parts.append(
            f'<g class="mark mark-{len(a["mark"]) + (a["mark"] == "?!")}" '
            f'data-mark="{escape(a["mark"])}" data-turn="{a["turn"]}" data-position="{i}">'
            f"<title>{escape(label)}</title>"
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
    # A point per position (before action i), each a step of the replay board.
    dots = "".join(
        f'<circle class="point hindsight" data-position="{i}" '
        f'cx="{PAD + (WIDTH - 2 * PAD) * i / max(1, n - 1):.1f}" '
        f'cy="{HEIGHT - PAD - (HEIGHT - 2 * PAD) * v / top:.1f}" r="4">'
        f"<title>{'the start' if i == 0 else f'after action {i}'}: best reachable "
        f"{plural(v, 'card')} left</title></circle>"
        for i, v in enumerate(curve)
    )
    return Markup(
        f'<svg data-chart="hindsight" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" class="chart" '
        f'aria-label="best reachable cards left after each action, in hindsight">'
        f"<title>Best reachable cards left after each action (hindsight)</title>"
        f'<text class="axis" x="4" y="{PAD + 4}">{top}</text>'
        f'<text class="axis" x="4" y="{HEIGHT - PAD + 4}">0</text>'
        f'<line class="grid" x1="{PAD}" x2="{WIDTH - PAD}" y1="{HEIGHT - PAD}" '
        f'y2="{HEIGHT - PAD}"/><polyline class="curve hindsight" points="{pts}"/>{dots}</svg>'
    )


def _level(value: float, half: float, thresholds: list[float]) -> int:
    """The mark level one measure reaches (its interval clear of zero)."""
    if value - half <= 0:
        return 0
    return sum(1 for t in thresholds if value >= t)


def measure_words(action: dict[str, Any], marks: dict[str, list[float]]) -> str:
    """The measure that made (or did not make) a mark, in plain words: the
    win chance lost, or, when that decided it, the expected cards left."""
    drop, after_p, after_b = action["drop"], action["after_played"], action["after_better"]
    if action.get("better_by") == "hindsight":  # a full-view game: hindsight alone
        if action["better"] is None:
            return "no loss proven with hindsight"
        return "the best reachable cards left provably got worse (hindsight)"
    if action["same"] or drop is None or after_p is None or after_b is None:
        return "the blind policy's own choice here"
    n = after_p["samples"]
    if action["better"] is None:
        return (
            f"nothing measured better than the action played (over "
            f"{plural(n, 'sampled order')} of the unseen cards)"
        )
    win = _level(drop["win_chance_lost"], drop["win_chance_lost_margin"], marks["win_chance_lost"])
    left = _level(
        drop["cards_left_gained"], drop["cards_left_gained_margin"], marks["cards_left_gained"]
    )
    chance = (
        f"win chance {percent(after_b['win_chance'])} with the better action, "
        f"{percent(after_p['win_chance'])} as played"
    )
    cards = (
        f"expected cards left {after_b['expected_cards_left']:.1f} with the better action, "
        f"{after_p['expected_cards_left']:.1f} as played"
    )
    over = f" (over {plural(n, 'sampled order')} of the unseen cards)"
    if win == 0 and left == 0:
        return "no measurable loss: " + chance + over
    if win >= left:
        lost = round(100 * drop["win_chance_lost"])
        margin = round(100 * drop["win_chance_lost_margin"])
        return f"loses about {plural(lost, 'point')} of win chance (± {margin}): " + chance + over
    more, margin_left = drop["cards_left_gained"], drop["cards_left_gained_margin"]
    return f"leaves about {more:.1f} more cards at the end (± {margin_left:.1f}): " + cards + over


def action_rules(rules: Rules, played: dict[str, Any]) -> list[dict[str, str]]:
    """The rules an action follows, each linked to its heading in the
    rulebook: where a card may go (and a fire card's), or the turn's
    minimum and the draw that end it."""
    if played.get("end_turn"):
        ids = [rules.min_play_rule, "C6"]
    else:
        ids = ["C5"] + (["F1"] if played.get("card") in rules.fire_cards else [])
    return [rule_link(r) for r in ids]


def replay_frames(record: Record, review: dict[str, Any]) -> list[dict[str, Any]]:
    """The replay board's positions: one before each judged action (the
    position the review judged it in, the action played, the better one and
    the measure in words), then the end of the game (replayed by the engine)."""
    # Without the thresholds (no fair review) no measure reaches a mark.
    marks = review.get("marks") or {"win_chance_lost": [2] * 3, "cards_left_gained": [999] * 3}
    hs = (review.get("hindsight") or {}).get("curve") or []
    frames: list[dict[str, Any]] = []
    for i, a in enumerate(review["actions"]):
        pos = a["position"]
        frames.append(
            {
                "turn": a["turn"],
                "play": a["play"],
                "player": a["player"],
                "piles": pos["piles"],
                "hand": pos["hand"],
                "draw_left": pos["draw_left"],
                "played": a["played"],
                "better": None if a["same"] else a["better"],
                "mark": a["mark"],
                "words": measure_words(a, marks),
                "hindsight": hs[i] if i < len(hs) else None,
                "rules": action_rules(record.deal.rules, a["played"]),
            }
        )
    end = replay(record).state
    rules = end.rules
    frames.append(
        {
            "turn": len(record.turns),
            "play": None,
            "player": end.current + 1,
            "piles": {pile_name(rules, i): t for i, t in enumerate(end.tops)},
            "hand": list(end.hand()),
            "draw_left": end.stock_left(),
            "played": None,
            "better": None,
            "mark": "",
            "words": f"the end: {plural(end.cards_left(), 'card')} left ({end.status})",
            "hindsight": hs[len(review["actions"])] if len(hs) > len(review["actions"]) else None,
            "rules": [rule_link("C7" if end.cards_left() == 0 else "C8")],
        }
    )
    return frames


def _mistakes(review: dict[str, Any]) -> list[dict[str, Any]]:
    """The hindsight mistakes, each with the index of its action (for the board)."""
    hs = review.get("hindsight") or {}
    index = {(a["turn"], a["play"]): i for i, a in enumerate(review["actions"])}
    return [
        dict(m, position_index=index.get((m["turn"], m["play"]))) for m in hs.get("mistakes") or []
    ]


def review_context(record: Record, review: dict[str, Any]) -> dict[str, Any]:
    """What review.html shows: the summary, the charts, the marked actions
    with the better action on their position and the hindsight beside it."""
    starts = review["turn_starts"]
    marked = [dict(a, position_index=i) for i, a in enumerate(review["actions"]) if a["mark"]]
    counts = {m: sum(1 for a in marked if a["mark"] == m) for m in ("??", "?", "?!")}
    marks = review.get("marks") or {}
    for a in marked:
        a["words"] = measure_words(a, marks)
        a["rules"] = action_rules(record.deal.rules, a["played"])
    return {
        "data": review,
        "variant": record.deal.rules.name,
        "turns": len(record.turns),
        "start": starts[0] if starts else None,
        "marked": marked,
        "counts": ", ".join(plural(n, MARK_WORDS[m]) for m, n in counts.items() if n),
        "start_text": None
        if not starts
        else (
            f"{percent(starts[0]['win_chance'])} ("
            f"{percent(starts[0]['win_chance_interval'][0])} to "
            f"{percent(starts[0]['win_chance_interval'][1])})"
        ),
        "frames": json.dumps(replay_frames(record, review)),
        "hindsight_mistakes": _mistakes(review),
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
                f"{percent(p)} lose no life</title></rect>"
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
    reachable = [
        dict(e, if_star=percent(e["p_win_if_star"]), if_keep=percent(e["p_win_if_keep"]))
        for e in camp["star_policy"]
        if e["reachable"]
    ]
    return {
        "odds": odds,
        "chart": mind_chart(odds),
        "p_win": percent(camp["p_win"]),
        "p_win_without_stars": percent(camp["p_win_without_stars"]),
        "policy": reachable,
    }
