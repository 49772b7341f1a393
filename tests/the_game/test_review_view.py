"""What the player saw is part of the record, and the review honours it.

A game played with the draw pile in view (a puzzle, a known-order game) is
judged by hindsight alone; a real game (the pile face down) gets the fair
review too. Every hindsight figure says whether it is proven; the better
action is named only where it measured better.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.support.cli import run_main
from thegame.analysis.the_game.annotate import Estimate, Review, annotate_record
from thegame.analysis.the_game.review import analyze_record
from thegame.analysis.the_game.rollout import SharedOrders
from thegame.cli.main import cli
from thegame.cli.the_game.analyze import review_view
from thegame.models.outcome import Limit, Status
from thegame.models.the_game import Deal, GameState, Record, get_rules, pile_name
from thegame.puzzles.the_game.files import Puzzle
from thegame.serve.charts import measure_words

DAY = "2026-12-01"
RUNNER = CliRunner()


def _daily() -> Puzzle:
    result = RUNNER.invoke(cli, ["daily", "--date", DAY, "--json", "--solution"])
    assert result.exit_code == 0, result.output
    return Puzzle.from_dict(json.loads(result.stdout))


def _solution_input(puzzle: Puzzle) -> str:
    lines = []
    for turn in puzzle.solution:
        lines += [f"{p.card} {pile_name(puzzle.deal.rules, p.pile)}" for p in turn.plays]
        lines.append("end")
    return "\n".join(lines) + "\n"


def test_the_dailys_own_solution_gets_no_mark_anywhere(tmp_path: Path) -> None:
    """Played by its stored solution, the daily is won, saved in full view,
    and no review (play's closing one, analyze, analyze --json) marks it."""
    puzzle = _daily()
    saved = tmp_path / "daily.json"
    played = RUNNER.invoke(
        cli, ["play", "--daily", "--date", DAY, "--save", str(saved)], input=_solution_input(puzzle)
    )
    assert played.exit_code == 0, played.output
    closing = " ".join(played.output.split())
    assert "won: a perfect clear" in closing
    assert "a perfect game" in closing and "mistake" not in closing
    assert json.loads(saved.read_text())["full_view"] is True

    text = RUNNER.invoke(cli, ["analyze", str(saved)])
    assert text.exit_code == 0, text.output
    words = " ".join(text.stdout.split())
    assert "draw pile in view" in words and "a perfect game" in words
    assert not re.search(r"\b(inaccurac|mistake \(|blunder)", words)

    data = json.loads(RUNNER.invoke(cli, ["analyze", str(saved), "--json"]).stdout)
    assert data["full_view"] is True and data["turn_starts"] == []
    assert data["status"] == "won" and data["actions"]
    assert all(a["mark"] == "" and a["better"] is None for a in data["actions"])
    # A won game's figures are all 0, reached by the line played: proven.
    assert all(p["proven"] and p["cards_left"] == 0 for p in data["hindsight"]["points"])
    assert all(a["hindsight_proven"] for a in data["actions"])

    # The option overrides the record: the fair review, with its curve.
    hidden = json.loads(
        RUNNER.invoke(cli, ["analyze", str(saved), "--json", "--view", "hidden",
                            "--samples", "8"]).stdout)  # fmt: skip
    assert hidden["full_view"] is False and hidden["turn_starts"]
    assert hidden["turn_starts_by"] == "policy"


def test_the_record_says_what_the_player_saw(tmp_path: Path) -> None:
    deal = Deal.from_seed(3, get_rules("classic"), 1)
    old = {"deal": deal.to_dict(), "turns": []}
    assert Record.from_dict(old).full_view is False  # older files: face down
    assert Record.from_dict({**old, "full_view": True}).full_view is True
    assert Record(deal, (), True).to_dict()["full_view"] is True
    # solve --save writes a known-order game: full view.
    out = tmp_path / "solved.json"
    r = RUNNER.invoke(cli, ["solve", "--seed", "3", "--save", str(out), "--node-limit", "200000"])
    assert r.exit_code == 0, r.output
    assert json.loads(out.read_text())["full_view"] is True
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**old, "full_view": "yes"}))
    r = RUNNER.invoke(cli, ["analyze", str(bad)])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "full_view" in r.stderr


def test_samples_outside_their_range_are_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "r.json"
    record.write_text(Record(Deal.from_seed(3, get_rules("classic"), 1)).to_json())
    for n in ("0", "100001", "1000000000000"):
        code, out, err = run_main(capsys, "analyze", str(record), "--samples", n)
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and "1<=x<=100000" in err


def _policy_game(seed: int) -> Record:
    from thegame.analysis.the_game.blind import choose_turn
    from thegame.models.the_game import Turn

    state = GameState(Deal.from_seed(seed, get_rules("classic"), 1), first=1)
    turns = []
    while not state.over:
        plays = choose_turn(state)
        for p in plays:
            state.play(p.card, p.pile)
        turns.append(Turn(1, tuple(plays)))
        if state.over or not state.can_end_turn():
            break
        state.end_turn()
    return Record(state.deal, tuple(turns))


