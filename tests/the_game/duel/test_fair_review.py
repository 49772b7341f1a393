"""``analyze`` of a duel honours the record's ``full_view``: a duel played
with the draw piles face down is judged from what each player saw too
(sampled deals, estimates), one played with them in view by hindsight alone."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from click.testing import CliRunner

from thegame.analysis.the_game.duel import analyze_duel
from thegame.cli.main import cli
from thegame.models import Limit
from thegame.models.the_game import Deal, GameState, Record, get_rules
from thegame.solver.the_game.duel.api import policy_duel

RULES = get_rules("face-to-face").with_changes(high=20)  # rule D7: cards 2..20


def policy_record(seed: int, full_view: bool) -> Record:
    deal = Deal.from_seed(seed, RULES, first=1)
    played = policy_duel(GameState(deal))
    return Record(deal, tuple(t for _s, t in played), full_view=full_view)


def analyze_json(tmp_path: Path, record: Record, *args: str) -> dict[str, object]:
    path = tmp_path / "duel.json"
    path.write_text(record.to_json())
    argv = ["analyze", str(path), "--json", "--time-limit", "0.2", *args]
    result = CliRunner().invoke(cli, argv)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_a_face_down_duel_is_judged_from_what_each_player_saw(tmp_path: Path) -> None:
    record = policy_record(3, full_view=False)
    data = analyze_json(tmp_path, record)
    assert data["full_view"] is False
    fair = data["fair"]
    assert isinstance(fair, list)
    assert [j["turn"] for j in fair] == list(range(1, len(record.turns) + 1))
    for j in fair:
        assert j["samples"] == data["fair_samples"] > 0
        assert 0 <= j["win_chance_played"] <= 1 and 0 <= j["win_chance_best"] <= 1
        assert j["mark"] in ("", "?!", "?", "??")
        assert not j["mark"] or j["better"] is not None
    # Hindsight stays beside it, as the classic review keeps it.
    assert len(data["review"]) == len(record.turns)  # type: ignore[arg-type]


def test_a_duel_in_full_view_is_judged_by_hindsight_alone(tmp_path: Path) -> None:
    record = policy_record(3, full_view=True)
    data = analyze_json(tmp_path, record)
    assert data["full_view"] is True and "fair" not in data
    # --view overrides what the record says, both ways.
    assert "fair" in analyze_json(tmp_path, record, "--view", "hidden")
    hidden = dataclasses.replace(record, full_view=False)
    assert "fair" not in analyze_json(tmp_path, hidden, "--view", "full")
    text = CliRunner().invoke(cli, ["analyze", str(tmp_path / "duel.json"), "--view", "full",
                                    "--time-limit", "0.2"])  # fmt: skip
    assert "judged by hindsight alone" in text.output and "Fair review" not in text.output


def test_the_fair_review_does_not_read_the_hidden_order() -> None:
    # Two deals that agree on all player 1 saw at turn 1 (their hand, the
    # piles) and differ in both draw piles' order and player 2's hand: the
    # first turn is judged the same (a node budget: the same work each time).
    record = policy_record(5, full_view=False)
    deal = record.deal
    hand = RULES.hand_size(2)
    mine = deal.decks[0][:hand] + tuple(reversed(deal.decks[0][hand:]))
    theirs = tuple(reversed(deal.decks[1]))
    other = Record(dataclasses.replace(deal, decks=(mine, theirs)), record.turns[:1])
    first = Record(deal, record.turns[:1])
    limit = Limit(nodes=2_000)
    a = analyze_duel(first, limit, full_view=False).fair[0]
    b = analyze_duel(other, limit, full_view=False).fair[0]
    assert (a.best, a.played, a.better, a.mark, a.playouts) == (
        b.best, b.played, b.better, b.mark, b.playouts,
    )  # fmt: skip
