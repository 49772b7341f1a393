"""A second, independent exact engine: a CP-SAT model of a known-order deal.

Covers the classic family with 1-5 players, with or without fire cards
(rules F1-F4, when fire is safe at a perfect clear), but not commands:
``classic``, ``profi``, ``profi-hard``, ``on-fire`` and their generalised
forms (rule C10). It shares nothing with the search (``thegame.solver.search``)
but the form of its line, and every line it reports is replayed through the
rules engine, so a verdict confirmed by both engines is confirmed twice.
Several players add whose turn each slot is in, card ownership and the C7
skip (``_players``); fire cards add deadline flags per pile (``_fire``).

The model is time-indexed over play slots. With N cards, slot s = 0..N-1 is
the s-th card played; ``filled[s]`` says it is played at all (a prefix is).

- Cards: ``x[i, s]`` is true when the card at deck position i is the card
  of slot s; exactly one card per filled slot, each card at most once.
- Turns: ``end[s]`` is true when a turn ends after slot s; slot b starts a
  turn when b = 0 or ``end[b-1]``. ``tb[s]`` is the slot at which the turn
  containing s started, i.e. the number of cards played before that turn.
- Hand (rules C2, C6), solo: the player refills to H after every turn, so at
  the start of a turn with b cards played before, deck positions < H + b have
  been seen. The card at position i can be played in slot s only if
  i < H + tb[s] (one linear constraint per slot).
- Minimum (rules C4, P1): a turn starting at slot b has at least m plays if
  the draw pile has cards then (H + b < N), else ``min_play_empty``. The last
  filled slot ends a turn, so every counted turn is complete: the game ends
  at the start of a turn whose minimum cannot be met, and the cards of an
  unfinished turn do not count (rule C8).
- Piles (rules C1, C5): ``top[p, s]`` is the top of pile p after slot s.
  ``on[s, p]`` puts the card of slot s on p, ``trick[s, p]`` as a backward
  trick. A normal play is above the top (ascending) or below it
  (descending); a trick is exactly ``step`` back; the top becomes the card.
- Objective: the number of filled slots (cards played), maximised. A
  perfect clear is an objective of N.

Sound shortcuts (each argued where it is added): turns of at most 2m-1 plays
while the draw pile has cards and single-play turns after it (turn
splitting, ``Shape.maximum``), piles of one direction used in index order
(pile symmetry), plays listed pile by pile within a turn and after the draw
pile is empty (commuting plays), and a growing horizon: a model over the
first K slots whose optimum is at most K - L (L the longest turn) has
found the optimum of the whole game (``Shape.settled``), so a deal where
few cards can be played is decided on a small model.

Only OPTIMAL and INFEASIBLE statuses, or a proven objective bound that
settles the game below N, count as proofs; every line is replayed through
the rules engine. A hint (e.g. the search's line) is brought into the
model's form (``normalise``) and given as a complete assignment.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from ...models import IllegalMoveError
from ...models.outcome import NO_LIMIT, Limit, Status, Verdict
from ...models.the_game import Deal, GameState, Play, Turn
from .api import Solution, SolverBug
from .bounds import state_lower_bound
from .kernel import END, Action

ENGINE = "cpsat"


def check_supported(deal: Deal) -> None:
    """Raise ``ValueError`` unless the CP-SAT model covers ``deal``."""
    rules = deal.rules
    if rules.kind != "classic":
        raise ValueError(f"the CP-SAT model does not cover {rules.name} (only the classic family)")
    if rules.commands:
        raise ValueError(f"the CP-SAT model does not cover {rules.name}: commands (rule X)")
    if rules.fire_cards and not rules.fire_safe_at_clear:
        # The model lets the last turn of a line leave any fire card showing
        # (rule F3 as decided); the other setting is not modelled.
        raise ValueError("the CP-SAT model needs fire cards to be safe at a perfect clear (F3)")
    if len(deal.deck) < deal.players * rules.hand_size(deal.players):
        raise ValueError("the CP-SAT model needs a full hand for every player")


@dataclass(frozen=True)
class Shape:
    """The parameters of a deal the model needs."""

    deck: tuple[int, ...]
    n: int  # cards
    hand: int  # H
    m: int  # minimum while the draw pile has cards
    m_empty: int  # minimum once it is empty
    n_asc: int
    n_piles: int
    step: int
    low: int
    high: int
    players: int = 1
    fire: frozenset[int] = frozenset()  # rule F1
    first: int | None = None  # 0-based starting player; None: free (rule C3)

    @classmethod
    def of(cls, deal: Deal) -> Shape:
        check_supported(deal)
        r = deal.rules
        return cls(
            deck=deal.deck,
            n=len(deal.deck),
            hand=r.hand_size(deal.players),
            m=r.min_play,
            m_empty=r.min_play_empty,
            n_asc=r.asc_piles,
            n_piles=r.asc_piles + r.desc_piles,
            step=r.step,
            low=r.low,
            high=r.high,
            players=deal.players,
            fire=r.fire_cards,
            first=None if deal.first is None else deal.first - 1,
        )

    @property
    def simple(self) -> bool:
        """Solo without fire cards: turns split and plays commute after the
        draw pile is empty (``maximum``, ``build``). Several players
        interleave their turns and fire deadlines count turns, so neither
        shortcut holds for them."""
        return self.players == 1 and not self.fire

    @property
    def dealt(self) -> int:
        """Cards dealt before the first turn (rule C2)."""
        return self.players * self.hand

    def owner(self, i: int) -> int | None:
        """The player dealt deck position i, or None for a drawn card."""
        return i // self.hand if i < self.dealt else None

    def asc(self, p: int) -> bool:
        return p < self.n_asc

    def start_top(self, p: int) -> int:
        return self.low - 1 if self.asc(p) else self.high + 1

    def minimum(self, b: int) -> int:
        """The minimum of a turn starting with b cards played (rule C4)."""
        return self.m if self.dealt + b < self.n else self.m_empty

    def maximum(self, b: int) -> int:
        """The longest turn starting at slot b the model allows.

        Solo, a turn of k >= 2q plays with minimum q can be split into a
        turn of q plays and a turn of k-q >= q plays: the tops after each
        card are the same, the split turn has seen at least the same cards
        at every play (it drew after q plays), and both end with the same
        number of cards played, hence the same hand. The second part needs
        the minimum at its start, which is q again or ``min_play_empty``;
        so the split is legal when ``min_play_empty <= m`` (always in the
        presets). After the draw pile is empty nothing is drawn and the
        minimum stays ``min_play_empty``. So turns of q..2q-1 plays lose
        nothing. With ``min_play_empty > m`` only the hand size caps a turn,
        and so it does with several players or fire cards (``simple``).
        """
        q = self.minimum(b)
        if not self.simple:
            return self.hand
        if self.hand + b >= self.n or self.m_empty <= self.m:
            return min(2 * q - 1, self.hand)
        return self.hand

    def longest(self) -> int:
        """The longest turn the model allows anywhere."""
        return max(self.maximum(b) for b in range(self.n))

    def earliest(self, i: int) -> int:
        """The first slot in which deck position i can be played: after
        ``need(i)`` plays, and for a drawn card after the first turn."""
        if i < self.dealt:
            return 0
        return max(self.need(i), self.minimum(0))

    def settled(self, horizon: int, played: int) -> bool:
        """Whether an optimum of ``played`` cards within ``horizon`` slots is
        the optimum of the whole game.

        A line of more than K = ``horizon`` cards, cut after its last turn
        that ends within K slots, keeps more than K - L cards (L =
        ``longest()``: the cut turn is at most L long) and is a line of the
        K-slot model. So a K-slot optimum <= K - L is the global optimum
        (and a proven K-slot bound <= K - L a global bound).
        """
        return horizon >= self.n or played <= horizon - self.longest()

    def need(self, i: int) -> int:
        """Cards that must be played before the turn in which deck position
        i can be played: it has been drawn at a turn start after b plays iff
        i < P*H + b (rules C2, C6: every turn's plays are drawn back from the
        one shared draw pile, in order)."""
        return max(0, i - self.dealt + 1)

    def legal(self, top: int, card: int, p: int) -> tuple[bool, bool]:
        """(legal, trick) for ``card`` on pile p showing ``top`` (rule C5)."""
        if self.asc(p):
            return card > top or card == top - self.step, card == top - self.step
        return card < top or card == top + self.step, card == top + self.step


@dataclass
class Model:
    """The CP-SAT model and its variables (indexes as in the module notes)."""

    shape: Shape
    horizon: int  # slots in the model
    model: cp_model.CpModel
    filled: list[cp_model.IntVar]
    end: list[cp_model.IntVar]
    tb: list[cp_model.IntVar]
    card: list[cp_model.IntVar]
    x: dict[tuple[int, int], cp_model.IntVar]  # (deck position, slot)
    on: list[list[cp_model.IntVar]]  # [slot][pile]
    trick: list[list[cp_model.IntVar]]  # [slot][pile]
    top: list[list[cp_model.IntVar]]  # [pile][slot]: top after the slot
    empty: dict[int, cp_model.IntVar]  # slot -> its turn started with no draw pile
    who: list[list[cp_model.IntVar]]  # [slot][player] (several players only)
    cnt: list[list[cp_model.IntVar]]  # [player][slot]: cards played so far
    f1: list[list[cp_model.IntVar]]  # [pile][slot]: fire laid this turn showing
    f2: list[list[cp_model.IntVar]]  # [pile][slot]: fire due by this turn's end


def build(shape: Shape, horizon: int | None = None, clear: bool = False) -> Model:
    """The model over the first ``horizon`` slots (default: all N).

    With a horizon K < N the model plays at most K cards: its optimum is
    the most cards a line of complete turns within K slots plays (see
    ``Shape.settled``). ``clear`` fixes every slot filled (the
    perfect-clear question; only with the full horizon).
    """
    sh = shape
    n = sh.n if horizon is None else min(horizon, sh.n)
    if clear and n != sh.n:
        raise ValueError("the perfect-clear model needs the full horizon")
    # Deck positions that can be played within the horizon.
    cards = [i for i in range(sh.n) if sh.earliest(i) < n]
    mdl = cp_model.CpModel()
    filled = [mdl.new_bool_var(f"filled{s}") for s in range(n)]
    end = [mdl.new_bool_var(f"end{s}") for s in range(n)]
    tb = [mdl.new_int_var(0, s, f"tb{s}") for s in range(n)]
    values = sorted(sh.deck[i] for i in cards)
    card = [
        mdl.new_int_var_from_domain(cp_model.Domain.from_values([0, *values]), f"card{s}")
        for s in range(n)
    ]
    # A turn start: slot 0, or the slot after a turn end.
    start: list[cp_model.IntVar | int] = [1, *end[:-1]]

    # -- the played prefix --------------------------------------------------
    for s in range(n - 1):
        mdl.add_implication(filled[s + 1], filled[s])
    if clear:
        for f in filled:
            mdl.add(f == 1)

    # -- cards in slots -----------------------------------------------------
    x: dict[tuple[int, int], cp_model.IntVar] = {}
    for i in cards:
        slots = []
        for s in range(sh.earliest(i), n):
            x[i, s] = mdl.new_bool_var(f"x{i}_{s}")
            slots.append(x[i, s])
        if clear:
            mdl.add_exactly_one(slots)
        else:
            mdl.add_at_most_one(slots)
    for s in range(n):
        here = [(i, x[i, s]) for i in cards if (i, s) in x]
        mdl.add(sum(v for _, v in here) == filled[s])
        mdl.add(card[s] == sum(sh.deck[i] * v for i, v in here))
        # Rules C2/C6: only cards already drawn at the start of the turn.
        mdl.add(sum(sh.need(i) * v for i, v in here if sh.need(i) > 0) <= tb[s])

    # -- turns ------------------------------------------------------------------
    for s in range(n):
        mdl.add_implication(end[s], filled[s])
        if s + 1 < n:
            # The last filled slot ends a (complete) turn.
            mdl.add_bool_or([filled[s].Not(), filled[s + 1], end[s]])
        else:
            mdl.add_implication(filled[s], end[s])
    # tb: where the current turn started.
    mdl.add(tb[0] == 0)
    for s in range(1, n):
        mdl.add(tb[s] == s).only_enforce_if(end[s - 1])
        mdl.add(tb[s] == tb[s - 1]).only_enforce_if(end[s - 1].Not())
    # Turn lengths: minimum (C4/P1) and the sound maximum (``Shape.maximum``).
    for b in range(n):
        lo, hi = sh.minimum(b), sh.maximum(b)
        st = start[b]
        if b + lo > n:
            # Not enough slots left for a whole turn.
            if isinstance(st, int):
                mdl.add(filled[b] == 0)
            else:
                mdl.add_implication(st, filled[b].Not())
            continue
        inner = [end[b + j] for j in range(lo - 1)]
        closing = [end[b + j] for j in range(lo - 1, min(hi, n - b))]
        if isinstance(st, int):
            for e in inner:
                mdl.add(e == 0)
            mdl.add_bool_or(closing).only_enforce_if(filled[b])
        else:
            for e in inner:
                mdl.add_implication(st, e.Not())
            mdl.add_bool_or(closing).only_enforce_if([st, filled[b]])

    # -- piles ------------------------------------------------------------------
    on = [[mdl.new_bool_var(f"on{s}_{p}") for p in range(sh.n_piles)] for s in range(n)]
    trick = [[mdl.new_bool_var(f"trick{s}_{p}") for p in range(sh.n_piles)] for s in range(n)]
    top: list[list[cp_model.IntVar]] = []
    for p in range(sh.n_piles):
        first = sh.start_top(p)
        dom = cp_model.Domain.from_values([first, *range(sh.low, sh.high + 1)])
        top.append([mdl.new_int_var_from_domain(dom, f"top{p}_{s}") for s in range(n)])
    for s in range(n):
        mdl.add(sum(on[s]) == filled[s])
        for p in range(sh.n_piles):
            prev: cp_model.IntVar | int = top[p][s - 1] if s > 0 else sh.start_top(p)
            o, t, c = on[s][p], trick[s][p], card[s]
            mdl.add_implication(t, o)
            if sh.asc(p):
                mdl.add(c >= prev + 1).only_enforce_if([o, t.Not()])
                mdl.add(c == prev - sh.step).only_enforce_if(t)
            else:
                mdl.add(c <= prev - 1).only_enforce_if([o, t.Not()])
                mdl.add(c == prev + sh.step).only_enforce_if(t)
            mdl.add(top[p][s] == c).only_enforce_if(o)
            mdl.add(top[p][s] == prev).only_enforce_if(o.Not())
            # Redundant, for the LP: a normal play moves the top at least
            # one on, a trick exactly one step back, no play not at all.
            if sh.asc(p):
                mdl.add(top[p][s] >= prev + o - (sh.step + 1) * t)
            else:
                mdl.add(top[p][s] <= prev - o + (sh.step + 1) * t)
    # Pile symmetry: piles of one direction are interchangeable for the whole
    # game (same start, same rule), so relabel them in order of first use:
    # pile p+1 of a direction is used only once pile p has been. A used
    # ascending pile shows a card >= low (a trick lands on a card, never
    # back on the start value), a used descending one a card <= high.
    for p in range(sh.n_piles - 1):
        q = p + 1
        if sh.asc(p) != sh.asc(q):
            continue
        mdl.add(on[0][q] == 0)
        for s in range(1, n):
            if sh.asc(p):
                mdl.add(top[p][s - 1] >= sh.low).only_enforce_if(on[s][q])
            else:
                mdl.add(top[p][s - 1] <= sh.high).only_enforce_if(on[s][q])

    # Play order (commuting plays): within a turn nothing is drawn, so plays
    # on different piles commute; a turn can list its plays pile by pile
    # (the order on each pile kept). Once the draw pile is empty nothing is
    # drawn any more and every turn only counts plays, so all the remaining
    # plays commute across turns too: list them pile by pile. Both orders
    # are compatible with the first-use order of the piles (sorting keeps
    # the first play of a lower pile ahead of a higher one).
    pile = [sum(p * on[s][p] for p in range(1, sh.n_piles)) for s in range(n)]
    empty: dict[int, cp_model.IntVar] = {}
    for s in range(n - 1):
        mdl.add(pile[s] <= pile[s + 1]).only_enforce_if([end[s].Not(), filled[s + 1]])
        if sh.simple and sh.hand + s >= sh.n:
            # ``empty[s]``: the turn of slot s started with the draw pile empty.
            e = empty[s] = mdl.new_bool_var(f"empty{s}")
            mdl.add(tb[s] >= sh.n - sh.hand).only_enforce_if(e)
            mdl.add(tb[s] <= sh.n - sh.hand - 1).only_enforce_if(e.Not())
            mdl.add(pile[s] <= pile[s + 1]).only_enforce_if([e, filled[s + 1]])

    who, cnt = _players(sh, mdl, n, x, filled, end)
    f1, f2 = _fire(sh, mdl, n, x, filled, end, on)

    mdl.maximize(sum(filled))
    return Model(sh, n, mdl, filled, end, tb, card, x, on, trick, top, empty, who, cnt, f1, f2)


def _players(
    sh: Shape,
    mdl: cp_model.CpModel,
    n: int,
    x: dict[tuple[int, int], cp_model.IntVar],
    filled: list[cp_model.IntVar],
    end: list[cp_model.IntVar],
) -> tuple[list[list[cp_model.IntVar]], list[list[cp_model.IntVar]]]:
    """Whose turn each slot is in (several players; solo: empty lists).

    ``who[s][j]``: slot s is filled and belongs to a turn of player j.

    - Turns rotate in seat order (rule C3): the player only changes at a
      turn end, to the next player.
    - Ownership (rules C2, C6): player j was dealt positions jH..jH+H-1.
      Every turn draws back what it played from the one draw pile, so deck
      position P*H + k is drawn by the player of the turn that contains slot
      k: a card at such a position is played by that same player (the hand
      rule ``need`` already puts the play in a later turn).
    - Skipping (rule C7): once the draw pile is empty (after the turn
      ending at slot s, P*H + s + 1 >= N, known per slot) a player with no
      cards is skipped. A player passed over at a turn end must have played
      every card they hold; the player who follows is not out, since they
      play a card of their own. Before that every hand is full (refilled
      to H after each turn), so nobody is skipped.
    """
    if sh.players == 1:
        return [], []
    pl = sh.players
    who = [[mdl.new_bool_var(f"who{s}_{j}") for j in range(pl)] for s in range(n)]
    for s in range(n):
        mdl.add(sum(who[s]) == filled[s])
    if sh.first is not None:
        mdl.add(who[0][sh.first] == 1).only_enforce_if(filled[0])
    for (i, s), v in x.items():
        j = sh.owner(i)
        if j is not None:
            mdl.add_implication(v, who[s][j])
        else:
            k = i - sh.dealt
            for j in range(pl):
                mdl.add_bool_or([v.Not(), who[s][j].Not(), who[k][j]])
    # cnt[j][s]: cards player j played in slots 0..s.
    cnt = [[mdl.new_int_var(0, s + 1, f"cnt{j}_{s}") for s in range(n)] for j in range(pl)]
    for j in range(pl):
        for s in range(n):
            mdl.add(cnt[j][s] == (cnt[j][s - 1] if s else 0) + who[s][j])
    last_draw = sh.n - sh.dealt  # slots whose turn draws a card
    holds = []  # cards player j gets in the whole game (valid once all are drawn)
    for j in range(pl):
        dealt = sum(1 for i in range(sh.dealt) if sh.owner(i) == j)
        drawn = [who[k][j] for k in range(min(n, last_draw))]
        holds.append(dealt + sum(drawn))
    for s in range(n - 1):
        for a in range(pl):
            if sh.dealt + s + 1 < sh.n:
                # The draw pile still has cards: the next player follows.
                nxt = who[s + 1][(a + 1) % pl]
                mdl.add_bool_or([end[s].Not(), who[s][a].Not(), filled[s + 1].Not(), nxt])
            # Within a turn the player stays.
            mdl.add_bool_or([end[s], who[s][a].Not(), filled[s + 1].Not(), who[s + 1][a]])
            if sh.dealt + s + 1 < sh.n:
                continue
            # Here every card has been drawn, by turns in slots < last_draw
            # <= s + 1: ``holds`` is exact.
            for b in range(pl):
                passed = [(a + d) % pl for d in range(1, (b - a) % pl or pl)]
                for c in passed:
                    mdl.add(cnt[c][s] >= holds[c]).only_enforce_if(
                        [end[s], who[s][a], who[s + 1][b]]
                    )
    return who, cnt


def _fire(
    sh: Shape,
    mdl: cp_model.CpModel,
    n: int,
    x: dict[tuple[int, int], cp_model.IntVar],
    filled: list[cp_model.IntVar],
    end: list[cp_model.IntVar],
    on: list[list[cp_model.IntVar]],
) -> tuple[list[list[cp_model.IntVar]], list[list[cp_model.IntVar]]]:
    """Fire deadlines (rules F2-F4); without fire cards: empty lists.

    After slot s, ``f1[p][s]``: pile p shows a fire card laid in the
    current turn; ``f2[p][s]``: one laid in the turn before, which must be
    covered before this turn ends. A play on p resets both (F4: a new fire
    card has its own deadline); a turn start moves f1 to f2. A turn that
    ends with f2 still set loses the game at once (F2), so it can only be
    the last turn of a line: its cards count (the engine counts them), and
    a perfect clear ends safely whatever shows (F3 as decided). Cards only
    ever count in whole turns, so lines stay closed under cutting after a
    turn (the growing horizon relies on it).
    """
    if not sh.fire:
        return [], []
    hot = [sum(v for (i, t), v in x.items() if t == s and sh.deck[i] in sh.fire) for s in range(n)]
    f1 = [[mdl.new_bool_var(f"fa{p}_{s}") for s in range(n)] for p in range(sh.n_piles)]
    f2 = [[mdl.new_bool_var(f"fb{p}_{s}") for s in range(n)] for p in range(sh.n_piles)]
    for p in range(sh.n_piles):
        for s in range(n):
            o = on[s][p]
            # On a play: f1 is whether the card is a fire card, f2 clears.
            mdl.add(f1[p][s] == hot[s]).only_enforce_if(o)
            mdl.add_implication(o, f2[p][s].Not())
            if s == 0:
                mdl.add(f1[p][s] == 0).only_enforce_if(o.Not())
                mdl.add(f2[p][s] == 0)
                continue
            new = end[s - 1]
            mdl.add(f1[p][s] == 0).only_enforce_if([o.Not(), new])
            mdl.add(f2[p][s] == f1[p][s - 1]).only_enforce_if([o.Not(), new])
            mdl.add(f1[p][s] == f1[p][s - 1]).only_enforce_if([o.Not(), new.Not()])
            mdl.add(f2[p][s] == f2[p][s - 1]).only_enforce_if([o.Not(), new.Not()])
            # F2: a turn that ends with an old fire card showing ends the game.
            mdl.add_bool_or([end[s - 1].Not(), f2[p][s - 1].Not(), filled[s].Not()])
    return f1, f2


# -- hints ---------------------------------------------------------------------


def normalise(
    shape: Shape, actions: list[Action], first: int | None = None
) -> list[list[tuple[int, int]]]:
    """The legal complete turns of a kernel line, in the model's form.

    Piles of one direction are relabelled in order of first use (pile
    symmetry) and, solo without fire, turns longer than ``Shape.maximum``
    are split (argued there), so the result satisfies the model's
    shortcuts. The line (0-based ``first`` player, default the deal's or
    0) is checked against the rules (hands, placement, minimum, fire
    deadlines) as it goes and cut before the first turn that breaks one;
    an unfinished last turn is dropped. A hint is only a hint: a bad one
    costs nothing but its use.
    """
    turns = line_turns(actions)
    # Relabel piles by first use within each direction.
    mapping: dict[int, int] = {}
    next_free = {True: 0, False: shape.n_asc}
    relabelled: list[list[tuple[int, int]]] = []
    for t in turns:
        out = []
        for c, p in t:
            if not 0 <= p < shape.n_piles:
                break
            if p not in mapping:
                d = shape.asc(p)
                mapping[p] = next_free[d]
                next_free[d] += 1
            out.append((c, mapping[p]))
        relabelled.append(out)
    walk = _Walk(shape, _start(shape, first))
    result: list[list[tuple[int, int]]] = []
    for t in relabelled:
        queue = list(t)
        while queue:
            lo, hi = shape.minimum(walk.played), shape.maximum(walk.played)
            take = len(queue) if len(queue) <= hi else lo
            chunk = queue[:take]
            if len(chunk) < lo or not walk.turn(chunk):
                return canonical(shape, result)
            result.append(chunk)
            queue = queue[take:]
    return canonical(shape, result)


def _start(shape: Shape, first: int | None) -> int:
    if shape.first is not None:
        return shape.first
    return first if first is not None and 0 <= first < shape.players else 0


class _Walk:
    """A line of turns checked at the model's level (hands, placement,
    fire deadlines, seat order with rule C7): the hint's own referee."""

    def __init__(self, shape: Shape, first: int) -> None:
        self.sh = shape
        h = shape.hand
        self.hands = [set(shape.deck[j * h : (j + 1) * h]) for j in range(shape.players)]
        self.tops = [shape.start_top(p) for p in range(shape.n_piles)]
        self.drawn = shape.dealt
        self.played = 0
        self.cur = first
        self.due: set[int] = set()  # piles showing a fire card laid last turn
        self.players: list[int] = []  # the player of each turn so far
        self.over = False  # a fire deadline was missed: the game is lost

    def turn(self, plays: list[tuple[int, int]]) -> bool:
        """Take a turn if it is legal (else change nothing and say False)."""
        sh = self.sh
        hand = self.hands[self.cur]
        tops = list(self.tops)
        if self.over or len(plays) > len(hand):
            return False
        fresh: set[int] = set()
        due = set(self.due)
        for c, p in plays:
            legal, _ = sh.legal(tops[p], c, p)
            if c not in hand or not legal:
                return False
            tops[p] = c
            due.discard(p)
            fresh.discard(p)
            if c in sh.fire:
                fresh.add(p)
        self.players.append(self.cur)
        for c, _ in plays:
            hand.discard(c)
        self.tops = tops
        self.played += len(plays)
        take = min(sh.hand - len(hand), sh.n - self.drawn)
        hand |= set(sh.deck[self.drawn : self.drawn + take])
        self.drawn += take
        # F2: an old fire card still showing loses (F3: not at a clear).
        self.over = bool(due) and self.played < sh.n
        self.due = fresh
        nxt = (self.cur + 1) % sh.players
        for _ in range(sh.players):  # rule C7, as the engine skips
            if self.hands[nxt] or self.drawn < sh.n:
                break
            nxt = (nxt + 1) % sh.players
        self.cur = nxt
        return True


