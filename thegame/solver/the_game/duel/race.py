"""Each player's race alone, and the bounds the duel search takes from it.

The race alone of player p: the fewest turns in which p plays all their
cards on their own two piles if the opponent never touches them (and p puts
no card onto the opponent's piles, so p draws 2 after each turn, D5). It is
an exact shortest path over p's own turns, found by depth-first search with
a memo of exact values; ``None`` when p cannot finish alone.

Two bounds for the duel search (``search.py``), each argued where it is made:
``fewest_turns`` (a lower bound on the turns p needs whatever happens) and
the robust race (an upper bound that holds whatever the opponent does).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ....models import interrupt
from ....models.outcome import OutOfBudget
from ....models.the_game.placement import accepts, takes_all_of
from ..budget import NO_NODE_LIMIT
from . import ccore
from .position import H0, DuelGame, Pos, Solo, SoloTurn, cards_of, solo_of, solo_turns

if TYPE_CHECKING:
    from . import _cduel

INF = 1 << 30


def fewest_turns(game: DuelGame, hand_cards: int, stock: int) -> int:
    """A lower bound on the turns a player needs to play all their cards,
    this turn counted, whatever either player does.

    Sound: a turn ends by drawing at most max(hand size, 2) cards (D5: refill
    to the hand size, or draw 2), and the turn that plays the last card comes
    after the last draw; so with ``stock`` cards to draw at least
    ceil(stock / that) turns draw, and one more plays the last card. A
    player with cards left needs at least one turn."""
    if hand_cards + stock == 0:
        return 0
    per = max(game.hand_size, game.draw_own)
    return 1 + -(-stock // per)


def solo_floor(game: DuelGame, p: int, solo: Solo) -> int:
    """A lower bound for the race alone: every turn draws at most 2 (D5,
    own piles only), and the last card comes after the last draw."""
    stock = len(game.decks[p]) - solo[1]
    if solo[0] == 0 and stock == 0:
        return 0
    return 1 + -(-stock // game.draw_own) if stock else 1


def dead_cards(game: DuelGame, p: int, solo: Solo) -> int:
    """How many cards of player p can never be played on their own piles
    while only p plays there.

    Sound: then a pile's future tops are the player's own unplayed cards.
    A card c can later go on the ascending pile only if the pile takes it
    now (c > top, or c = top - step, the backward trick onto the top), or
    some unplayed card y that can itself go there comes first with y < c
    (then c goes beyond it) or y = c + step (then c is the backward trick).
    The closure of that rule from the cards the pile takes now
    over-approximates every card the pile can ever take (it ignores order
    and the hand); likewise mirrored for the descending pile. A card outside
    both closures is dead."""
    hand, at, a, d = solo
    cards = [c for c in range(game.low, game.high + 1) if hand >> c & 1]
    cards += game.decks[p][at:]
    step = game.step
    dead = set(cards)
    for asc in (True, False):
        alive = {c for c in cards if accepts(asc, a if asc else d, c, step)}
        grew = True
        while grew:
            grew = False
            edge = (min(alive) if asc else max(alive)) if alive else None
            for c in cards:
                if c in alive:
                    continue
                back = c + step if asc else c - step
                beyond = edge is not None and (edge < c if asc else edge > c)
                if beyond or back in alive:
                    alive.add(c)
                    grew = True
        dead -= alive
    return len(dead)


def alone_floor(game: DuelGame, pos: Pos, q: int, dead: int | None = None) -> int:
    """A lower bound on the turns player q needs to play all their cards,
    this turn counted, while the opponent lays no card on q's piles.

    Sound: ``fewest_turns`` holds whatever happens; and each card dead on
    q's own piles (``dead_cards``: none of q's own cards can ever bring a
    pile to take it) can only leave q's hand onto the opponent's piles, at
    most one card a turn (D2), so q needs a turn for each. ``dead``: that
    count when known (the compiled one)."""
    low = fewest_turns(game, pos[H0 + q].bit_count(), game.stock_left(pos, q))
    if dead is None:
        dead = dead_cards(game, q, solo_of(pos, q))
    return max(low, dead)


def canonical(game: DuelGame, p: int, solo: Solo) -> Solo:
    """``solo`` with each top moved as far back as it goes (ascending: down,
    descending: up) without changing which unplayed cards the pile takes.

    Sound: a pile's top matters only through the cards it takes (beyond it,
    or the backward trick, C5), and once a card goes on it the top is that
    card. Moving an ascending top from x to x - 1 keeps that set when x,
    x - step and x - 1 - step are all played (x was not takeable, and
    neither old nor new trick card is to come); likewise mirrored. So both
    states have the same futures, and share one memo entry."""
    hand, at, a, d = solo
    un = hand
    for c in game.decks[p][at:]:
        un |= 1 << c
    step = game.step

    def gone(*cards: int) -> bool:
        return not any(0 <= c <= 63 and un >> c & 1 for c in cards)

    while a - 1 >= 0 and gone(a, a - step, a - 1 - step):
        a -= 1
    while d + 1 <= 64 and gone(d, d + step, d + 1 + step):
        d += 1
    return (hand, at, a, d)


@dataclass
class Race:
    """The race alone of one player: ``turns`` None when they cannot finish
    alone; ``proven`` False when the budget ran out (then ``turns`` is the
    best found, or None, and ``floor`` the proven lower bound)."""

    player: int  # 1-based
    turns: int | None
    proven: bool
    floor: int
    nodes: int
    line: list[tuple[tuple[int, int], ...]]

    def to_dict(self) -> dict[str, object]:
        return {
            "player": self.player,
            # A count, not a line: "turns" is a line in every JSON document.
            "fewest_turns": self.turns,
            "proven": self.proven,
            "floor": self.floor,
            "stats": {"nodes": self.nodes},
        }


class RaceSolver:
    """Exact fewest turns alone (``robust``: with the robust turns only),
    memoised across calls for one player of one deal."""

    def __init__(
        self, game: DuelGame, p: int, robust: bool = False, compiled: _cduel.Game | None = None
    ) -> None:
        self.game = game
        self.p = p
        self.robust = robust
        self.memo: dict[Solo, int] = {}
        # (hand, at) -> the tops of the states of that hand and draw pile
        # found with no finish (``_lost_above``).
        self.lost: dict[tuple[int, int], list[tuple[int, int]]] = {}
        # The turns alone and the dead-card count, compiled when ``ccore``
        # says so (the same answers): the caller's compiled game, else our own.
        c = compiled if compiled is not None else ccore.compiled(game)
        self.turns: Callable[[Solo], list[SoloTurn]] = (
            (lambda solo: c.solo_turns(p, solo, robust))
            if c is not None
            else (lambda solo: solo_turns(game, p, solo, robust))
        )
        self.dead: Callable[[Solo], int] = (
            (lambda solo: c.dead_cards(p, solo))
            if c is not None
            else (lambda solo: dead_cards(game, p, solo))
        )
        self._nodes = 0
        self.node_limit = NO_NODE_LIMIT
        self.deadline: float | None = None
        # The whole search compiled (race.c, the same nodes in the same
        # order, the same cuts), where the compiled expansion is used.
        self.kernel: _cduel.Race | None = ccore.race(c, p, robust) if c is not None else None

    @property
    def nodes(self) -> int:
        """Nodes visited so far, over every call."""
        return self.kernel.nodes if self.kernel is not None else self._nodes

    def fewest(self, solo: Solo, nodes: int | None = None, deadline: float | None = None) -> int:
        """Exact fewest turns to finish alone from ``solo`` (INF: never);
        ``OutOfBudget`` when ``nodes`` more nodes or the deadline run out."""
        self.node_limit = self.nodes + nodes if nodes is not None else NO_NODE_LIMIT
        self.deadline = deadline
        if self.kernel is not None:
            got = self.kernel.fewest(solo, -1 if nodes is None else nodes, self._stop)
            if got is None:
                raise OutOfBudget
            return got
        return self._fewest(solo)

    def _stop(self) -> bool:
        """The compiled search's check every 256 nodes, as ``_fewest``'s."""
        return interrupt.requested() or (
            self.deadline is not None and time.monotonic() > self.deadline
        )

    def known(self, solo: Solo) -> int | None:
        """The memo's exact value of ``solo``, None when not solved."""
        if self.kernel is not None:
            return self.kernel.known(solo)
        return self.memo.get(canonical(self.game, self.p, solo))

    def _fewest(self, solo: Solo) -> int:
        solo = canonical(self.game, self.p, solo)
        got = self.memo.get(solo)
        if got is not None:
            return got
        self._nodes += 1
        if self._nodes >= self.node_limit:
            raise OutOfBudget
        if self._nodes & 255 == 0 and (
            interrupt.requested()
            or (self.deadline is not None and time.monotonic() > self.deadline)
        ):
            raise OutOfBudget
        floor = solo_floor(self.game, self.p, solo)
        best = INF
        if not self.robust and self.dead(solo) > 0:
            self.memo[solo] = INF  # a card that never goes down: no finish alone
            return INF
        if not self.robust and self._lost_above(solo):
            self.memo[solo] = INF
            return INF
        children = self.turns(solo)
        # More cards played first: an early finish found early ends the loop
        # at the floor.
        children.sort(key=lambda t: -len(t[0]))
        for _plays, after in children:
            value = 1 if after is None else 1 + self._fewest(after)
            if value < best:
                best = value
                if best <= floor:
                    break  # the floor is proven: nothing is shorter
        self.memo[solo] = best
        if best >= INF and not self.robust:
            self.lost.setdefault((solo[0], solo[1]), []).append((solo[2], solo[3]))
        return best

    def _lost_above(self, solo: Solo) -> bool:
        """Whether a state with the same hand and draw pile, found with no
        finish, has tops that take every card these take (``takes_all_of``,
        now and later). Sound: then every line from ``solo`` is a line from
        that state, which has none that finishes."""
        hand, at, a, d = solo
        tops = self.lost.get((hand, at))
        if not tops:
            return False
        un = hand
        for c in self.game.decks[self.p][at:]:
            un |= 1 << c
        step = self.game.step
        return any(
            takes_all_of(True, la, a, step, un) and takes_all_of(False, ld, d, step, un)
            for la, ld in tops
        )

    def line(self, solo: Solo) -> list[tuple[tuple[int, int], ...]]:
        """The turns of a fewest-turns finish from a solved ``solo``."""
        out: list[tuple[tuple[int, int], ...]] = []
        want = self.known(solo)
        while want is not None and want < INF and solo is not None:
            for plays, after in solo_turns(self.game, self.p, solo, self.robust):
                known = None if after is None else self.known(after)
                value = 1 if after is None else 1 + (INF if known is None else known)
                if value == want:
                    out.append(plays)
                    if after is None:
                        return out
                    solo, want = after, want - 1
                    break
            else:
                return out
        return out


