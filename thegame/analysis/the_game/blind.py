"""A blind policy for the classic family, and a fair rating of plays built on it.

The policy decides from what a player at the table knows (hand, pile tops,
the cards still out, the draw pile's size), never the order of the draw pile
or another hand; it scores the ways to finish the turn by how well the piles
still cover the cards out. ``rate_plays`` compares plays over the same re-
deals of the hidden cards. In full: the docs page games/the-game.md ("The
blind player and the review, in full").
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ...models.outcome import Status
from ...models.the_game import GameState, Play, Rules, is_ascending, placement
from ...models.words import plural

# A policy maps the state at (or inside) a turn to the plays that finish it.
TurnChooser = Callable[[GameState], Sequence[Play]]


@dataclass(frozen=True)
class BlindParams:
    """Weights of the position score (lower is better). Tuned on solo
    classic seeds 100001-102000, never on the benchmark seeds 1-10000."""

    # Cost of a card still out that exactly k piles can take, k = 0, 1, ...;
    # cards covered by more piles than listed cost nothing.
    cover_cost: tuple[float, ...] = (40.0, 4.0, 1.2, 0.3)
    # Extra cost on top of ``cover_cost`` when that card is in the own hand:
    # it has to be played by this player, soon.
    hand_cost: tuple[float, ...] = (20.0, 2.0, 0.5, 0.0)
    # Credit per card out between a pile's top and its trick card (top - 10
    # on an ascending pile): the trick would reopen them. Per card, when the
    # trick card is in the own hand / still unseen.
    trick_hand: float = 0.4
    trick_unseen: float = 0.1
    # Beyond the minimum a play is tried only if it jumps at most this many
    # cards that are still out (or is a backward trick).
    free_gap: int = 4
    # Within the minimum, plays jumping more than this many cards beyond the
    # cheapest play available at that point are not tried (they are almost
    # never best, and skipping them keeps a turn to a few milliseconds).
    forced_slack: int = 12
    # Credit per card played this turn (negative: a cost).
    play_bonus: float = 0.0
    # Cost of leaving a fire card on top (rule F2: it must be covered soon).
    fire_cost: float = 8.0


@dataclass(frozen=True)
class _Tables:
    """Bitmasks of card sets for one rules preset (bit c = card c)."""

    low: int
    high: int
    step: int
    all_cards: int
    above: tuple[int, ...]  # above[t]: cards > t
    below: tuple[int, ...]  # below[t]: cards < t
    fire: frozenset[int]


@lru_cache(maxsize=32)
def _tables(rules: Rules) -> _Tables:
    top = rules.high + 1
    all_cards = ((1 << (rules.high + 1)) - 1) & ~((1 << rules.low) - 1)
    above = tuple(all_cards & ~((1 << (t + 1)) - 1) for t in range(top + 1))
    below = tuple(all_cards & ((1 << t) - 1) for t in range(top + 1))
    return _Tables(rules.low, rules.high, rules.step, all_cards, above, below, rules.fire_cards)


def _mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _seat_view(state: GameState) -> tuple[_Tables, list[int], int] | None:
    """What a decision reads: the tables of the rules, the hand of the
    player to move, the cards still out (None: the game is over)."""
    check_family(state.rules)
    if state.over:
        return None
    return _tables(state.rules), sorted(state.hands[state.current]), _cards_out(state)


def _cards_out(state: GameState) -> int:
    """The cards still out, as a mask: every hand and the draw pile. Only
    the union of those sets is read, which is public (the complement of
    the cards played), never who holds which card or the pile's order."""
    out = 0
    for h in state.hands:
        out |= _mask(h)
    return out | _mask(state.draw_pile())


def check_family(rules: Rules) -> None:
    if rules.is_duel or rules.commands:
        raise ValueError(f"the blind policy covers the classic family, not {rules.name}")


