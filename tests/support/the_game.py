"""Shared helpers for the tests: hand-made deals, an independent legality
oracle written from the rulebook (docs/rules/), and a random playout driver that checks
the engine's invariants after every step.

The oracle deliberately does not call the engine's legality code: it reads
only public position data (tops, hand, this turn's plays, the draw pile) and
decides from the rule text, so a test comparing the two fails when either
drifts from rules.md.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from thegame.models.outcome import OutOfBudget, Status
from thegame.models.the_game import (
    COMMAND_KINDS,
    Deal,
    GameState,
    Play,
    Record,
    Rules,
    Turn,
    get_rules,
    pile_index,
    replay,
)
from thegame.solver.the_game.duel.nodes import DuelNodes, DuelStats
from thegame.solver.the_game.duel.position import Pos, solo_turns
from thegame.solver.the_game.duel.survival import listing

CLASSIC = get_rules("classic")
PROFI = get_rules("profi")
PROFI_HARD = get_rules("profi-hard")
ON_FIRE = get_rules("on-fire")
EXTREME = get_rules("extreme")
DUEL = get_rules("face-to-face")

_SCALE = 10 if os.environ.get("THEGAME_HYPOTHESIS") == "thorough" else 1


def examples(n: int) -> int:
    """Hypothesis example count: moderate by default, 10x when thorough."""
    return n * _SCALE


# -- hand-made deals ---------------------------------------------------------


def deck_with(rules: Rules, front: Sequence[int]) -> list[int]:
    """``front`` first (rule C2 deals from the front), then every other card
    of the rules' range in ascending order."""
    assert len(set(front)) == len(front), "front cards must be distinct"
    chosen = set(front)
    return [*front, *(c for c in rules.cards if c not in chosen)]


def classic_deal(
    front: Sequence[int],
    players: int = 1,
    rules: Rules = CLASSIC,
    first: int | None = None,
) -> Deal:
    return Deal.create(rules, players, [deck_with(rules, front)], first)


def extreme_deal(
    front: Sequence[int],
    commands: dict[int, str],
    players: int = 1,
    rules: Rules = EXTREME,
    first: int | None = None,
) -> Deal:
    """An Extreme deal with the chosen commands; for the preset the missing
    commands (rule X1: 4 of each kind) go onto the last cards of the deck,
    far down the draw pile, where the test never reaches them."""
    deck = deck_with(rules, front)
    cmds = dict(commands)
    if rules == EXTREME:
        spare = [c for c in reversed(deck) if c not in cmds and c not in front]
        for kind in COMMAND_KINDS:
            need = 4 - sum(1 for k in cmds.values() if k == kind)
            assert need >= 0, f"too many {kind} commands"
            for _ in range(need):
                cmds[spare.pop(0)] = kind
    return Deal.create(rules, players, [deck], first, cmds)


def duel_deal(
    front1: Sequence[int],
    front2: Sequence[int],
    rules: Rules = DUEL,
    first: int | None = None,
) -> Deal:
    return Deal.create(rules, 2, [deck_with(rules, front1), deck_with(rules, front2)], first)


def small_duel(high: int = 7, hand: int = 6) -> Rules:
    return DUEL.with_changes(high=high, hand_sizes=(hand, hand))


def play(state: GameState, *moves: tuple[int, str]) -> None:
    """Play ``(card, "A1")`` pairs through the engine."""
    for card, name in moves:
        state.play(card, pile_index(state.rules, name))


def turn(state: GameState, *moves: tuple[int, str]) -> None:
    """Play the moves, then end the turn."""
    play(state, *moves)
    state.end_turn()


# -- the oracle ----------------------------------------------------------------


