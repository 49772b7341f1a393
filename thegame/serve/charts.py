"""The review page's figures: the win-chance curve per turn as inline SVG,
with the marked actions on it, and the rows of the marked actions."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from markupsafe import Markup

from ..models.the_game import GameState, Record, Rules, pile_name, replay
from . import review_words as rw
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
        mark = rw.shown_mark(a, False)
        if not mark:
            continue
        x, y = _x(a["turn"], turns), _y(by_turn.get(a["turn"], 0.5))
        label = (
            f"turn {a['turn']}, play {a['play']}: {a['played']['text']} "
            f"({MARK_WORDS[mark]}; better {a['better']['text']})"
        )
        parts.append(
            f'<g class="mark mark-{len(mark) + (mark == "?!")}" '
            f'data-mark="{escape(mark)}" data-turn="{a["turn"]}" data-position="{i}">'
            f"<title>{escape(label)}</title>"
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6"/>'
            f'<text x="{x:.1f}" y="{y - 10:.1f}" text-anchor="middle">'
            f"{escape(mark)}</text></g>"
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def hindsight_chart(review: dict[str, Any]) -> Markup | None:
    """Best reachable cards left (the deck's order known) before the first
    action and after each: a step down never happens, a step up is a loss.
    A proven point is filled; a point only found (an upper bound) is
    hollow and says ``<= N (best found)``."""
    points = rw.curve(review)
    if not points or any(v is None for v, _ in points):
        return None
    values = [v or 0 for v, _ in points]
    top = max(max(values), 1)
    n = len(values)

    def xy(i: int, v: int) -> str:
        x = PAD + (WIDTH - 2 * PAD) * i / max(1, n - 1)
        return f"{x:.1f},{HEIGHT - PAD - (HEIGHT - 2 * PAD) * v / top:.1f}"

    pts = " ".join(xy(i, v) for i, v in enumerate(values))
    # A point per position (before action i), each a step of the replay board.
    dots = []
    for i, (v, proven) in enumerate(points):
        cx, cy = xy(i, v or 0).split(",")
        where = "the start" if i == 0 else f"after action {i}"
        dots.append(
            f'<circle class="point hindsight{"" if proven else " unproven"}" '
            f'data-position="{i}" data-proven="{str(proven).lower()}" cx="{cx}" cy="{cy}" r="4">'
            f"<title>{where}: best reachable {escape(rw.cards_figure(v or 0, proven))} "
            f"cards left</title></circle>"
        )
    return Markup(
        f'<svg data-chart="hindsight" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" class="chart" '
        f'aria-label="best reachable cards left after each action, in hindsight">'
        f"<title>Best reachable cards left after each action (hindsight; a hollow point "
        f"is the best found, not proven)</title>"
        f'<text class="axis" x="4" y="{PAD + 4}">{top}</text>'
        f'<text class="axis" x="4" y="{HEIGHT - PAD + 4}">0</text>'
        f'<line class="grid" x1="{PAD}" x2="{WIDTH - PAD}" y1="{HEIGHT - PAD}" '
        f'y2="{HEIGHT - PAD}"/><polyline class="curve hindsight" points="{pts}"/>'
        f"{''.join(dots)}</svg>"
    )


def _level(value: float, half: float, thresholds: list[float]) -> int:
    """The mark level one measure reaches (its interval clear of zero)."""
    if value - half <= 0:
        return 0
    return sum(1 for t in thresholds if value >= t)


def measure_words(action: dict[str, Any], marks: dict[str, list[float]]) -> str:
    """The measure that made (or did not make) a mark, in plain words: the
    win chance lost, or, when that decided it, the expected cards left. A
    choice of the policy that does not measure better is never called
    better."""
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
    over = f" (over {plural(n, 'sampled order')} of the unseen cards)"
    chance_p, chance_b = percent(after_p["win_chance"]), percent(after_b["win_chance"])
    if not rw.measured_better(action):
        other = action["better"]
        what = "ending the turn" if other.get("end_turn") else other["text"]
        return (
            f"not marked: the blind policy would choose {what}, which does not measure "
            f"better here: win chance {chance_p} as played, {chance_b} with it; expected "
            f"cards left {after_p['expected_cards_left']:.1f} as played, "
            f"{after_b['expected_cards_left']:.1f} with it" + over
        )
    win = _level(drop["win_chance_lost"], drop["win_chance_lost_margin"], marks["win_chance_lost"])
    left = _level(
        drop["cards_left_gained"], drop["cards_left_gained_margin"], marks["cards_left_gained"]
    )
    if win >= left:
        lost = round(100 * drop["win_chance_lost"])
        margin = round(100 * drop["win_chance_lost_margin"])
        return (
            f"loses about {plural(lost, 'point')} of win chance (± {margin}): win chance "
            f"{chance_b} with the better action, {chance_p} as played" + over
        )
    more, margin_left = drop["cards_left_gained"], drop["cards_left_gained_margin"]
    return (
        f"leaves about {more:.1f} more cards at the end (± {margin_left:.1f}): expected cards "
        f"left {after_b['expected_cards_left']:.1f} with the better action, "
        f"{after_p['expected_cards_left']:.1f} as played; win chance {chance_b} with it, "
        f"{chance_p} as played" + over
    )


def action_rules(rules: Rules, played: dict[str, Any]) -> list[dict[str, str]]:
    """The rules an action follows, each linked to its heading in the
    rulebook: where a card may go (and a fire card's), or the turn's
    minimum and the draw that end it."""
    if played.get("end_turn"):
        ids = [rules.min_play_rule, "C6"]
    else:
        ids = ["C5"] + (["F1"] if played.get("card") in rules.fire_cards else [])
    return [rule_link(r) for r in ids]


# Without the thresholds (no fair review) no measure reaches a mark.
NO_MARKS = {"win_chance_lost": [2.0] * 3, "cards_left_gained": [999.0] * 3}


def _draw_piles(record: Record) -> dict[tuple[int, int], list[int]]:
    """The draw pile, top first, before each action (turn, play from 1):
    what a player who saw it had in view."""
    state = GameState(record.deal, first=record.first)
    out: dict[tuple[int, int], list[int]] = {}
    for t, turn in enumerate(record.turns, 1):
        for p, play in enumerate(turn.plays, 1):
            out[(t, p)] = state.draw_pile()
            state.play(play.card, play.pile)
        out[(t, len(turn.plays) + 1)] = state.draw_pile()
        if state.over:
            break
        state.end_turn()
    return out


def _hindsight_text(action: dict[str, Any] | None, point: tuple[int | None, bool]) -> str | None:
    """The hindsight words of a position: best reachable before and after
    the action, or from the position (the end); each figure exact or
    labelled best found."""
    if action is not None:
        figures = rw.action_hindsight(action)
        if figures is not None:
            return f"hindsight: best reachable cards left {figures} (before → after this action)"
    value, proven = point
    if value is None:
        return None
    return f"hindsight: best reachable {rw.cards_figure(value, proven)} cards left from here"


def replay_frames(record: Record, review: dict[str, Any]) -> list[dict[str, Any]]:
    """The replay board's positions: one before each judged action (the
    position the review judged it in, the action played, the better one if
    it measures better, and the measure in words), then the end of the game
    (replayed by the engine). In a full-view game the draw pile is face up."""
    full = rw.full_view(record, review)
    marks = review.get("marks") or NO_MARKS
    hs = rw.curve(review)
    seen = _draw_piles(record) if full else {}
    frames: list[dict[str, Any]] = []
    for i, a in enumerate(review["actions"]):
        pos = a["position"]
        mark = rw.shown_mark(a, full)
        point = hs[i] if i < len(hs) else (None, False)
        frames.append(
            {
                "turn": a["turn"],
                "play": a["play"],
                "player": a["player"],
                "piles": pos["piles"],
                "hand": pos["hand"],
                "draw_left": pos["draw_left"],
                "draw_pile": seen.get((a["turn"], a["play"])),
                "played": a["played"],
                "better": a["better"] if mark else None,
                "mark": mark,
                "words": "judged by hindsight alone: the player saw the draw pile"
                if full
                else measure_words(a, marks),
                "hindsight": point[0],
                "hindsight_proven": point[1],
                "hindsight_text": _hindsight_text(a, point),
                "rules": action_rules(record.deal.rules, a["played"]),
            }
        )
    end = replay(record).state
    rules = end.rules
    last = hs[len(review["actions"])] if len(hs) > len(review["actions"]) else (None, False)
    frames.append(
        {
            "turn": len(record.turns),
            "play": None,
            "player": end.current + 1,
            "piles": {pile_name(rules, i): t for i, t in enumerate(end.tops)},
            "hand": list(end.hand()),
            "draw_left": end.stock_left(),
            "draw_pile": end.draw_pile() if full else None,
            "played": None,
            "better": None,
            "mark": "",
            "words": f"the end: {plural(end.cards_left(), 'card')} left ({end.status})",
            "hindsight": last[0],
            "hindsight_proven": last[1],
            "hindsight_text": _hindsight_text(None, last),
            "rules": [rule_link("C7" if end.cards_left() == 0 else "C8")],
        }
    )
    return frames


def _mistakes(review: dict[str, Any]) -> list[dict[str, Any]]:
    """The hindsight mistakes, each with the index of its action (for the
    board) and its figures exact or labelled best found."""
    hs = review.get("hindsight") or {}
    index = {(a["turn"], a["play"]): i for i, a in enumerate(review["actions"])}
    out = []
    for m in hs.get("mistakes") or []:
        proven = m.get("optimal") is True or m.get("proven") is True
        out.append(
            dict(
                m,
                position_index=index.get((m["turn"], m["play"])),
                proven=proven,
                figures=f"{rw.cards_figure(m['best_before'], proven)} → "
                f"{rw.cards_figure(m['best_after'], proven)}",
            )
        )
    return out


def _moves(review: dict[str, Any], full: bool) -> list[dict[str, Any]]:
    """The list of actions, a row a turn: each action's index (a step of
    the board), its text and the mark the page shows."""
    turns: list[dict[str, Any]] = []
    for i, a in enumerate(review["actions"]):
        if not turns or turns[-1]["turn"] != a["turn"]:
            turns.append({"turn": a["turn"], "player": a["player"], "actions": []})
        turns[-1]["actions"].append(
            {"index": i, "text": a["played"]["text"], "mark": rw.shown_mark(a, full)}
        )
    return turns


def _found_past_zero(review: dict[str, Any]) -> str | None:
    """A won game that passed a turn start the estimate put near 0%: the
    player found what the estimate's policy did not."""
    low = review.get("beyond_estimate") or []  # the analysis's judgement, said once
    if not low:
        return None
    s = low[0]
    return (
        f"The player won from turn {s['turn']}, where the estimate gave "
        f"{percent(s['win_chance'])}: the player found a way the blind policy's playouts "
        f"did not. The curve estimates how the policy does from each point; it is no "
        f"verdict on the position."
    )


