"""The library API at the top of the package: its names, pinned, and what they do.

The internal layout may move; these names may not (without this test
changing), and each does what the command of the same name does.
"""

from __future__ import annotations

import datetime as dt
import doctest
import json
import subprocess
import sys
from pathlib import Path

import pytest

import thegame
from thegame import cento, mind, nimmt
from thegame.api import cento as cento_api
from thegame.api import mind as mind_api
from thegame.api import nimmt as nimmt_api
from thegame.api import the_game
from thegame.puzzles.the_game.daily import daily as make_daily
from thegame.puzzles.the_game.files import Puzzle

ROOT = Path(__file__).resolve().parent.parent

PINNED = {
    thegame: {
        "NO_LIMIT", "Deal", "IllegalMoveError", "InvalidInputError", "Limit", "Record",
        "Status", "Verdict", "__version__",
        "analyze", "analyze_duel", "cento", "check", "daily", "explain", "hint", "load",
        "mind", "nimmt", "solve", "solve_duel",
    },
    mind: {"Deal", "Odds", "Record", "analyze", "check", "load", "odds", "solve"},
    nimmt: {"Deal", "Record", "analyze", "check", "load", "play_game", "play_round", "solve"},
    cento: {"Deal", "Record", "Rules", "check", "daily", "hint", "load", "solve"},
}  # fmt: skip


@pytest.mark.parametrize("module", list(PINNED), ids=lambda m: m.__name__)
def test_the_public_names_are_pinned(module: object) -> None:
    names = set(module.__all__)  # type: ignore[attr-defined]
    assert names == PINNED[module]  # type: ignore[index]
    for name in names:
        assert getattr(module, name) is not None


@pytest.mark.parametrize("module", [the_game, mind_api, nimmt_api, cento_api])
def test_every_public_name_has_a_docstring(module: object) -> None:
    assert module.__doc__
    for name in module.__all__:  # type: ignore[attr-defined]
        value = getattr(module, name)
        if callable(value):
            assert value.__doc__ and value.__doc__.strip(), f"{module}.{name} has no docstring"


@pytest.mark.parametrize("module", [the_game, mind_api, nimmt_api, cento_api])
def test_the_docstring_examples_run(module: object) -> None:
    result = doctest.testmod(module, verbose=False)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0


