"""A Face to Face hint from what the player can see (rules D1-D7).

In a real duel (``play --vs engine``, a hot-seat game, the server's play
page) the player sees their own hand, the four piles and how many cards
the opponent holds, never the order of a draw pile nor the opponent's hand.
The duel engine needs a whole deal, so this hint asks it about sampled
deals that agree with what the player sees: their own draw pile in a
random order, and the opponent's unseen cards (hand and draw pile) dealt
at random into a hand of the right size and a draw pile. Each sampled
deal gets an equal share of the time; the hint is the turn the engine
chose in the most of them, with the engine's mean win chance over those
samples (an estimate from the sampled deals, labelled as one).

The samples are drawn from the *sorted* unseen cards with a fixed seed, so
the answer does not depend on the real order of any hidden card
(``tests/the_game/duel/test_blind_hint.py`` checks that).
"""

from __future__ import annotations

import dataclasses
import random
import time

from ...models import InvalidInputError, Limit, Verdict, interrupt
from ...models.the_game import GameState, Play
from ...solver.the_game.duel.api import engine_answer, first_guess

# The samples' seed: fixed, so asking twice gives the same answer.
HINT_SEED = 0
# Sampled deals by default: each gets a tenth of the hint's time, enough for
# the engine to reach a few hundred playouts on the printed game at 5 s.
SAMPLES = 10


@dataclasses.dataclass(frozen=True)
class BlindDuelHint:
    """The turn the engine chose most often over the sampled deals."""

    plays: tuple[Play, ...]  # the rest of the current turn (never empty)
    votes: int  # sampled deals in which the engine chose ``plays``
    samples: int  # sampled deals asked
    win_chance: float  # the mean of the engine's values in the ``votes`` deals
    proven: int  # of those, deals where the exact search proved the value
    playouts: int  # the engine's playouts behind the others' values


def sampled_state(state: GameState, rng: random.Random) -> GameState:
    """``state`` with its hidden cards dealt anew: the mover's draw pile
    shuffled, the opponent's hand and draw pile dealt from their unseen
    cards. Only the sets of hidden cards are read, sorted, never their
    order or which unseen card the opponent holds."""
    me = state.current
    decks: list[tuple[int, ...]] = []
    hands = [set(h) for h in state.hands]
    for p in range(2):
        deck = list(state.deal.decks[p])
        at = state.stock_pos[p]
        if p == me:
            pile = sorted(deck[at:])
            rng.shuffle(pile)
            deck[at:] = pile
        else:
            unseen = sorted(set(deck[at:]) | state.hands[p])
            rng.shuffle(unseen)
            k = len(state.hands[p])
            hand, pile = unseen[:k], unseen[k:]
            # The drawn part of the deck keeps the cards already played in
            # their places; the hand's places take the sampled hand, so the
            # deck stays a permutation of the player's cards (D1).
            slots = [i for i in range(at) if deck[i] in state.hands[p]]
            for i, c in zip(slots, sorted(hand), strict=True):
                deck[i] = c
            deck[at:] = pile
            hands[p] = set(hand)
        decks.append(tuple(deck))
    new = state.copy()
    new.deal = dataclasses.replace(state.deal, decks=tuple(decks))
    new.stocks = [list(d) for d in decks]
    new.hands = hands
    return new


def blind_duel_hint(
    state: GameState, limit: Limit, samples: int = SAMPLES, seed: int = HINT_SEED
) -> BlindDuelHint:
    """The engine's turn over ``samples`` sampled deals, ``limit.time``
    seconds in all (none: 1 s a sample; Ctrl-C: the samples asked so far,
    at least one)."""
    if not state.rules.is_duel:
        raise InvalidInputError(f"this hint is Face to Face's, not {state.rules.name}'s", "hint")
    if state.over:
        raise InvalidInputError(f"the game is over ({state.reason})", "record")
    rng = random.Random(seed)
    made = len(state.placed)
    n = max(1, samples)
    # Per turn chosen, one (value, proven, playouts) per sampled deal choosing it.
    chose: dict[tuple[Play, ...], list[tuple[float, bool, int]]] = {}
    deadline = time.monotonic() + (limit.time if limit.time is not None else float(n))
    for i in range(n):
        share = max(0.01, (deadline - time.monotonic()) / (n - i))
        guess = sampled_state(state, rng)
        res = engine_answer(guess, Limit(share))
        est = res.estimate
        if res.turns:
            rest = res.turns[0].plays[made:]
            answer = (1.0 if res.verdict == Verdict.WIN else 0.0), True, 0
        elif est is not None and est.turn is not None:
            rest, answer = est.turn.plays[made:], (est.win_chance, False, est.playouts)
        else:
            rest, answer = first_guess(guess) or (), (0.5, False, 0)
        if not rest:
            continue  # no legal turn in this sample: the game would be over
        chose.setdefault(rest, []).append(answer)
        if interrupt.requested():
            break
    if not chose:
        raise InvalidInputError("no legal way to finish this turn", "record")
    # The most votes; among equals the higher mean value, then the first found.
    best = max(chose, key=lambda r: (len(chose[r]), _mean(chose[r])))
    won = chose[best]
    return BlindDuelHint(
        best,
        len(won),
        sum(len(v) for v in chose.values()),
        _mean(won),
        sum(proven for _, proven, _ in won),
        sum(k for _, _, k in won),
    )


def _mean(answers: list[tuple[float, bool, int]]) -> float:
    return sum(v for v, _, _ in answers) / len(answers)
