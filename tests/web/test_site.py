"""The static daily site as a player meets it, served by Python's
http.server under a sub-path with a strict Content-Security-Policy, in
headless Chromium: a daily played to a clear by its stored solution with
the verdict on the board after every turn (or the verdict said to be off
where no .wasm is in the site), a lost position named with the turn to undo
to, hints, the day to come neither shown nor linked, the archive, a day
reloaded with the network off, and axe-core at a phone's and a desktop's
width."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import audit, launch
from tests.web.conftest import AFTER, BEFORE, DAY, day_data

PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1100, "height": 900}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def _page(browser: Any, site_url: str, viewport: dict[str, int] = DESKTOP) -> Any:
    context = browser.new_context(base_url=site_url, viewport=viewport)
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    pg.clock.set_fixed_time(f"{DAY}T12:00:00Z")
    blocked: list[str] = []
    pg.on(
        "console", lambda m: blocked.append(m.text) if "Content Security Policy" in m.text else None
    )
    pg.on("pageerror", lambda e: blocked.append(f"error: {e}"))
    pg.blocked = blocked
    return pg


@pytest.fixture
def page(browser: Any, site_url: str) -> Iterator[Any]:
    pg = _page(browser, site_url)
    yield pg
    assert pg.blocked == [], pg.blocked
    pg.context.close()


def ready(page: Any) -> None:
    """The board has its position and no search in flight."""
    page.wait_for_function(
        "() => { const b = document.querySelector('[data-board]');"
        " return b && b.dataset.state !== 'loading' && !b.hasAttribute('aria-busy'); }",
        timeout=60_000,
    )


def with_solver(site_dir: Path) -> bool:
    return (site_dir / "assets" / "solver.wasm").exists()


def judged(page: Any, turns: int) -> None:
    """The verdict on the position after the player's first ``turns`` turns is on the board."""
    page.wait_for_function(
        f"() => document.querySelector('[data-board]').dataset.judged === '{turns}'", timeout=60_000
    )


def play_turn(page: Any, plays: list[dict[str, Any]]) -> None:
    for p in plays:
        page.click(f'#hand [data-card="{p["card"]}"]')
        page.click(f'#piles [data-pile="{p["pile"]}"]')
    if page.locator("[data-board]").get_attribute("data-state") == "playing":
        page.click('[data-action="end-turn"]')


def test_the_site_carries_the_packages_solver(site_dir: Path) -> None:
    from thegame.puzzles.site import solver_files

    assert with_solver(site_dir) == bool(solver_files())
    day = day_data(site_dir, DAY)
    assert day["classic"]["kernel"] is not None and day["extreme"]["kernel"] is not None


@pytest.mark.parametrize("where", ["site", "without the wasm"])
def test_a_daily_played_to_a_clear_by_its_stored_solution(
    page: Any, site_dir: Path, where: str
) -> None:
    puzzle = day_data(site_dir, DAY)["classic"]["puzzle"]
    page.goto(("" if where == "site" else "../nowasm/") + f"daily/{DAY}/")
    ready(page)
    board = page.locator("[data-board]")
    assert page.locator("#streak").get_attribute("data-streak") == "0"
    solver = with_solver(site_dir) and where == "site"
    if where != "site":
        assert "could not be loaded" in page.inner_text("#verdict")
    if not solver:
        assert board.get_attribute("data-verdict-off") is not None
        assert "The verdict is off" in page.inner_text("#verdict")
    for k, turn in enumerate(puzzle["turns"], 1):
        play_turn(page, turn["plays"])
        if solver:
            judged(page, k)
            assert board.get_attribute("data-verdict") == "win"
            assert board.get_attribute("data-cards-left") == "0"
    assert board.get_attribute("data-state") == "solved"
    end = page.inner_text("#end")
    assert "Solved!" in end and f"{len(puzzle['turns'])} turns taken" in end
    share = page.inner_text("[data-share]")
    assert "no help" in share and str(day_data(site_dir, DAY)["number"]) in share
    if solver:  # one square a turn: green, a clear still reachable after it
        assert share.count("\U0001f7e9") == len(puzzle["turns"])
    # Spoiler-free: no card of the deal in the share text.
    assert not any(str(c) in share.split("\n", 2)[-1] for c in range(10, 100))
    assert page.locator("#streak").get_attribute("data-streak") == "1"
    nxt = page.locator('[data-action="next-day"]')
    assert (
        nxt.get_attribute("href") == f"../../daily/{BEFORE}/"
    )  # the next unsolved: before, never after
    assert page.locator(f'.calendar a[data-day="{AFTER}"]').count() == 0
    nxt.click()
    ready(page)
    assert page.locator("#title").inner_text().endswith(BEFORE)


