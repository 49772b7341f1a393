"""The pages as HTML (no browser): each serves, carries the test hooks of
the documented contract, ships its assets locally, and shows bad input as a
400 page with the one line."""

from __future__ import annotations

import html
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import httpx
import pytest
from conftest import DAY, blunder_record

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("path", "hooks"),
    [
        (
            f"/daily/{DAY}",
            ['data-state="loading"', 'data-action="end-turn"', 'data-action="solution"'],
        ),
        ("/play?seed=4&variant=on-fire&players=2", ['data-mode="play"', 'data-action="hint"']),
        ("/solve", ['data-action="cancel"', "data-verdict", "data-progress"]),
        ("/review", ['data-action="review"', 'name="record"']),
        ("/", ['href="/daily"']),
    ],
)
def test_pages_serve_with_their_hooks(client: httpx.Client, path: str, hooks: list[str]) -> None:
    r = client.get(path)
    assert r.status_code == 200
    for hook in hooks:
        assert hook in r.text, hook
    # Nothing from elsewhere: every script and style is the package's own.
    for src in re.findall(r'(?:src|href)="([^"]+)"', r.text):
        assert not src.startswith(("http:", "https:", "//")), src


def test_static_assets_are_served(client: httpx.Client) -> None:
    for name in (
        "style.css",
        "board.js",
        "solve.js",
        "page.js",
        "review.js",
        "daily.js",
        "home.js",
    ):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and len(r.text) > 500
    icon = client.get("/static/favicon.svg")
    assert icon.status_code == 200 and icon.text.startswith("<svg")
    assert 'rel="icon" href="/static/favicon.svg"' in client.get("/solve").text


@pytest.mark.parametrize(
    "path",
    [
        "/",
        f"/daily/{DAY}",
        "/play?seed=4",
        "/solve",
        "/review",
        "/mind?players=2&tolerance=1",
        "/nimmt?seed=3",
        f"/cento/{DAY}",
        "/cento/table?players=4&seed=3",
        "/rules/the-game",
        "/mind?players=4&tolerance=4",
        "/daily/2026-13-01",
    ],
)
def test_pages_need_no_inline_script_or_style(client: httpx.Client, path: str) -> None:
    """Under a Content-Security-Policy of 'self' nothing inline runs: every
    script is a file of /static, no style attribute, no on* handler, no
    javascript: address."""
    r = client.get(path)
    assert r.status_code in (200, 400)
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", r.text)
    assert "<style" not in r.text and not re.search(r"\sstyle=", r.text)
    assert not re.search(r"\son[a-z]+=", r.text) and "javascript:" not in r.text


def test_play_without_a_seed_redirects_to_one(client: httpx.Client) -> None:
    r = client.get("/play?variant=classic", follow_redirects=False)
    assert r.status_code == 303
    assert re.fullmatch(r"/play\?seed=\d+&variant=classic&players=1", r.headers["location"])


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/daily/2026-13-01", "not a valid date"),
        ("/daily?variant=mind", "no daily stream"),
        ("/play?seed=abc", "seed: must be a whole number"),
        ("/play?seed=1&players=7", "players: must be from 1 to 5"),
        ("/play?seed=1&variant=face-to-face", "the server plays"),
        ("/play?seed=1&variant=profi&players=0", "players"),
    ],
)
def test_bad_page_input_is_a_400_page(client: httpx.Client, path: str, words: str) -> None:
    r = client.get(path)
    assert r.status_code == 400
    assert words in r.text and "Traceback" not in r.text


def test_review_page_draws_the_chart_with_the_marks(client: httpx.Client) -> None:
    record = blunder_record()
    r = client.post("/review", data={"record": record.to_json(), "samples": "20"})
    assert r.status_code == 200
    assert 'data-chart="win-chance"' in r.text
    assert re.search(
        r'<g class="mark[^"]*" data-mark="\?\?" data-turn="1" data-position="\d+">', r.text
    )
    assert re.search(r'<tr data-mark="\?\?" data-turn="1" data-position="\d+">', r.text)
    # Every point of the win-chance chart names its turn and the action the board shows.
    points = re.findall(r'<circle class="point" data-turn="(\d+)" data-position="(\d+)"', r.text)
    assert [int(t) for t, _ in points] == list(range(1, len(record.turns) + 1))
    # The replay board: a position per judged action and the end; no mark shows "0 ± 0".
    raw = re.search(r'data-board data-position="0" data-frames="([^"]*)"', r.text)
    assert raw is not None
    frames = json.loads(html.unescape(raw.group(1)))
    # An action per play and per end of turn, then the end of the game.
    assert len(frames) == sum(len(t.plays) + 1 for t in record.turns) + 1
    marked = [f for f in frames if f["mark"]]
    assert marked and all(f["better"] for f in marked)
    assert all(
        "0 ± 0" not in f["words"] and ("win chance" in f["words"] or "cards" in f["words"])
        for f in marked
    )
    assert "left (" in frames[-1]["words"] and frames[-1]["played"] is None
    assert "0 ± 0" not in r.text and "inaccuracys" not in r.text
    assert not re.search(r"\d(\.\d+)?e-\d", r.text.split("<main")[1])  # no e-notation


