"""The solver on The Game: Extreme (rules X1-X6), checked against the
engine-only brute forces of ``tests.support.brute`` (``Brute``: is there a
perfect clear; ``optimum_from``: the fewest cards left).

Both references use nothing but the rules engine's ``legal_plays`` and
``can_end_turn``, the moves that keep every command (rule X2: a solver never
breaks one), so they know none of the Extreme kernel's shortcuts (pile
symmetry, the play-count cap in the key, the dead-card and skull bounds).
Small generalised Extreme deals (rule X6: 0 to 2 of each command here),
solo and with 2-3 players; every line the solver reports replays through
the engine.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from click.testing import CliRunner
from hypothesis import event, given, settings
from hypothesis import strategies as st

from tests.support.brute import Brute, check_solution, describe, optimum_from, starts
from tests.support.deals import small_extreme_deals
from tests.support.the_game import examples, random_playout, step_along
from thegame.cli.main import cli
from thegame.models import InvalidInputError, Limit
from thegame.models.outcome import Status, Verdict
from thegame.models.the_game import Deal, GameState, Play, get_rules, replay
from thegame.solver.the_game import ckernel
from thegame.solver.the_game.api import solve
from thegame.solver.the_game.extreme.kernel import ExtremeKernel

EXTREME = get_rules("extreme")
NODE_LIMIT = 300_000


def check(deal: Deal) -> None:
    sol = solve(deal, Limit(nodes=NODE_LIMIT))
    text = describe(deal)
    assert sol.verdict != Verdict.UNKNOWN, f"unknown on a small deal: {text}"
    expected = min(optimum_from(GameState(deal, first=f)) for f in starts(deal))
    wins = any(Brute().wins_from(GameState(deal, first=f)) for f in starts(deal))
    assert (expected == 0) == wins
    assert (sol.verdict == Verdict.WIN) == wins, f"solver {sol.verdict}, brute {wins}: {text}"
    assert sol.optimal, f"optimum not proven on a small deal: {text}"
    assert sol.cards_left == expected, f"solver {sol.cards_left} left, brute {expected}: {text}"
    check_solution(sol, deal)
    result = replay(sol.record())
    assert result.legal and result.cards_left == sol.cards_left
    # A line never breaks a command: it ends won, or where no turn keeps them (X5).
    expected_status = Status.WON if wins else Status.LOST
    assert result.status == expected_status, text
    if not wins:
        assert "X5" in (result.reason or ""), (result.reason, text)
    event(f"{sol.verdict}, {deal.players}p")


@settings(max_examples=examples(120), deadline=None)
@given(small_extreme_deals())
def test_extreme_solo_agrees_with_brute_force(deal: Deal) -> None:
    check(deal)


@settings(max_examples=examples(60), deadline=None)
@given(small_extreme_deals(players=(2, 3)))
def test_extreme_players_agree_with_brute_force(deal: Deal) -> None:
    check(deal)


def test_kernel_lists_the_engines_plays_along_a_game() -> None:
    # The kernel's legal plays and turn ends are the engine's (commands kept).
    deal = Deal.from_seed(3, EXTREME.with_changes(high=40, asc_piles=1, desc_piles=1))
    state = GameState(deal)
    steps = 0
    while not state.over and steps < 200:
        steps += 1
        k = ExtremeKernel.from_state(state)
        engine = sorted((p.card, p.pile) for p in state.legal_plays())
        assert sorted(k.legal_plays()) == engine
        moves = {(c, p) for _, c, p in k.moves()}
        assert moves <= set(engine)
        # Every legal play, up to a pile of the same direction and top.
        for c, p in engine:
            assert any(
                c == c2 and (p < 1) == (p2 < 1) and k.tops[p] == k.tops[p2] for c2, p2 in moves
            )
        assert k.can_end() == (bool(state.placed) and state.can_end_turn())
        if not step_along(state, steps):
            break


def test_solve_refuses_extreme_with_fire_cards() -> None:
    rules = EXTREME.with_changes(high=20, asc_piles=1, desc_piles=1, fire_cards=frozenset({5}))
    deal = Deal.create(rules, 1, [list(range(2, 21))])
    try:
        solve(deal, Limit(nodes=10))
    except InvalidInputError as err:
        assert "extreme" in err.message
    else:
        raise AssertionError("an Extreme deal with fire cards is not covered")


def test_analyze_and_hint_work_on_an_extreme_game() -> None:
    # analyze and hint use search_position, which covers Extreme now.
    from thegame.analysis.the_game.review import analyze_record, hint_for

    rules = EXTREME.with_changes(high=30, asc_piles=1, desc_piles=1, hand_sizes=(4,) * 5)
    deal = Deal.from_seed(2, rules)
    pl = random_playout(deal, random.Random(3), greed=0.3)
    record, state = pl.record, pl.state
    assert state.over and replay(record).status == state.status
    analysis = analyze_record(record, Limit(nodes=100_000))
    assert analysis.best_at_start == 0 and analysis.result == state.cards_left()
    assert bool(analysis.mistakes) == (state.status == Status.LOST)
    hint = hint_for(GameState(deal), Limit(nodes=100_000))
    assert hint.verdict == "win" and hint.action is not None
    assert Play(hint.action.card, hint.action.pile) in GameState(deal).legal_plays()


def test_extreme_kernel_perft_matches_the_engine() -> None:
    # As test_kernel_conformance's perft: play sequences of each length (a
    # legal turn end may come between plays) through the kernel and the engine.
    from tests.support.kernels import engine_paths, kernel_paths

    rules = EXTREME.with_changes(high=40, asc_piles=1, desc_piles=1, hand_sizes=(4,) * 5)
    for deal in (Deal.from_seed(2, rules), Deal.from_seed(5, rules, 2)):
        state = GameState(deal)
        k = ExtremeKernel(deal, state.first - 1)
        for d in range(7):
            assert kernel_paths(k, d) == engine_paths(state, d), f"perft {d}"


def test_cli_analyze_on_extreme_is_hindsight_only(tmp_path: Path) -> None:
    # The blind policy does not play Extreme's commands: no fair column,
    # said in one line, and the hindsight analysis as before.
    rules = EXTREME.with_changes(high=30, asc_piles=1, desc_piles=1, hand_sizes=(4,) * 5)
    deal = Deal.from_seed(2, rules)
    record = random_playout(deal, random.Random(3), greed=0.3).record
    path = tmp_path / "x.json"
    path.write_text(record.to_json())
    runner = CliRunner()
    text = runner.invoke(cli, ["analyze", str(path), "--time-limit", "2"])
    assert text.exit_code == 0, text.output
    assert "Fair review: not available" in text.output and "Hindsight analysis" in text.output
    data = json.loads(runner.invoke(cli, ["analyze", str(path), "--json"]).stdout)
    assert data["fair_unavailable"] and data["actions"] == []
    assert data["hindsight"]["cards_left"] == data["cards_left"] == replay(record).cards_left


@st.composite
def stranding_deals(draw: st.DrawFn) -> Deal:
    """Small Extreme deals whose end cards carry draw-one (X4c): the
    highest card on the ascending pile, the lowest on the descending one
    take nothing after them but a backward trick, so a draw-one card there
    often shows for good."""
    deal = draw(small_extreme_deals(players=(1, 3)))
    rules = deal.rules
    commands = {c: k for c, k in deal.commands if k != "draw-one"}
    for c in (rules.high, rules.low):
        commands[c] = "draw-one"
    return Deal.create(rules, deal.players, [list(deal.deck)], deal.first, commands)


@settings(max_examples=examples(150), deadline=None)
@given(small_extreme_deals(players=(1, 3)) | stranding_deals(), st.integers(0, 2**32 - 1))
def test_dead_mask_is_sound_along_random_games(deal: Deal, seed: int) -> None:
    """At the turn starts of a random game and after each turn's first play,
    the Extreme kernel's dead cards (the classic bound, stranded skulls, the
    bottom of the draw pile under a draw-one card that shows for good) are
    never more than the fewest cards any line leaves from there (the
    engine-only brute force)."""
    pl = random_playout(deal, random.Random(seed), greed=0.7)
    state = GameState(deal)
    for turn in pl.turns:
        probes = [state.copy()]
        if turn.plays and not state.loses(turn.plays[0].card, turn.plays[0].pile):
            first = state.copy()
            first.play(turn.plays[0].card, turn.plays[0].pile)
            probes.append(first)
        for probe in probes:
            if probe.over:
                continue
            k = ExtremeKernel.from_state(probe)
            dead = k.dead_mask().bit_count()
            if ckernel.BUILT:  # the compiled port says the same
                assert ckernel.CKernel.of(k).dead_mask() == k.dead_mask()
            if k._draw_one_limit() < k.total:
                event("a draw-one card shows for good")
            if dead:
                assert dead <= optimum_from(probe), describe(deal)
        for play in turn.plays:
            state.play(play.card, play.pile)
        if not state.over:
            state.end_turn()
        if state.over:
            break


def test_a_draw_one_card_that_shows_for_good_strands_the_draw_pile() -> None:
    """X4c: 20 (draw-one) on the ascending pile of cards 2..20 with 10
    already played takes nothing more, so every turn draws one card. With
    two cards in hand after the turn (hand 3, m = 2, no stop), one more
    turn can draw: the 14 cards below the next one are never drawn."""
    rules = EXTREME.with_changes(
        high=20, asc_piles=1, desc_piles=1, hand_sizes=(3,) * 5, step=10, min_play=2
    )
    front = [10, 20, 5, 15]
    deck = front + [c for c in rules.cards if c not in front]
    deal = Deal.create(rules, 1, [deck], 1, {20: "draw-one"})
    state = GameState(deal)
    state.play(10, 1)  # D1
    state.play(20, 0)  # A1: the draw-one card, nothing can follow it
    state.end_turn()
    assert sorted(state.hands[0]) == [5, 15]  # drew one card (X4c)
    k = ExtremeKernel.from_state(state)
    assert k._draw_one_limit() == k.pos + 1
    assert k.dead_mask().bit_count() == 14
    if ckernel.BUILT:  # the compiled kernel's port of the bound
        assert ckernel.CKernel.of(k).dead_mask() == k.dead_mask()
    assert optimum_from(state) >= 14
    sol = solve(deal, Limit(nodes=NODE_LIMIT))
    assert sol.optimal and sol.cards_left == optimum_from(GameState(deal))
