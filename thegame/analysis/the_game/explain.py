"""Why each play of a line was made, in words a player understands.

``explain_record`` replays a record through the rules engine (the only
source of truth) and classifies every play: a backward trick, the gap it
leaves (the unplayed cards the pile can no longer take), a trick it sets up,
whether it was forced, an extra card beyond the minimum, fire cards laid and
covered, Extreme commands, the last card. Each play keeps the one or two most
relevant reasons, chosen by a fixed priority so the output is deterministic.
Pure logic: no rendering here (``thegame.cli.explain`` presents it).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ...models.outcome import Status
from ...models.the_game import Command, GameState, Record, is_ascending, pile_name, placement
from ...models.the_game.record import replayed
from ...models.the_game.state import pile_owner

# A gap names its cards when there are at most this many (more would be noise).
NAMED_GAP = 4

class ReasonKind(StrEnum):
    """The stable kind of a reason (its JSON ``kind``)."""

    CLEAR = "clear"
    BROKEN = "broken"
    FORCED = "forced"
    FIRE_DEADLINE = "fire-deadline"
    TRICK = "trick"
    OPPONENT = "opponent"
    FIRE = "fire"
    SETUP = "setup"
    GAP = "gap"
    EXTRA = "extra"
    FIRE_COVER = "fire-cover"
    COMMAND = "command"
    OUT = "out"
    CHEAPEST = "cheapest"
    EXTRA_CARD = "extra-card"
    MINIMUM = "minimum"
    DRAW_EMPTY = "draw-empty"
    SKIP = "skip"
    END = "end"


# Priorities of the reasons: higher first. The "cost" of a play (trick, gap
# or a free extra card) is always kept; the best other reason joins it.
_PRIORITY = {
    ReasonKind.CLEAR: 100,
    ReasonKind.BROKEN: 95,
    ReasonKind.FORCED: 90,
    ReasonKind.FIRE_DEADLINE: 85,
    ReasonKind.TRICK: 80,
    ReasonKind.OPPONENT: 80,
    ReasonKind.FIRE: 70,
    ReasonKind.SETUP: 60,
    ReasonKind.GAP: 50,
    ReasonKind.EXTRA: 50,
    ReasonKind.FIRE_COVER: 45,
    ReasonKind.COMMAND: 40,
    ReasonKind.OUT: 35,
    ReasonKind.CHEAPEST: 30,
    ReasonKind.EXTRA_CARD: 20,
    ReasonKind.MINIMUM: 10,
}
_COST_KINDS = frozenset(
    {ReasonKind.TRICK, ReasonKind.GAP, ReasonKind.EXTRA, ReasonKind.OPPONENT}
)

_COMMAND_TEXT = {
    Command.STOP: "stop card: the turn ends with it",
    Command.SKULL: "skull card: it must be covered this turn",
    Command.THREE: "three card: this turn has exactly 3 cards",
    Command.NO_TRICK: "no-trick card: no backward trick anywhere while it shows",
    Command.ONE_PILE: "one-pile card: a turn's cards go onto one pile while it shows",
    Command.DRAW_ONE: "draw-one card: one card is drawn per turn while it shows",
    Command.NO_TALK: "no-talk card: no talking while it shows",
}


@dataclass(frozen=True)
class Reason:
    """One reason for a play (or a note on a turn): a stable kind and a sentence."""

    kind: ReasonKind
    text: str

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "text": self.text}


@dataclass(frozen=True)
class Snapshot:
    """What the table shows: the piles' top cards and the active player's hand."""

    piles: tuple[tuple[str, int], ...]  # (pile name, top card)
    hand: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"piles": dict(self.piles), "hand": list(self.hand)}


@dataclass(frozen=True)
class PlayExplanation:
    card: int
    pile: str
    before: int  # the pile's top card before this play
    gap: int  # unplayed cards jumped over (0 for a trick or an opponent's pile)
    trick: bool
    reasons: tuple[Reason, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "pile": self.pile,
            "from": self.before,
            "reasons": [r.to_dict() for r in self.reasons],
        }


@dataclass(frozen=True)
class TurnExplanation:
    turn: int  # counted from 0 here; from 1 on screen and in JSON
    player: int  # 1-based
    minimum: int  # cards this turn needs (rules C4, P1, D2)
    draw_before: int  # cards in the active player's draw pile at the start
    before: Snapshot
    plays: tuple[PlayExplanation, ...]
    drew: tuple[int, ...]
    after: Snapshot
    draw_left: int
    cards_left: int
    status: str  # the engine's status after the turn
    notes: tuple[Reason, ...]  # turn-level: the draw pile ran out, fire deadlines, the end

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn + 1,
            "player": self.player,
            "minimum": self.minimum,
            "before": self.before.to_dict(),
            "plays": [p.to_dict() for p in self.plays],
            "drew": list(self.drew),
            "after": self.after.to_dict(),
            "draw_left": self.draw_left,
            "cards_left": self.cards_left,
            "status": self.status,
            "notes": [n.to_dict() for n in self.notes],
        }


def explain_record(record: Record, where: str = "record") -> list[TurnExplanation]:
    """Replay ``record`` and explain every turn.

    An illegal record raises ``InvalidInputError`` naming the first illegal
    step (turns and plays counted from 1, as on every screen).
    """
    replayed(record, where)  # one line naming the first illegal step, if any
    state = GameState(record.deal, first=record.first)
    out: list[TurnExplanation] = []
    turns = record.turns
    for i, turn in enumerate(turns):
        player = state.current
        minimum = state.turn_min
        draw_before = state.stock_left()
        before = _snapshot(state, player)
        plays: list[PlayExplanation] = []
        for j, play in enumerate(turn.plays):
            # A fire card covered again later this turn is no threat (rule F2).
            later = [q.card for q in turn.plays[j + 1 :] if q.pile == play.pile]
            plays.append(
                _explain_play(
                    state, play.card, play.pile, j, bool(later), later[0] if later else None
                )
            )
        hand_before_draw = set(state.hands[player])
        if not state.over:  # a duel may be won at once (rule D6)
            state.end_turn()
        drew = tuple(sorted(set(state.hands[player]) - hand_before_draw))
        draw_left = state.stock_left(player)
        notes = _turn_notes(state, player, draw_before, draw_left)
        out.append(
            TurnExplanation(
                turn=i,
                player=player + 1,
                minimum=minimum,
                draw_before=draw_before,
                before=before,
                plays=tuple(plays),
                drew=drew,
                after=_snapshot(state, player),
                draw_left=draw_left,
                cards_left=state.cards_left(),
                status=state.status,
                notes=tuple(notes),
            )
        )
    return out


def _snapshot(state: GameState, player: int) -> Snapshot:
    rules = state.rules
    piles = tuple((pile_name(rules, i), top) for i, top in enumerate(state.tops))
    return Snapshot(piles, tuple(state.hand(player)))


def unplayed_cards(state: GameState, owner: int | None = None) -> set[int]:
    """Cards not yet on a pile: every hand and the draw pile. Face to Face:
    only ``owner``'s cards, the only ones that can go onto their own piles."""
    if owner is not None:
        return set(state.hands[owner]) | set(state.draw_pile(owner))
    out: set[int] = set(state.draw_pile())
    for hand in state.hands:
        out |= hand
    return out


