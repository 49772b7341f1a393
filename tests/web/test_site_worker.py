"""The in-page solver runs in a Web Worker: while it searches, the page
answers clicks, says it is thinking and offers Stop, which ends the search.
A hard position is stood in for by a worker held busy for a few seconds
before each search (the real solver then answers): a search on the page's
own thread would hold every click for as long."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import DAY, day_data
from tests.web.test_site import DESKTOP, browser, ready, with_solver  # noqa: F401

HOLD_MS = 3000
# Appended to the worker: each search starts after HOLD_MS of busy work.
HOLD = f"""
const searchNow = self.onmessage;
self.onmessage = (ev) => {{
  const t = Date.now();
  while (Date.now() - t < {HOLD_MS}) {{}}
  searchNow(ev);
}};
"""


@pytest.fixture
def page(browser: Any, site_url: str) -> Iterator[Any]:  # noqa: F811
    """A day's page whose solver worker holds each search; no service worker
    (it would fetch the worker anew past the page's routes)."""
    context = browser.new_context(base_url=site_url, viewport=DESKTOP, service_workers="block")
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    pg.clock.set_fixed_time(f"{DAY}T12:00:00Z")
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))

    def handle(route: Any) -> None:
        resp = route.fetch()
        route.fulfill(response=resp, body=resp.text() + HOLD)

    pg.route("**/assets/solve-worker.js", handle)
    yield pg
    assert errors == []
    context.close()


def responsive_ms(pg: Any) -> float:
    """How long a task queued on the page's thread waits to run."""
    return float(
        pg.evaluate(
            "() => new Promise((ok) => { const t = performance.now();"
            " setTimeout(() => ok(performance.now() - t), 0); })"
        )
    )


def thinking(pg: Any) -> bool:
    return pg.locator("[data-board]").get_attribute("data-thinking") is not None


def first_turn(pg: Any, site_dir: Path) -> None:
    """The puzzle's first turn played, its verdict search left running."""
    turn = day_data(site_dir, DAY)["classic"]["puzzle"]["turns"][0]["plays"]
    for p in turn:
        pg.click(f'#hand [data-card="{p["card"]}"]')
        pg.click(f'#piles [data-pile="{p["pile"]}"]')
    pg.click('[data-action="end-turn"]')


def test_the_page_answers_clicks_while_a_hint_is_searched(page: Any, site_dir: Path) -> None:
    if not with_solver(site_dir):
        pytest.skip("the package has no WebAssembly solver")
    page.goto(f"daily/{DAY}/")
    ready(page)  # the start judged (after one hold)
    first_turn(page, site_dir)
    assert thinking(page)
    assert page.locator("#thinking").is_visible()
    # Stop ends the verdict's search: no verdict for this turn, the page says so.
    page.click('#thinking [data-action="stop"]')
    assert not thinking(page)
    assert "Stopped" in page.inner_text("#verdict")
    assert page.locator("[data-board]").get_attribute("data-judged") == "0"
    # A hint now needs a search: the page says it is thinking and stays responsive.
    page.click('[data-action="hint"]')
    assert "the solver is thinking" in page.inner_text("#message")
    assert thinking(page)
    assert responsive_ms(page) < 500
    card = page.locator("#hand [data-card]").last
    card.click(timeout=1000)
    assert card.get_attribute("aria-pressed") == "true"
    assert thinking(page), "the search ended before the click was tested"
    assert "thinking…" in page.inner_text("#thinking-text")
    # The hint comes once the search ends, from the solver.
    page.wait_for_function(
        "() => document.getElementById('message').textContent.startsWith('hint: play')",
        timeout=60_000,
    )
    assert "(from the solver)" in page.inner_text("#message")
    assert not thinking(page) and not page.locator("#thinking").is_visible()
    # The hint's search judged the position as well.
    assert page.locator("[data-board]").get_attribute("data-judged") == "1"
    assert page.locator("[data-board]").get_attribute("data-verdict") == "win"
    # Esc stops a search too: the next turn played by the solver's hints (from
    # the kept answer), its verdict's search stopped from the keyboard.
    end = page.locator('[data-action="end-turn"]')
    for _ in range(10):
        if end.is_enabled():
            break
        page.keyboard.press("h")
        page.keyboard.press("h")  # the card's pile
        play = page.inner_text("#message").split("(from")[0].split()
        page.click(f'#hand [data-card="{play[1]}"]')
        page.click(f'#piles [data-pile="{play[2]}"]')
    end.click()
    assert thinking(page)
    page.keyboard.press("Escape")
    assert not thinking(page)
    assert "Stopped" in page.inner_text("#verdict")
    assert page.locator("[data-board]").get_attribute("data-judged") == "1"
