"""Proofs where a player meets them: a duel ``hint`` that settles the
position prints the proof's line, and that line replays to the end."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from thegame.cli.main import cli
from thegame.models.the_game import Deal, GameState, Record, get_rules
from thegame.models.the_game.notation import parse_play
from thegame.models.the_game.record import replayed
from thegame.solver.the_game.duel.api import policy_duel


def test_a_proven_hint_prints_its_line_and_the_line_replays(tmp_path: Path) -> None:
    deal = Deal.from_seed(3, get_rules("face-to-face").with_changes(high=20), first=1)
    played = [t for _s, t in policy_duel(GameState(deal))]
    record = Record(deal, tuple(played[:3]))
    path = tmp_path / "duel.json"
    path.write_text(record.to_json())
    result = CliRunner().invoke(cli, ["hint", str(path), "--time-limit", "10"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())  # the terminal wraps long lines
    assert "line: P" in text
    line = text.split("line: ", 1)[1]
    state = replayed(record)
    for part in line.split(" | "):
        player, plays = part.split(": ", 1)
        assert int(player[1:]) == state.current + 1
        for play in plays.split(", "):
            card, pile = parse_play(state.rules, play)
            assert pile is not None
            state.play(card, pile)
        if not state.over:
            state.end_turn()
    # The line ends the duel, and its winner is the one the hint names.
    assert state.over
    mover = record.turns[-1].player % 2 + 1
    named = mover if "keeps a forced win" in text else 3 - mover
    assert state.winner == named
