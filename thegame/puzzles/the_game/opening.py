"""The frozen opening policy that turns a seeded deal into a mid-game position.

Daily puzzles must be the same on every machine and in every version, so the
way a deal is played up to the puzzle position must never depend on the
solver, whose heuristics change. This module is that way: a small,
deterministic policy that uses only what every player sees. **Do not change
it**: every published daily puzzle depends on it, as ``--seed N`` depends on
``SplitMix64``.

The *cost* of playing card ``c`` on a pile with top ``t`` is the number of
unplayed cards (in any hand or in the draw pile) that the play jumps over:
those strictly between ``t`` and ``c``. A backward trick costs ``-1``.

The policy, turn by turn:

1. Play the legal card of lowest cost; ties go to the lowest card, then to
   the lowest pile index (``A1, A2, ..., D1, D2, ...``). Repeat until the
   turn's minimum (rule C4 / P1) is met.
2. Then keep playing while the best play costs at most 0 (a trick, or a
   card that jumps over nothing), with the same choice rule.
3. End the turn. If the policy cannot complete a turn (no legal play before
   the minimum is met), or ending the turn loses (an uncovered fire card,
   rule F2, or a next turn that cannot be played, rule C8), the opening
   stops before that turn: only completed turns count.
"""

from __future__ import annotations

from ...models import IllegalMoveError
from ...models.outcome import Status
from ...models.the_game import GameState, Play, Turn, is_ascending, placement


def unplayed_cards(state: GameState) -> set[int]:
    """Cards not yet on a pile: every hand and the draw pile(s)."""
    out: set[int] = set()
    for hand in state.hands:
        out |= hand
    for p in range(len(state.stocks)):
        out.update(state.draw_pile(p))
    return out


def play_cost(state: GameState, play: Play, unplayed: set[int]) -> int:
    """Unplayed cards that ``play`` jumps over; a backward trick is ``-1``."""
    return _cost(state, play, _mask(unplayed))


def _mask(cards: set[int]) -> int:
    return sum(1 << c for c in cards)


def _cost(state: GameState, play: Play, unplayed: int) -> int:
    """``play_cost`` over a bitmask of the unplayed cards (one mask per
    choice instead of a pass over the set per candidate play)."""
    top = state.tops[play.pile]
    asc = is_ascending(state.rules, play.pile)
    if not placement.beyond(asc, top, play.card):
        return -1  # a legal play that does not go beyond the top is a trick (C5)
    low, high = (top, play.card) if asc else (play.card, top)
    if high - low < 2:
        return 0
    return (unplayed >> (low + 1) & ((1 << (high - low - 1)) - 1)).bit_count()


def policy_play(state: GameState, unplayed: set[int] | None = None) -> tuple[Play, int] | None:
    """The policy's next play and its cost (None: no legal play)."""
    if unplayed is None:
        unplayed = unplayed_cards(state)
    mask = _mask(unplayed)
    best: tuple[int, int, int] | None = None
    for p in state.legal_plays():
        key = (_cost(state, p, mask), p.card, p.pile)
        if best is None or key < best:
            best = key
    if best is None:
        return None
    return Play(best[1], best[2]), best[0]


def policy_turn(state: GameState) -> Turn | None:
    """Play one turn by the policy on ``state`` (changed in place).

    Returns the turn, or None with ``state`` unchanged when the policy cannot
    complete the turn or ending it would lose.
    """
    if state.over or state.placed:
        return None
    player = state.current + 1
    unplayed = unplayed_cards(state)
    plays: list[Play] = []
    while True:
        choice = policy_play(state, unplayed)
        if choice is None:
            break
        play, cost = choice
        if len(plays) >= state.turn_min and cost > 0:
            break
        state.play(play.card, play.pile)
        unplayed.discard(play.card)
        plays.append(play)
    ok = len(plays) >= state.turn_min
    if ok:
        probe = state.copy()
        try:
            probe.end_turn()
        except IllegalMoveError:
            ok = False
        else:
            ok = probe.status != Status.LOST
    if not ok:
        for _ in plays:
            state.undo_play()
        return None
    state.end_turn()
    return Turn(player, tuple(plays))


def opening(state: GameState, max_turns: int | None = None) -> list[Turn]:
    """Turns of the policy from ``state`` (changed in place), at most ``max_turns``."""
    turns: list[Turn] = []
    while max_turns is None or len(turns) < max_turns:
        turn = policy_turn(state)
        if turn is None:
            break
        turns.append(turn)
    return turns


def policy_depth(state: GameState) -> int:
    """How many more cards the policy plays from ``state`` (possibly inside
    a turn) before it is stuck or the game ends: the depth of a trap."""
    state = state.copy()
    start = state.cards_left()
    unplayed = unplayed_cards(state)
    while not state.over:
        if not state.placed:
            if policy_turn(state) is None:
                break
            continue
        # Finish the turn in progress by the same rules as ``policy_turn``.
        choice = policy_play(state, unplayed)
        if choice is not None and (len(state.placed) < state.turn_min or choice[1] <= 0):
            state.play(choice[0].card, choice[0].pile)
            unplayed.discard(choice[0].card)
            continue
        try:
            state.end_turn()
        except IllegalMoveError:
            break
        unplayed = unplayed_cards(state)
    return start - state.cards_left()