def jumped_over(state: GameState, card: int, pile: int) -> list[int]:
    """The unplayed cards a normal play of ``card`` on ``pile`` jumps over:
    the pile can no longer take them (short of a backward trick)."""
    top = state.tops[pile]
    low, high = (top, card) if is_ascending(state.rules, pile) else (card, top)
    pool = unplayed_cards(state, pile_owner(state.rules, pile))
    return sorted(c for c in pool if low < c < high and c != card)


def is_trick(state: GameState, card: int, pile: int) -> bool:
    """Whether playing ``card`` on ``pile`` is a backward trick (rule C5)."""
    if _on_opponent(state, pile):
        return False  # rule D4: no backward trick on the opponent's piles
    asc = is_ascending(state.rules, pile)
    return placement.is_trick(asc, state.tops[pile], card, state.rules.step)


def _on_opponent(state: GameState, pile: int) -> bool:
    owner = pile_owner(state.rules, pile)
    return owner is not None and owner != state.current


def _cost(state: GameState, card: int, pile: int) -> int:
    """Cards given up by a play (for comparing plays): 0 for a trick."""
    if is_trick(state, card, pile) or _on_opponent(state, pile):
        return 0
    return len(jumped_over(state, card, pile))


def _gap_text(gap: list[int]) -> str:
    if not gap:
        return "no gap"
    if len(gap) <= NAMED_GAP:
        return f"gap of {len(gap)}: skips {', '.join(map(str, gap))}"
    return f"gap of {len(gap)}: skips {len(gap)} cards from {gap[0]} to {gap[-1]}"


