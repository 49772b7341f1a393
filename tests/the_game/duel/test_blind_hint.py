"""The Face to Face hint from what the player sees (``duel_blind``): the
sampled deals agree with what the player sees and never depend on the order
of the hidden cards; the hint's turn is legal; ``hint`` in a game against
the engine gives it."""

from __future__ import annotations

import dataclasses
import random
import re

from click.testing import CliRunner

from thegame.analysis.the_game.duel_blind import blind_duel_hint, sampled_state
from thegame.cli.main import cli
from thegame.models import Limit
from thegame.models.the_game import Deal, GameState, Play, get_rules
from thegame.solver.the_game.duel.api import first_guess

# Cards 2..12, hand 3: the engine proves each sampled deal at once.
SMALL = (
    "face-to-face 2p first=1 high=12 hand_sizes=3,3 : "
    "2 9 4 12 6 3 8 5 10 7 11 / 11 3 7 2 10 5 9 12 4 6 8"
)


def policy_turns(deal: Deal, turns: int) -> GameState:
    """The state after ``turns`` turns of the fixed policy."""
    state = GameState(deal)
    for _ in range(turns):
        plays = first_guess(state)
        assert plays is not None and not state.over
        state = replay(state, [plays])
    return state


def replay(state: GameState, turns: list[tuple[Play, ...]]) -> GameState:
    state = state.copy()
    for plays in turns:
        for p in plays:
            state.play(p.card, p.pile)
        if not state.over:
            state.end_turn()
    return state


def reordered(state: GameState, turns: list[tuple[Play, ...]], seed: int) -> GameState:
    """The same game as the player to move sees it, with the hidden cards in
    another order: the mover's draw pile shuffled, and the opponent's hand
    and draw pile dealt anew from the same cards (the turns replayed)."""
    me, opp = state.current, 1 - state.current
    rng = random.Random(seed)
    decks = [list(d) for d in state.deal.decks]
    at = state.stock_pos
    mine = decks[me][at[me] :]
    rng.shuffle(mine)
    decks[me][at[me] :] = mine
    slots = [i for i in range(at[opp]) if decks[opp][i] in state.hands[opp]]
    unseen = [decks[opp][i] for i in slots] + decks[opp][at[opp] :]
    rng.shuffle(unseen)
    for i, c in zip(slots, unseen, strict=False):
        decks[opp][i] = c
    decks[opp][at[opp] :] = unseen[len(slots) :]
    deal = dataclasses.replace(state.deal, decks=tuple(tuple(d) for d in decks))
    return replay(GameState(deal), turns)


def hidden_part(state: GameState) -> tuple[object, ...]:
    opp = 1 - state.current
    return (
        tuple(state.stocks[state.current][state.stock_pos[state.current] :]),
        tuple(state.stocks[opp][state.stock_pos[opp] :]),
        tuple(sorted(state.hands[opp])),
    )


def test_sampled_deals_agree_with_what_the_player_sees() -> None:
    rules = get_rules("face-to-face")
    for seed, turns in ((1, 0), (2, 5), (3, 8)):
        state = policy_turns(Deal.from_seed(seed, rules, first=1), turns)
        rng = random.Random(7)
        for _ in range(5):
            guess = sampled_state(state, rng)
            me, opp = state.current, 1 - state.current
            assert guess.hands[me] == state.hands[me]
            assert guess.tops == state.tops and guess.stock_pos == state.stock_pos
            assert len(guess.hands[opp]) == len(state.hands[opp])
            for p in (0, 1):
                assert sorted(guess.deal.decks[p]) == sorted(state.deal.decks[p])
                assert guess.stocks[p] == list(guess.deal.decks[p])
            # The unseen cards stay the unseen cards, only dealt anew.
            assert sorted(guess.draw_pile(me)) == sorted(state.draw_pile(me))
            assert guess.hands[opp] | set(guess.draw_pile(opp)) == state.hands[opp] | set(
                state.draw_pile(opp)
            )
            # The sampled deal is a legal deal, and its turn plays legally.
            guess.deal.validate()
            plays = first_guess(guess)
            assert plays is not None
            for play in plays:
                guess.play(play.card, play.pile)


def test_the_samples_do_not_depend_on_the_hidden_order() -> None:
    rules = get_rules("face-to-face")
    state = GameState(Deal.from_seed(4, rules, first=1))
    turns: list[tuple[Play, ...]] = []
    for _ in range(6):
        plays = first_guess(state)
        assert plays is not None
        turns.append(plays)
        state = replay(state, [plays])
    other = reordered(state, turns, seed=11)
    assert other.tops == state.tops and other.hands[state.current] == state.hands[state.current]
    assert hidden_part(other) != hidden_part(state)
    a, b = random.Random(3), random.Random(3)
    for _ in range(4):
        assert hidden_part(sampled_state(state, a)) == hidden_part(sampled_state(other, b))


def test_the_hint_is_a_legal_turn_and_says_its_votes() -> None:
    state = GameState(Deal.from_text(SMALL))
    h = blind_duel_hint(state, Limit(2.0), samples=4)
    assert h.samples == 4 and 1 <= h.votes <= 4 and 0 <= h.proven <= h.votes
    assert 0.0 <= h.win_chance <= 1.0
    # Every vote is proven or estimated by playouts on this small duel.
    assert h.proven == h.votes or h.playouts > 0
    trial = state.copy()
    for p in h.plays:
        trial.play(p.card, p.pile)
    assert trial.over or trial.can_end_turn()


def test_hint_against_the_engine_answers_from_what_the_player_sees() -> None:
    args = ["play", "--variant", "face-to-face", "--seed", "3", "--vs", "engine"]
    args += ["--seconds", "0.1", "--hint-time", "1", "--no-review"]
    result = CliRunner().invoke(cli, args, input="hint\nquit\n")
    assert result.exit_code == 0, result.output
    line = re.search(
        r"hint \(from what you can see\): play (.+), then end the turn; the engine chose it "
        r"in (\d+) of (\d+) sampled deals of the cards you cannot see(, \d+ of them proven)?; "
        r"an estimated \d+% win chance there over [\d,]+ playouts? \(an estimate, not a proof\)",
        result.output,
    )
    assert line is not None, result.output
    assert 1 <= int(line.group(2)) <= int(line.group(3)) <= 10
    assert "not available" not in result.output