def finish_line(
    game: DuelGame, p: int, solo: Solo, nodes: int | None = None
) -> list[tuple[tuple[int, int], ...]] | None:
    """Player p's race alone from ``solo``, decided: a finish in the fewest
    turns (each turn's plays), None when none exists. Searched a card at a
    time, far smaller than a search over whole turns.

    A state is the hand, the draw pile, the tops (``canonical``) and the
    plays made this turn, k (capped at the minimum, D2). From it: a card
    onto either own pile (D3); or, with k at the minimum and cards to
    draw, the turn's end and the draw of 2 (D5). Laying the last card, the
    draw pile empty, with k at the minimum finishes (D6). Each finish is a
    sequence of legal turns and each sequence of turns is such a path.

    Fewest turns: each turn that ends while cards are left to draw draws
    min(2, what is left), so every finish has as many of those; once the
    draw pile is empty two turns in a row play as one. So a finish with no
    turn's end after the last draw, the only kind searched, has the fewest
    turns: ``solo_floor``. A state is searched once (a finish ends the
    search). ``OutOfBudget`` after ``nodes`` states; ``_cduel.Race.finishes``
    is the same search compiled, state for state."""
    deck = game.decks[p]
    step = game.step
    seen: set[tuple[int, int, int, int, int]] = set()
    limit = NO_NODE_LIMIT if nodes is None else nodes
    path: list[tuple[int, int] | None] = []  # None: a turn's end

    def search(hand: int, at: int, a: int, d: int, k: int) -> bool:
        m = game.min_play if at < len(deck) else game.min_play_empty
        k = min(k, m)
        if hand == 0 and at == len(deck):
            return k >= m
        _h, _at, ca, cd = canonical(game, p, (hand, at, a, d))
        key = (hand, at, ca, cd, k)
        if key in seen:
            return False
        seen.add(key)
        if len(seen) >= limit:
            raise OutOfBudget
        for c in cards_of(hand):
            rest = hand & ~(1 << c)
            for asc, pile in ((True, 2 * p), (False, 2 * p + 1)):
                path.append((c, pile))
                top_a, top_d = (c, d) if asc else (a, c)
                if accepts(asc, a if asc else d, c, step) and search(rest, at, top_a, top_d, k + 1):
                    return True
                path.pop()
        if k < m or at == len(deck):
            return False
        take = min(game.draw_own, len(deck) - at)
        drawn = hand
        for c in deck[at : at + take]:
            drawn |= 1 << c
        path.append(None)
        if search(drawn, at + take, a, d, 0):
            return True
        path.pop()
        return False

    return _turns_of(path) if search(*solo, 0) else None