def _explain_play(
    state: GameState,
    card: int,
    pile: int,
    index: int,
    covered_later: bool = False,
    cover: int | None = None,
) -> PlayExplanation:
    """Classify one play (the state is just before it), then make it."""
    top = state.tops[pile]
    extra = index >= state.turn_min
    trick = is_trick(state, card, pile)
    opponent = _on_opponent(state, pile)
    gap = [] if trick or opponent else jumped_over(state, card, pile)
    cost = _cost_reason(state, card, pile, trick, opponent, extra, gap)
    # In this order: the first of equal priority wins.
    whys = [
        *_end_whys(state, card, pile, extra),
        *_fire_whys(state, card, pile, covered_later),
        *_setup_whys(state, card, pile, opponent),
        *_command_whys(state, card, pile, cover),
        *_turn_whys(state, gap, extra, cost),
    ]
    reasons = [cost]
    if whys:
        reasons.append(max(whys, key=lambda r: _PRIORITY[r.kind]))  # first of equals wins
    reasons.sort(key=lambda r: -_PRIORITY[r.kind])
    name = pile_name(state.rules, pile)
    state.play(card, pile)
    return PlayExplanation(card, name, top, len(gap), trick, tuple(reasons))


def _cost_reason(
    state: GameState,
    card: int,
    pile: int,
    trick: bool,
    opponent: bool,
    extra: bool,
    gap: list[int],
) -> Reason:
    """The cost of a play: every play has exactly one (a trick, a gap, a
    free extra card, or room given to the opponent)."""
    rules = state.rules
    top = state.tops[pile]
    if opponent:
        owner = pile_owner(rules, pile)
        assert owner is not None
        return Reason(
            ReasonKind.OPPONENT,
            f"onto player {owner + 1}'s pile: it gives them room ({top} to {card}) "
            "and lets you refill your hand (rule D5)",
        )
    if trick:
        asc = is_ascending(rules, pile)
        word, way = ("below", "down") if asc else ("above", "up")
        lo, hi = (card, top) if asc else (top, card)
        regained = [c for c in unplayed_cards(state, pile_owner(rules, pile)) if lo < c < hi]
        text = f"backward trick: {card} is exactly {rules.step} {word} {top}, "
        text += f"the pile goes back {way}"
        if regained:
            text += f" (room again for {_count(len(regained), 'card')})"
        return Reason(ReasonKind.TRICK, text)
    if extra and not gap:
        return Reason(ReasonKind.EXTRA, "extra card, free: no gap")
    return Reason(ReasonKind.GAP, _gap_text(gap))


def _end_whys(state: GameState, card: int, pile: int, extra: bool) -> list[Reason]:
    """The last card (of the game, of a hand), or the only legal play."""
    whys: list[Reason] = []
    player = state.current
    hand_after = state.hands[player] - {card}
    if _ends_game_won(state, card, pile):
        if state.rules.is_duel:
            text = f"last card: player {player + 1} has played every card"
            whys.append(Reason(ReasonKind.CLEAR, text))
        else:
            whys.append(Reason(ReasonKind.CLEAR, "last card: a perfect clear"))
    elif not hand_after and not state.rules.is_duel and state.stock_left() == 0:
        whys.append(Reason(ReasonKind.OUT, f"last card in hand: player {player + 1} is out"))
    if not extra and len(state.legal_plays()) == 1:
        whys.append(Reason(ReasonKind.FORCED, "only legal play"))
    return whys


def _fire_whys(state: GameState, card: int, pile: int, covered_later: bool) -> list[Reason]:
    """Fire cards covered or laid (rules F1-F2)."""
    whys: list[Reason] = []
    fire = state.rules.fire_cards
    top = state.tops[pile]
    if top in fire and state.top_turn[pile] < state.turn:
        text = f"covers fire card {top}, which had to be covered this turn"
        whys.append(Reason(ReasonKind.FIRE_DEADLINE, text))
    elif top in fire and state.top_turn[pile] == state.turn:
        whys.append(Reason(ReasonKind.FIRE_COVER, f"covers fire card {top}, laid this turn"))
    if card in fire:
        if covered_later:
            whys.append(Reason(ReasonKind.FIRE, "fire card, covered again later this turn"))
        else:
            text = "fire card: must be covered by the end of the next turn"
            whys.append(Reason(ReasonKind.FIRE, text))
    return whys