def canonical(shape: Shape, turns: list[list[tuple[int, int]]]) -> list[list[tuple[int, int]]]:
    """The model's play order (argued in ``build``): each turn pile by pile,
    and, solo without fire, every play after the draw pile is empty pile by
    pile; the sorts are stable, so each pile keeps its own order, and turn
    lengths are kept."""
    out: list[list[tuple[int, int]]] = []
    played = 0
    tail: list[tuple[int, int]] = []
    sizes: list[int] = []
    for t in turns:
        if shape.simple and shape.hand + played >= shape.n:
            tail.extend(t)
            sizes.append(len(t))
        else:
            out.append(sorted(t, key=lambda a: a[1]))
        played += len(t)
    tail.sort(key=lambda a: a[1])
    for k in sizes:
        out.append(tail[:k])
        tail = tail[k:]
    return out


def hint_values(m: Model, turns: list[list[tuple[int, int]]], first: int = 0) -> int:
    """Add a complete hint (every variable) for the line ``turns`` (from
    0-based player ``first``), cut to the turns that fit in the model's
    horizon; return the cards hinted."""
    sh = m.shape
    pos = {c: i for i, c in enumerate(sh.deck)}
    walk = _Walk(sh, _start(sh, first))
    slots: list[tuple[int, int, bool, int]] = []  # card, pile, ends its turn, player
    for t in turns:
        if len(slots) + len(t) > m.horizon or not walk.turn(t):
            break
        for j, (c, p) in enumerate(t):
            slots.append((c, p, j == len(t) - 1, walk.players[-1]))
    tops = [sh.start_top(p) for p in range(sh.n_piles)]
    age = [0] * sh.n_piles  # 0 no fire showing, 1 laid this turn, 2 due this turn
    counts = [0] * sh.players
    mdl = m.model
    tb = 0
    for s in range(m.horizon):
        if s < len(slots):
            c, p, e, who = slots[s]
            _, is_trick = sh.legal(tops[p], c, p)
            tops[p] = c
        else:
            c, p, e, who, is_trick = 0, -1, False, -1, False
        # tb: the start of the turn containing the slot; after the line it
        # stays at the slot after the line's last card.
        if 0 < s <= len(slots) and slots[s - 1][2]:
            tb = s
            age = [2 if a == 1 else a for a in age]
        if p >= 0:
            age[p] = 1 if c in sh.fire else 0
        if who >= 0:
            counts[who] += 1
        mdl.add_hint(m.tb[s], tb)
        if s in m.empty:
            mdl.add_hint(m.empty[s], sh.hand + tb >= sh.n)
        mdl.add_hint(m.filled[s], s < len(slots))
        mdl.add_hint(m.end[s], e)
        mdl.add_hint(m.card[s], c)
        for q in range(sh.n_piles):
            mdl.add_hint(m.on[s][q], q == p)
            mdl.add_hint(m.trick[s][q], q == p and is_trick)
            mdl.add_hint(m.top[q][s], tops[q])
            if m.f1:
                mdl.add_hint(m.f1[q][s], age[q] == 1)
                mdl.add_hint(m.f2[q][s], age[q] == 2)
        for j in range(len(m.who[s]) if m.who else 0):
            mdl.add_hint(m.who[s][j], j == who)
            mdl.add_hint(m.cnt[j][s], counts[j])
        for i in range(sh.n):
            if (i, s) in m.x:
                mdl.add_hint(m.x[i, s], s < len(slots) and pos[c] == i)
    return len(slots)


