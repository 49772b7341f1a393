"""Face to Face endgame puzzles (``puzzles.the_game.duel``): the depth-limited
search and the winning first turns against an engine-only minimax on small
generalised duels (rule D7), the puzzle's solution replayed, determinism,
and ``daily``/``generate --variant face-to-face``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.duel_brute import engine_turn_results
from tests.support.the_game import DUEL, examples, turn_starts
from thegame.cli.main import cli
from thegame.models.the_game import Deal, GameState, Play, Record, get_rules, replay
from thegame.models.the_game.notation import line_text
from thegame.models.the_game.record import replayed
from thegame.puzzles.dates import parse_date
from thegame.puzzles.the_game.daily import daily
from thegame.puzzles.the_game.duel import (
    Endgame,
    make_duel_puzzle,
    undominated_turns,
    winning_turns,
)
from thegame.puzzles.the_game.files import Puzzle
from thegame.solver.the_game.duel.api import replay_duel
from thegame.solver.the_game.duel.position import DuelGame

# A generalised duel where puzzles come fast (cards 2..20, hand 4).
SMALL = get_rules("face-to-face").with_changes(high=20, hand_sizes=(4, 4))


class WithinMinimax:
    """Whether the player to move forces a win within ``n`` own turns, by
    exhaustive minimax over the rules engine alone (every distinct turn
    result of both players, no dominance, no compact state)."""

    def __init__(self) -> None:
        self.memo: dict[tuple[object, int], bool] = {}

    def wins(self, state: GameState, n: int) -> bool:
        if n < 1:
            return False
        key = (state.key(), n)
        got = self.memo.get(key)
        if got is None:
            got = any(
                self.turn_wins(state.current + 1, after, n)
                for after in engine_turn_results(state).values()
            )
            self.memo[key] = got
        return got

    def turn_wins(self, me: int, after: GameState, n: int) -> bool:
        """Whether a turn of player ``me`` that led to ``after`` wins within ``n``."""
        if after.over:
            return after.winner == me  # D6: every card played, or the opponent stuck
        if n < 2:
            return False
        for reply in engine_turn_results(after).values():
            if reply.over:
                if reply.winner != me:
                    return False
                continue
            if not self.wins(reply, n - 1):
                return False
        return True


@st.composite
def small_duels(draw: st.DrawFn) -> Deal:
    hand = draw(st.sampled_from([2, 3]))
    high = draw(st.integers(6, 9)) if hand == 2 else draw(st.integers(6, 7))
    rules = DUEL.with_changes(high=high, hand_sizes=(hand, hand))
    cards = list(rules.cards)
    d1 = draw(st.permutations(cards))
    d2 = draw(st.permutations(cards))
    return Deal.create(rules, 2, [list(d1), list(d2)], draw(st.sampled_from([1, 2])))


def after_turn(state: GameState, plays: tuple[Play, ...]) -> GameState:
    s = state.copy()
    for p in plays:
        s.play(p.card, p.pile)
    if not s.over:
        s.end_turn()
    return s


@settings(max_examples=examples(12), deadline=None)
@given(small_duels(), st.integers(0, 2**16))
def test_winning_first_turns_agree_with_the_engine_minimax(deal: Deal, seed: int) -> None:
    brute = WithinMinimax()
    game = DuelGame.of(deal)
    checked = 0
    for state, _plays in turn_starts(deal, seed):
        endgame = Endgame(game, nodes=10**9)
        pos = game.from_state(state)
        for n in (1, 2, 3):
            assert endgame.wins_within(pos, n) == brute.wins(state, n), (n, deal.to_text())
        depth = endgame.depth(pos)
        if depth is None:
            continue
        me = state.current + 1
        winning = winning_turns(state, depth, nodes=10**9)
        assert winning is not None
        truth = set()
        for plays, _after in undominated_turns(state):
            turn = tuple(Play(c, p) for c, p in plays)
            if brute.turn_wins(me, after_turn(state, turn), depth):
                truth.add(turn)
        assert set(winning) == truth and truth, deal.to_text()
        # The line the puzzle would print replays to the mover's win.
        _turns, final = replay_duel(state, endgame.line(pos, depth))
        assert final.over and final.winner == me
        checked += 1
    assert checked or not list(turn_starts(deal, seed))


def test_a_small_duel_puzzle_is_proven_replayed_and_stable() -> None:
    puzzles = [make_duel_puzzle(seed, rules=SMALL) for seed in range(1, 6)]
    found = [p for p in puzzles if p is not None]
    assert len(found) >= 3
    for puzzle in found:
        data = puzzle.to_dict()
        assert data["verdict"] == "win" and data["variant"] == "face-to-face"
        assert 1 <= data["difficulty"]["winning"] <= 3 <= data["difficulty"]["choices"]
        assert data["difficulty"]["label"] in ("easy", "medium", "hard", "expert")
        assert set(data["stats"]) == {"nodes", "seconds"}
        # The whole game (opening and solution) replays to the mover's win.
        record = Record(puzzle.deal, puzzle.position + puzzle.solution)
        result = replay(record)
        assert result.legal and result.state.winner == data["player"]
        assert puzzle.solution[0] in puzzle.answers
        # The file reads back (verified again) and is the same puzzle.
        back = Puzzle.from_dict(json.loads(puzzle.to_json()))
        assert back.to_dict() == data
        # Deterministic: the same seed makes the same puzzle.
        again = make_duel_puzzle(puzzle.seed or 0, rules=SMALL)
        assert again is not None
        assert _without_seconds(again.to_dict()) == _without_seconds(data)


def test_a_puzzle_whose_solution_loses_is_refused() -> None:
    puzzle = next(p for s in range(1, 6) if (p := make_duel_puzzle(s, rules=SMALL)))
    data = puzzle.to_dict()
    data["turns"] = data["turns"][:1]  # the winner's first turn only: the duel goes on
    with pytest.raises(Exception, match="does not end with player"):
        Puzzle.from_dict(data)


def _without_seconds(data: dict[str, object]) -> dict[str, object]:
    out = dict(data)
    stats = dict(out.pop("stats"))  # type: ignore[call-overload]
    stats.pop("seconds")
    return {**out, "stats": stats}


def test_generate_refuses_cards_for_face_to_face(tmp_path: Path) -> None:
    args = ["generate", "--variant", "face-to-face", "--cards", "5-9", "--out", str(tmp_path)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert "--cards-left does not apply to face-to-face" in result.output


@pytest.mark.slow
def test_the_daily_duel_is_deterministic_and_its_printed_solution_replays(
    tmp_path: Path,
) -> None:
    args = ["daily", "--variant", "face-to-face", "--date", "2026-11-26", "--json"]
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert _without_seconds(data) == _without_seconds(
        daily(parse_date("2026-11-26"), stream="face-to-face").to_dict()
    )
    assert data["date"] == "2026-11-26" and data["verdict"] == "win"
    # The printed line, typed into a record after the position, is checked a win.
    record = tmp_path / "solved.json"
    record.write_text(json.dumps({"deal": data["deal"], "turns": data["position"] + data["turns"]}))
    check = CliRunner().invoke(cli, ["check", str(record), "--json"])
    assert json.loads(check.stdout)["winner"] == data["player"]
    # The solution as printed is that line.
    text = CliRunner().invoke(cli, [*args[:-1], "--solution"])
    shown = " ".join(text.output.split("solution: ", 1)[1].split())
    puzzle = Puzzle.from_dict(data)
    assert shown == line_text(puzzle.deal.rules, puzzle.solution)
    assert replayed(Record.from_json(record.read_text())).winner == data["player"]


@pytest.mark.slow
def test_generate_face_to_face_writes_verified_puzzles(tmp_path: Path) -> None:
    args = ["generate", "--variant", "face-to-face", "--count", "1", "--seed-start", "6"]
    result = CliRunner().invoke(cli, [*args, "--out", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    files = list(tmp_path.glob("face-to-face-*.json"))
    assert len(files) == 1
    puzzle = Puzzle.from_json(files[0].read_text())
    assert puzzle.verdict == "win" and puzzle.answers
