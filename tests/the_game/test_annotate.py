"""The annotated review (``analysis.the_game.annotate``, ``thegame analyze``).

A game the blind policy plays itself has nothing to mark: every action is
the policy's own choice. A game where the player throws a pile away (the
highest card on an ascending pile early on) is marked there, on paired
samples, and only there. The marks follow the documented thresholds and
need an interval that excludes zero.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from thegame.analysis.the_game.annotate import (
    MARKS,
    REVIEW_BUDGET,
    Drop,
    annotate_record,
    mark_of,
)
from thegame.analysis.the_game.blind import choose_turn
from thegame.analysis.the_game.strong import Level, StrongPlayer
from thegame.cli.main import cli
from thegame.models.outcome import Limit
from thegame.models.the_game import Deal, GameState, Play, Record, Turn, small_rules


def deal_of(seed: int) -> Deal:
    import random

    rules = small_rules(high=40, asc_piles=1, desc_piles=1, hand=5, min_play=1, step=5)
    deck = list(rules.cards)
    random.Random(seed).shuffle(deck)
    return Deal.create(rules, 1, [deck], 1)


def policy_record(deal: Deal, blunder_turn: int | None = None) -> tuple[Record, Play | None]:
    """The blind policy's game; at ``blunder_turn`` the turn starts with the
    highest card in hand on the ascending pile instead (if that is legal and
    not the policy's choice)."""
    state = GameState(deal, first=1)
    turns: list[Turn] = []
    blunder = None
    while not state.over:
        plays = choose_turn(state)
        if len(turns) == blunder_turn:
            top = max(state.hands[0])
            if state.is_legal(top, 0) and plays and plays[0] != Play(top, 0):
                blunder = Play(top, 0)
                after = state.copy()
                after.play(top, 0)
                plays = [blunder, *([] if after.over else choose_turn(after))]
        for p in plays:
            state.play(p.card, p.pile)
        turns.append(Turn(1, tuple(plays)))
        if state.over or not state.can_end_turn():
            break
        state.end_turn()
    return Record(deal, tuple(turns)), blunder


def test_the_policy_s_own_game_has_no_marks() -> None:
    record, _ = policy_record(deal_of(3))
    review = annotate_record(record, samples=4, hindsight=None, level=Level.DEFAULT)
    assert review.level is Level.DEFAULT and review.to_dict()["better_budget"] is None
    assert review.annotations and all(a.same for a in review.annotations)
    assert review.marked == [] and all(a.drop is None for a in review.annotations)
    # Every turn start is estimated, on the samples given.
    assert [t for t, _ in review.turn_starts] == list(range(len(record.turns)))
    assert all(e.samples == 4 for _, e in review.turn_starts)


def test_the_strong_players_own_game_has_no_marks() -> None:
    """The review's strong player (its seed is the review's + 1) names each
    action of a game it played itself, plays inside a turn included (it
    follows its own turn without choosing again)."""
    deal = deal_of(4)
    player = StrongPlayer(REVIEW_BUDGET, seed=1)
    state = GameState(deal, first=1)
    turns: list[Turn] = []
    while not state.over:
        plays = player.choose_turn(state)
        for p in plays:
            state.play(p.card, p.pile)
        turns.append(Turn(1, tuple(plays)))
        if state.over:
            break
        state.end_turn()
    record = Record(deal, tuple(turns))
    assert any(len(t.plays) > 1 for t in turns)
    review = annotate_record(record, samples=4, hindsight=None)
    assert review.level is Level.STRONG
    assert review.to_dict()["better_budget"] == {"playouts": 60, "seconds": None}
    assert review.annotations and all(a.same for a in review.annotations)
    assert review.marked == []


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_throwing_a_pile_away_is_marked_there(seed: int) -> None:
    record, blunder = policy_record(deal_of(seed), blunder_turn=1)
    assert blunder is not None
    review = annotate_record(record, samples=40, seed=7, hindsight=None)
    at = next(a for a in review.annotations if (a.turn, a.play) == (1, 0))
    assert at.played == blunder and not at.same
    assert at.drop is not None and at.after_played is not None and at.after_better is not None
    # Paired: the drop is the difference of the two estimates on one sample set.
    assert at.drop.left == pytest.approx(at.after_played.left - at.after_better.left)
    assert at.drop.win == pytest.approx(at.after_better.win - at.after_played.win)
    assert at.mark in ("?", "??")
    # Nothing before the blunder is marked; the policy's own actions never are.
    assert all(a.mark == "" for a in review.annotations if a.same)


def test_the_review_is_deterministic_for_a_seed() -> None:
    record, _ = policy_record(deal_of(1), blunder_turn=1)
    a = annotate_record(record, samples=6, seed=3, hindsight=None).to_dict()
    b = annotate_record(record, samples=6, seed=3, hindsight=None).to_dict()
    a.pop("stats"), b.pop("stats")
    assert a == b


def test_an_action_is_one_json_object_for_the_cli_and_the_server() -> None:
    """``analyze --json`` and the server's review write each action alike:
    the position before it, ``hindsight_proven`` (both its figures proven
    optima) and ``hindsight_mistake_proven`` (it provably lost cards)."""
    record, _ = policy_record(deal_of(2), blunder_turn=1)
    review = annotate_record(record, samples=4, seed=1, hindsight_total=Limit(5.0))
    assert review.hindsight is not None
    actions = review.to_dict()["actions"]
    first = actions[0]
    start = GameState(record.deal, first=1)
    assert first["position"] == {
        "piles": {"A1": start.tops[0], "D1": start.tops[1]},
        "hand": sorted(start.hands[0]),
        "draw_left": start.stock_left(),
    }
    hs = review.hindsight
    proven = {(m.turn + 1, m.play + 1) for m in hs.mistakes if m.proven}
    points = review.to_dict()["hindsight"]["points"]
    assert len(points) == len(actions) + 1
    for n, a in enumerate(actions):
        assert "hindsight_optimal" not in a
        assert a["hindsight_mistake_proven"] is ((a["turn"], a["play"]) in proven)
        assert a["hindsight_before"] is not None
        # The action's figures are the curve's points before and after it.
        before, after = points[n], points[n + 1]
        assert (after["turn"], after["play"]) == (a["turn"], a["play"])
        assert (a["hindsight_before"], a["hindsight_after"]) == (
            before["cards_left"], after["cards_left"])
        assert a["hindsight_proven"] is (before["proven"] and after["proven"])
        for p in (before, after):
            # Proven exactly when the line found reaches the proven bound.
            assert p["proven"] is (p["lower_bound"] >= p["cards_left"])


def test_marks_need_the_threshold_and_an_interval_clear_of_zero() -> None:
    lo_win, mid_win, hi_win = MARKS.win
    lo_left, mid_left, hi_left = MARKS.left
    assert mark_of(Drop(0.0, 0.0, lo_left, 0.1)) == "?!"
    assert mark_of(Drop(0.0, 0.0, mid_left, 0.1)) == "?"
    assert mark_of(Drop(hi_win, 0.01, 0.0, 0.0)) == "??"
    assert mark_of(Drop(mid_win, 0.01, hi_left, 0.5)) == "??"  # the higher measure wins
    # Big but noisy (the interval reaches zero): no mark.
    assert mark_of(Drop(hi_win, hi_win, hi_left, hi_left + 1)) == ""
    assert mark_of(Drop(lo_win * 0.9, 0.0, lo_left * 0.9, 0.0)) == ""


def test_cli_review_json_and_text(tmp_path: Path) -> None:
    record, blunder = policy_record(deal_of(2), blunder_turn=1)
    assert blunder is not None
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    runner = CliRunner()
    result = runner.invoke(cli, ["analyze", str(path), "--json", "--samples", "30"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["samples"] == 30 and data["cards_left"] == record_cards_left(record)
    act = next(a for a in data["actions"] if (a["turn"], a["play"]) == (2, 1))
    assert act["played"]["text"] == f"{blunder.card} A1"
    assert act["mark"] in ("?", "??") and act["drop"]["cards_left_gained"] > 0
    lo, hi = act["after_played"]["win_chance_interval"]
    assert lo <= act["after_played"]["win_chance"] <= hi
    assert data["hindsight"]["cards_left"] == data["cards_left"]
    text = runner.invoke(cli, ["analyze", str(path), "--samples", "30"]).output
    assert f"{blunder.card} A1  (turn 2, play 1, player 1)" in text
    assert "better" in text and "position" in text and "30 sampled orders" in text


def record_cards_left(record: Record) -> int:
    from thegame.models.the_game import replay

    return replay(record).cards_left


def test_a_won_game_draws_no_empty_chart(tmp_path: Path) -> None:
    from thegame.solver.the_game.api import solve

    sol = solve(deal_of(4))
    path = tmp_path / "won.json"
    path.write_text(sol.record().to_json())
    out = CliRunner().invoke(cli, ["analyze", str(path), "--samples", "2"]).output
    assert "every action kept the best result reachable" in out
    assert "  0 +" not in out  # no chart


def test_the_chart_starts_at_zero_with_turn_ticks(tmp_path: Path) -> None:
    record, _ = policy_record(deal_of(2), blunder_turn=1)
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    out = CliRunner(env={"COLUMNS": "120"}).invoke(cli, ["analyze", str(path), "--samples", "2"])
    lines = out.output.splitlines()
    # Seed 2's blunder leaves 25 cards at best: the chart's top label is 25.
    top = next(i for i, line in enumerate(lines) if line.startswith(" 25 |"))
    assert lines[top + 6].startswith("  0 +")  # six rows of blocks, then the zero line
    assert lines[top + 8].split()[:3] == ["0", "5", "10"]  # turn ticks under the axis


def test_ctrl_c_keeps_the_review_so_far() -> None:
    """After Ctrl-C (``interrupt.request``) the review stops at the next
    action and skips hindsight; what it judged is kept."""
    from thegame.models import interrupt

    record, _ = policy_record(deal_of(3))
    calls = []

    def progress(done: int, total: int) -> None:
        calls.append(done)
        if done == 2:  # inside the first turn (two plays, then its end)
            interrupt.request()

    try:
        with interrupt.polling():
            review = annotate_record(record, samples=2, progress=progress)
    finally:
        interrupt.reset()
    assert calls[-1] == 2 and len(review.annotations) == 2
    assert review.hindsight is None
    assert len(review.annotations) < sum(len(t.plays) + 1 for t in record.turns)


def test_past_the_reviews_playout_budget_the_policy_names_the_better_action(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from thegame.analysis.the_game import annotate

    record, _ = policy_record(deal_of(3), blunder_turn=1)
    full = annotate_record(record, samples=4, hindsight=None)
    assert any(a.better_by is Level.STRONG for a in full.annotations)
    monkeypatch.setattr(annotate, "REVIEW_PLAYOUTS_TOTAL", 0)
    spent = annotate_record(record, samples=4, hindsight=None)
    assert all(a.better_by is Level.DEFAULT for a in spent.annotations)
    assert all(a["better_by"] == "default" for a in spent.to_dict()["actions"])
    # With nothing left for the strong player the review is the policy's.
    policy = annotate_record(record, samples=4, hindsight=None, level=Level.DEFAULT)
    assert [a.mark for a in spent.annotations] == [a.mark for a in policy.annotations]