def line_turns(actions: list[Action]) -> list[list[tuple[int, int]]]:
    """Kernel actions as complete turns (an unfinished last turn dropped)."""
    turns: list[list[tuple[int, int]]] = []
    cur: list[tuple[int, int]] = []
    for a in actions:
        if a == END:
            turns.append(cur)
            cur = []
        else:
            cur.append(a)
    return turns


def turns_actions(turns: list[list[tuple[int, int]]]) -> list[Action]:
    out: list[Action] = []
    for t in turns:
        out.extend(t)
        out.append(END)
    return out


# -- solving -------------------------------------------------------------------


@dataclass
class Stage:
    """What one CP-SAT run established."""

    horizon: int
    status: str
    played: int  # cards played on the line found (-1: no line)
    bound: int  # proven upper bound on the cards within the horizon
    turns: list[list[tuple[int, int]]]
    wall: float
    branches: int
    conflicts: int
    variables: int
    constraints: int
    first: int = 0  # 0-based starting player of ``turns``

    def summary(self) -> dict[str, Any]:
        return {
            "horizon": self.horizon,
            "status": self.status,
            "played": self.played,
            "bound": self.bound,
            "wall": round(self.wall, 3),
            "variables": self.variables,
            "constraints": self.constraints,
        }


class _StopAbove(cp_model.CpSolverSolutionCallback):
    """Stop as soon as a solution plays more than ``target`` cards."""

    def __init__(self, target: int) -> None:
        super().__init__()
        self.target = target

    def on_solution_callback(self) -> None:
        if self.objective_value > self.target:
            self.stop_search()