def test_an_unproven_figure_is_a_bound_on_screen() -> None:
    """With a budget too small to prove a lost game's figures, each
    unproven one reads ``<= N (best found)``; proven ones are numbers."""
    record = _policy_game(7)
    analysis = analyze_record(record, Limit(nodes=500), total=None)
    proven, points = analysis.proven_share
    assert 0 < proven < points
    for n in range(points):
        text = analysis.figure(n)
        if analysis.is_proven(n):
            assert text == str(analysis.curve[n])
            assert analysis.lower[n] >= analysis.curve[n]
        else:
            assert text == f"<= {analysis.curve[n]} (best found)"
    # The end of the game is exact, and a clear reached is proven by its line.
    assert analysis.is_proven(points - 1)
    assert all(analysis.is_proven(n) for n in range(points) if analysis.curve[n] == 0)


def test_the_better_action_measured_better_or_is_not_named() -> None:
    record = _policy_game(11)
    review = annotate_record(record, samples=20, seed=2, hindsight=None, full_view=False)
    judged = [a for a in review.annotations if a.drop is not None]
    assert judged
    for a in judged:
        data = a.to_dict(record.deal.rules)
        d = a.drop
        better = d.win >= 0 and d.left >= 0 and (d.win > 0 or d.left > 0)
        assert (data["better"] is not None) is better
        if not better:
            assert a.mark == "" and data["continuation"] == []
            # The page's words do not set a worse "better action" against it.
            words = measure_words(data, review.to_dict()["marks"])
            assert words.startswith("nothing measured better")


def test_turn_starts_share_their_sampled_orders() -> None:
    """Each turn start's orders are the same permutations kept to the cards
    hidden then: a card seen since drops out, the rest keep their order."""
    state = GameState(Deal.from_seed(5, get_rules("classic"), 1), first=1)
    orders = SharedOrders(state, 6, seed=1)
    first = orders.at(state)
    later = state.copy()
    hand = sorted(later.hands[0])
    later.play(hand[0], 0)
    later.play(hand[1], 0)
    later.end_turn()
    second = orders.at(later)
    for a, b in zip(first, second, strict=True):
        assert [c for c in a if c in set(b)] == b


def test_a_win_from_near_zero_says_the_player_found_what_the_estimate_did_not() -> None:
    record = Record(Deal.from_seed(3, get_rules("classic"), 1))
    review = Review(record, [], 50, 0, [(0, Estimate(0.5, 1.0, 50)), (4, Estimate(0.0, 6.0, 50))],
                    None, 0, Status.WON)  # fmt: skip
    assert review.to_dict()["beyond_estimate"] == [{"turn": 5, "win_chance": 0.0}]
    from rich.console import Console

    console = Console(record=True, width=200)
    console.print(review_view(review))
    assert "you found what the estimate did not" in console.export_text()
    lost = Review(record, [], 50, 0, review.turn_starts, None, 3, Status.LOST)
    assert lost.beyond_estimate == []


def test_in_full_view_only_a_proven_loss_is_marked() -> None:
    """Judged by hindsight alone: a mark exactly where the action provably
    lost cards, its better action named there and nowhere else, and no
    fair figures."""
    from tests.the_game.test_annotate import deal_of, policy_record

    record, _ = policy_record(deal_of(2), blunder_turn=1)
    review = annotate_record(record, samples=4, seed=1, hindsight=Limit(nodes=2_000_000),
                             hindsight_total=None, full_view=True)  # fmt: skip
    data = review.to_dict()
    assert data["full_view"] is True and data["turn_starts"] == []
    assert review.hindsight is not None and review.hindsight.mistakes
    assert any(a["mark"] for a in data["actions"])
    for a in data["actions"]:
        assert a["drop"] is None and a["after_played"] is None
        assert a["better_by"] == "hindsight"
        assert bool(a["mark"]) is a["hindsight_mistake_proven"]
        assert (a["better"] is not None) is bool(a["mark"])
        if a["mark"]:
            assert a["hindsight_after"] > a["hindsight_before"]


def test_the_budget_left_goes_to_the_figures_still_unproven(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The walk's searches are cut short (a tiny first pass); what is left
    of the total then proves the figures the walk left open."""
    import thegame.analysis.the_game.review as review_module

    record = _policy_game(500)
    monkeypatch.setattr(review_module, "FIRST_PASS", 1e-5)
    refined = analyze_record(record, Limit(2.0), total=Limit(60.0))
    monkeypatch.setattr(review_module._Walk, "refine", lambda self, budget: None)
    walked = analyze_record(record, Limit(2.0), total=Limit(60.0))
    assert walked.proven_share[0] < refined.proven_share[0]
    assert refined.proven_share[0] == refined.proven_share[1]
    assert refined.curve[-1] == walked.curve[-1]