@dataclass
class View:
    """What the rules need to know about a position mid-turn."""

    deal: Deal
    tops: list[int]
    hand: set[int]
    plays: list[tuple[int, int]]  # this turn's (card, pile)
    stock: int  # cards in the active player's draw pile
    current: int  # 0-based

    @property
    def rules(self) -> Rules:
        return self.deal.rules

    @property
    def duel(self) -> bool:
        return self.rules.kind == "duel"

    @classmethod
    def of(cls, state: GameState) -> View:
        return cls(
            deal=state.deal,
            tops=list(state.tops),
            hand=set(state.hand()),
            plays=[(p.card, p.pile) for p in state.plays_this_turn],
            stock=state.stock_left(),
            current=state.current,
        )

    def cmd(self, card: int) -> str | None:
        return self.deal.command(card) if self.rules.commands else None

    def showing(self, kind: str) -> bool:
        # X4: an infinity command holds while its card is on top of a pile.
        return any(self.cmd(t) == kind for t in self.tops)

    def played(self, kind: str) -> bool:
        # X3: a lightning command binds for the rest of the turn.
        return any(self.cmd(c) == kind for c, _ in self.plays)

    def asc(self, pile: int) -> bool:
        if self.duel:
            return pile % 2 == 0  # A1 D1 A2 D2
        return pile < self.rules.asc_piles

    def own(self, pile: int) -> bool:
        return not self.duel or pile // 2 == self.current

    def minimum(self) -> int:
        # C4 / P1 / D2: m while the draw pile has cards, else the empty value.
        return self.rules.min_play if self.stock > 0 else self.rules.min_play_empty


def oracle_placeable(v: View, card: int, pile: int) -> bool:
    """The play is accepted at all: in hand, onto a pile, placement (C5, D2-D4)."""
    rules = v.rules
    if card not in v.hand or not 0 <= pile < len(v.tops):
        return False
    top = v.tops[pile]
    if not v.own(pile):
        # D2: at most one card onto the opponent's piles; D4: improve, no trick.
        if any(not v.own(p) for _, p in v.plays):
            return False
        return card < top if v.asc(pile) else card > top
    step = rules.step
    if v.asc(pile):
        return card > top or card == top - step  # C5
    return card < top or card == top + step  # C5


def oracle_breaks(v: View, card: int, pile: int) -> str | None:
    """X2: the command an accepted play breaks (it loses at once), else None."""
    if not v.rules.commands or not oracle_placeable(v, card, pile):
        return None
    n = len(v.plays)
    if v.played("stop"):  # X3a
        return "X3a"
    three = v.played("three") or v.cmd(card) == "three"
    if three and n >= 3:  # X3c: exactly 3 cards
        return "X3c"
    if three and v.cmd(card) == "stop" and n != 2:  # X3c: stop only as third
        return "X3c"
    if v.showing("one-pile") and any(p != pile for _, p in v.plays):  # X4b
        return "X4b"
    top, step = v.tops[pile], v.rules.step
    trick = card == (top - step if v.asc(pile) else top + step)
    if trick and v.showing("no-trick"):  # X4a
        return "X4a"
    return None


def oracle_can_play(v: View, card: int, pile: int) -> bool:
    """A play that keeps the game going (what ``legal_plays`` lists)."""
    return oracle_placeable(v, card, pile) and oracle_breaks(v, card, pile) is None


def oracle_end_accepted(v: View) -> bool:
    """Ending the turn is accepted (perhaps losing): C4/P1/D2, waived by a
    stop (X3a) or replaced by a three's exactly 3 (X3c)."""
    if not v.plays:
        return False
    if v.rules.commands and (v.played("stop") or v.played("three")):
        return True
    return len(v.plays) >= v.minimum()


def oracle_end_breaks(v: View) -> str | None:
    """X2: the command an accepted turn end breaks, else None."""
    if not v.rules.commands or not oracle_end_accepted(v):
        return None
    if v.played("three") and len(v.plays) != 3:  # X3c
        return "X3c"
    for card, _ in v.plays:  # X3b: a skull played this turn must be covered
        if v.cmd(card) == "skull" and card in v.tops:
            return "X3b"
    return None


def oracle_can_end(v: View) -> bool:
    return oracle_end_accepted(v) and oracle_end_breaks(v) is None


def oracle_legal_set(v: View) -> set[tuple[int, int]]:
    return {(c, p) for c in v.hand for p in range(len(v.tops)) if oracle_can_play(v, c, p)}