def run(
    m: Model,
    time_limit: float | None,
    workers: int,
    seed: int = 0,
    stop_above: int | None = None,
) -> Stage:
    """Solve ``m``; with ``stop_above``, stop at the first line playing more."""
    solver = cp_model.CpSolver()
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = max(0.01, time_limit)
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    callback = _StopAbove(stop_above) if stop_above is not None else None
    status = solver.solve(m.model, callback)
    sh = m.shape
    turns: list[list[tuple[int, int]]] = []
    played = -1
    first = _start(sh, None)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        played = 0
        if m.who and solver.boolean_value(m.filled[0]):
            first = next(j for j in range(sh.players) if solver.boolean_value(m.who[0][j]))
        cur: list[tuple[int, int]] = []
        for s in range(m.horizon):
            if not solver.boolean_value(m.filled[s]):
                break
            played += 1
            c = int(solver.value(m.card[s]))
            p = next(q for q in range(sh.n_piles) if solver.boolean_value(m.on[s][q]))
            cur.append((c, p))
            if solver.boolean_value(m.end[s]):
                turns.append(cur)
                cur = []
        if cur:
            raise SolverBug("the CP-SAT line ends inside a turn")
    if status == cp_model.OPTIMAL:
        bound = played
    elif status == cp_model.INFEASIBLE:
        # Only the perfect-clear model (every slot filled) can be infeasible.
        bound = m.horizon - 1
    elif status == cp_model.FEASIBLE:
        bound = min(m.horizon, int(solver.best_objective_bound + 1e-6))
    else:
        # Verdict.UNKNOWN (stopped before any solution) reports an objective bound
        # of 0, which proves nothing: keep the trivial bound.
        bound = m.horizon
    proto = m.model.proto
    return Stage(
        horizon=m.horizon,
        status=solver.status_name(status),
        played=played,
        bound=bound,
        turns=turns,
        wall=solver.wall_time,
        branches=int(solver.num_branches),
        conflicts=int(solver.num_conflicts),
        variables=len(proto.variables),
        constraints=len(proto.constraints),
        first=first,
    )