def _turns_of(path: list[tuple[int, int] | None]) -> list[tuple[tuple[int, int], ...]]:
    """A finish's plays, a turn's end as None, cut into turns."""
    turns: list[tuple[tuple[int, int], ...]] = [()]
    for play in path:
        if play is None:
            turns.append(())
        else:
            turns[-1] += (play,)
    return turns


def finishes_alone(game: DuelGame, p: int, solo: Solo, nodes: int | None = None) -> bool:
    """Whether player p can lay all their cards alone (``finish_line``)."""
    return finish_line(game, p, solo, nodes) is not None


def race_alone(
    game: DuelGame, p: int, solo: Solo, nodes: int | None = None, deadline: float | None = None
) -> Race:
    """Player p's race alone from ``solo`` (p 0-based), within a budget,
    decided by ``finish_line``."""
    solver = RaceSolver(game, p)
    solver.deadline = deadline
    floor = solo_floor(game, p, solo)
    used, line = _finish_line(game, solver, solo, nodes)
    if not isinstance(line, list):  # None: the budget ran out; False: no finish
        return Race(p + 1, None, line is False, floor, used, [])
    return Race(p + 1, len(line), True, len(line), used, line)


def _finish_line(
    game: DuelGame, solver: RaceSolver, solo: Solo, nodes: int | None
) -> tuple[int, list[tuple[tuple[int, int], ...]] | bool | None]:
    """``finish_line``, compiled where the race is: (states searched, the
    finish; False: none; None: the budget ran out)."""
    if solver.kernel is None:
        try:
            line = finish_line(game, solver.p, solo, nodes)
        except OutOfBudget:
            return nodes or 0, None
        return 0, False if line is None else line
    got, used = solver.kernel.finishes(solo, -1 if nodes is None else nodes, solver._stop)
    return used, got


