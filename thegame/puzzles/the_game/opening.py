"""The frozen opening policy that turns a seeded deal into a mid-game position.

Each turn: the cheapest legal plays (cost: unplayed cards jumped over, a
backward trick -1) up to the minimum, then more while a play costs nothing,
then the end of the turn; Extreme keeps every command. **Do not change
it**: every published daily puzzle depends on it. The step-by-step
specification is on the docs page games/puzzles.md ("The frozen opening
policy").
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
    if state.rules.commands:
        return _extreme_turn(state)
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
    return _close_turn(state, player, plays, ok)


def _close_turn(state: GameState, player: int, plays: list[Play], ok: bool) -> Turn | None:
    """End the turn of ``plays`` if ``ok``, else take them back (None)."""
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
    if state.rules.commands:
        return _extreme_depth(state, start)
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


# -- Extreme (rules X) ---------------------------------------------------------------


def can_finish_turn(state: GameState) -> bool:
    """Whether the turn in progress can still end legally, keeping every
    command (X2), through more plays of the current hand if need be. A small
    search over the engine's legal plays; ``state`` is left as it was. (Not
    the engine's ``has_legal_turn``: that one asks at a turn start only and
    counts a won game as an end; this one is frozen with the policy.)"""
    seen: set[tuple[object, ...]] = set()

    def search() -> bool:
        if state.placed and state.can_end_turn():
            return True
        # The rest of the turn depends on the tops, the hand, and which
        # piles and commands this turn's plays used (X3, X4b), and on how
        # many there were (X3c).
        plays = state.plays_this_turn
        key = (
            tuple(state.tops),
            frozenset(state.hands[state.current]),
            len(plays),
            frozenset(p.pile for p in plays),
            frozenset(state.deal.command(p.card) for p in plays),
        )
        if key in seen:
            return False
        seen.add(key)
        for play in state.legal_plays():
            state.play(play.card, play.pile)
            found = search()
            state.undo_play()
            if found:
                return True
        return False

    return not state.over and search()


def extreme_play(state: GameState, unplayed: set[int]) -> tuple[Play, int] | None:
    """The Extreme policy's next play and its cost: the cheapest legal play
    (cost, card, pile) after which the turn can still end legally (None:
    there is none)."""
    keyed = sorted((play_cost(state, p, unplayed), p.card, p.pile) for p in state.legal_plays())
    for cost, card, pile in keyed:
        state.play(card, pile)
        ok = can_finish_turn(state)
        state.undo_play()
        if ok:
            return Play(card, pile), cost
    return None


def _extreme_rest(state: GameState, unplayed: set[int]) -> list[Play]:
    """Play the rest of the turn by the Extreme policy (steps 1 and 2);
    returns the plays made. The turn may end afterwards unless no play kept
    it finishable from the start."""
    plays: list[Play] = []
    while True:
        may_end = bool(state.placed) and state.can_end_turn()
        choice = extreme_play(state, unplayed)
        if choice is None:
            break
        play, cost = choice
        if may_end and cost > 0:
            break
        state.play(play.card, play.pile)
        unplayed.discard(play.card)
        plays.append(play)
    return plays


def _extreme_turn(state: GameState) -> Turn | None:
    player = state.current + 1
    plays = _extreme_rest(state, unplayed_cards(state))
    ok = bool(plays) and state.can_end_turn()
    if ok:
        probe = state.copy()
        probe.end_turn()
        ok = probe.status != Status.LOST  # X5: no next turn keeps the commands
    return _close_turn(state, player, plays, ok)


def _extreme_depth(state: GameState, start: int) -> int:
    """``policy_depth`` for Extreme: finish the turn in progress, then whole
    turns, until the policy is stuck or the game ends."""
    while not state.over:
        if state.placed:
            _extreme_rest(state, unplayed_cards(state))
            if not state.can_end_turn():
                break
            state.end_turn()  # may lose by X5: the game is over then
        elif _extreme_turn(state) is None:
            break
    return start - state.cards_left()
