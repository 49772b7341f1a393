"""The Cento daily played in the static site's day page (?variant=cento)
under the strict CSP: its proven line played by clicks (draws, plays, free
cards named, the 100 as Trick or Treat) empties the hand in the proven
number of turns; an illegal play is refused with its rule, and Undo takes a
turn back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import DAY, day_data
from tests.web.test_site import browser, page, ready  # noqa: F401


def play_turn(pg: Any, turn: dict[str, Any]) -> None:
    before = pg.locator("[data-board]").get_attribute("data-turns")
    if turn.get("trick"):
        pg.click('[data-cento="trick"]')
    if turn.get("treat"):
        pg.click('[data-cento="treat"]')
    if turn["draw"]:
        pg.click('[data-cento="draw"]')
    for p in turn["plays"]:
        if p["card"] == "free":
            pg.fill("#cento-name", str(p["as"]))
            pg.click('[data-cento="free"]')
        else:
            pg.click(f'#hand [data-card="{p["card"]}"]')
        assert pg.inner_text("#message") == "", p
    board = pg.locator("[data-board]")
    ended = board.get_attribute("data-turns") != before
    if not ended and board.get_attribute("data-state") == "playing":
        pg.click('[data-cento="end-turn"]')
    assert board.get_attribute("data-turns") == str(int(before or 0) + 1)


def test_the_cento_daily_is_played_by_its_proven_line(page: Any, site_dir: Path) -> None:  # noqa: F811
    cento = day_data(site_dir, DAY)["cento"]
    page.goto(f"daily/{DAY}/?variant=cento")
    ready(page)
    board = page.locator("[data-board]")
    assert board.get_attribute("data-state") == "playing"
    hand = cento["deal"]["hands"][0]
    assert page.locator("#hand [data-card]").count() == len(hand)
    # A card that shares no digit with the open card is refused by rule Z1.
    opening = str(cento["deal"]["open"])
    wrong = [c for c in hand if c != "free" and not set(str(c)) & set(opening) and c > 9]
    if wrong:
        page.click(f'#hand [data-card="{wrong[0]}"]')
        assert page.inner_text("#message").startswith("rule Z1:")
    first = cento["turns"][0]
    play_turn(page, first)
    page.click('[data-cento="undo"]')
    if board.get_attribute("data-turns") == "1":  # the turn's last step taken back
        page.click('[data-cento="undo"]')
    assert page.locator("#hand [data-card]").count() == len(hand)
    for turn in cento["turns"]:
        play_turn(page, turn)
    assert board.get_attribute("data-state") == "solved"
    assert board.get_attribute("data-turns") == str(cento["turn_count"])
    end = page.inner_text("#end")
    assert "Solved!" in end and f"{cento['turn_count']} turns taken" in end
    assert "no help" in page.inner_text("[data-share]")
