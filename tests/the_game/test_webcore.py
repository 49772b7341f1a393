"""The search core in the browser: ``webcore.kernel_config`` and the
WebAssembly build (``thegame/web/solver.wasm`` driven by ``solver.js``),
run under Node and compared with the same search through the Python
extension node for node."""

from __future__ import annotations

import datetime as dt
import functools
import http.server
import json
import random
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

from thegame.models import Limit, Verdict
from thegame.models.the_game import Deal, Record, Turn, get_rules, small_rules
from thegame.models.the_game.placement import accepts
from thegame.models.the_game.record import replayed
from thegame.puzzles.the_game.daily import daily
from thegame.solver.the_game import api, ckernel
from thegame.solver.the_game.webcore import (
    kernel_config,
    page_turns,
    position_answer,
    turns_of,
    web_files,
)

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "thegame" / "web"
WASM = WEB / "solver.wasm"
HARNESS = ROOT / "tests" / "support" / "wasm_solve.js"
NODE = shutil.which("node")
TOOLCHAIN = (
    all(shutil.which(t) for t in ("clang-14", "wasm-ld-14"))
    and Path("/usr/lib/wasm32-wasi/libc.a").exists()
)

needs_node = pytest.mark.skipif(NODE is None, reason="Node is not installed (Debian: nodejs)")
needs_c = pytest.mark.skipif(not ckernel.BUILT, reason="the C extension is not built")


FIRE = frozenset({9, 18, 27})
TIGHT_FIRE = get_rules("on-fire").with_changes(
    high=30, asc_piles=1, desc_piles=1, hand_sizes=(3,) * 5, step=7, fire_cards=FIRE
)


def run_wasm(cases: list[dict[str, Any]], wasm: Path = WASM) -> list[dict[str, Any]]:
    """Each case's answer from solver.js under Node."""
    assert NODE is not None
    job = json.dumps({"wasm": str(wasm), "cases": cases})
    out = subprocess.run(
        [NODE, str(HARNESS)], input=job, capture_output=True, text=True, check=True, timeout=600
    )
    answers: list[dict[str, Any]] = json.loads(out.stdout)
    return answers


def case(deal: Deal, turns: list[list[dict[str, Any]]], nodes: int) -> dict[str, Any]:
    return {"config": kernel_config(deal), "turns": turns, "options": {"nodeLimit": nodes}}


def same_as_python(deals: list[tuple[Deal, list[list[dict[str, Any]]]]], nodes: int) -> None:
    """The wasm answers every position exactly as the Python binding does."""
    answers = run_wasm([case(d, t, nodes) for d, t in deals])
    for (deal, turns), got in zip(deals, answers, strict=True):
        got.pop("ms")
        assert got == position_answer(deal, turns, nodes), (deal.rules.name, turns)


def seeded(variant: str, seed: int, players: int = 1) -> Deal:
    return Deal.from_seed(seed, get_rules(variant), players=players, first=1)


def strayed(
    deal: Deal, turns: list[Turn], rng: random.Random, shun_fire: bool = False
) -> list[Turn] | None:
    """The turns and one random legal turn more (None when the game is over
    or the random turn runs into a dead end); it may end the turn in a way
    that loses (a command broken, X2); ``shun_fire``: never onto a fire
    card, so that one stays uncovered (F2)."""
    state = replayed(Record(deal, tuple(turns)))
    if state.over:
        return None
    plays = []
    while True:
        legal = state.legal_plays()
        can_end = state.can_end_turn() or state.end_loses() is not None
        if can_end and (not legal or rng.random() < 0.5):
            return [*turns, Turn(state.current + 1, tuple(plays))]
        if not legal:
            return None
        if shun_fire:
            legal = [p for p in legal if state.tops[p.pile] not in FIRE] or legal
        play = rng.choice(legal)
        state.play(play.card, play.pile)
        plays.append(play)