def test_import_thegame_loads_nothing_else() -> None:
    code = (
        "import sys, thegame; "
        "print([m for m in sys.modules if m.startswith(('thegame.', 'ortools', 'networkx'))])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    assert out.strip() == "[]"


def test_unknown_names_are_attribute_errors() -> None:
    with pytest.raises(AttributeError):
        thegame.no_such_name  # noqa: B018


def test_deal_from_seed_takes_the_variant_and_players_as_keywords() -> None:
    deal = thegame.Deal.from_seed(1)
    assert (deal.rules.name, deal.players, deal.first) == ("classic", 1, None)
    assert len(deal.deck) == 98
    profi = thegame.Deal.from_seed(7, variant="profi", players=3, first=2)
    assert (profi.rules.name, profi.players, profi.first) == ("profi", 3, 2)
    # the same deck as the engine's own seeded deal
    from thegame.models.the_game import Deal, get_rules

    engine_deal = Deal.from_seed(7, get_rules("profi"), 3, 2)
    assert profi == engine_deal and engine_deal == profi and hash(profi) == hash(engine_deal)
    assert profi != Deal.from_seed(8, get_rules("profi"), 3, 2)
    assert thegame.Record(profi) == thegame.models.the_game.Record(engine_deal)
    with pytest.raises(thegame.InvalidInputError):
        thegame.Deal.from_seed(1, variant="no-such-variant")


def test_solve_check_explain_and_load(tmp_path: Path) -> None:
    deal = thegame.Deal.from_seed(1)
    sol = thegame.solve(deal, thegame.Limit(time=10))
    assert sol.verdict == thegame.Verdict.WIN and sol.cards_left == 0
    data = sol.to_dict()
    assert data["verdict"] == "win" and len(data["turns"]) == len(sol.turns) > 0
    # the line replays as won, also after a round trip through a file
    path = tmp_path / "game.json"
    path.write_text(sol.record().to_json(), encoding="utf-8")
    record = thegame.load(path)
    assert record.turns == tuple(sol.turns)
    checked = thegame.check(record)
    assert checked.legal and checked.status == thegame.Status.WON
    turns = thegame.explain(sol)
    assert len(turns) == len(sol.turns)
    assert all(t.plays for t in turns)


def test_solve_from_a_position_keeps_its_turns() -> None:
    sol = thegame.solve(thegame.Deal.from_seed(1), thegame.Limit(time=10))
    opening = thegame.Record(sol.deal.with_first(sol.first), tuple(sol.turns[:3]))
    again = thegame.solve(opening, thegame.Limit(time=10))
    assert again.verdict == thegame.Verdict.WIN
    assert tuple(again.turns[:3]) == opening.turns


@pytest.mark.parametrize("text", ["", "{", '{"deal": {"variant": "classic"}}', "classic 1p : 2 3"])
def test_a_bad_file_is_invalid_input_naming_the_file(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(thegame.InvalidInputError, match=r"bad\.json"):
        thegame.load(path)


@pytest.fixture(scope="module")
def puzzle() -> Puzzle:
    return thegame.daily("2026-12-01")


def test_record_from_file_reads_deals_text_and_puzzles(tmp_path: Path, puzzle: Puzzle) -> None:
    deal = thegame.Deal.from_seed(3)
    (tmp_path / "deal.txt").write_text(deal.to_text() + "\n", encoding="utf-8")
    (tmp_path / "deal.json").write_text(deal.to_json(), encoding="utf-8")
    for name in ("deal.txt", "deal.json"):
        loaded = thegame.Record.from_file(tmp_path / name)
        assert loaded.deal.decks == deal.decks and loaded.turns == ()
    (tmp_path / "puzzle.json").write_text(puzzle.to_json(), encoding="utf-8")
    position = thegame.load(tmp_path / "puzzle.json")
    assert position.turns == puzzle.position
    assert thegame.check(position).status == thegame.Status.IN_PROGRESS


def test_daily_is_a_puzzle_with_its_solution(puzzle: Puzzle) -> None:
    assert puzzle.date == "2026-12-01"
    assert thegame.check(puzzle.record()).status == thegame.Status.WON
    assert puzzle == make_daily(dt.date(2026, 12, 1))  # the command's own function


def test_hint_and_analyze_a_played_game() -> None:
    sol = thegame.solve(thegame.Deal.from_seed(2), thegame.Limit(time=10))
    played = thegame.Record(sol.deal.with_first(sol.first), tuple(sol.turns[:4]))
    hint = thegame.hint(played, thegame.Limit(time=5))
    assert hint.verdict == "win"
    review = thegame.analyze(played, samples=4, hindsight=None)
    assert len(review.annotations) == sum(len(t.plays) + 1 for t in played.turns)
    assert review.to_dict()["cards_left"] == thegame.check(played).cards_left


def test_duels_go_to_their_own_verbs() -> None:
    deal = thegame.Deal.from_seed(1, variant="face-to-face")
    with pytest.raises(thegame.InvalidInputError, match="solve_duel"):
        thegame.solve(deal)
    with pytest.raises(thegame.InvalidInputError, match="analyze_duel"):
        thegame.analyze(thegame.Record(deal))


def test_the_mind() -> None:
    deal = mind.Deal.from_seed(1, players=3, level=4)
    result = mind.solve(deal, tolerance=1)
    assert result.lives_lost == 0  # rule M6: with d = 1 no life is lost
    record = mind.Record(deal, tuple(result.events))
    assert mind.check(record).legal
    assert mind.analyze(record).lives_lost == 0
    odds = mind.odds(players=2, tolerance=2, high=20)
    assert set(odds.levels) == set(range(1, len(odds.levels) + 1))
    assert 0 < odds.campaign.p_win < 1


def test_six_nimmt(tmp_path: Path) -> None:
    deal = nimmt.Deal.from_seed(1, players=4)
    record = nimmt.play_round(deal, [nimmt_lowest() for _ in range(4)])
    path = tmp_path / "round.json"
    path.write_text(json.dumps(record.to_json()), encoding="utf-8")
    loaded = nimmt.load(path)
    assert nimmt.check(loaded).legal
    best = nimmt.solve(loaded, player=1)
    review = nimmt.analyze(loaded, player=1, samples=2)
    assert best.heads <= review.played_heads
    with pytest.raises(thegame.InvalidInputError):
        nimmt.solve(loaded, player=5)


def nimmt_lowest() -> object:
    from thegame.analysis.nimmt.players import LowestPlayer

    return LowestPlayer()


def test_cento() -> None:
    solo = cento.solve(cento.Deal.from_seed(3, players=1))
    assert solo.turn_count == 7 and solo.optimal
    record = cento.Record(solo.deal, solo.turns)
    assert cento.check(record).legal
    first = cento.Record(solo.deal, solo.turns[:1])
    assert cento.hint(first).hint is not None
