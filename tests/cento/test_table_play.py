"""Cento at a table of 3 to 6: the seat engine (what a seat sees, and only
that), ``play --vs engine`` and hot seat to the end, hint and analyze of an
N-player record."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from thegame.analysis.cento.engine import (
    SeatEngine,
    greedy_policy,
    policy_turn,
    random_policy,
    shrewd_policy,
    sight,
)
from thegame.cli.main import cli
from thegame.models.cento import Deal, Record, Rules, apply_turn, check, initial_state
from thegame.models.outcome import Limit
from thegame.solver.cento.table import TableSolver

SMALL = ["--cards", "1-20", "--hand-size", "3", "--free", "0"]
SMALL_RULES = Rules(high=20, hand_size=3, free_cards=0)


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["cento", *args], input=stdin)


def brute_script(cards: int, rounds: int = 40) -> str:
    words = [str(c) for c in range(1, cards + 1)] + ["draw", "end"]
    return "\n".join(words * rounds) + "\n"


def test_sight_keeps_the_unseen_cards_and_never_their_places() -> None:
    """Two deals that differ only in how the unseen cards lie give the seat
    the same view, and the engine the same turn."""
    deal = Deal.from_seed(7, 3)
    state = initial_state(deal)
    solver = TableSolver(deal, 0)
    view = sight(deal, solver.key_of(state), 0, 0)
    unseen = [c for h in deal.hands[1:] for c in h] + list(deal.draw)
    assert sorted(view.unseen) == sorted(unseen)
    rng = random.Random(1)
    rng.shuffle(unseen)
    other = Deal(
        deal.rules, (deal.hands[0], tuple(unseen[:7]), tuple(unseen[7:14])), deal.open,
        tuple(unseen[14:]),
    )  # fmt: skip
    view2 = sight(other, TableSolver(other, 0).key_of(initial_state(other)), 0, 0)
    assert view2 == view
    a = SeatEngine(deal, 3).choose(state, Limit(nodes=3)).turn
    b = SeatEngine(other, 3).choose(initial_state(other), Limit(nodes=3)).turn
    assert a == b


@pytest.mark.parametrize("players", [2, 4, 6])
def test_engine_and_simple_players_play_legal_games(players: int) -> None:
    deal = Deal.from_seed(11, players, SMALL_RULES if players < 6 else Rules(high=40))
    state = initial_state(deal)
    engine = SeatEngine(deal, 0)
    rng = random.Random(0)
    turns = []
    while not state.over:
        if state.to_move == 0:
            turn = engine.choose(state, Limit(nodes=2)).turn
        else:
            policy = greedy_policy if state.to_move % 2 else random_policy
            turn = policy_turn(deal, state, policy, rng)
        turns.append(turn)
        state = apply_turn(deal, state, turn)
    replay = check(Record(deal, tuple(turns)))
    assert replay.legal and replay.state == state


def test_play_vs_engine_hides_the_other_hands_and_plays_to_the_end(tmp_path: Path) -> None:
    save = tmp_path / "four.json"
    args = ["play", "--seed", "3", "--players", "4", *SMALL, "--vs", "engine", "--think", "0.05"]
    result = invoke(*args, "--save", str(save), stdin=brute_script(20))
    assert result.exit_code == 0, result.output
    deal = Deal.from_seed(3, 4, SMALL_RULES)
    first = result.stdout.split("turn 1>")[0]
    assert "player 2: 3 cards" in first and "next" not in first
    assert "player 1 (you): " + " ".join(map(str, deal.hands[0])) in first
    data = json.loads(invoke("check", str(save), "--json").stdout)
    assert data["legal"] and data["status"] in ("won", "blocked")
    record = Record.from_dict(json.loads(save.read_text()))
    assert {t.player for t in record.turns} >= {1, 2}


def test_hot_seat_every_seat_a_person_and_undo_against_the_engine(tmp_path: Path) -> None:
    save = tmp_path / "hot.json"
    args = ["play", "--seed", "5", "--players", "3", *SMALL, "--seat", "1", "--seat", "2"]
    result = invoke(*args, "--seat", "3", "--save", str(save), stdin=brute_script(20))
    assert result.exit_code == 0, result.output
    assert "3 players at one screen" in result.stdout
    record = Record.from_dict(json.loads(save.read_text()))
    assert check(record).state.over
    # Against the engine a drawn card stays drawn: a whole turn is not taken back.
    undo = invoke("play", "--seed", "5", "--players", "3", *SMALL, "--vs", "engine",
                  "--think", "0.05", stdin="undo\nquit\n")  # fmt: skip
    assert "can be taken back" in undo.stdout
    bad = invoke("play", "--seed", "5", "--players", "3", "--seat", "4", stdin="")
    assert bad.exit_code == 2 and "not a seat of 3" in bad.stderr


def test_hint_vs_engine_from_what_the_seat_sees() -> None:
    args = ["play", "--seed", "6", "--players", "3", *SMALL, "--vs", "engine", "--think", "0.1"]
    result = invoke(*args, stdin="hint\nquit\n")
    assert result.exit_code == 0
    assert "hint: player 1:" in result.stdout
    assert "sampled world" in result.stdout or "the only legal turn" in result.stdout


def test_analyze_and_hint_of_a_three_player_record(tmp_path: Path) -> None:
    deal = Deal.from_seed(4, 3, Rules(high=30, free_cards=1, hand_size=4))
    state = initial_state(deal)
    engine = SeatEngine(deal, 1)
    turns = []
    while not state.over:
        turn = engine.choose(state, Limit(nodes=2)).turn
        turns.append(turn)
        state = apply_turn(deal, state, turn)
    path = tmp_path / "three.json"
    path.write_text(Record(deal, tuple(turns)).to_json())
    result = invoke("analyze", str(path), "--node-limit", "2000", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["players"] == 3 and len(data["turns"]) == len(turns)
    for t in data["turns"]:
        assert t["lost_win"] == (t["win_before"] is True and t["win_after"] is False)
        if "estimate" in t:
            e = t["estimate"]
            assert 0 <= e["share_played"] <= e["share_best"] <= 1 and e["worlds"] >= 1
    # The last turn ended the game: its player's win after it is the game's result.
    last = data["turns"][-1]
    assert last["win_after"] == (last["player"] - 1 in state.winners)
    partial = tmp_path / "part.json"
    partial.write_text(Record(deal, tuple(turns[:2])).to_json())
    hint = invoke("hint", str(partial), "--time-limit", "5", "--json")
    assert hint.exit_code == 0, hint.output
    assert json.loads(hint.stdout)["players"] == 3


def test_shrewd_turn_binds_a_next_player_left_without_a_single_digit_card() -> None:
    """Open 19: playing 29 leaves player 1 the most cards that fit (the greedy
    turn); playing 9 binds player 2 by rule Z2, and no single-digit card is
    left unseen (9 is the only one in 9..30), so player 2 must take the
    penalty: the shrewd turn."""
    rules = Rules(low=9, high=30, hand_size=6, free_cards=0)
    deck = [9, 20, 22, 23, 24, 29, 10, 11, 12, 13, 14, 15, 19]
    deck += [16, 17, 18, 21, 25, 26, 27, 28, 30]
    deal = Deal.from_deck(deck, 2, rules)
    state = initial_state(deal)
    greedy = policy_turn(deal, state, greedy_policy, random.Random(0))
    shrewd = policy_turn(deal, state, shrewd_policy, random.Random(0))
    assert [p.card for p in greedy.plays] == [29]
    assert [p.card for p in shrewd.plays] == [9]
    after = apply_turn(deal, state, shrewd)
    assert after.obliged and not any(c < 10 for c in after.hands[1])