class BlindPolicy:
    """The blind policy; ``choose_turn`` is the whole interface."""

    def __init__(self, params: BlindParams | None = None) -> None:
        self.params = params or BlindParams()
        p = self.params
        # Differences of successive costs: cost(k) = sum of diffs from k on,
        # so the score needs one "covered at least k+1 times" mask per entry.
        cc = [*p.cover_cost, 0.0]
        hc = [*p.hand_cost, 0.0]
        depth = max(len(p.cover_cost), len(p.hand_cost))
        cc += [0.0] * (depth + 1 - len(cc))
        hc += [0.0] * (depth + 1 - len(hc))
        self._out_steps = tuple(cc[k] - cc[k + 1] for k in range(depth))
        self._hand_steps = tuple(hc[k] - hc[k + 1] for k in range(depth))

    @property
    def out_steps(self) -> tuple[float, ...]:
        """Score weight per "covered by fewer than k+1 piles" step, for a card
        still out (the compiled playouts take these very numbers)."""
        return self._out_steps

    @property
    def hand_steps(self) -> tuple[float, ...]:
        """The same steps for the extra cost of a card in the own hand."""
        return self._hand_steps

    def __call__(self, state: GameState) -> list[Play]:
        return self.choose_turn(state)

    # -- the public decision ---------------------------------------------------

    def choose_turn(self, state: GameState) -> list[Play]:
        """The plays that finish the current turn (from its start or from
        inside it), each legal in sequence; meets the turn minimum whenever
        that is possible, else returns the longest sequence it found."""
        rules = state.rules
        seat = _seat_view(state)
        if seat is None:
            return []
        tab, hand, out = seat
        need = max(0, state.turn_min - len(state.placed))
        asc = tuple(is_ascending(rules, i) for i in range(rules.n_piles))
        # Fire (F2): a fire card on top that was laid before this turn must be
        # covered now; one laid this turn must be covered by the next turn.
        old_fire = tuple(
            t in tab.fire and state.top_turn[i] < state.turn for i, t in enumerate(state.tops)
        )
        if out == _mask(hand) and (rules.fire_safe_at_clear or not tab.fire):
            # Every card still out is in this hand (solo, or the others are
            # done, and the draw pile is empty): nothing is hidden any more,
            # so look for a line that plays them all in this turn (F3: a
            # fire card laid last is then safe).
            line = _clear_line(tab, asc, list(state.tops), hand)
            if line is not None:
                return line
        search = _TurnSearch(self, tab, asc, list(state.tops), hand, out, need, old_fire)
        search.run()
        if search.best is None:
            # The pruning cut every safe way to finish the turn: look again
            # without it, so a legal (and fire-safe) turn is found whenever
            # one exists.
            search = _TurnSearch(self, tab, asc, list(state.tops), hand, out, need, old_fire)
            search.slack = tab.high
            search.free_gap = tab.high
            search.run()
        return search.result()

    def turn_options(self, state: GameState) -> list[tuple[float, list[Play]]]:
        """Every distinct way to finish the current turn that ``choose_turn``
        weighs (the same enumeration and pruning), as (score, plays), best
        score first; among equal scores the one found first comes first, so
        the head is ``choose_turn``'s own choice. Only fire-safe ends are
        listed when one exists; a line that clears the game is listed alone.
        Reads exactly what ``choose_turn`` reads."""
        rules = state.rules
        seat = _seat_view(state)
        if seat is None:
            return []
        tab, hand, out = seat
        if out == _mask(hand) and (rules.fire_safe_at_clear or not tab.fire):
            line = _clear_line(tab, tuple(is_ascending(rules, i) for i in range(rules.n_piles)),
                               list(state.tops), hand)  # fmt: skip
            if line is not None:
                return [(-math.inf, line)]
        ends: list[tuple[float, list[Play]]] = []
        for unpruned in (False, True):
            search = self._search(state, tab, hand, out)
            if unpruned:
                search.slack = tab.high
                search.free_gap = tab.high
            search.ends = ends
            search.run()
            if ends:
                # sorted() is stable: equal scores keep the order found.
                return sorted(ends, key=lambda e: e[0])
        return [(0.0, search.result())]

    def _search(self, state: GameState, tab: _Tables, hand: list[int], out: int) -> _TurnSearch:
        rules = state.rules
        need = max(0, state.turn_min - len(state.placed))
        asc = tuple(is_ascending(rules, i) for i in range(rules.n_piles))
        old_fire = tuple(
            t in tab.fire and state.top_turn[i] < state.turn for i, t in enumerate(state.tops)
        )
        return _TurnSearch(self, tab, asc, list(state.tops), hand, out, need, old_fire)

    # -- the position score ------------------------------------------------------

    def score(
        self,
        tab: _Tables,
        asc: tuple[bool, ...],
        tops: list[int],
        hand: int,
        out: int,
        played: int,
        fresh_fire: int,
    ) -> float:
        """Cost of an end-of-turn position (lower is better)."""
        p = self.params
        step = tab.step
        low, high = tab.low, tab.high
        above, below = tab.above, tab.below
        depth = len(self._out_steps)
        at = [0] * depth  # at[k]: cards at least k+1 piles can take
        credit = 0.0
        for i, t in enumerate(tops):
            if asc[i]:
                cover = above[t] if t <= high else 0
                partner = placement.trick_card(True, t, step)
                if partner >= low:
                    bit = 1 << partner
                    cover |= bit
                    if out & bit and t <= high + 1:
                        window = above[partner] & below[t] & out
                        w = p.trick_hand if hand & bit else p.trick_unseen
                        credit += w * window.bit_count()
            else:
                cover = below[t] if t >= low else 0
                partner = placement.trick_card(False, t, step)
                if partner <= high:
                    bit = 1 << partner
                    cover |= bit
                    if out & bit:
                        window = above[t] & below[partner] & out
                        w = p.trick_hand if hand & bit else p.trick_unseen
                        credit += w * window.bit_count()
            for k in range(depth - 1, 0, -1):
                at[k] |= at[k - 1] & cover
            at[0] |= cover
        cost = 0.0
        for k in range(depth):
            miss = ~at[k]
            ws = self._out_steps[k]
            if ws:
                cost += ws * (out & miss).bit_count()
            wh = self._hand_steps[k]
            if wh:
                cost += wh * (hand & miss).bit_count()
        return cost - credit - p.play_bonus * played + p.fire_cost * fresh_fire