FIRST_HORIZON = 24


def grow(horizon: int, n: int) -> int:
    """The next horizon: doubled, or all N once that is most of the deal."""
    nxt = 2 * horizon
    return n if 4 * nxt >= 3 * n else nxt


def solve_cpsat(
    deal: Deal,
    limit: Limit = NO_LIMIT,
    workers: int = 2,
    hint: list[Action] | None = None,
    clear: bool = False,
    seed: int = 0,
    first_horizon: int = FIRST_HORIZON,
    hint_first: int | None = None,
) -> Solution:
    """Decide ``deal`` (classic family, 1-5 players, fire cards) with CP-SAT.

    The model maximises the cards played. It is solved over a growing
    horizon (``first_horizon`` slots, doubled up to all N): a horizon-K
    optimum that is at most K - L (L the longest turn) is the optimum of the
    whole game (``Shape.settled``), so a deal where few cards can be played
    is decided on a small model. A stage below N stops as soon as it finds
    a line of more than K - L cards, and its line hints the next stage.

    ``clear=True`` asks only whether a perfect clear exists (every slot
    filled, full horizon): INFEASIBLE proves a loss without an optimum.
    ``hint`` is a kernel line (e.g. the search's best line) from the
    1-based player ``hint_first`` (default: the deal's, else player 1); its
    legal complete turns become a complete hint for every variable. With a
    free start (rule C3) the model chooses the starting player.

    Verdicts: ``win`` with a line of N cards that replays as won; ``loss``
    when CP-SAT proved that fewer than N cards can be played (OPTIMAL below
    N, INFEASIBLE, or a proven objective bound below N at the time limit);
    ``unknown`` otherwise. ``details['optimum_proven']`` says whether the
    line's cards played are the proven optimum (then ``cards_left`` is the
    proven optimum of cards left).
    """
    begin = time.monotonic()
    deadline = limit.deadline(begin)
    shape = Shape.of(deal)
    n = shape.n
    start = _start(shape, None if hint_first is None else hint_first - 1)
    hinted = normalise(shape, hint, start) if hint else []
    best, best_first = hinted, start
    stages: list[Stage] = []
    horizon = n if clear else min(n, max(1, first_horizon))
    # A horizon that the hint already overfills cannot settle: skip it.
    while horizon < n and sum(len(t) for t in hinted) > horizon - shape.longest():
        horizon = grow(horizon, n)
    # The graph bounds on cards left at the start (``bounds``), for the
    # objective: sound for every starting player the model may choose.
    floor = min(state_lower_bound(GameState(deal, first=f)) for f in deal.starting_players())
    while True:
        m = build(shape, horizon, clear=clear)
        if floor:
            m.model.add(sum(m.filled) <= n - floor)
        if best:
            hint_values(m, best, best_first)
        left = deadline - time.monotonic() if deadline is not None else None
        final = horizon >= n
        target = horizon - shape.longest()
        stage = run(m, left, workers, seed, stop_above=None if final else target)
        stages.append(stage)
        if stage.played > sum(len(t) for t in best):
            best, best_first = stage.turns, stage.first
        if final or stage.played <= target:
            # Decided (a win, or an optimum or bound that settles the
            # game), or out of time within this horizon.
            break
        # A line longer than the horizon can settle: look further.
        if deadline is not None and time.monotonic() >= deadline:
            break
        horizon = grow(horizon, n)
    return _report(deal, shape, stages, (best_first, best), hinted, workers, begin)