def midway(deal: Deal, nodes: int) -> list[list[dict[str, Any]]]:
    """The first half of the turns of the search's line from the start."""
    line = position_answer(deal, [], nodes)["line"]
    return list(line[: len(line) // 2])


# ---- the config ----------------------------------------------------------------


def test_kernel_config_is_json_with_the_placement_tables() -> None:
    deal = seeded("profi", 3)
    config = kernel_config(deal)
    assert json.loads(json.dumps(config)) == config
    step = deal.rules.step
    for key, asc in (("accepted_up", True), ("accepted_down", False)):
        for top, mask in enumerate(config[key]):
            taken = {c for c in deal.rules.cards if int(mask, 16) >> c & 1}
            assert taken == {c for c in deal.rules.cards if accepts(asc, top, c, step)}
    assert config["trick_up"][50 - step] == 50  # the backward trick onto 50 (rule C5)
    assert config["piles"] == ["A1", "A2", "D1", "D2"]
    assert config["deck"] == list(deal.deck)
    hand = int(config["start"]["hands"][0], 16)
    assert hand.bit_count() == config["hand_size"] == deal.rules.hand_size(1)
    assert config["commands"] is None
    extreme = kernel_config(seeded("extreme", 5))["commands"]
    assert extreme is not None and all(int(m, 16).bit_count() == 4 for m in extreme.values())


def test_turns_round_trip_and_illegal_turns_are_refused() -> None:
    deal = seeded("classic", 1)
    turns = midway(deal, 50_000)
    record = turns_of(deal, turns)
    assert page_turns(deal, record.turns) == turns
    with pytest.raises(ValueError, match="illegal turn 1"):
        turns_of(deal, [[{"card": 99, "pile": "A1"}]])


# ---- the shipped module ----------------------------------------------------------


def test_the_shipped_wasm_is_small_and_current(tmp_path: Path) -> None:
    """Under 1 MB; where the toolchain is installed, rebuilding it gives the
    same bytes (the build is reproducible): the shipped module is the
    sources' build."""
    assert 0 < WASM.stat().st_size < 1 << 20
    assert web_files() == {"solver.js": WEB / "solver.js", "solver.wasm": WASM}
    if not TOOLCHAIN:
        pytest.skip("no clang-14/wasm-ld-14/wasi-libc: the rebuild is not checked")
    out = tmp_path / "solver.wasm"
    subprocess.run(["sh", str(WEB / "build-wasm.sh"), str(out)], check=True, capture_output=True)
    assert out.read_bytes() == WASM.read_bytes(), "solver.wasm is stale: run build-wasm.sh"


@needs_node
@needs_c
def test_the_wasm_searches_node_for_node_as_the_extension() -> None:
    """Starts and positions midway of each variant the module covers, solo
    and at a table of three, wins and a loss: the same verdict, line, cards
    left and nodes as the Python binding."""
    tight = [Deal.from_seed(s, small_rules(high=30, hand=3, step=7), 1, 1) for s in (1, 3)]
    deals = [seeded(v, s) for v, s in (("classic", 1), ("profi", 3), ("on-fire", 4))]
    deals += [seeded("extreme", 5), seeded("classic", 6, players=3), *tight]
    positions = [(d, []) for d in deals] + [(d, midway(d, 20_000)) for d in deals[:4]]
    same_as_python(positions, 20_000)
    one, many = run_wasm([case(d, [], 20_000) for d in tight])
    # proven losses: a whole game leaving one card is optimal; more is the
    # best found, not proven the fewest
    assert (one["verdict"], one["cards_left"], one["proven"]) == ("loss", 1, True)
    assert many["verdict"] == "loss" and many["cards_left"] > 1 and not many["proven"]


@needs_node
@needs_c
def test_random_games_to_their_end_as_the_extension() -> None:
    """Random games of small decks played to their end, every position on
    the way: games lost by a player left without a turn (C8), by a fire
    card left uncovered (F2) or by a skull left showing (X3b) end with the same
    answer, the cards left proven, as the Python side's over game."""
    rng = random.Random(3)
    small = [small_rules(high=30, hand=3, step=7), TIGHT_FIRE, get_rules("extreme")]
    positions: list[tuple[Deal, list[list[dict[str, Any]]]]] = []
    ends: list[str] = []
    for n in range(30):
        rules, seed = small[n // 10], n % 10
        deal = Deal.from_seed(seed, rules, players=1 + seed % 2, first=1)
        walk: list[Turn] | None = []
        while walk is not None and len(walk) < 40:
            positions.append((deal, page_turns(deal, walk)))
            state = replayed(Record(deal, tuple(walk)))
            if state.over:
                ends.append(state.reason or "")
                break
            walk = strayed(deal, walk, rng, shun_fire=rules is TIGHT_FIRE)
    for rule in ("C8", "F2", "X3b"):
        assert any(f"rule {rule}" in reason for reason in ends), (rule, ends)
    same_as_python(positions, 2_000)


@needs_node
def test_the_wasm_refuses_illegal_turns_and_says_a_finished_win() -> None:
    deal = seeded("classic", 1)
    line = position_answer(deal, [], 50_000)["line"] if ckernel.BUILT else None
    bad = [
        case(deal, [[{"card": 99, "pile": "A1"}]], 1000),  # not in hand
        case(deal, [[{"card": deal.deck[0], "pile": "X9"}]], 1000),
        case(deal, [[]], 1000),  # ends a turn without a play
    ]
    answers = run_wasm(bad + ([case(deal, line, 1000)] if line else []))
    assert all("error" in a for a in answers[:3])
    assert "turn 1" in answers[0]["error"] and "hand" in answers[0]["error"]
    if line:
        assert answers[3]["verdict"] == "win" and answers[3]["proven"] and answers[3]["line"] == []


@needs_node
def test_a_time_budget_stops_the_wasm_search() -> None:
    """A deal the search cannot decide in 50 ms: unknown, after a while, with
    a best line from the position."""
    deal = seeded("profi-hard", 108)
    got = run_wasm([{"config": kernel_config(deal), "turns": [], "options": {"timeMs": 50}}])[0]
    assert got["verdict"] == "unknown" and not got["proven"]
    assert got["nodes"] > 0 and got["cards_left"] > 0 and got["line"]
    assert 40 <= got["ms"] < 2000


# ---- the daily puzzles -----------------------------------------------------------


@pytest.mark.slow
@needs_node
@needs_c
def test_the_dailies_positions_node_for_node_and_as_solve_says() -> None:
    """A week of dailies (classic, profi, on-fire; and one Extreme): every
    third position of each puzzle's solution, and positions after random
    turns from the opening (mostly lost), node for node as the extension,
    and the verdict ``thegame solve`` gives for the position."""
    positions: list[tuple[Deal, list[list[dict[str, Any]]]]] = []
    days = [dt.date(2026, 12, 1) + dt.timedelta(days=i) for i in range(7)]
    puzzles = [daily(d) for d in days] + [daily(days[0], stream="extreme")]
    rng = random.Random(7)
    for p in puzzles:
        played = list(p.position)
        for i in range(0, len(p.solution) + 1, 3):
            positions.append((p.deal, page_turns(p.deal, played + list(p.solution[:i]))))
        stray: list[Turn] | None = played
        for _ in range(3):
            stray = strayed(p.deal, stray, rng)
            if stray is None:
                break
            positions.append((p.deal, page_turns(p.deal, stray)))
    assert sum(len(t) > 0 for _, t in positions) > 40
    nodes = 200_000
    same_as_python(positions, nodes)
    answers = run_wasm([case(d, t, nodes) for d, t in positions])
    compared: list[str] = []
    for (deal, turns), got in zip(positions, answers, strict=True):
        record = turns_of(deal, turns)
        if not replayed(record).over and got["verdict"] != "unknown":
            sol = api.solve_record(record, Limit(nodes=nodes))
            assert sol.verdict == Verdict(got["verdict"])
            compared.append(got["verdict"])
            if sol.verdict == Verdict.LOSS:
                # never fewer cards than the proven optimum; equal when proven
                assert got["cards_left"] >= sol.lower_bound
                if got["proven"] or sol.optimal:
                    assert got["cards_left"] >= sol.cards_left
                if got["proven"]:
                    assert sol.cards_left == got["cards_left"] == 1
    assert compared.count("win") > 20 and compared.count("loss") > 5


# ---- in the browser --------------------------------------------------------------

PAGE = """<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy"
 content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'">
<script src="solver.js"></script><script src="page.js"></script></head>
<body><pre id="out"></pre></body></html>"""

SCRIPT = """Promise.all([TheGameSolver.load("solver.wasm"), fetch("case.json").then(r => r.json())])
  .then(([s, c]) => { document.getElementById("out").textContent =
      JSON.stringify(s.solve(c.config, c.turns, c.options)); })
  .catch(e => { document.getElementById("out").textContent = "error: " + e; });"""


@needs_c
def test_the_solver_runs_in_chromium_under_a_strict_policy(tmp_path: Path) -> None:
    """solver.js fetches solver.wasm by URL from a static host and answers
    as the Python binding does, with no inline script (the CSP above)."""
    from tests.serve.conftest import launch_browser

    deal = seeded("on-fire", 4)
    turns = midway(deal, 20_000)
    for name, path in web_files().items():
        (tmp_path / name).write_bytes(path.read_bytes())
    (tmp_path / "case.json").write_text(json.dumps(case(deal, turns, 20_000)))
    (tmp_path / "index.html").write_text(PAGE)
    (tmp_path / "page.js").write_text(SCRIPT)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    browsers = launch_browser()
    try:
        page = next(browsers).new_page()
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/index.html")
        # a selector, not a script: the policy allows no string evaluated as code
        page.wait_for_selector("#out:not(:empty)")
        text = page.text_content("#out") or ""
    finally:
        next(browsers, None)
        server.shutdown()
    assert json.loads(text) == position_answer(deal, turns, 20_000), text
