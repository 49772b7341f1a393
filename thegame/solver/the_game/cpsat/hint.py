"""Hints: a line (e.g. the search's) brought into the model's form and
given to CP-SAT as a complete assignment of every variable.

``normalise`` relabels piles, splits long turns and checks the line with
its own referee (``_Walk``: hands, placement, minimum, fire deadlines,
seat order); ``canonical`` puts the plays in the model's order;
``hint_values`` walks the line slot by slot and hints every variable the
model has. A hint is only a hint: a bad one costs nothing but its use.
"""

from __future__ import annotations

from ....models.the_game.placement import accepts, is_trick
from ..kernel import END, Action
from .model import Model
from .shape import Shape, start_player


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
    walk = _Walk(shape, start_player(shape, first))
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
            # Rule C5, from the one placement module.
            if c not in hand or not accepts(sh.asc(p), tops[p], c, sh.step):
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
    """The model's play order (argued in ``order``): each turn pile by pile,
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
    walk = _Walk(sh, start_player(sh, first))
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
            back = is_trick(sh.asc(p), tops[p], c, sh.step)  # rule C5
            tops[p] = c
        else:
            c, p, e, who, back = 0, -1, False, -1, False
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
            mdl.add_hint(m.trick[s][q], q == p and back)
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
    """Complete turns as kernel actions, each turn closed by ``END``."""
    out: list[Action] = []
    for t in turns:
        out.extend(t)
        out.append(END)
    return out
