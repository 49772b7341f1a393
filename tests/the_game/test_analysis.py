"""Hindsight analysis (``analyze_record``) and hints on small deals.

Records are built from a winning line with one deliberate losing play: a
play after which the search proves no perfect clear is left, followed by a
best line from there. The analysis must name exactly that play, with the
result before (0) and after (the proven optimum, checked by the brute
force); a record that follows a winning line has no mistakes.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest
from click.testing import CliRunner

from tests.support.brute import optimum_from
from tests.support.the_game import position_at
from thegame.analysis.the_game.review import analyze_record, hint_for
from thegame.cli.main import cli
from thegame.models import Limit
from thegame.models.outcome import Verdict
from thegame.models.the_game import (
    Deal,
    GameState,
    Play,
    Record,
    Turn,
    get_rules,
    replay,
    small_rules,
)
from thegame.models.the_game.notation import play_text
from thegame.solver.the_game.api import replay_actions, search_position, solve

# A node budget, not a time budget: the analyses these tests check must not
# depend on how busy the machine is.
EXACT = Limit(nodes=2_000_000)


def small_deal(seed: int, high: int = 24, min_play: int = 1) -> Deal:
    """A seeded solo deal of cards 2..high, one pile each way, hand 4, step 5."""
    rng = random.Random(seed)
    rules = small_rules(high=high, asc_piles=1, desc_piles=1, hand=4, min_play=min_play, step=5)
    deck = list(rules.cards)
    rng.shuffle(deck)
    return Deal.create(rules, 1, [deck], 1)


def blunder_record(deal: Deal, rng: random.Random) -> tuple[Record, int, int, int] | None:
    """A won line with one play replaced by a losing one: the record, the
    (turn, play) of the blunder and the optimum after it; None if the line
    offers no losing alternative."""
    sol = solve(deal)
    if sol.verdict != Verdict.WIN:
        return None
    spots = []
    state = GameState(deal, first=sol.first)
    for i, turn in enumerate(sol.turns):
        for j, p in enumerate(turn.plays):
            for alt in state.legal_plays():
                if alt != p:
                    spots.append((i, j, alt))
            state.play(p.card, p.pile)
        state.end_turn()
    rng.shuffle(spots)
    for i, j, alt in spots:
        state = position_at(sol.record(), i, j)
        prefix = sol.turns[i].plays[:j]
        state.play(alt.card, alt.pile)
        res = search_position(state)
        if res.verdict != Verdict.LOSS or not res.optimal:
            continue
        turns, _final = replay_actions(state, res.actions)
        if not turns:
            continue
        current = Turn(sol.turns[i].player, (*prefix, alt, *turns[0].plays))
        record = Record(deal.with_first(sol.first), (*sol.turns[:i], current, *turns[1:]))
        assert replay(record).legal
        return record, i, j, res.cards_left
    return None


@pytest.mark.parametrize("seed", range(12))
def test_the_deliberate_losing_play_is_the_mistake(seed: int) -> None:
    deal = small_deal(seed)
    made = blunder_record(deal, random.Random(seed))
    if made is None:
        pytest.skip("no losing alternative on this deal's line")
    record, turn, play, after = made
    # The brute force agrees that the position after the blunder is a loss
    # with this optimum.
    assert optimum_from(position_at(record, turn, play + 1)) == after
    analysis = analyze_record(record, EXACT)
    assert analysis.best_at_start == 0
    assert analysis.result == after
    assert len(analysis.mistakes) == 1, analysis.to_dict()
    m = analysis.mistakes[0]
    assert (m.turn, m.play) == (turn, play)
    assert m.played == record.turns[turn].plays[play]
    assert (m.best_before, m.best_after) == (0, after)
    assert m.proven
    assert m.better is not None and m.better != m.played
    # The better play's line starts at the position before the mistake and wins.
    replayed_line = position_at(record, turn, play)
    for k, t in enumerate(m.line):
        for p in t.plays:
            replayed_line.play(p.card, p.pile)
        if k < len(m.line) - 1 or not replayed_line.over:
            replayed_line.end_turn()
    assert replayed_line.status == "won"
    assert analysis.cards_lost == after
    assert analysis.curve[0] == 0 and analysis.curve[-1] == after


def test_enough_deals_have_a_blunder() -> None:
    """Guard: the parametrised test above must not skip everywhere."""
    made = [blunder_record(small_deal(s), random.Random(s)) for s in range(12)]
    assert sum(m is not None for m in made) >= 6


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_winning_record_has_no_mistakes(seed: int) -> None:
    deal = Deal.from_seed(seed, get_rules("classic"), 1)
    sol = solve(deal, Limit(20))
    assert sol.verdict == Verdict.WIN
    analysis = analyze_record(sol.record())
    assert analysis.mistakes == []
    assert analysis.best_at_start == 0 and analysis.result == 0
    assert set(analysis.curve) == {0}


def test_hint_keeps_the_win_and_is_legal() -> None:
    deal = small_deal(3)
    sol = solve(deal)
    assert sol.verdict == Verdict.WIN
    state = GameState(deal, first=sol.first)
    for turn in sol.turns[:2]:
        for p in turn.plays:
            state.play(p.card, p.pile)
        state.end_turn()
    h = hint_for(state)
    assert h.verdict == Verdict.WIN
    assert h.action is not None and h.action in state.legal_plays()
    assert h.play == play_text(state.rules, h.action.card, h.action.pile)  # '37 A1'
    state.play(h.action.card, h.action.pile)
    assert search_position(state).verdict == Verdict.WIN
    assert "perfect clear" in h.text


def test_cli_analyze_json_and_hint(tmp_path: pytest.TempPathFactory) -> None:
    deal = small_deal(1)
    made = blunder_record(deal, random.Random(1))
    assert made is not None
    record, turn, play, after = made
    path = tmp_path / "game.json"  # type: ignore[operator]
    path.write_text(record.to_json())
    runner = CliRunner()
    result = runner.invoke(cli, ["analyze", str(path), "--json", "--samples", "8"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    hs = data["hindsight"]
    assert hs["best_at_start"] == {"cards_left": 0, "optimal": True}
    assert hs["cards_left"] == data["cards_left"] == after
    first = hs["mistakes"][0]
    assert (first["turn"], first["play"]) == (turn + 1, play + 1)  # from 1, as on screen
    p = record.turns[turn].plays[play]
    assert first["played"]["card"] == p.card
    assert {"best_before", "best_after", "better", "turns"} <= set(first)
    # Only proven losses are summed.
    assert hs["cards_lost_proven"] == sum(
        m["best_after"] - m["best_before"] for m in hs["mistakes"] if m["optimal"]
    )
    # The fair column judges the same action, on the same samples.
    action = next(a for a in data["actions"] if (a["turn"], a["play"]) == (turn + 1, play + 1))
    assert action["played"]["text"] == f"{p.card} {'A1' if p.pile == 0 else 'D1'}"
    text = runner.invoke(cli, ["analyze", str(path), "--samples", "8"])
    assert text.exit_code == 0
    assert "Fair review" in text.output and "Hindsight" in text.output
    # A hint from a record cut before the blunder.
    cut = Record(record.deal, record.turns[:turn])
    cut_path = tmp_path / "cut.json"  # type: ignore[operator]
    cut_path.write_text(cut.to_json())
    h = runner.invoke(cli, ["hint", str(cut_path), "--json"])
    assert h.exit_code == 0, h.output
    assert json.loads(h.output)["verdict"] == "win"
    assert json.loads(h.output)["optimal"] is True


def test_cli_errors_are_one_line(tmp_path: pytest.TempPathFactory) -> None:
    deal = small_deal(2)
    bad = Record(deal, (Turn(1, (Play(deal.deck[0], 5),)),))
    path = tmp_path / "bad.json"  # type: ignore[operator]
    path.write_text(bad.to_json())
    runner = CliRunner()
    for cmd in ("analyze", "hint"):
        r = runner.invoke(cli, [cmd, str(path)])
        assert r.exit_code == 2
        assert r.output.count("\n") == 1 and r.output.startswith("error:")


def blind_record(deal: Deal) -> Record:
    """A whole game played by the blind policy (a plausible human game)."""
    from thegame.analysis.the_game.blind import choose_turn

    state = GameState(deal, first=1)
    turns = []
    while not state.over:
        plays = choose_turn(state)
        if not plays:
            break
        player = state.current + 1
        for p in plays:
            state.play(p.card, p.pile)
        state.end_turn()
        turns.append(Turn(player, tuple(plays)))
    return Record(deal.with_first(1), tuple(turns))


def tight_deal(seed: int) -> Deal:
    """Cards 2..30, minimum 2: the blind policy loses most of these."""
    return small_deal(seed, high=30, min_play=2)


@pytest.mark.parametrize("seed", [0, 1, 3, 4])
def test_analysis_of_a_played_game_is_consistent(seed: int) -> None:
    """The best reachable result never improves along a game; the cards lost
    to mistakes add up to the result minus the best possible; each mistake's
    better line replays from the position before it and reaches its figure."""
    record = blind_record(tight_deal(seed))
    analysis = analyze_record(record, EXACT)
    assert analysis.mistakes, "the blind policy loses these deals"
    curve = analysis.curve
    assert all(a <= b for a, b in itertools.pairwise(curve))
    final = replay(record)
    if final.state.over:
        assert curve[-1] == analysis.result == final.cards_left
        assert analysis.cards_lost == analysis.result - analysis.best_at_start
    assert analysis.best_at_start == optimum_from(GameState(record.deal, first=1))
    for m in analysis.mistakes:
        state = position_at(record, m.turn, m.play)
        # The mistake's own action leads to a worse proven optimum.
        after = state.copy()
        if m.played is None:
            after.end_turn()
        else:
            after.play(m.played.card, m.played.pile)
        assert optimum_from(after) == m.best_after
        assert optimum_from(state) == m.best_before
