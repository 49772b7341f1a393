"""The review page's honesty rules, on a real review of a record: a better
action only where it measures better, every hindsight figure exact or
written ``<= N (best found)``, and a full-view game judged by hindsight
alone with its draw pile face up. The flags (``full_view``,
``hindsight_proven``, a curve point's ``proven``) may be absent: the page
then reads the figures as unproven and the pile as face down."""

from __future__ import annotations

import copy
import json
import re
from html import unescape
from typing import Any

import pytest
from conftest import blunder_record
from jinja2 import Environment, PackageLoader, select_autoescape

from thegame.models.the_game import GameState, Record
from thegame.serve.charts import review_context
from thegame.serve.jobs import analyze_job

RECORD: Record = blunder_record()


@pytest.fixture(scope="module")
def review() -> dict[str, Any]:
    """The server's review of the blunder record (20 samples, a second of hindsight)."""
    return analyze_job(RECORD, 20, 0, 0.2, 1.0)


def page(review: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The page's context and its HTML, rendered as the server renders it."""
    context = review_context(RECORD, review)
    env = Environment(
        loader=PackageLoader("thegame.serve", "templates"), autoescape=select_autoescape(["html"])
    )
    html = env.get_template("review.html").render(review=context, record_text="")
    return context, html


def frames(html: str) -> list[dict[str, Any]]:
    raw = re.search(r'data-frames="([^"]*)"', html)
    assert raw is not None
    result: list[dict[str, Any]] = json.loads(unescape(raw.group(1)))
    return result


def test_a_better_action_is_named_only_where_it_measures_better(review: dict[str, Any]) -> None:
    _, html = page(review)
    shown = frames(html)
    assert any(f["better"] for f in shown)
    for a, f in zip(review["actions"], shown, strict=False):
        if f["better"] is not None:
            assert a["after_better"]["win_chance"] >= a["after_played"]["win_chance"]
            assert f["mark"]
        else:
            # The policy's other choice is never called better.
            assert "with the better action" not in f["words"]
    # A mark the win chance contradicts (the better action wins less often)
    # shows neither the mark nor a better action, anywhere on the page.
    bent = copy.deepcopy(review)
    i, a = next((i, a) for i, a in enumerate(bent["actions"]) if a["mark"])
    a["drop"]["win_chance_lost"] = -0.02
    a["after_better"]["win_chance"] = a["after_played"]["win_chance"] - 0.02
    context, html = page(bent)
    f = frames(html)[i]
    assert f["mark"] == "" and f["better"] is None
    assert "with the better action" not in f["words"] and "does not measure better" in f["words"]
    assert all(m["position_index"] != i for m in context["marked"])
    chart = html.split('data-chart="win-chance"')[1].split("</svg>")[0]
    assert f'data-position="{i}">' not in chart  # no mark of it on the chart


def unflagged(review: dict[str, Any]) -> dict[str, Any]:
    """The review as an analysis that does not say what is proven."""
    bare = copy.deepcopy(review)
    del bare["full_view"], bare["hindsight"]["points"]
    for a in bare["actions"]:
        del a["hindsight_proven"]
    return bare


def test_hindsight_figures_follow_their_proof(review: dict[str, Any]) -> None:
    """Each action's figures as the analysis proved them: exact, or a bound."""
    _, html = page(review)
    for a, f in zip(review["actions"], frames(html), strict=False):
        text = f["hindsight_text"] or ""
        if a["hindsight_before"] is None:
            continue
        assert ("(best found)" not in text) == (
            a["hindsight_proven"] or a["hindsight_before"] == a["hindsight_after"] == 0
        ), text


def test_unflagged_hindsight_figures_read_best_found(review: dict[str, Any]) -> None:
    """Without ``proven`` a figure above 0 is an upper bound; a 0 is exact
    (nothing beats it, and the search reached it with a line)."""
    _, html = page(unflagged(review))
    shown = frames(html)
    assert any(f["hindsight"] for f in shown), "the record should lose cards in hindsight"
    for f in shown:
        text = f["hindsight_text"] or ""
        bare = re.findall(r"\d+", re.sub(r"<= \d+ \(best found\)", "", text))
        assert set(bare) <= {"0"}, f"a bare unproven figure: {text}"
        if f["hindsight"]:
            assert f"<= {f['hindsight']} (best found)" in text
            assert f["hindsight_proven"] is False
    assert "(best found)" in unescape(html)


def test_proven_figures_are_exact(review: dict[str, Any]) -> None:
    proven = copy.deepcopy(review)
    hs = proven["hindsight"]
    for point in hs["points"]:
        point["proven"] = True
    for a in proven["actions"]:
        a["hindsight_proven"] = True
    for m in hs["mistakes"]:
        m["optimal"] = True
    _, html = page(proven)
    assert "best found" not in unescape(html).split("Hindsight</h2>")[0]
    shown = frames(html)
    assert all(f["hindsight_proven"] for f in shown)
    assert any(f["hindsight"] and "best found" not in f["hindsight_text"] for f in shown)
    assert 'data-proven="false"' not in html


def test_a_full_view_game_is_judged_by_hindsight_alone(review: dict[str, Any]) -> None:
    seen = dict(review, full_view=True)
    context, html = page(seen)
    assert context["marked"] == [] and "data-full-view" in html
    assert 'data-chart="win-chance"' not in html and 'data-chart="hindsight"' in html
    assert "Fair review:" not in html
    shown = frames(html)
    assert all(f["mark"] == "" and f["better"] is None for f in shown)
    # The draw pile the player saw, face up: as the engine deals it.
    state = GameState(RECORD.deal, first=RECORD.first)
    assert shown[0]["draw_pile"] == state.draw_pile()
    turn = RECORD.turns[0]
    for p in turn.plays:
        state.play(p.card, p.pile)
    state.end_turn()
    assert shown[len(turn.plays) + 1]["draw_pile"] == state.draw_pile()


def test_without_the_flag_the_draw_pile_is_face_down(review: dict[str, Any]) -> None:
    assert review["full_view"] is False  # the record's own word
    context, html = page(unflagged(review))
    assert all(f["draw_pile"] is None for f in frames(html))
    assert "data-full-view" not in html and context["full_view"] is False
    # Under a strict Content-Security-Policy: no inline script, style or handler.
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert "<style" not in html and not re.search(r"\s(style|on[a-z]+)=", html)


@pytest.mark.parametrize(
    ("point", "read"),
    [
        (3, (3, False)),  # a bare number: found, not proven
        (0, (0, True)),  # nothing beats 0
        ({"cards_left": 3, "proven": True}, (3, True)),
        ({"cards_left": 3}, (3, False)),  # no flag: unproven
        ({"turn": 4, "play": 2, "cards_left": 5, "lower_bound": 2, "proven": False}, (5, False)),
        ({"proven": True}, (None, False)),
    ],
)
def test_a_curve_point_is_read_with_or_without_its_flag(point: Any, read: Any) -> None:
    from thegame.serve.review_words import cards_figure, curve_point

    assert curve_point(point) == read
    value, proven = read
    if value:
        assert cards_figure(value, proven) == (str(value) if proven else f"<= {value} (best found)")
