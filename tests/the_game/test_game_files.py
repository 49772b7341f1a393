"""The one reader of deal, record and puzzle files, and the piles' room: the
library's, called by the CLI, by ``thegame.load`` and by the server."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

import thegame
from thegame.cli.the_game.options import load_game, load_record
from thegame.models import InvalidInputError
from thegame.models.the_game import Deal, GameState, Play, Record, Turn, get_rules, pile_index
from thegame.models.the_game.room import cards_out, room
from thegame.puzzles.the_game.daily import daily
from thegame.puzzles.the_game.files import game_from_json, parse_game_text

try:
    from thegame.serve import inputs
except ImportError:  # the serve extra is not installed: the server's share is skipped
    inputs = None  # type: ignore[assignment]


def files(tmp_path: Path) -> dict[str, tuple[Path, Record]]:
    """One file of each kind with the record it holds."""
    deal = Deal.from_seed(3, get_rules("classic"), 1)
    state = GameState(deal)
    hand = state.hand()
    played = Record(deal, (Turn(1, (Play(hand[0], 0), Play(hand[1], 0))),))
    puzzle = daily(dt.date(2026, 12, 1))
    out = {
        "text": (deal.to_text() + "\n", Record(deal)),
        "deal": (deal.to_json(), Record(deal)),
        "record": (played.to_json(), played),
        "puzzle": (puzzle.to_json(), Record(puzzle.deal, puzzle.position)),
    }
    paths = {}
    for name, (text, record) in out.items():
        path = tmp_path / f"{name}.txt"
        path.write_text(text, encoding="utf-8")
        paths[name] = (path, record)
    return paths


def test_every_kind_of_file_reads_the_same_in_the_cli_the_library_and_the_server(
    tmp_path: Path,
) -> None:
    for name, (path, want) in files(tmp_path).items():
        text = path.read_text(encoding="utf-8")
        got = parse_game_text(text, str(path))
        assert (got.deal, got.turns) == (want.deal, want.turns), name
        cli = load_game(None, None, str(path), None, None, None)
        assert (cli.deal, cli.turns) == (want.deal, want.turns), name
        lib = thegame.load(path)
        assert (lib.deal, lib.turns) == (want.deal, want.turns), name
        if inputs is not None:
            served = inputs.game({"deal": text})
            assert (served.deal, served.turns) == (want.deal, want.turns), name
        if name != "text":
            assert load_record(str(path)).turns == want.turns, name


def test_a_puzzles_solution_is_not_read_as_played() -> None:
    puzzle = daily(dt.date(2026, 12, 1))
    assert puzzle.solution
    record = game_from_json(puzzle.to_dict(), "puzzle")
    assert record.turns == puzzle.position


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("  \n", "the file is empty"),
        ("classic 1p : 2\nclassic 1p : 3", "a text deal is one line"),
        ('{"turns": []}', 'missing "deal"'),
        ("{", "malformed JSON"),
    ],
)
def test_bad_files_are_one_line_naming_the_file(text: str, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message) as err:
        parse_game_text(text, "game.json")
    assert err.value.where == "game.json"


def test_room_counts_the_cards_still_out_that_a_pile_takes() -> None:
    rules = get_rules("classic")
    state = GameState(Deal.from_seed(1, rules, 1))
    # At the start every card 2..99 is out and each pile takes all of them (rule C5).
    assert [room(state, p) for p in range(4)] == [98] * 4
    assert cards_out(state, None) == set(range(2, 100))
    card = max(state.hand())
    a1 = pile_index(rules, "A1")
    state.play(card, a1)
    out = cards_out(state, None)
    assert card not in out and len(out) == 97
    # Above the top, or exactly ten below it (the backward trick).
    want = sum(1 for c in out if c > card or c == card - 10)
    assert room(state, a1) == want
    d1 = pile_index(rules, "D1")
    assert room(state, d1) == 97


def test_room_in_a_duel_counts_only_the_owners_cards() -> None:
    rules = get_rules("face-to-face")
    state = GameState(Deal.from_seed(1, rules, 2))
    mine = cards_out(state, 0)
    theirs = cards_out(state, 1)
    assert mine == theirs == set(range(2, 60))  # D1: each player's own 2..59
    assert all(room(state, p) == 58 for p in range(len(state.tops)))