def test_review_page_takes_an_uploaded_file(client: httpx.Client) -> None:
    record = blunder_record()
    files = {"file": ("game.json", record.to_json().encode(), "application/json")}
    r = client.post("/review", data={"record": "", "samples": "4"}, files=files)
    assert r.status_code == 200 and 'data-chart="win-chance"' in r.text


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"record": ""}, "paste a record"),
        ({"record": "{nope"}, "malformed JSON"),
        ({"record": '{"deal": {"variant": "classic", "players": 1, "seed": 3}}'}, "deal"),
        ({"record": blunder_record().to_json(), "samples": "1"}, "samples: must be from 2"),
    ],
)
def test_review_page_bad_input(client: httpx.Client, data: dict[str, str], words: str) -> None:
    r = client.post("/review", data=data)
    assert r.status_code == 400
    assert words in r.text


def test_the_cli_command_is_registered() -> None:
    from click.testing import CliRunner

    from thegame.cli.main import cli
    from thegame.cli.serve import _loopback

    result = CliRunner().invoke(cli, ["serve", "--help"])
    assert result.exit_code == 0 and "--host" in result.output and "--open" in result.output
    assert _loopback("127.0.0.1") and _loopback("::1") and _loopback("localhost")
    assert not _loopback("0.0.0.0") and not _loopback("192.168.1.4")


def _serve(*args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "thegame.cli.main", "serve", *args]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_serve_prints_its_address_warns_off_loopback_and_exits_130_on_ctrl_c() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = _serve("--host", "0.0.0.0", "--port", str(port))
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.strip() == f"thegame serve: http://0.0.0.0:{port}/  (Ctrl-C stops it)"
    # It answers, then Ctrl-C stops it.
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                assert r.status == 200
                break
        except OSError:
            assert time.monotonic() < deadline
            time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and rest == ""
    assert "warning: listening on 0.0.0.0" in err and "Traceback" not in err


def test_serve_on_a_taken_port_is_one_line_and_exit_2() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        proc = _serve("--port", str(port))
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2 and out == ""
    assert err.startswith(f"error: cannot listen on 127.0.0.1:{port}") and err.count("\n") == 1


def test_the_minds_odds_page_and_api(client: httpx.Client) -> None:
    r = client.get("/api/mind/odds?players=2&tolerance=3")
    assert r.status_code == 200
    odds = r.json()
    levels = odds["levels"]
    assert [row["level"] for row in levels] == list(range(1, 13))  # rule M1: 12 levels for 2
    for row in levels:
        assert abs(sum(row["lives_lost"]) - 1) < 1e-9 and row["exact"] is True
    # A star at the start of level 1 (one card each) saves every life there.
    assert levels[0]["lives_lost_with_star"] == [1.0]
    camp = odds["campaign"]
    assert 0 < camp["p_win_without_stars"] <= camp["p_win"] < 1
    page = client.get("/mind?players=2&tolerance=3")
    assert page.status_code == 200
    assert 'data-chart="mind-odds"' in page.text and page.text.count('class="bar ') == 24


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("players=5", "players: must be from 2 to 4"),
        ("tolerance=0", "tolerance: must be from 1 to 10"),
        ("tolerance=x", "tolerance: must be a whole number"),
    ],
)
def test_the_minds_odds_bad_input(client: httpx.Client, query: str, words: str) -> None:
    r = client.get(f"/api/mind/odds?{query}")
    assert r.status_code == 400 and words in r.json()["error"]
    assert client.get(f"/mind?{query}").status_code == 400