class RelaxedRace:
    """The fewest relaxed turns in which player p could lay all their
    cards while the opponent lays nothing on p's piles: a lower bound for
    the race bounds of the duel search, stronger than ``alone_floor``.

    Sound: every real turn of p is a relaxed turn (``survival.relaxed_turns``:
    the same own plays, D3; the one card for the opponent, D2, allowed to be
    any card of the hand; the same draw, D5), so p cannot finish in fewer
    real turns than relaxed ones. Memoised across calls; exact values only,
    the search cut where it reaches ``alone_floor`` (which holds for relaxed
    turns too: at most max(hand size, 2) cards drawn a turn, and a card dead
    on p's own piles leaves only as the turn's one card for the opponent)."""

    def __init__(self, game: DuelGame, p: int, compiled: _cduel.Game | None = None) -> None:
        from .survival import listing  # survival imports nothing of the races

        self.game = game
        self.p = p
        c = compiled if compiled is not None else ccore.compiled(game)
        self.turns = listing(game, p, True, c)
        self.dead: Callable[[Solo], int] = (
            (lambda solo: c.dead_cards(p, solo))
            if c is not None
            else (lambda solo: dead_cards(game, p, solo))
        )
        self.memo: dict[Solo, int] = {}
        self.nodes = 0
        self.node_limit = 0

    def fewest(self, solo: Solo, nodes: int) -> int:
        """The exact fewest relaxed turns from ``solo`` (INF: never);
        ``OutOfBudget`` after ``nodes`` more turn listings."""
        self.node_limit = self.nodes + nodes
        if len(self.memo) > RELAXED_MEMO:
            self.memo.clear()
        return self._fewest(solo)

    def floor(self, solo: Solo) -> int:
        stock = len(self.game.decks[self.p]) - solo[1]
        return max(fewest_turns(self.game, solo[0].bit_count(), stock), self.dead(solo))

    def _fewest(self, solo: Solo) -> int:
        got = self.memo.get(solo)
        if got is not None:
            return got
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise OutOfBudget
        floor = self.floor(solo)
        best = INF
        # A finish first, then the fewest cards left (the likeliest to be
        # short), then a fixed order: the same for both backends.
        stock_len = len(self.game.decks[self.p])
        for after in sorted(self.turns(solo), key=_relaxed_order(stock_len)):
            value = 1 if after is None else 1 + self._fewest(after)
            if value < best:
                best = value
                if best <= floor:
                    break
        self.memo[solo] = best
        return best


# Memo entries a relaxed race keeps before it starts afresh.
RELAXED_MEMO = 200_000


def _relaxed_order(stock_len: int) -> Callable[[Solo | None], tuple[int, ...]]:
    def key(after: Solo | None) -> tuple[int, ...]:
        if after is None:
            return ()
        return (after[0].bit_count() + stock_len - after[1], *after)

    return key