@pytest.mark.parametrize("where", ["site", "without the wasm"])
def test_hints_from_the_position_card_first_then_the_pile(
    page: Any, site_dir: Path, where: str
) -> None:
    puzzle = day_data(site_dir, DAY)["classic"]["puzzle"]
    first = puzzle["turns"][0]["plays"][0]
    page.goto(("" if where == "site" else "../nowasm/") + f"daily/{DAY}/")
    ready(page)
    solver = with_solver(site_dir) and where == "site"
    page.keyboard.press("h")
    msg = page.inner_text("#message")
    assert "hint: play" in msg and "ask again for the pile" in msg
    card = int(msg.split("hint: play ")[1].split()[0])
    assert page.locator(f'#hand [data-card="{card}"]').get_attribute("aria-pressed") == "true"
    page.keyboard.press("h")
    msg = page.inner_text("#message")
    assert f"hint: {card} " in msg
    if solver:
        assert "(from the solver)" in msg
    else:
        # Without the solver the hint follows the puzzle's stored line.
        assert f"hint: {first['card']} {first['pile']}" in msg and "the puzzle's line" in msg


@pytest.mark.parametrize("where", ["site", "without the wasm"])
def test_a_lost_position_names_the_turn_to_undo_to(page: Any, site_dir: Path, where: str) -> None:
    page.goto(("" if where == "site" else "../nowasm/") + f"daily/{DAY}/")
    ready(page)
    board = page.locator("[data-board]")
    solver = with_solver(site_dir) and where == "site"
    if not solver:
        # No verdict: the game goes on to the rules' own loss, and Undo takes it back.
        assert "The verdict is off" in page.inner_text("#verdict")
    # Bad play: the highest card onto an ascending pile, the lowest onto a
    # descending one, turn after turn, until the solver (or the rules) says lost.
    for turn in range(1, 40):
        if board.get_attribute("data-state") != "playing":
            break
        for _ in range(2):
            cards = page.locator("#hand [data-card]:not(.unplayable)")
            if cards.count() == 0:
                break
            card = cards.last
            pile = (card.get_attribute("data-piles") or "").split()[0]
            card.click()
            page.click(f'#piles [data-pile="{pile}"]')
        end = page.locator('.actions [data-action="end-turn"]')
        if board.get_attribute("data-state") == "playing" and end.is_enabled():
            end.click()
        if solver:
            judged(page, turn)
            if board.get_attribute("data-verdict") == "loss":
                break
    if solver:
        assert board.get_attribute("data-verdict") == "loss"
        # The same answer as the search through the Python extension on that position.
        from thegame.models.the_game import Deal
        from thegame.solver.the_game.webcore import position_answer

        data = day_data(site_dir, DAY)["classic"]["puzzle"]
        played = page.inner_text("#line").removeprefix("played: ")
        mine = [
            [{"card": int(p.split()[0]), "pile": p.split()[1]} for p in t.split(", ")]
            for t in played.split(" | ")
        ]
        turns = [t["plays"] for t in data["position"]] + mine
        theirs = position_answer(Deal.from_dict(data["deal"]), turns)
        assert theirs["verdict"] == "loss"
        assert board.get_attribute("data-cards-left") == str(theirs["cards_left"])
        undo = page.locator('[data-action="undo-to"]')
        assert "No perfect clear is reachable" in page.inner_text("#verdict")
        back = undo.get_attribute("data-turn")
        undo.click()
        ready(page)
        assert page.inner_text("#status").startswith(f"Turn {back} ")
        page.wait_for_function(
            "() => document.querySelector('[data-board]').dataset.verdict === 'win'"
        )
    else:
        if board.get_attribute("data-state") != "lost":
            pytest.skip("this way of playing did not lose")
        page.click('.actions [data-action="undo"]')
        assert board.get_attribute("data-state") == "playing"


def test_the_day_to_come_is_neither_shown_nor_linked(page: Any, site_dir: Path) -> None:
    # Its files are on the host (a static host cannot hide them) ...
    assert (site_dir / "daily" / AFTER / "day.json").exists()
    for path in ("", "archive/", f"daily/{DAY}/", f"daily/{BEFORE}/?variant=extreme"):
        page.goto(path)
        page.wait_for_load_state("networkidle")
        hrefs = page.locator("a").evaluate_all("els => els.map(e => e.getAttribute('href'))")
        assert not any(AFTER in (h or "") for h in hrefs), (path, hrefs)
    # ... but its page does not show it.
    page.goto(f"daily/{AFTER}/")
    page.wait_for_function(
        "() => document.querySelector('[data-board]').dataset.state === 'not-yet'"
    )
    assert "not out yet" in page.inner_text("main")
    assert page.locator("#hand [data-card]").count() == 0