def _replay(
    deal: Deal, first: int, line: list[list[tuple[int, int]]]
) -> tuple[list[Turn], GameState]:
    """Replay a CP-SAT line through the rules engine (players filled in);
    a line that does not replay is a ``SolverBug``, never a verdict."""
    state = GameState(deal, first=first)
    turns: list[Turn] = []
    for i, t in enumerate(line):
        player = state.current + 1
        try:
            for c, p in t:
                state.play(c, p)
            state.end_turn()
        except IllegalMoveError as err:
            raise SolverBug(f"the CP-SAT line does not replay at turn {i}: {err}") from None
        turns.append(Turn(player, tuple(Play(c, p) for c, p in t)))
    return turns, state


def _report(
    deal: Deal,
    shape: Shape,
    stages: list[Stage],
    line: tuple[int, list[list[tuple[int, int]]]],
    hinted: list[list[tuple[int, int]]],
    workers: int,
    begin: float,
) -> Solution:
    n = shape.n
    first, best = line
    last = stages[-1]
    played = sum(len(t) for t in best)
    settled = shape.settled(last.horizon, last.bound)
    optimum = False
    proof: str | None
    if played == n:
        verdict, proof, optimum = Verdict.WIN, None, True
    elif last.status == "OPTIMAL" and settled:
        verdict, optimum = Verdict.LOSS, True
        where = "" if last.horizon >= n else f" (settled on the first {last.horizon} slots)"
        proof = f"CP-SAT optimal: at most {played} cards can be played, {n - played} left{where}"
    elif last.status == "INFEASIBLE" and last.horizon >= n:
        verdict, proof = Verdict.LOSS, "CP-SAT: the perfect clear is infeasible"
    elif last.bound < n and settled:
        verdict = Verdict.LOSS
        proof = f"CP-SAT bound: at most {last.bound} cards can be played (no perfect clear)"
    else:
        verdict, proof = Verdict.UNKNOWN, None
    turns, final = _replay(deal, first + 1, best)
    if final.cards_left() != n - played:
        raise SolverBug(
            f"the CP-SAT line leaves {final.cards_left()} cards, the model says {n - played}"
        )
    if verdict == Verdict.WIN and final.status != Status.WON:
        raise SolverBug(f"the CP-SAT winning line ends {final.status}, not won")
    lower = n - last.bound if settled and verdict == Verdict.LOSS else 0
    sol = Solution(
        verdict=verdict,
        deal=deal,
        first=first + 1,
        turns=turns,
        cards_left=n - played,
        proof=proof,
        nodes=sum(s.branches for s in stages),
        seconds=time.monotonic() - begin,
        optimal=optimum,
        lower_bound=max(lower, 1 if verdict == Verdict.LOSS else 0),
    )
    sol.engine = ENGINE
    sol.details = {
        "status": last.status,
        "played": played,
        "bound": last.bound if settled else n,
        "optimum_proven": optimum,
        "hinted_cards": sum(len(t) for t in hinted),
        "conflicts": sum(s.conflicts for s in stages),
        "workers": workers,
        "stages": [s.summary() for s in stages],
    }
    return sol


__all__ = ["ENGINE", "Model", "Shape", "build", "check_supported", "solve_cpsat"]
