"""A game on a page, replayed through the rules engine on every action; the
answer shows what the player may see (a hidden draw pile stays hidden)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..models import IllegalMoveError, InvalidInputError
from ..models.outcome import Status
from ..models.the_game import GameState, Play, Record, Rules, Turn, is_ascending, pile_name
from ..models.the_game.record import turn_to_dict
from ..models.the_game.room import room
from ..puzzles.site import referee_spec
from .views import line_text, play_dict, turns_list


@dataclass
class Board:
    """A game in progress: where the page's game starts (a puzzle's
    position, or the deal), the turns played since and the turn in progress."""

    base: Record
    turns: list[Turn]
    plays: list[Play]
    state: GameState
    hidden: bool  # the draw pile is face down (a real game)
    error: dict[str, Any] | None = None

    @property
    def record(self) -> Record:
        turns = self.base.turns + tuple(self.turns)
        return Record(self.base.deal, turns, full_view=not self.hidden)


def open_board(
    base: Record, turns: tuple[Turn, ...], plays: tuple[Play, ...], hidden: bool
) -> Board:
    """Replay ``base``, ``turns`` and ``plays``; a history the engine refuses
    is bad input (the page only ever sends what the server accepted)."""
    state = GameState(base.deal, first=base.first)
    for i, turn in enumerate(base.turns + turns):
        if state.over:
            raise InvalidInputError(f"the game is over before turn {i + 1}", "turns")
        if turn.player != state.current + 1:
            raise InvalidInputError(
                f"turn {i + 1} is player {state.current + 1}'s, not player {turn.player}'s", "turns"
            )
        _replay_plays(state, turn.plays, f"turn {i + 1}")
        if not state.over:
            try:
                state.end_turn()
            except IllegalMoveError as e:
                raise InvalidInputError(
                    f"turn {i + 1}: rule {e.rule}: {e.message}", "turns"
                ) from None
    if plays and state.over:
        raise InvalidInputError("the game is over: no plays after it", "plays")
    _replay_plays(state, plays, "the turn in progress")
    return Board(base, list(turns), list(plays), state, hidden)


def _replay_plays(state: GameState, plays: tuple[Play, ...], where: str) -> None:
    for j, p in enumerate(plays):
        if state.over:
            raise InvalidInputError(f"{where}: the game is over before play {j + 1}", "plays")
        try:
            state.play(p.card, p.pile)
        except IllegalMoveError as e:
            raise InvalidInputError(
                f"{where}, play {j + 1}: rule {e.rule}: {e.message}", "plays"
            ) from None


def _refused(board: Board, e: IllegalMoveError, play: bool) -> None:
    """A move the rules refuse: the position stays, the page shows why."""
    board.error = {
        "turn": board.state.turn + 1,
        "play": len(board.plays) + 1 if play else None,
        "rule": e.rule,
        "message": e.message,
    }


def play(board: Board, p: Play) -> None:
    try:
        board.state.play(p.card, p.pile)
    except IllegalMoveError as e:
        _refused(board, e, True)
        return
    board.plays.append(p)
    state = board.state
    if not state.over and state.cards_left() == 0 and state.can_end_turn():
        # The last card: the win is announced with it, not after one more click (C7).
        end_turn(board)
        return
    if state.over:
        # The last card (rule C7) or a broken command (X2) ends the game at once.
        board.turns.append(Turn(_player(board), tuple(board.plays)))
        board.plays = []


def _player(board: Board) -> int:
    return board.state.current + 1


def end_turn(board: Board) -> None:
    player = _player(board)
    try:
        board.state.end_turn()
    except IllegalMoveError as e:
        _refused(board, e, False)
        return
    board.turns.append(Turn(player, tuple(board.plays)))
    board.plays = []


def undo(board: Board) -> None:
    """Take back the last play of this turn; with the draw pile open (a
    puzzle) a finished turn may be taken back too, nothing being hidden."""
    if board.plays:
        board.plays.pop()
    elif board.turns and not board.hidden:
        last = board.turns.pop()
        board.plays = list(last.plays[:-1])
    else:
        board.error = {
            "turn": board.state.turn + 1,
            "play": None,
            "rule": "C4",
            "message": "nothing to take back in this turn",
        }
        return
    fresh = open_board(board.base, tuple(board.turns), tuple(board.plays), board.hidden)
    board.state = fresh.state


def page_state(status: Status) -> str:
    """``data-state``: playing, solved (the game won) or lost."""
    return {Status.WON: "solved", Status.LOST: "lost"}.get(status, "playing")


def pile_views(state: GameState) -> list[dict[str, Any]]:
    """The piles as the page shows them."""
    rules, deal = state.rules, state.deal
    piles = []
    for i, top in enumerate(state.tops):
        asc = is_ascending(rules, i)
        piles.append(
            {
                "pile": pile_name(rules, i),
                "top": top,
                "ascending": asc,
                "start": top == (rules.asc_start if asc else rules.desc_start),
                "fire": top in rules.fire_cards,
                # F2: a fire card laid before this turn must be covered in it.
                "cover": top in rules.fire_cards and state.top_turn[i] < state.turn,
                "command": deal.command(top),
                # Public: the cards still out are those not on the table (the CLI shows it too).
                "room": room(state, i),
            }
        )
    return piles


def _piles_by_card(rules: Rules, plays: list[Play]) -> dict[str, list[str]]:
    """Plays as {card: [pile names]} (the page looks a card's piles up)."""
    out: dict[str, list[str]] = {}
    for p in plays:
        out.setdefault(str(p.card), []).append(pile_name(rules, p.pile))
    return out


def view(board: Board) -> dict[str, Any]:
    """The position as the player may see it."""
    state, rules, deal = board.state, board.state.rules, board.state.deal
    hand = [
        {"card": c, "fire": c in rules.fire_cards, "command": deal.command(c)} for c in state.hand()
    ]
    over = state.over
    out: dict[str, Any] = {
        "state": page_state(state.status),
        "status": str(state.status),
        "reason": state.reason,
        "variant": rules.name,
        "turn": state.turn + 1,
        "player": state.current + 1,
        "players": state.players,
        "minimum": state.turn_min,
        "played": len(board.plays),
        "piles": pile_views(state),
        # Kept after the end: a lost game shows what was left in the hand.
        "hand": hand,
        "other_hands": [
            {"player": p + 1, "cards": len(h)}
            for p, h in enumerate(state.hands)
            if p != state.current
        ],
        "draw_left": state.stock_left(),
        "cards_left": state.cards_left(),
        "can_end": not over and state.can_end_turn(),
        "end_loses": None if over else state.end_loses(),
        "legal": _piles_by_card(rules, state.legal_plays()),
        "losing": _piles_by_card(rules, state.losing_plays()),
        "turns": turns_list(rules, board.turns),
        "plays": [{"card": p.card, "pile": pile_name(rules, p.pile)} for p in board.plays],
        "plays_text": [play_dict(rules, p)["text"] for p in board.plays],
        "line": line_text(rules, board.turns),
        "turns_taken": len(board.turns),
        "error": board.error,
    }
    if not board.hidden or over:
        # A puzzle shows its draw pile (its deal is known); a real game only once it is over.
        out["draw_pile"] = state.draw_pile()
    if not board.hidden:
        # The deal is open: the page's own referee (web/referee.js) judges a
        # play at once, before asking the server, which stays the authority.
        out["referee"] = {
            "spec": referee_spec(deal),
            "opening": [turn_to_dict(rules, t)["plays"] for t in board.base.turns],
        }
    if over:
        out["record"] = board.record.to_dict()
    return out