def _setup_whys(state: GameState, card: int, pile: int, opponent: bool) -> list[Reason]:
    """A backward trick the play prepares: the card that can later go back
    onto this one (rule C5) is in hand."""
    if opponent:
        return []
    partner = placement.trick_card(is_ascending(state.rules, pile), card, state.rules.step)
    if partner not in state.hands[state.current] - {card}:
        return []
    text = f"prepares a backward trick: {partner} in hand can later go back onto it"
    return [Reason(ReasonKind.SETUP, text)]


def _command_whys(state: GameState, card: int, pile: int, cover: int | None) -> list[Reason]:
    """Extreme's commands (rules X2-X4) on the card played or covered."""
    whys: list[Reason] = []
    top = state.tops[pile]
    command = state.deal.command(card)
    broken = state.loses(card, pile)
    if broken:
        # Rule X2: a play that breaks a command is made and loses at once.
        text = f"breaks a command (rule {broken}): the game is lost"
        whys.append(Reason(ReasonKind.BROKEN, text))
    elif command is Command.SKULL and cover is not None:
        text = f"skull: covered by {cover} this turn (rule X3b)"
        whys.append(Reason(ReasonKind.COMMAND, text))
    elif command is Command.STOP:
        text = "Stop: ends the turn after this card (rule X3a)"
        whys.append(Reason(ReasonKind.COMMAND, text))
    elif command:
        whys.append(Reason(ReasonKind.COMMAND, _COMMAND_TEXT.get(command, f"{command} card")))
    if state.deal.command(top) is Command.SKULL and state.top_turn[pile] == state.turn:
        text = f"covers the skull {top}, laid this turn (rule X3b)"
        whys.append(Reason(ReasonKind.COMMAND, text))
    return whys


def _turn_whys(state: GameState, gap: list[int], extra: bool, cost: Reason) -> list[Reason]:
    """The play within its turn: the cheapest gap, an extra card, or one
    the minimum requires (C4)."""
    whys: list[Reason] = []
    legal = state.legal_plays()
    # A gap is the price of progress; say so when no other play was cheaper.
    if gap and len(legal) > 1 and len(gap) <= min(_cost(state, p.card, p.pile) for p in legal):
        whys.append(Reason(ReasonKind.CHEAPEST, "the smallest gap available"))
    if extra and cost.kind is not ReasonKind.EXTRA:
        text = f"extra card beyond the minimum of {state.turn_min}"
        whys.append(Reason(ReasonKind.EXTRA_CARD, text))
    elif not extra:
        need = _count(state.turn_min, "card")
        whys.append(Reason(ReasonKind.MINIMUM, f"required: the minimum is {need} this turn"))
    return whys


def _ends_game_won(state: GameState, card: int, pile: int) -> bool:
    """Whether this play is the last card of a win (the state is before it)."""
    if state.rules.is_duel:
        after = state.copy()
        after.play(card, pile)
        return after.status == Status.WON
    return state.cards_left() == 1


def _turn_notes(state: GameState, player: int, draw_before: int, draw_left: int) -> list[Reason]:
    """Turn-level notes after the draw: the draw pile ran out, fire cards
    left burning, a player skipped, the end of the game."""
    rules = state.rules
    notes: list[Reason] = []
    if draw_before > 0 and draw_left == 0 and not state.over:
        if state.rules.is_duel:
            text = f"player {player + 1}'s draw pile is now empty"
            notes.append(Reason(ReasonKind.DRAW_EMPTY, text))
        else:
            need = _count(rules.min_play_empty, "card")
            text = f"the draw pile is now empty: from now on a turn needs {need}"
            notes.append(Reason(ReasonKind.DRAW_EMPTY, text))
    if rules.fire_cards and not state.over:
        # F2: fire cards still on top after this turn burn until the next one.
        for i, top in enumerate(state.tops):
            if top in rules.fire_cards and state.top_turn[i] == state.turn - 1:
                who = (
                    "the end of the next turn"
                    if state.players == 1
                    else f"the end of player {state.current + 1}'s turn"
                )
                notes.append(
                    Reason(
                        ReasonKind.FIRE,
                        f"fire card {top} on {pile_name(rules, i)} must be covered by {who}",
                    )
                )
    if not state.over and state.players > 1:
        expected = (player + 1) % state.players
        while expected != state.current:
            text = f"player {expected + 1} has no cards left and is skipped (rule C7)"
            notes.append(Reason(ReasonKind.SKIP, text))
            expected = (expected + 1) % state.players
    if state.status == Status.WON:
        notes.append(Reason(ReasonKind.END, f"won: {state.reason}"))
    elif state.status == Status.LOST:
        notes.append(Reason(ReasonKind.END, f"game over: {state.reason}"))
    return notes


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")