def oracle_losing_set(v: View) -> set[tuple[int, int]]:
    """X2: the accepted plays that break a command."""
    return {(c, p) for c in v.hand for p in range(len(v.tops)) if oracle_breaks(v, c, p)}


def oracle_has_turn(v: View, budget: int = 200_000) -> bool:
    """Whether some sequence of plays lets the turn end legally (C8 / D6 / X5).

    Exhaustive search by the oracle; ``budget`` bounds the work."""
    seen: set[object] = set()
    count = 0

    def search(tops: list[int], hand: set[int], plays: list[tuple[int, int]]) -> bool:
        nonlocal count
        count += 1
        assert count < budget, "oracle search budget exhausted"
        w = View(v.deal, tops, hand, plays, v.stock, v.current)
        if plays and (
            oracle_can_end(w)
            or (v.duel and not hand and w.stock == 0 and len(plays) >= w.minimum())
        ):
            return True
        key = (tuple(tops), frozenset(hand), tuple(sorted(plays)))
        if key in seen:
            return False
        seen.add(key)
        for c, p in sorted(oracle_legal_set(w)):
            new_tops = list(tops)
            new_tops[p] = c
            if search(new_tops, hand - {c}, [*plays, (c, p)]):
                return True
        return False

    return search(list(v.tops), set(v.hand), list(v.plays))


# -- random playouts with invariant checks ---------------------------------------


@dataclass
class Playout:
    """A random legal game, checked step by step. ``turns`` is the record."""

    deal: Deal
    state: GameState
    turns: list[Turn] = field(default_factory=list)
    played: list[list[int]] = field(default_factory=list)  # per stock
    steps: int = 0
    undos: int = 0
    turn_no: int = 0  # turns taken, counted here independently of the engine
    top_turn: list[int] = field(default_factory=list)  # turn each top was laid (F2)
    undo_stack: list[tuple[int, int]] = field(default_factory=list)  # (pile, old top_turn)
    broke: str | None = None  # the command a losing move broke (X2)

    @property
    def record(self) -> Record:
        return Record(self.deal, tuple(self.turns))


def check_conservation(pl: Playout) -> None:
    """Every card is in exactly one place: a hand, a draw pile, or played."""
    s = pl.state
    n_stocks = len(s.deal.decks)
    for k in range(n_stocks):
        holders = [k] if s.rules.is_duel else range(s.players)
        places: list[int] = []
        for p in holders:
            places.extend(s.hand(p))
        places.extend(s.draw_pile(k))
        places.extend(pl.played[k])
        assert sorted(places) == list(s.rules.cards), "a card was lost or duplicated"
    assert s.cards_left() == n_stocks * s.rules.n_cards - sum(len(p) for p in pl.played)
    # Hands never exceed H (C2, C6, D5).
    h = s.rules.hand_size(s.players)
    assert all(len(s.hand(p)) <= h for p in range(s.players))


def pile_rule_holds(v: View, before: int, card: int, pile: int) -> bool:
    """The pile rule seen on the tops alone: ascending tops only go up except
    by exactly the step, descending the mirror (C5, D3); the opponent's piles
    only improve (D4)."""
    step = v.rules.step
    if not v.own(pile):
        return card < before if v.asc(pile) else card > before
    if v.asc(pile):
        return card > before or card == before - step
    return card < before or card == before + step


def do_play(pl: Playout, card: int, pile: int) -> None:
    s = pl.state
    v = View.of(s)
    assert oracle_can_play(v, card, pile)
    before = s.tops[pile]
    s.play(card, pile)
    assert s.tops[pile] == card
    assert pile_rule_holds(v, before, card, pile), (before, card, pile)
    assert card not in s.hand(v.current)
    assert [p.card for p in s.plays_this_turn][-1] == card
    pl.played[v.current if s.rules.is_duel else 0].append(card)
    pl.undo_stack.append((pile, pl.top_turn[pile]))
    pl.top_turn[pile] = pl.turn_no
    if s.over:
        # D6: a duel is won at once when the last card is played.
        assert s.rules.is_duel and s.status == Status.WON, s.reason
        pl.turns.append(Turn(v.current + 1, tuple(s.plays_this_turn)))