class _TurnSearch:
    """Depth-first enumeration of the distinct ways to finish one turn."""

    def __init__(
        self,
        policy: BlindPolicy,
        tab: _Tables,
        asc: tuple[bool, ...],
        tops: list[int],
        hand: list[int],
        out: int,
        need: int,
        old_fire: tuple[bool, ...],
    ) -> None:
        self.policy = policy
        self.tab = tab
        self.asc = asc
        self.tops = tops
        self.hand = hand
        self.out = out
        self.need = need
        self.old_fire = list(old_fire)
        self.free_gap = policy.params.free_gap
        self.slack = policy.params.forced_slack
        self.seen: set[tuple[tuple[int, ...], int]] = set()
        self.path: list[Play] = []
        self.best: tuple[float, list[Play]] | None = None
        # When no fire-safe end exists the game is lost anyway; still finish
        # a legal turn (the engine then reports the F2 loss).
        self.best_unsafe: tuple[float, list[Play]] | None = None
        self.longest: list[Play] = []
        self.changed = [False] * len(tops)
        # When a list: every fire-safe end found, (cost, plays), in the
        # order found (``turn_options``).
        self.ends: list[tuple[float, list[Play]]] | None = None

    def run(self) -> None:
        self._visit(_mask(self.hand), self.out)

    def result(self) -> list[Play]:
        if self.best is not None:
            return self.best[1]
        if self.best_unsafe is not None:
            return self.best_unsafe[1]
        return self.longest

    def _visit(self, hand: int, out: int) -> None:
        tops = self.tops
        key = (tuple(tops), hand)
        if key in self.seen:
            return
        self.seen.add(key)
        depth = len(self.path)
        if depth > len(self.longest):
            self.longest = list(self.path)
        tab = self.tab
        if depth >= self.need:
            self._consider(hand, out)
        asc = self.asc
        step = tab.step
        above, below = tab.above, tab.below
        moves: list[tuple[int, int, int]] = []  # (gap, card, pile)
        for c in self.hand:
            bit = 1 << c
            if not hand & bit:
                continue
            tried: set[tuple[bool, int]] = set()
            for i, t in enumerate(tops):
                trick = placement.is_trick(asc[i], t, c, step)
                if not (trick or placement.beyond(asc[i], t, c)):
                    continue
                if trick:
                    gap = -1
                elif asc[i]:
                    gap = (above[t] & below[c] & out).bit_count()
                else:
                    gap = (above[c] & below[t] & out).bit_count()
                # Piles of one direction with the same top are interchangeable
                # (only the untouched start values can coincide).
                if (asc[i], t) in tried:
                    continue
                tried.add((asc[i], t))
                moves.append((gap, c, i))
        if not moves:
            return
        limit = self.free_gap if depth >= self.need else min(m[0] for m in moves) + self.slack
        for gap, c, i in moves:
            # Covering a fire card due this turn is never pruned (rule F2).
            if gap <= limit or (self.old_fire[i] and not self.changed[i]):
                bit = 1 << c
                t = tops[i]
                was = self.changed[i]
                tops[i] = c
                self.changed[i] = True
                self.path.append(Play(c, i))
                self._visit(hand & ~bit, out & ~bit)
                self.path.pop()
                self.changed[i] = was
                tops[i] = t

    def _consider(self, hand: int, out: int) -> None:
        fire = self.tab.fire
        fresh = 0
        safe = True
        if fire:
            for i, t in enumerate(self.tops):
                if t in fire:
                    if self.changed[i] or not self.old_fire[i]:
                        fresh += 1
                    else:
                        safe = False
            if not out:
                safe = True  # F3: a clear ends the game before any deadline
        cost = self.policy.score(self.tab, self.asc, self.tops, hand, out, len(self.path), fresh)
        if safe:
            if self.ends is not None:
                self.ends.append((cost, list(self.path)))
            if self.best is None or cost < self.best[0]:
                self.best = (cost, list(self.path))
        elif self.best_unsafe is None or cost < self.best_unsafe[0]:
            self.best_unsafe = (cost, list(self.path))


