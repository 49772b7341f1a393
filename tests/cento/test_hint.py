"""``thegame cento hint``: the best next turn from a record's position, checked
against the engine-only brute force from the same position."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from thegame.analysis.cento.hint import hint_for
from thegame.cli.main import cli
from thegame.models.cento import (
    CentoStatus,
    Deal,
    Record,
    Rules,
    Turn,
    check,
    initial_state,
    legal_turns,
)
from thegame.models.errors import InvalidInputError
from thegame.solver.cento.brute import brute_duel_value, brute_solo_turns
from thegame.solver.cento.solo import solve_solo


def random_prefix(seed: int, players: int, high: int) -> Record:
    rnd = random.Random(seed)
    rules = Rules(high=high, hand_size=3, free_cards=rnd.randint(0, 1))
    deal = Deal.from_seed(seed, players, rules)
    state = initial_state(deal)
    turns = []
    for _ in range(rnd.randint(0, 3)):
        options = legal_turns(deal, state)
        nxt = [(t, s) for t, s in options if not s.over]
        if not nxt:
            break
        t, state = rnd.choice(nxt)
        turns.append(t)
    return Record(deal, tuple(turns))


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6), st.integers(10, 16))
def test_solo_hint_is_optimal_from_the_position(seed: int, high: int) -> None:
    record = random_prefix(seed, 1, high)
    state = check(record).state
    h = hint_for(record)
    expected = brute_solo_turns(record.deal, state)
    assert h.result["turn_count"] == expected
    if expected is not None:
        assert h.hint is not None
        line = Record(record.deal, record.turns + tuple(_turns(h.result["turns"])))
        done = check(line)
        assert done.legal and done.status == CentoStatus.WON


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**6), st.integers(8, 11))
def test_duel_hint_keeps_the_proven_value(seed: int, high: int) -> None:
    record = random_prefix(seed, 2, high)
    state = check(record).state
    h = hint_for(record)
    assert h.player == state.to_move + 1
    expected = brute_duel_value(record.deal, state)
    winner = {1: 1, -1: 2, 0: None}[expected]
    assert h.result["optimal"] and h.result["winner"] == winner
    assert h.hint is not None and h.hint.player == h.player


def _turns(data: list[dict[str, object]]) -> list[Turn]:
    return [Turn.from_dict(t, "turns") for t in data]


def test_hint_after_game_over_is_an_input_error() -> None:
    deal = Deal.from_seed(3, 1)
    line = solve_solo(deal).turns
    with pytest.raises(InvalidInputError, match="over"):
        hint_for(Record(deal, line))


def test_hint_cli_text_and_json(tmp_path: Path) -> None:
    deal = Deal.from_seed(3, 1).to_dict()
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"deal": deal, "turns": [{"player": 1, "plays": [{"card": 43}]}]}))
    result = CliRunner().invoke(cli, ["cento", "hint", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["turn"] == 2 and data["turn_count"] == 6 and data["hint"]["player"] == 1
    text = CliRunner().invoke(cli, ["cento", "hint", str(path)])
    assert "6 turns left" in text.stdout
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"deal": deal, "turns": [{"player": 1, "plays": [{"card": 8}]}]}))
    err = CliRunner().invoke(cli, ["cento", "hint", str(bad)])
    assert err.exit_code == 2 and len(err.stderr.splitlines()) == 1 and "rule Z1" in err.stderr