def do_undo(pl: Playout) -> Play:
    s = pl.state
    tops_before = list(s.tops)
    last = s.undo_play()
    pl.played[s.current if s.rules.is_duel else 0].pop()
    pile, old = pl.undo_stack.pop()
    assert pile == last.pile and tops_before[pile] == last.card
    pl.top_turn[pile] = old
    assert last.card in s.hand()
    return last


def do_end(pl: Playout) -> None:
    """End the turn through the engine and check drawing, seat order, fire."""
    s = pl.state
    v = View.of(s)
    assert oracle_can_end(v)
    cur = s.current
    hand_before = s.hand()
    pile_before = s.draw_pile()
    plays = list(s.plays_this_turn)
    rules = s.rules
    assert s.turn == pl.turn_no
    s.end_turn()
    pl.turns.append(Turn(cur + 1, tuple(plays)))
    pl.undo_stack.clear()
    # Drawing: D5 (duel), X4c (draw-one showing), else back to H (C6).
    h = rules.hand_size(s.players)
    if s.rules.is_duel:
        on_opponent = any(not v.own(p.pile) for p in plays)
        want = h - len(hand_before) if on_opponent else 2
    elif rules.commands and v.showing("draw-one"):
        want = 1
    else:
        want = h - len(hand_before)
    take = max(0, min(want, len(pile_before)))
    assert s.hand(cur) == sorted(hand_before + pile_before[:take])
    assert s.draw_pile(cur) == pile_before[take:]
    # F2 / F3 / F4, from this file's own bookkeeping: a fire card on top that
    # was laid in an earlier turn has missed its deadline.
    late = [
        top
        for pile, top in enumerate(s.tops)
        if top in rules.fire_cards and pl.top_turn[pile] < pl.turn_no
    ]
    pl.turn_no += 1
    clear = s.cards_left() == 0 and not s.rules.is_duel
    if late and not (clear and rules.fire_safe_at_clear):
        assert s.status == Status.LOST and "F2" in (s.reason or ""), (late, s.reason)
        return
    if clear:
        assert s.status == Status.WON and "C7" in (s.reason or "")
        return
    assert s.turn == pl.turn_no
    # C3 / C7: the next player in seat order who still has cards.
    nxt = (cur + 1) % s.players
    if not s.rules.is_duel:
        for _ in range(s.players):
            if s.hand(nxt):
                break
            nxt = (nxt + 1) % s.players
    assert s.current == nxt
    # C4 / D2: m is fixed by the draw pile at the start of the new turn.
    if not s.over:
        assert s.turn_min == View.of(s).minimum()


def _cost(v: View, card: int, pile: int) -> int:
    top = v.tops[pile]
    if not v.own(pile):
        return 5
    if v.asc(pile):
        return card - top if card > top else -1
    return top - card if card < top else -1


