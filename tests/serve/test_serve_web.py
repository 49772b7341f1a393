"""The web face as a player meets it, in headless Chromium (Playwright, one
browser for the module): the review replayed on its board, a daily solved
by keyboard to its solved screen, its next unsolved day and a streak over
two days, every page at a phone's width without a sideways scroll, and an
accessibility audit (axe-core) of every page with no serious or critical
violation. With ``THEGAME_SCREENSHOTS=1`` the tests save each page at
desktop and phone width to docs/img/web/ (the pictures of docs/web.md).
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import DAY, LiveServer, blunder_record, launch_browser

from tests.support.browser import audit
from thegame.models.the_game import GameState, Record, pile_name, replay

IMG = Path(__file__).resolve().parents[2] / "docs" / "img" / "web"
PHONE = {"width": 375, "height": 700}
DESKTOP = {"width": 1100, "height": 900}
YESTERDAY = (dt.date.fromisoformat(DAY) - dt.timedelta(days=1)).isoformat()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch_browser(("axe_playwright_python",))


def _open(browser: Any, server: LiveServer, viewport: dict[str, int]) -> Any:
    context = browser.new_context(base_url=server.url, viewport=viewport)
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    return pg


@pytest.fixture
def page(browser: Any, live_server: LiveServer) -> Iterator[Any]:
    pg = _open(browser, live_server, DESKTOP)
    yield pg
    pg.context.close()


def shot(page: Any, name: str, full_page: bool = True) -> None:
    """A screenshot for the docs, only when asked (tracked files stay put):
    the whole page, or only the window as it is (one screen)."""
    if os.environ.get("THEGAME_SCREENSHOTS") == "1":
        IMG.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(IMG / f"{name}.png"), full_page=full_page)


def settled(page: Any) -> None:
    """A board page has its first answer and no request in flight."""
    page.wait_for_function(
        "() => { const b = document.getElementById('board');"
        " return !b || (b.dataset.state !== 'loading' && !b.hasAttribute('aria-busy')); }",
        timeout=90_000,
    )


def _review(page: Any) -> Record:
    record = blunder_record()
    page.goto("/review")
    page.fill("#record", record.to_json())
    page.fill('input[name="samples"]', "20")
    page.click('[data-action="review"]')
    # While it waits the page says how many turns are judged so far, and offers Cancel.
    page.wait_for_function(
        "() => /judged [1-9][0-9]* of [0-9]+ turns/.test("
        "document.querySelector('[data-progress]')?.textContent || '')",
        timeout=90_000,
    )
    assert page.locator('.wait [data-action="cancel"]').is_visible()
    page.wait_for_selector("[data-board]", timeout=90_000)
    return record


def _tops(record: Record, turns: int) -> dict[str, int]:
    """The piles at the start of turn ``turns + 1``, replayed by the engine."""
    state = GameState(record.deal)
    for t in record.turns[:turns]:
        for p in t.plays:
            state.play(p.card, p.pile)
        state.end_turn()
    return {pile_name(state.rules, i): top for i, top in enumerate(state.tops)}


def _board_tops(page: Any) -> dict[str, int]:
    pairs = page.locator("#replay-piles [data-pile]").evaluate_all(
        "els => els.map(e => [e.dataset.pile, Number(e.dataset.top)])"
    )
    return dict(pairs)


def test_review_replays_on_its_board_in_step_with_chart_and_table(page: Any) -> None:
    record = _review(page)
    board = page.locator("[data-board]")
    assert board.get_attribute("data-position") == "0"
    assert _board_tops(page) == _tops(record, 0)
    # A point of the chart: the board shows the start of that turn.
    point = page.locator('[data-chart="win-chance"] circle.point[data-turn="5"]')
    at = point.get_attribute("data-position")
    point.click()
    assert board.get_attribute("data-position") == at
    assert _board_tops(page) == _tops(record, 4)
    assert "turn 5, play 1" in page.inner_text("#replay-label")
    assert "current" in (point.get_attribute("class") or "")
    # The arrow keys step one action.
    page.keyboard.press("ArrowRight")
    assert board.get_attribute("data-position") == str(int(at or 0) + 1)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Control+ArrowLeft")  # not a shortcut: the board stays
    assert board.get_attribute("data-position") == at
    # A row of the marks table: the board shows the action played and the better one.
    row = page.locator('table.marks tr[data-mark="??"]').first
    row.locator("button").click()
    assert board.get_attribute("data-position") == row.get_attribute("data-position")
    assert row.get_attribute("aria-current") == "true"
    words = page.inner_text("#replay-words")
    first = record.turns[0].plays[0]  # the blunder: the second-highest card on A1
    assert f"played {first.card} {pile_name(record.deal.rules, first.pile)}" in words
    assert "better" in words and "blunder" in words and "0 ± 0" not in words
    assert "win chance" in words or "cards" in words
    assert page.locator("#replay-piles .pile.played").count() == 1
    assert page.locator("#replay-hand .card.better").count() == 1
    # The mark on the chart goes to the same action.
    page.keyboard.press("Home")
    page.locator('[data-chart="win-chance"] g[data-mark="??"]').first.click()
    assert board.get_attribute("data-position") == row.get_attribute("data-position")
    # The hindsight line steps the board the same way; End shows the end of the game.
    page.locator('[data-chart="hindsight"] circle[data-position="3"]').click(force=True)
    assert board.get_attribute("data-position") == "3"
    page.keyboard.press("End")
    assert "the end" in page.inner_text("#replay-label")
    final = replay(record).state
    assert _board_tops(page) == {pile_name(final.rules, i): top for i, top in enumerate(final.tops)}
    assert f"{final.cards_left()} cards left" in page.inner_text("#replay-words")
    assert audit(page) == []
    page.keyboard.press("Home")
    row.locator("button").click()
    shot(page, "review-desktop")
    # The rule the action follows: a small link beside it, to its heading in the rulebook.
    ref = page.locator("#replay-words sup.rule-ref a").first
    assert ref.inner_text() == "C5"
    ref.click()
    page.wait_for_url("**/rules/the-game#C5")
    assert page.locator("h3#C5").is_visible()


def _tab_to(page: Any, attr: str, value: str, key: str = "Tab") -> None:
    """Tab (or Shift+Tab) until the focus is on the element with ``attr=value``."""
    for _ in range(120):
        got = page.evaluate(f"() => document.activeElement.getAttribute('{attr}')")
        if got == value:
            return
        page.keyboard.press(key)
    raise AssertionError(f"Tab never reached [{attr}={value}]")


def _focus_on_board(page: Any) -> bool:
    return bool(
        page.evaluate("() => document.getElementById('board').contains(document.activeElement)")
    )


def test_a_daily_by_keyboard_its_solved_screen_next_day_and_streak(page: Any) -> None:
    """The whole puzzle played with Tab and Enter (the focus stays on the
    board after each play), Ctrl+S ignored; the solved screen; its next
    unsolved day, solved too by solution steps: a streak of two days, gone
    two days later."""
    from thegame.puzzles.the_game.files import Puzzle

    page.clock.set_fixed_time(f"{DAY}T12:00:00Z")
    page.goto(f"/daily/{DAY}")
    settled(page)
    assert page.locator("#streak").get_attribute("data-streak") == "0"
    status = page.inner_text("#status")
    page.locator("#hand [data-card]").first.focus()
    page.keyboard.press("Control+s")  # the browser's save, never a solution step
    page.keyboard.press("Alt+h")
    page.wait_for_timeout(300)
    settled(page)
    assert page.inner_text("#status") == status and page.inner_text("#message") == ""
    puzzle = Puzzle.from_dict(page.request.get(f"/api/daily?date={DAY}").json())
    rules = puzzle.deal.rules
    for turn in puzzle.solution:
        for p in turn.plays:
            _tab_to(page, "data-card", str(p.card))
            page.keyboard.press("Enter")
            # The piles come before the hand: back with Shift+Tab.
            _tab_to(page, "data-pile", pile_name(rules, p.pile), "Shift+Tab")
            page.keyboard.press("Enter")
            settled(page)
            if page.locator("#board").get_attribute("data-state") == "playing":
                assert _focus_on_board(page)
        if page.locator("#board").get_attribute("data-state") == "playing":
            page.keyboard.press("e")
            settled(page)
    assert page.locator("#board").get_attribute("data-state") == "solved"
    end = page.inner_text("#end")
    assert "Solved!" in end and f"{len(puzzle.solution)} turns taken" in end
    assert "0 hints" in end and "0 solution steps" in end
    assert "no help" in page.inner_text("[data-share]")
    assert page.locator('[data-action="copy"]').is_visible()
    assert page.locator("#streak").get_attribute("data-streak") == "1"
    solved_day = page.locator(f'.calendar td.solved a[data-day="{DAY}"]')
    assert solved_day.count() == 1
    # The day stays in its own cell (a page's class once stretched it over the week).
    box, cell = solved_day.bounding_box(), solved_day.locator("xpath=..").bounding_box()
    assert box is not None and cell is not None and box["width"] <= cell["width"] + 1
    assert audit(page) == []
    shot(page, "daily-solved-desktop")
    nxt = page.locator('[data-action="next-day"]')
    assert nxt.get_attribute("href") == f"/daily/{YESTERDAY}"  # nothing after today
    nxt.click()
    settled(page)
    assert page.locator("#streak").get_attribute("data-streak") == "1"  # today's counts
    for _ in range(200):
        if page.locator("#board").get_attribute("data-state") != "playing":
            break
        page.keyboard.press("s")
        settled(page)
    assert page.locator("#board").get_attribute("data-state") == "solved"
    assert page.locator("#streak").get_attribute("data-streak") == "2"
    assert "0 hints" in page.inner_text("#end") and "0 solution steps" not in page.inner_text(
        "#end"
    )
    assert "hints" in page.inner_text("[data-share]")
    assert page.locator(".calendar td.solved").count() == 2
    # Two days on, neither yesterday nor today solved: the streak is over.
    page.clock.set_fixed_time(
        (dt.date.fromisoformat(DAY) + dt.timedelta(days=2)).isoformat() + "T08:00:00Z"
    )
    page.goto(f"/daily/{DAY}")
    settled(page)
    assert page.locator("#streak").get_attribute("data-streak") == "0"


def test_a_lost_daily_says_so_and_offers_undo(page: Any) -> None:
    """Every turn ended at its minimum with the lowest card on the first pile
    that takes it, until the puzzle is lost: the hand stays on the table,
    Undo and Start again are offered, and Undo takes the loss back."""
    page.goto(f"/daily/{DAY}")
    settled(page)
    for _ in range(60):
        if page.locator("#board").get_attribute("data-state") != "playing":
            break
        end = page.locator('.actions [data-action="end-turn"]')
        cards = page.locator("#hand [data-card]:not(.unplayable)")
        if end.is_enabled() or cards.count() == 0:
            page.once("dialog", lambda d: d.accept())
            end.click()
        else:
            card = cards.first
            pile = (card.get_attribute("data-piles") or "").split()[-1]
            card.click()
            page.once("dialog", lambda d: d.accept())
            page.click(f'#piles [data-pile="{pile}"]')
        settled(page)
    if page.locator("#board").get_attribute("data-state") != "lost":
        pytest.skip("this way of playing solved the puzzle")
    assert "Lost" in page.inner_text("#end")
    assert page.locator("#hand [data-card]").count() >= 1  # the hand stays on the table
    assert page.locator('[data-action="restart"]').is_visible()
    undo = page.locator('.actions [data-action="undo"]')
    assert undo.is_enabled()
    shot(page, "daily-lost-desktop")
    undo.click()
    settled(page)
    assert page.locator("#board").get_attribute("data-state") == "playing"


# Every page, in its first state: the address and whether it is a board page.
PAGES = [
    ("home", f"/?date={DAY}"),
    ("daily", f"/daily/{DAY}"),
    # Making an Extreme daily takes 7-40 s on a shared machine: the page is
    # checked on the day's puzzle as stored (see ``extreme_daily``).
    ("daily-extreme", f"/daily/{DAY}?variant=extreme"),
    ("play", "/play?seed=11&variant=classic&players=1"),
    ("solve", "/solve"),
    ("review-form", "/review"),
    ("mind", "/mind?players=3&tolerance=1"),
    ("nimmt", "/nimmt?seed=3&players=3&level=easy&round=1"),
    ("cento", f"/cento/{DAY}"),
    ("cento-table", "/cento/table?players=5&seed=4"),
    ("rules", "/rules/the-game"),
    ("error", "/daily/2026-13-01"),
]


# The day's Extreme puzzle, stored: made by
# ``thegame daily --date 2026-11-26 --variant extreme --json`` (the slow test
# below checks that it is still what the server would make).
EXTREME = Path(__file__).parent / "data" / f"daily-extreme-{DAY}.json"


@pytest.fixture
def extreme_daily(live_server: LiveServer) -> None:
    """The server keeps the stored Extreme puzzle of the day, as if it had made it."""
    server = live_server.app.state.server
    if (DAY, "extreme") not in server.puzzles:
        server.keep_puzzle((DAY, "extreme"), json.loads(EXTREME.read_text()))


@pytest.mark.slow
def test_the_stored_extreme_daily_is_the_days_puzzle() -> None:
    from thegame.serve.jobs import daily_job

    assert daily_job(DAY, "extreme") == json.loads(EXTREME.read_text())


@pytest.mark.usefixtures("extreme_daily")
@pytest.mark.parametrize(("name", "path"), PAGES)
def test_every_page_fits_a_phone_and_passes_the_audit(
    browser: Any, live_server: LiveServer, name: str, path: str
) -> None:
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        pg = _open(browser, live_server, viewport)
        try:
            pg.goto(path)
            settled(pg)
            if name == "mind":
                pg.wait_for_selector('[data-chart="mind-odds"]', timeout=90_000)
            if name == "home":
                # Today's classic and Cento puzzles drawn as boards (the Extreme one,
                # slow to make, may still show its wait).
                pg.wait_for_selector('[data-home="classic"] .pile >> nth=3', timeout=90_000)
                pg.wait_for_selector('[data-home="cento"] .pile', timeout=90_000)
            width = pg.evaluate("() => document.documentElement.scrollWidth")
            assert width <= viewport["width"], f"{path} is {width} px wide at {size} width"
            if size == "phone":  # one audit a page (a few seconds each)
                assert audit(pg) == [], path
            shot(pg, f"{name}-{size}")
        finally:
            pg.context.close()


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not drawn"
    return dict(box)


def _in_view(box: dict[str, float], viewport: dict[str, int]) -> bool:
    """The whole box inside the window as it is scrolled now."""
    return (
        box["y"] >= 0
        and box["y"] + box["height"] <= viewport["height"]
        and box["x"] >= 0
        and box["x"] + box["width"] <= viewport["width"]
    )


ANALYSIS = {"width": 1280, "height": 800}
PHONE_TALL = {"width": 375, "height": 812}


def test_the_review_is_an_analysis_board_at_desktop_width(
    browser: Any, live_server: LiveServer
) -> None:
    """At 1280x800 the board, the words on the current action, the
    win-chance chart and the list of actions are side by side in one screen,
    and no way of stepping (a row of the marks table, the keys, a point of
    the chart) takes the board out of view."""
    pg = _open(browser, live_server, ANALYSIS)
    try:
        _review(pg)
        board, words = _box(pg, ".replay-board"), _box(pg, "#replay-words")
        chart, moves = _box(pg, '[data-chart="win-chance"]'), _box(pg, "#moves")
        for name, box in (("board", board), ("words", words), ("chart", chart), ("list", moves)):
            assert _in_view(box, ANALYSIS), f"the {name} is not in the first screen: {box}"
        # Beside, not above: the board's column ends where the others begin.
        for box in (words, chart, moves):
            assert board["x"] + board["width"] <= box["x"]
            assert box["y"] < board["y"] + board["height"] or box is moves
        assert pg.evaluate("() => document.documentElement.scrollWidth") <= ANALYSIS["width"]
        # At every position of the game, whatever its words, all four stay in the first screen.
        lowest = pg.evaluate(
            """() => {
              const ids = ['.replay-board', '#replay-words', '[data-chart="win-chance"]', '#moves'];
              const n = JSON.parse(document.getElementById('replay').dataset.frames).length;
              let low = 0;
              for (let i = 0; i < n; i++) {
                for (const s of ids) {
                  low = Math.max(low, document.querySelector(s).getBoundingClientRect().bottom);
                }
                document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'}));
              }
              document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Home'}));
              return low;
            }"""
        )
        assert lowest <= ANALYSIS["height"], f"something reaches {lowest} px"
        assert pg.locator("[data-board]").get_attribute("data-position") == "0"
        shot(pg, "review-board-desktop", full_page=False)
        # A row of the marks table (below the first screen): the board stays in view.
        row = pg.locator('table.marks tr[data-mark="??"]').first
        row.locator("button").click()
        assert pg.evaluate("() => window.scrollY") > 0  # the table was scrolled to
        position = int(row.get_attribute("data-position") or 0)
        assert pg.locator("[data-board]").get_attribute("data-position") == str(position)
        assert _in_view(_box(pg, ".replay-board"), ANALYSIS)
        # The keys step on, the board in view, the current action lit in the list.
        for _ in range(5):
            pg.keyboard.press("ArrowRight")
        assert pg.locator("[data-board]").get_attribute("data-position") == str(position + 5)
        assert _in_view(_box(pg, ".replay-board"), ANALYSIS)
        current = pg.locator("#moves button.current")
        assert current.count() == 1
        assert current.get_attribute("data-position") == str(position + 5)
        # The list keeps its current action inside its own box, without moving the page.
        pg.keyboard.press("Home")
        scrolled = pg.evaluate("() => window.scrollY")
        pg.keyboard.press("End")
        # (no jump: scroll anchoring may shift a few pixels as the words change length)
        assert abs(pg.evaluate("() => window.scrollY") - scrolled) < 40
        last, box = _box(pg, "#moves button.current"), _box(pg, "#moves")
        assert box["y"] <= last["y"] and last["y"] + last["height"] <= box["y"] + box["height"] + 1
        # A point of the chart: the board in view.
        pg.locator('[data-chart="win-chance"] circle.point[data-turn="3"]').click()
        assert "turn 3, play 1" in pg.inner_text("#replay-label")
        assert _in_view(_box(pg, ".replay-board"), ANALYSIS)
        # An action of the list goes there too.
        pg.locator('#moves button[data-position="2"]').click()
        assert pg.locator("[data-board]").get_attribute("data-position") == "2"
        # n and p, and their buttons, go from mark to mark.
        rows = pg.locator("table.marks tr[data-mark]")
        marks = [rows.nth(k).get_attribute("data-position") for k in range(rows.count())]
        assert marks
        pg.keyboard.press("End")
        pg.keyboard.press("p")
        assert pg.locator("[data-board]").get_attribute("data-position") == marks[-1]
        pg.keyboard.press("Home")
        later = [m for m in marks if int(m or 0) > 0]
        # no mark after the start: the button says so, and n stays
        assert pg.locator('[data-action="next-mark"]').is_disabled() == (not later)
        pg.keyboard.press("n")
        assert pg.locator("[data-board]").get_attribute("data-position") == (
            later[0] if later else "0"
        )
        assert _in_view(_box(pg, ".replay-board"), ANALYSIS)
        # A point of the hindsight curve (below the first screen): the board in view.
        pg.locator('[data-chart="hindsight"] circle[data-position="7"]').click(force=True)
        assert pg.locator("[data-board]").get_attribute("data-position") == "7"
        assert pg.evaluate("() => window.scrollY") > 0
        assert _in_view(_box(pg, ".replay-board"), ANALYSIS)
        assert audit(pg) == []
    finally:
        pg.context.close()


def test_the_review_on_a_phone_is_stacked_with_its_steps_on_one_line(
    browser: Any, live_server: LiveServer
) -> None:
    """At 375 px: the board, then the words, the chart and the list; the
    four step buttons on one line; the marks table's "why" as sentences a
    line wide, not a word a line; a row far below brings the board back."""
    pg = _open(browser, live_server, PHONE_TALL)
    try:
        _review(pg)
        assert pg.evaluate("() => document.documentElement.scrollWidth") <= PHONE_TALL["width"]
        steps = ("first", "prev", "next", "last")
        buttons = [_box(pg, f'.stepper [data-action="{a}"]') for a in steps]
        assert len({round(b["y"]) for b in buttons}) == 1, buttons
        assert all(b["x"] + b["width"] <= PHONE_TALL["width"] for b in buttons)
        board, words = _box(pg, ".replay-board"), _box(pg, "#replay-words")
        chart, moves = _box(pg, '[data-chart="win-chance"]'), _box(pg, "#moves")
        assert board["y"] + board["height"] <= words["y"] <= chart["y"] <= moves["y"]
        why = pg.locator("table.marks td.why").first
        box = dict(why.bounding_box() or {})
        assert box["width"] >= 0.75 * PHONE_TALL["width"], box
        lines = why.evaluate(
            "e => Math.round(e.getBoundingClientRect().height"
            " / parseFloat(getComputedStyle(e).lineHeight))"
        )
        words_in = len(why.inner_text().split())
        assert lines * 4 <= words_in, f"{words_in} words on {lines} lines"
        pg.locator('table.marks tr[data-mark="??"] button').first.click()
        assert _in_view(_box(pg, ".replay-board"), PHONE_TALL)
        pg.keyboard.press("ArrowRight")
        assert _in_view(_box(pg, ".replay-board"), PHONE_TALL)
        pg.keyboard.press("ArrowLeft")
        shot(pg, "review-board-phone", full_page=False)
        pg.evaluate("() => window.scrollTo(0, 0)")
        shot(pg, "review-phone")
        assert audit(pg) == []
    finally:
        pg.context.close()


def test_a_hinted_card_stays_chosen_on_the_next_click(page: Any) -> None:
    """The hint chooses its card; the player's click on that card keeps it
    chosen (it used to undo the choice), and a pile that takes it plays it."""
    page.goto(f"/daily/{DAY}")
    settled(page)
    page.keyboard.press("h")
    settled(page)
    assert page.inner_text("#message").startswith("hint: ")
    chosen = page.locator('#hand [data-card][aria-pressed="true"]')
    assert chosen.count() == 1
    card = chosen.get_attribute("data-card")
    # The hint's card and its pile alone light up, in the hint's colour.
    assert "hinted" in (chosen.get_attribute("class") or "")
    assert page.locator("#piles .pile.hinted").count() == 1
    assert page.locator("#piles .pile.takes").count() == 0
    ring = page.locator("#piles .pile.hinted svg.face .paper").evaluate(
        "e => getComputedStyle(e).stroke"
    )
    card_ring = chosen.locator("svg.face .paper").evaluate("e => getComputedStyle(e).stroke")
    assert ring == card_ring
    shot(page, "daily-hint-desktop", full_page=False)
    chosen.click()
    assert page.locator(f'#hand [data-card="{card}"]').get_attribute("aria-pressed") == "true"
    assert page.locator("#piles .pile.hinted").count() == 1
    page.locator("#piles .pile.hinted").click()
    settled(page)
    assert page.locator(f'#hand [data-card="{card}"]').count() == 0
    assert page.locator("#piles .pile.last").count() == 1  # the last move stays visible
    # A card the player chooses lights every pile that takes it, in another colour.
    page.locator("#hand [data-card]:not(.unplayable)").first.click()
    assert page.locator("#piles .pile.hinted").count() == 0
    takes = page.locator("#piles .pile.takes svg.face .paper").first
    assert takes.evaluate("e => getComputedStyle(e).stroke") != ring


def test_the_minds_first_visit_shows_the_levels_counted(page: Any) -> None:
    """Odds not counted yet: the page shows the count's progress and a
    Cancel at once, then the odds when they are in."""
    page.goto("/mind?players=3&tolerance=2")
    wait = page.locator("#mind-wait")
    assert wait.is_visible() and wait.get_attribute("data-state") == "counting"
    # The Cancel comes with the watched job, a moment after the page: wait
    # for it (is_visible answers at once, whatever its timeout says).
    page.locator('#mind-wait [data-action="cancel"]').wait_for(state="visible", timeout=10_000)
    page.wait_for_function(
        "() => /[0-9]+ of 10 levels counted/.test("
        "document.querySelector('[data-progress]')?.textContent || '')",
        timeout=30_000,
    )
    assert audit(page) == []
    page.wait_for_selector('[data-chart="mind-odds"]', timeout=90_000)
    assert page.locator("#mind-wait").count() == 0


def _table_step(page: Any) -> None:
    """Seat 1's next step by clicks: a card the rules allow (the free card
    played as the first value the page suggests), else draw, else end the turn."""
    cards = page.locator('#hand [data-card]:not(.unplayable):not([data-card="free"])')
    if cards.count():
        cards.first.click()
        return
    if page.locator('#hand [data-card="free"]:not(.unplayable)').count():
        page.click('#hand [data-card="free"]')
        value = page.inner_text("#message").split("it may be ")[1].split(",")[0].strip()
        page.fill("#free-as", value)
        page.click('#hand [data-card="free"]')
        return
    for action in ("draw", "end-turn", "treat", "trick"):
        button = page.locator(f'.actions [data-action="{action}"]')
        if button.is_enabled():
            button.click()
            return
    raise AssertionError("no step allowed: " + page.inner_text("#status"))


def test_a_cento_table_of_four_by_clicks_with_a_hint_and_the_review(
    browser: Any, live_server: LiveServer
) -> None:
    """Seat 1 against the engine in seats 2-4, at a phone's width: a hint,
    the game played to its end by clicks, then the review of every turn."""
    pg = _open(browser, live_server, PHONE)
    try:
        pg.goto("/cento/table?players=4&seed=3")
        settled(pg)
        assert pg.locator("#seats li").count() == 4
        assert pg.locator('.actions [data-action="undo"]').is_disabled()  # no step to take back
        assert "next" not in (pg.get_attribute('#piles [data-pile="draw"]', "aria-label") or "")
        pg.keyboard.press("h")
        settled(pg)
        assert pg.inner_text("#message").startswith("hint: ")
        assert audit(pg) == []
        for _ in range(300):
            if pg.locator("#board").get_attribute("data-state") != "playing":
                break
            _table_step(pg)
            settled(pg)
        assert pg.locator("#board").get_attribute("data-state") == "over"
        verdict = pg.locator("#end [data-verdict]").get_attribute("data-verdict")
        assert verdict in ("win", "shared", "loss")
        turns = len(pg.inner_text("#line").split(" · "))
        pg.click('#end [data-action="review"]')
        pg.wait_for_selector('[data-review="summary"]', timeout=90_000)
        assert pg.locator("#review tbody tr").count() == turns
        assert pg.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        assert audit(pg) == []
        shot(pg, "cento-table-phone")
    finally:
        pg.context.close()


def test_a_daily_not_made_yet_shows_the_deals_tried(page: Any) -> None:
    """The first visit of a day: the page opens at once and shows the deals
    tried while the puzzle is made (then hides the wait), with Cancel."""
    page.goto("/daily/2026-10-02")  # a day no other test makes: 18 deals tried
    assert page.locator("#board").get_attribute("data-making") is not None
    settled(page)
    assert page.locator("#board").get_attribute("data-state") == "playing"
    words = page.locator("#wait [data-progress]").text_content() or ""
    assert "making the day's puzzle" in words and "tried" in words, words
    assert page.locator('#wait [data-action="cancel"]').count() == 1
    assert page.locator("#wait").is_hidden()


def test_the_daily_refuses_a_play_with_the_pages_own_referee(page: Any) -> None:
    """A puzzle's deal is open: a play the rules refuse is refused in the page
    by the web referee (the static site's), with the server's rule id and
    words, and no request is made for it."""
    assert page.request.get("/static/referee.js").ok
    page.goto(f"/daily/{DAY}")
    settled(page)
    piles = dict(
        page.locator("#piles [data-pile]").evaluate_all(
            "els => els.map(e => [e.dataset.pile, Number(e.dataset.top)])"
        )
    )
    hand = [
        int(c)
        for c in page.locator("#hand [data-card]").evaluate_all(
            "els => els.map(e => e.dataset.card)"
        )
    ]
    # A card and an ascending pile that does not take it (C5).
    card, pile = next(
        (c, p)
        for c in hand
        for p, top in piles.items()
        if p.startswith("A") and c < top and c != top - 10
    )
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/board" in r.url else None)
    page.click(f'#hand [data-card="{card}"]')
    page.click(f'#piles [data-pile="{pile}"]')
    msg = page.inner_text("#message")
    assert msg.startswith("rule C5: ") and f"{pile} shows {piles[pile]}" in msg
    assert asked == []