def clear_line(state: GameState) -> list[Play] | None:
    """Plays that put the whole hand of the player to move onto the piles
    this turn, if any exist (None also when the game is over)."""
    seat = _seat_view(state)
    if seat is None:
        return None
    rules = state.rules
    asc = tuple(is_ascending(rules, i) for i in range(rules.n_piles))
    return _clear_line(seat[0], asc, list(state.tops), seat[1])


def _clear_line(
    tab: _Tables, asc: tuple[bool, ...], tops: list[int], hand: list[int]
) -> list[Play] | None:
    """Plays that put every card of ``hand`` onto the piles, if any exist."""
    failed: set[tuple[tuple[int, ...], int]] = set()
    path: list[Play] = []
    step = tab.step

    def search(left: int) -> bool:
        if not left:
            return True
        key = (tuple(tops), left)
        if key in failed:
            return False
        for c in hand:
            if not left & (1 << c):
                continue
            for i, t in enumerate(tops):
                if not placement.accepts(asc[i], t, c, step):
                    continue
                tops[i] = c
                path.append(Play(c, i))
                found = search(left & ~(1 << c))
                tops[i] = t
                if found:
                    return True
                path.pop()
        failed.add(key)
        return False

    return path if search(_mask(hand)) else None


_DEFAULT = BlindPolicy()


