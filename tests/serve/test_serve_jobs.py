"""Jobs a page watches: a review reports the turns it has judged so far
while it runs, a count of The Mind's odds the levels counted, either can be
cancelled, and the finished review is shown by its page."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest
from conftest import blunder_record, record_json

from thegame.analysis.the_game.annotate import annotate_record
from thegame.serve.jobs import analyze_job, daily_job
from thegame.serve.pool import WorkerPool


def _follow(client: httpx.Client, job_id: str, most: float = 120) -> list[dict[str, Any]]:
    """The job's answers, polled until it ends."""
    seen = []
    deadline = time.monotonic() + most
    while time.monotonic() < deadline:
        r = client.get("/api/job", params={"id": job_id})
        assert r.status_code == 200, r.text
        seen.append(r.json())
        if seen[-1]["status"] != "running":
            return seen
        time.sleep(0.1)
    raise AssertionError(f"the job ran past {most} s: {seen[-1]}")


def test_a_review_job_reports_the_turns_judged_so_far(client: httpx.Client) -> None:
    record = blunder_record()
    body = {"analyze": {"record": record_json(record), "samples": 30, "hindsight": False}}
    r = client.post("/api/jobs", json=body)
    assert r.status_code == 200, r.text
    started = r.json()
    assert started["status"] == "running" and started["unit"] == "turns"
    assert started["total"] == len(record.turns)
    seen = _follow(client, started["job"])
    last = seen[-1]
    assert last["status"] == "done", last
    counts = [s["done"] for s in seen]
    assert counts == sorted(counts), "the count never goes back"
    # Reported while running: some count between none and all of the turns.
    assert any(0 < s["done"] < len(record.turns) for s in seen if s["status"] == "running")
    assert last["done"] == len(record.turns)
    # The answer is the review /api/analyze gives, the same marks.
    want = annotate_record(record, 30, 0, None).to_dict()
    assert [a["mark"] for a in last["result"]["actions"]] == [a["mark"] for a in want["actions"]]
    page = client.get("/review", params={"job": started["job"]})
    assert page.status_code == 200 and "data-board" in page.text and "??" in page.text
    # Rule ids: links to the rulebook's headings, beside the action, not in its sentence.
    assert '<sup class="rule-ref"><a href="/rules/the-game#C5"' in page.text


def test_the_rulebook_is_served_with_an_anchor_per_rule(client: httpx.Client) -> None:
    page = client.get("/rules/the-game")
    assert page.status_code == 200
    for rule in ("C1", "C5", "C8", "P1", "F1"):
        assert f'id="{rule}"' in page.text
    assert "<b>backward trick</b>" in page.text and "<script>" not in page.text
    assert 'id="Z1"' in client.get("/rules/cento").text
    bad = client.get("/rules/../../etc")
    assert bad.status_code in (400, 404)
    r = client.get("/rules/chess")
    assert r.status_code == 400 and "no rulebook page" in r.text


def test_a_watched_job_can_be_cancelled(client: httpx.Client) -> None:
    """The Mind at 4 players and tolerance 2 counts for seconds: cancelled
    after its first report, it stops, and its odds are not kept."""
    r = client.post("/api/jobs", json={"mind_odds": {"players": 4, "tolerance": 2}})
    job = r.json()
    assert job["unit"] == "levels"
    for _ in range(300):
        job = client.get("/api/job", params={"id": job["job"]}).json()
        if job["done"] > 0 or job["status"] != "running":
            break
        time.sleep(0.1)
    assert job["status"] == "running" and 0 < job["done"] < 8, job
    cancelled = client.post("/api/job/cancel", json={"id": job["job"]}).json()
    assert cancelled["status"] == "cancelled"
    # The page does not show odds that were never counted: it waits again.
    page = client.get("/mind", params={"players": 4, "tolerance": 2})
    assert 'id="mind-wait"' in page.text and 'data-chart="mind-odds"' not in page.text


def test_the_minds_first_visit_shows_its_wait(client: httpx.Client) -> None:
    page = client.get("/mind", params={"players": 2, "tolerance": 2})
    assert page.status_code == 200
    assert 'id="mind-wait"' in page.text and "/static/mind.js" in page.text
    assert "Counting the odds for 2 players, tolerance 2" in page.text


@pytest.mark.parametrize(
    ("call", "words", "status"),
    [
        (lambda c: c.get("/api/job", params={"id": "nope"}), "no such job", 404),
        (lambda c: c.post("/api/job/cancel", json={"id": "nope"}), "no such job", 404),
        (lambda c: c.post("/api/jobs", json={}), "give one of analyze, mind_odds", 400),
        (lambda c: c.post("/api/jobs", json={"mind_odds": {"players": 9}}), "from 2 to 4", 400),
        # Well formed, not a record: the rules' refusal.
        (lambda c: c.post("/api/jobs", json={"analyze": {"record": "x"}}), "record", 422),
    ],
)
def test_jobs_refuse_bad_input_in_one_line(
    client: httpx.Client, call: Any, words: str, status: int
) -> None:
    r = call(client)
    assert r.status_code == status and words in r.json()["error"], r.text


def test_a_job_id_is_required(client: httpx.Client) -> None:
    for r in (client.get("/api/job"), client.post("/api/job/cancel", json={})):
        assert r.status_code == 400 and r.json()["error"] == "id: required", r.text


def test_the_pool_passes_a_workers_progress_on() -> None:
    """What a job reports in its worker reaches the server's callback."""
    record = blunder_record()
    heard: list[tuple[int, int]] = []

    async def run() -> Any:
        pool = WorkerPool(1, 30.0)
        await pool.start()
        try:
            job = (record, 10, 0, None, 1.0, True)
            return await pool.run(analyze_job, job, 60, None, lambda d, t: heard.append((d, t)))
        finally:
            await pool.close()

    asyncio.run(run())
    assert heard and heard[-1] == (len(record.turns), len(record.turns))
    assert all(t == len(record.turns) for _, t in heard)


def test_a_daily_made_while_its_page_watches(client: httpx.Client) -> None:
    """A day whose puzzle is not made yet: its page says so (``data-making``)
    and the job reports the deals tried; then the puzzle is kept."""
    day = "2026-10-03"  # 68 deals tried before one qualifies
    page = client.get(f"/daily/{day}")
    assert "data-making" in page.text
    job = client.post("/api/jobs", json={"daily": {"date": day, "variant": "classic"}}).json()
    assert job["unit"] == "deals"
    seen = _follow(client, job["job"])
    assert seen[-1]["status"] == "done" and seen[-1]["done"] >= 1
    assert seen[-1]["result"] == {"date": day, "variant": "classic"}
    assert "data-making" not in client.get(f"/daily/{day}").text
    assert client.get("/api/daily", params={"date": day}).json() == daily_job(day, None)


def test_a_job_nobody_asks_about_is_stopped(
    client: httpx.Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its page was closed: after ``ABANDON`` seconds without a question the
    job is stopped as if cancelled (here half a second; the server runs in
    this process)."""
    from thegame.serve import background

    monkeypatch.setattr(background, "ABANDON", 0.5)
    job = client.post("/api/jobs", json={"mind_odds": {"players": 4, "tolerance": 3}}).json()
    time.sleep(3.0)
    job = client.get("/api/job", params={"id": job["job"]}).json()
    assert job["status"] == "cancelled", job