def random_playout(
    deal: Deal,
    rnd: random.Random,
    greed: float = 0.5,
    end_cost: int = 4,
    max_steps: int = 2500,
    check_oracle: bool = True,
    lose: float = 0.0,
) -> Playout:
    """Play a random legal game: each step either a legal play or a legal turn
    end; when stuck mid-turn, undo (and never retry) the last play.

    ``greed`` is the chance to take the cheapest option (the smallest jump,
    a backward trick first, ending the turn when nothing costs less than
    ``end_cost``) instead of a uniform one, so games reach their end game.
    ``lose`` is the chance at each step to make a move that breaks a command
    (Extreme, X2), when there is one: the game must end lost at once."""
    state = GameState(deal)
    pl = Playout(deal, state, played=[[] for _ in deal.decks], top_turn=[-1] * len(state.tops))
    banned: set[tuple[int, tuple[Play, ...], Play]] = set()
    check_conservation(pl)
    if not state.over:
        _check_start(pl)
    while not state.over and pl.steps < max_steps:
        pl.steps += 1
        v = View.of(state)
        legal = state.legal_plays()
        if check_oracle:
            assert {(p.card, p.pile) for p in legal} == oracle_legal_set(v)
        assert legal == sorted(set(legal))
        prefix = tuple(state.plays_this_turn)
        options = [p for p in legal if (pl.turn_no, prefix, p) not in banned]
        can_end = state.can_end_turn()
        if check_oracle:
            assert can_end == (bool(prefix) and oracle_can_end(v))
            losing = state.losing_plays()
            assert {(p.card, p.pile) for p in losing} == oracle_losing_set(v)
            end_rule = state.end_loses()
            assert end_rule == oracle_end_breaks(v)
            if (losing or end_rule) and rnd.random() < lose:
                do_lose(pl, rnd.choice([*losing, *([None] if end_rule else [])]))
                break
        if not options and not can_end:
            # Stuck mid-turn; the turn as a whole was possible, so undo.
            assert prefix, "stuck at the start of a turn but the game goes on"
            last = do_undo(pl)
            pl.undos += 1
            banned.add((pl.turn_no, tuple(state.plays_this_turn), last))
        else:
            choices: list[Play | None] = [*options, *([None] if can_end else [])]
            if rnd.random() < greed:
                choice = min(
                    choices,
                    key=lambda p: end_cost if p is None else _cost(v, p.card, p.pile),
                )
            else:
                choice = rnd.choice(choices)
            if choice is None:
                do_end(pl)
                if not state.over:
                    _check_start(pl)
            else:
                do_play(pl, choice.card, choice.pile)
        check_conservation(pl)
    if state.over:
        _check_final(pl)
    return pl


def do_lose(pl: Playout, choice: Play | None) -> None:
    """Make a move that breaks a command (X2): a losing play, or the losing
    end of the turn (None). The game is lost at once, naming the rule; the
    record stays legal and replays to the same loss."""
    s = pl.state
    v = View.of(s)
    left = s.cards_left()
    if choice is None:
        rule = oracle_end_breaks(v)
        plays = tuple(s.plays_this_turn)
        s.end_turn()
        assert s.cards_left() == left
    else:
        rule = oracle_breaks(v, choice.card, choice.pile)
        s.play(choice.card, choice.pile)
        assert s.tops[choice.pile] == choice.card and s.cards_left() == left - 1
        pl.played[0].append(choice.card)
        plays = tuple(s.plays_this_turn)
    assert rule is not None
    assert s.status == Status.LOST and (s.reason or "").endswith(f"(rule {rule})")
    pl.broke = rule
    pl.turns.append(Turn(v.current + 1, plays))
    result = replay(pl.record)
    assert result.legal and result.status == Status.LOST and result.reason == s.reason
    assert result.cards_left == s.cards_left()


def _check_start(pl: Playout) -> None:
    """At the start of a turn that goes on, a legal turn exists (C8 / D6 / X5)."""
    s = pl.state
    assert not s.plays_this_turn
    assert s.legal_plays(), "a turn that goes on has a legal first play"
    assert not s.can_end_turn(), "a turn cannot end before its first play"


def _check_final(pl: Playout) -> None:
    s = pl.state
    reason = s.reason or ""
    assert s.legal_plays() == []
    assert not s.can_end_turn()
    if s.status == Status.WON:
        if s.rules.is_duel:
            assert "D6" in reason
            assert s.winner == s.current + 1
            assert not s.hand() and not s.draw_pile()
        else:
            assert "C7" in reason
            assert s.cards_left() == 0
        return
    assert s.status == Status.LOST
    if "F2" in reason or pl.broke is not None:
        return
    # C8 / D6 / X5: the active player has no legal turn at all.
    assert not s.plays_this_turn
    assert not oracle_has_turn(View.of(s))
    if s.rules.is_duel:
        assert "D6" in reason
        assert s.winner == 2 - s.current
    else:
        assert ("X5" if s.rules.commands else "C8") in reason