def test_the_home_page_and_the_archive(page: Any, site_dir: Path) -> None:
    page.goto("")
    page.wait_for_selector('[data-home="cento"]')
    for stream in ("classic", "extreme", "cento"):
        assert page.locator(f'[data-home="{stream}"] a[data-action="play"]').count() == 1
    assert (
        page.locator('[data-home="extreme"] a').get_attribute("href")
        == f"./daily/{DAY}/?variant=extreme"
    )
    page.click('[data-home="classic"] a[data-action="play"]')
    ready(page)
    assert page.locator("#hand [data-card]").count() >= 1
    page.goto("archive/")
    page.wait_for_selector(".calendar")
    number = day_data(site_dir, DAY)["number"]
    link = page.locator(f'.calendar a[data-day="{DAY}"]')
    assert link.get_attribute("href") == f"../daily/{DAY}/"
    assert f"No. {number}" in (link.get_attribute("aria-label") or "")
    assert page.locator(f'.calendar a[data-day="{BEFORE}"]').count() == 1
    assert page.locator(f'.calendar a[data-day="{AFTER}"]').count() == 0
    assert "longest: 0 days" in page.inner_text('[data-stats="classic"]')


def test_a_visited_day_reloads_with_the_network_off(page: Any) -> None:
    page.goto(f"daily/{DAY}/?variant=extreme")
    ready(page)
    page.wait_for_function(
        "() => document.documentElement.dataset.offline === 'ready'", timeout=60_000
    )
    hand = page.locator("#hand [data-card]").count()
    page.context.set_offline(True)
    page.reload()
    ready(page)
    assert page.locator("#hand [data-card]").count() == hand
    assert page.locator("[data-board]").get_attribute("data-state") == "playing"
    page.context.set_offline(False)


def test_the_site_is_installable(page: Any, site_dir: Path) -> None:
    """A web manifest every page links (relative start and scope, an icon the
    site holds), and the service worker in control once a page is open."""
    import json

    manifest = json.loads((site_dir / "manifest.webmanifest").read_text())
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"
    assert manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        assert (site_dir / icon["src"]).is_file()
    # The PNG sizes a browser asks for before it offers to install.
    pngs = {i["sizes"]: i["src"] for i in manifest["icons"] if i["type"] == "image/png"}
    assert {"192x192", "512x512"} <= set(pngs)
    for sizes, src in pngs.items():
        png = (site_dir / src).read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"{int.from_bytes(png[16:20], 'big')}x{int.from_bytes(png[20:24], 'big')}" == sizes
        assert f'"{src}"' in (site_dir / "sw.js").read_text()  # kept for offline
    for path in ("", "archive/", f"daily/{DAY}/"):
        page.goto(path)
        href = page.locator('link[rel="manifest"]').get_attribute("href")
        assert page.request.get(page.url.split("?")[0] + href).ok, (path, href)
    page.wait_for_function("() => document.documentElement.dataset.offline === 'ready'")
    page.reload()
    assert page.evaluate("() => Boolean(navigator.serviceWorker.controller)")


PAGES = [
    ("home", ""),
    ("archive", "archive/"),
    ("day", f"daily/{DAY}/"),
    ("extreme", f"daily/{DAY}/?variant=extreme"),
    ("cento", f"daily/{DAY}/?variant=cento"),
]


@pytest.mark.parametrize(("name", "path"), PAGES)
def test_every_page_fits_a_phone_and_passes_the_audit(
    browser: Any, site_url: str, name: str, path: str
) -> None:
    for viewport in (PHONE, DESKTOP):
        pg = _page(browser, site_url, viewport)
        try:
            pg.goto(path)
            pg.wait_for_load_state("networkidle")
            if name in ("day", "extreme"):
                ready(pg)
                # The face-down draw pile and its count stay readable (a row of cards beside it).
                box = pg.locator(".draw-stack").bounding_box()
                assert box is not None and box["width"] >= 60, box
            width = pg.evaluate("() => document.documentElement.scrollWidth")
            assert width <= viewport["width"], f"{path} is {width} px wide"
            assert audit(pg) == [], (path, viewport)
            assert pg.blocked == [], pg.blocked
        finally:
            pg.context.close()