def choose_turn(state: GameState) -> list[Play]:
    """The default blind policy's turn (see ``BlindPolicy.choose_turn``)."""
    return _DEFAULT.choose_turn(state)


def play_out(state: GameState, policy: TurnChooser | None = None) -> GameState:
    """Play ``state`` to the end with ``policy`` (default: the blind policy)
    and return the final state; ``state`` itself is left unchanged.

    A turn the policy cannot complete (fewer plays than the minimum, possible
    only when the position was entered mid-turn) ends the game as lost
    (rule C8: the player cannot play their minimum).
    """
    choose = policy or choose_turn
    st = state.copy()
    while not st.over:
        for play in choose(st):
            st.play(play.card, play.pile)
        if st.over:
            break
        if st.can_end_turn():
            st.end_turn()
        else:
            st.status = Status.LOST
            need = plural(st.turn_min, "card")
            st.reason = f"player {st.current + 1} cannot play {need} (rule C8)"
    return st


@dataclass(frozen=True)
class PlayRating:
    """One alternative of ``rate_plays``: ``play`` None means ending the turn."""

    play: Play | None
    win_rate: float
    expected_left: float
    samples: int


def deal_hidden(state: GameState, order: Sequence[int]) -> GameState:
    """``state`` with its hidden cards dealt in ``order``: the other hands in
    player order take as many cards as they hold, the rest is the draw pile."""
    cards = list(order)
    new = state.copy()
    pos = 0
    for i, h in enumerate(state.hands):
        if i != state.current:
            new.hands[i] = set(cards[pos : pos + len(h)])
            pos += len(h)
    # copy() shares the stock lists: give the sample a list of its own.
    new.stocks = [list(state.stocks[0][: state.stock_pos[0]]) + cards[pos:]]
    return new


def resample(state: GameState, hidden: list[int], rng: random.Random) -> GameState:
    """``state`` with the hidden cards (draw pile, other hands) re-dealt in a
    random order; hand sizes and the draw pile's length stay the same."""
    cards = list(hidden)
    rng.shuffle(cards)
    return deal_hidden(state, cards)


def rate_plays(
    state: GameState,
    samples: int,
    seed: int,
    policy: TurnChooser | None = None,
) -> list[PlayRating]:
    """Rate every legal next play (and ending the turn, when legal) by the
    win rate and mean cards left when the blind policy plays on after it.

    Each of ``samples`` random orders of the cards the player cannot see is
    shared by all alternatives (common random numbers); ``random.Random(seed)``
    draws them, so the answer is deterministic. Ratings follow
    ``state.legal_plays()`` order, then ending the turn.
    """
    check_family(state.rules)
    if state.over:
        return []
    if samples < 1:
        raise ValueError("samples must be at least 1")
    alternatives: list[Play | None] = list(state.legal_plays())
    if state.can_end_turn():
        alternatives.append(None)
    me = state.current
    # Sorted, so the samples depend on which cards are hidden, not on the
    # order they happen to be in.
    hidden = sorted(
        [c for i, h in enumerate(state.hands) if i != me for c in h] + state.draw_pile()
    )
    rng = random.Random(seed)
    wins = [0] * len(alternatives)
    left = [0] * len(alternatives)
    for _ in range(samples):
        base = resample(state, hidden, rng)
        for k, alt in enumerate(alternatives):
            st = base.copy()
            if alt is None:
                st.end_turn()
            else:
                st.play(alt.card, alt.pile)
            final = play_out(st, policy)
            wins[k] += final.status == Status.WON
            left[k] += final.cards_left()
    return [
        PlayRating(alt, wins[k] / samples, left[k] / samples, samples)
        for k, alt in enumerate(alternatives)
    ]