def replay_matches(pl: Playout) -> None:
    """Replaying the playout's record gives the same outcome (records, replay)."""
    result = replay(pl.record)
    s = pl.state
    assert result.legal, result.error
    assert result.steps_ok == len(pl.turns)
    if s.plays_this_turn and not s.over:
        # The record holds finished turns only: compare with the turn's start.
        return
    assert result.status == s.status
    assert result.cards_left == s.cards_left()
    assert result.winner == s.winner
    assert result.state.key() == s.key()


def position_at(record: Record, turn: int, plays: int) -> GameState:
    """The position after the record's first ``turn`` turns and ``plays``
    plays of the next one."""
    state = GameState(record.deal, first=record.first)
    for t in record.turns[:turn]:
        for p in t.plays:
            state.play(p.card, p.pile)
        state.end_turn()
    for p in record.turns[turn].plays[:plays]:
        state.play(p.card, p.pile)
    return state


def random_step(state: GameState, rng: random.Random, end_chance: float) -> bool:
    """One random step of a walk through the engine: end the turn with
    ``end_chance`` (or when no play is left), else a random legal play.
    False when the walk is stuck inside a turn."""
    plays = state.legal_plays()
    if state.can_end_turn() and (not plays or rng.random() < end_chance):
        state.end_turn()
    elif plays:
        play = rng.choice(plays)
        state.play(play.card, play.pile)
    else:
        return False
    return True


def step_along(state: GameState, steps: int) -> bool:
    """One deterministic step of a walk through the engine: end the turn
    every third step (or when no play is left), else the ``steps``-th legal
    play modulo their number. False when the walk is stuck."""
    plays = state.legal_plays()
    if state.can_end_turn() and (not plays or steps % 3 == 0):
        state.end_turn()
    elif plays:
        play = plays[steps % len(plays)]
        state.play(play.card, play.pile)
    else:
        return False
    return True


# -- walking a duel (Face to Face) ---------------------------------------------


def after_turn(state: GameState, plays: Sequence[tuple[int, int]]) -> GameState:
    """A copy of ``state`` after these plays and the turn's end (unless the
    duel ended on the way, D6)."""
    s = state.copy()
    for c, pile in plays:
        s.play(c, pile)
    if not s.over:
        s.end_turn()
    return s


def random_duel(rnd: random.Random, high: int, hand: int = 3) -> Deal:
    """A generalised duel (D7), cards 2..high, both decks shuffled by ``rnd``."""
    rules = DUEL.with_changes(high=high, hand_sizes=(hand, hand))
    cards = list(rules.cards)
    return Deal.create(rules, 2, [rnd.sample(cards, len(cards)), rnd.sample(cards, len(cards))])


def turn_starts(deal: Deal, seed: int) -> Iterator[tuple[GameState, list[tuple[int, int]]]]:
    """The turn starts of a random duel, each with the plays of the turn then
    played (each state is a fresh copy the caller may keep)."""
    pl = random_playout(deal, random.Random(seed), check_oracle=False)
    state = GameState(deal)
    for turn in pl.turns:
        if state.over:
            return
        plays = [(p.card, p.pile) for p in turn.plays]
        yield state, plays
        state = after_turn(state, plays)


def searched(search: DuelNodes, pos: Pos, compiled: bool) -> tuple[bool | None, DuelStats]:
    """``search.wins(pos)`` (None: the budget ran out) and its statistics, on
    the compiled expansion or, with ``compiled`` False, the Python pieces
    (the search's and its races' turn lists)."""
    if not compiled:
        game = search.game
        if hasattr(search, "native"):
            search.native = False  # the whole search in Python (pns.ProofNumberSearch)
        search.compiled = None
        for race in search.robust:
            race.turns = lambda solo, r=race: solo_turns(game, r.p, solo, r.robust)
        for e in search.relaxed + search.sure:
            e.turns = listing(game, e.p, e.relaxed, None)
    try:
        return search.wins(pos), search.stats
    except OutOfBudget:
        return None, search.stats
