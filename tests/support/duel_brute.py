"""Engine-only references for the duel tests (rules D1-D7).

``EngineMinimax`` decides a duel using nothing but the rules engine
(``DuelState`` through ``GameState``): every legal play, every legal turn
end, a memo on ``GameState.key()``, and none of the solver's shortcuts (no
compact state, no turn merging beyond exact engine keys, no bounds, no
ordering). ``engine_turn_results`` lists the distinct positions a whole turn
can lead to, through the engine alone. ``relaxed_afters`` lists one
player's relaxed turns from the rules alone, for the race and survival
bounds.
"""

from __future__ import annotations

from thegame.models.outcome import Status
from thegame.models.the_game import GameState
from thegame.models.the_game.placement import accepts
from thegame.solver.the_game.duel.position import DuelGame, Solo, cards_of


def result_key(state: GameState) -> tuple[object, ...]:
    """The engine's ``key()`` without the plays of the turn: a duel won at
    once (D6) is the same result whatever the order of its plays."""
    k = state.key()
    return (*k[:4], *k[5:], state.winner)


def engine_turn_results(state: GameState) -> dict[tuple[object, ...], GameState]:
    """Every distinct position after a whole turn of the player to move
    (keyed by ``result_key``), wins at once included."""
    out: dict[tuple[object, ...], GameState] = {}
    seen: set[tuple[object, ...]] = set()

    def walk(s: GameState) -> None:
        # Inside a turn the engine's own ``has_turn`` merges plays the same
        # way: the rest of the turn depends on the tops, the hand and the
        # turn's shape (how many plays, which piles: D2).
        k = (tuple(s.tops), frozenset(s.hands[s.current]), s._turn_shape(), str(s.status))
        if k in seen:
            return
        seen.add(k)
        if s.over:  # D6: won at once inside the turn
            out[result_key(s)] = s
            return
        if s.can_end_turn():
            after = s.copy()
            after.end_turn()
            out[result_key(after)] = after
        for p in s.legal_plays():
            nxt = s.copy()
            nxt.play(p.card, p.pile)
            walk(nxt)

    walk(state)
    return out


class EngineMinimax:
    """Whether the player to move wins, by exhaustive minimax over the engine."""

    def __init__(self) -> None:
        self.memo: dict[tuple[object, ...], bool] = {}

    def wins(self, state: GameState) -> bool:
        if state.over:
            return state.winner == state.current + 1
        k = state.key()
        got = self.memo.get(k)
        if got is not None:
            return got
        me = state.current + 1
        value = False
        for after in engine_turn_results(state).values():
            if after.over:
                if after.winner == me:
                    value = True
                    break
                continue
            if not self.wins(after):
                value = True
                break
        self.memo[k] = value
        return value


def winner_of(state: GameState) -> int | None:
    """The winner of a finished engine state (None while in progress)."""
    if state.status == Status.IN_PROGRESS:
        return None
    return state.winner


def pin(path: str, specs: list[tuple[int, int, int]]) -> None:
    """Compute and store engine-only verdicts of larger duels (minutes each):
    ``specs`` are (seed, high, hand); the test reads the file back."""
    import json
    import random

    from thegame.models.the_game import Deal, get_rules

    out = []
    for seed, high, hand in specs:
        rules = get_rules("face-to-face").with_changes(high=high, hand_sizes=(hand, hand))
        rnd = random.Random(seed)
        cards = list(rules.cards)
        decks = [rnd.sample(cards, len(cards)), rnd.sample(cards, len(cards))]
        for first in (1, 2):
            deal = Deal.create(rules, 2, decks, first)
            brute = EngineMinimax()
            wins = brute.wins(GameState(deal))
            out.append({"deal": deal.to_dict(), "mover_wins": wins, "positions": len(brute.memo)})
            with open(path, "w") as fh:
                json.dump(out, fh, indent=1)
            print(seed, high, hand, first, wins, len(brute.memo), flush=True)


if __name__ == "__main__":
    pin("data/duel_pinned.json", [(s, 12, 3) for s in range(1, 4)] + [(s, 11, 3) for s in (4, 5)])