def review_context(record: Record, review: dict[str, Any]) -> dict[str, Any]:
    """What review.html shows: the summary, the charts, the list of actions,
    the marked actions with the better action on their position and the
    hindsight beside it. A full-view game shows hindsight only."""
    full = rw.full_view(record, review)
    starts = [] if full else review["turn_starts"]
    marked = [
        dict(a, position_index=i, mark=rw.shown_mark(a, full))
        for i, a in enumerate(review["actions"])
        if rw.shown_mark(a, full)
    ]
    counts = {m: sum(1 for a in marked if a["mark"] == m) for m in ("??", "?", "?!")}
    marks = review.get("marks") or NO_MARKS
    for a in marked:
        a["words"] = measure_words(a, marks)
        a["rules"] = action_rules(record.deal.rules, a["played"])
        a["hindsight_text"] = rw.action_hindsight(a)
    return {
        "data": review,
        "full_view": full,
        "variant": record.deal.rules.name,
        "turns": len(record.turns),
        "players": record.deal.players,
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
        "found_past_zero": None if full else _found_past_zero(review),
        "best_at_start": _best_at_start(review),
        "frames": json.dumps(replay_frames(record, review)),
        "moves": _moves(review, full),
        "hindsight_mistakes": _mistakes(review),
        "chart": win_chart(review) if starts else None,
        "hindsight_chart": hindsight_chart(review),
    }


def _best_at_start(review: dict[str, Any]) -> str | None:
    """The best reachable cards left at the start, exact or best found."""
    start = (review.get("hindsight") or {}).get("best_at_start")
    if not start or start.get("cards_left") is None:
        return None
    return rw.cards_figure(start["cards_left"], start.get("optimal") is True)


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