def walk(
    ends: set[tuple[int, int, int, bool]],
    m: int,
    step: int,
    h: int,
    a: int,
    d: int,
    n: int,
    dumped: bool,
) -> None:
    """Every end of a relaxed turn: own plays (D3) and at most one card
    left anywhere, at least ``m`` in all (D2)."""
    if n >= m:
        ends.add((h, a, d, dumped))
    for c in cards_of(h):
        rest = h & ~(1 << c)
        if accepts(True, a, c, step):
            walk(ends, m, step, rest, c, d, n + 1, dumped)
        if accepts(False, d, c, step):
            walk(ends, m, step, rest, a, c, n + 1, dumped)
        if not dumped:
            walk(ends, m, step, rest, a, d, n + 1, True)


def relaxed_afters(game: DuelGame, q: int, solo: Solo) -> set[Solo | None]:
    """Player q's states after one relaxed turn (None: every card played),
    while the opponent lays nothing on q's piles, from the rules alone (D2,
    D3, D5): any one card a turn may leave q's hand onto the opponent's
    piles (in the game it must also improve one, D4), and q then refills."""
    hand, at, a, d = solo
    deck = game.decks[q]
    m = game.min_play if at < len(deck) else game.min_play_empty
    ends: set[tuple[int, int, int, bool]] = set()
    walk(ends, m, game.step, hand, a, d, 0, False)
    out: set[Solo | None] = set()
    for h, a2, d2, dumped in ends:
        if h == 0 and at == len(deck):
            out.add(None)
            continue
        want = game.hand_size - h.bit_count() if dumped else game.draw_own
        take = max(0, min(want, len(deck) - at))
        for c in deck[at : at + take]:
            h |= 1 << c
        out.add((h, at + take, a2, d2))
    return out


def relaxed_brute(game: DuelGame, q: int, solo: Solo) -> int | None:
    """Breadth-first fewest relaxed turns (``relaxed_afters``) for player q
    to play every card from ``solo``; None: never."""
    frontier, seen, turns = {solo}, {solo}, 0
    while frontier:
        turns += 1
        nxt = set()
        for s in frontier:
            for after in relaxed_afters(game, q, s):
                if after is None:
                    return turns
                if after not in seen:
                    seen.add(after)
                    nxt.add(after)
        frontier = nxt
    return None


def race_brute(deal: object, q: int) -> int | None:
    """Player q's race alone from the deal (fewest turns laying every card on
    their own piles, the opponent never touching them; None: never), by
    breadth-first search over whole turns from the rules alone: the deal's
    deck and hand size (D1), at least the minimum a turn (D2), the classic
    placement on one's own piles (D3, C5), draw 2 after the turn (D5), and
    the win with the last card (D6). No memo beyond exact states, no cut."""
    from thegame.models.the_game import Deal

    assert isinstance(deal, Deal)
    rules = deal.rules
    deck = list(deal.decks[q])
    h = rules.hand_size(2)
    step = rules.step
    start = (frozenset(deck[:h]), h, rules.low - 1, rules.high + 1)
    frontier = {start}
    seen = {start}
    turns = 0
    while frontier:
        turns += 1
        nxt: set[tuple[frozenset[int], int, int, int]] = set()
        for hand, at, a, d in frontier:
            m = rules.min_play if at < len(deck) else rules.min_play_empty
            ends: set[tuple[frozenset[int], int, int]] = set()
            _lay(ends, m, step, hand, a, d, 0)
            for cards, a2, d2 in ends:
                if not cards and at == len(deck):
                    return turns
                take = min(2, len(deck) - at)
                after = (cards | frozenset(deck[at : at + take]), at + take, a2, d2)
                if after not in seen:
                    seen.add(after)
                    nxt.add(after)
        frontier = nxt
    return None


def _lay(
    ends: set[tuple[frozenset[int], int, int]],
    m: int,
    step: int,
    cards: frozenset[int],
    a: int,
    d: int,
    n: int,
) -> None:
    """Every end of a turn on one's own piles (D3) of at least ``m`` plays."""
    if n >= m:
        ends.add((cards, a, d))
    for c in cards:
        if accepts(True, a, c, step):
            _lay(ends, m, step, cards - {c}, c, d, n + 1)
        if accepts(False, d, c, step):
            _lay(ends, m, step, cards - {c}, a, c, n + 1)
