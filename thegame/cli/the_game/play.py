"""``thegame play``: a puzzle in the terminal, with hints, undo and the closing review."""

from __future__ import annotations

import dataclasses
from typing import Any

import click
from rich.text import Text

from ...models import IllegalMoveError, InvalidInputError
from ...models.outcome import Limit, Status
from ...models.the_game import GameState, Play, Record, Turn, pile_name
from ...models.the_game.notation import action_text, parse_play
from ...puzzles.the_game.files import Puzzle
from ...solver.the_game.kernel import END, Action
from ..common import SECONDS, out, read_text, user_errors
from .puzzle_view import (
    difficulty_text,
    live_status,
    load_daily,
    position_view,
    puzzle_title,
    turns_text,
)

HELP = (
    "commands: '37 A1' plays 37 on A1 ('37' alone when only one pile takes it), "
    "'end' ends the turn, 'undo' takes back the last action, 'hint', 'solve', "
    "'help', 'quit'"
)


def load_puzzle(path: str) -> Puzzle:
    return Puzzle.from_json(read_text(path), path)


@dataclasses.dataclass
class Session:
    """An interactive game from a puzzle position; actions can be undone."""

    puzzle: Puzzle
    start: GameState
    actions: list[Action] = dataclasses.field(default_factory=list)
    hints: int = 0

    @property
    def state(self) -> GameState:
        return self._state

    def __post_init__(self) -> None:
        self._state = self.start.copy()

    def rebuild(self) -> None:
        state = self.start.copy()
        for a in self.actions:
            if a == END:
                state.end_turn()
            else:
                state.play(*a)
        self._state = state

    def play(self, card: int, pile: int) -> None:
        self._state.play(card, pile)  # IllegalMoveError: nothing changed
        self.actions.append((card, pile))

    def end_turn(self) -> list[int]:
        """End the turn; the cards drawn."""
        player = self._state.current
        before = set(self._state.hands[player])
        self._state.end_turn()
        self.actions.append(END)
        return sorted(self._state.hands[player] - before)

    def undo(self) -> Action | None:
        if not self.actions:
            return None
        last = self.actions.pop()
        self.rebuild()
        return last

    def turns(self) -> list[Turn]:
        """The player's completed turns (the turn in progress left out)."""
        turns: list[Turn] = []
        state = self.start.copy()
        plays: list[Play] = []
        for a in self.actions:
            if a == END:
                turns.append(Turn(state.current + 1, tuple(plays)))
                state.end_turn()
                plays = []
            else:
                state.play(*a)
                plays.append(Play(*a))
        return turns

    def record(self) -> Record:
        return Record(self.puzzle.deal, self.puzzle.position + tuple(self.turns()))


def _parse_play(state: GameState, text: str) -> tuple[int, int]:
    """``'37 A1'`` to (card, pile); InvalidInputError with a one-line reason."""
    try:
        card, pile = parse_play(state.rules, text)
    except InvalidInputError as e:
        if "pile" in str(e):
            raise
        raise InvalidInputError(f"unknown command {text!r}; {HELP}") from None
    if card not in state.hands[state.current]:
        raise InvalidInputError(f"{card} is not in your hand")
    if pile is not None:
        return card, pile
    piles = [p.pile for p in state.legal_plays() if p.card == card]
    if len(piles) == 1:
        return card, piles[0]
    if not piles:
        raise InvalidInputError(f"{card} fits on no pile")
    names = ", ".join(pile_name(state.rules, p) for p in piles)
    raise InvalidInputError(f"{card} fits on {names}: say which, e.g. '{card} {names[:2]}'")


def _say(text: str, style: str = "") -> None:
    out.print(Text(text, style=style), soft_wrap=True)


def _action_text(state: GameState, a: Action) -> str:
    return "the end of the turn" if a == END else action_text(state.rules, a)


def run_session(session: Session, hint_time: float, solve_time: float) -> str:
    """The loop: read a command, act, redraw. Returns how it ended."""
    _say(HELP, "dim")
    out.print(position_view(session.state))
    while not session.state.over:
        try:
            line = click.prompt("move", default="", show_default=False)
        except click.Abort:
            line = "quit"
        cmd = line.strip().lower()
        state = session.state
        if not cmd:
            continue
        if cmd in ("quit", "q", "exit"):
            return "quit"
        if cmd in ("help", "?"):
            _say(HELP)
            continue
        if cmd in ("end", "e"):
            try:
                drew = session.end_turn()
            except IllegalMoveError as e:
                _say(f"illegal: rule {e.rule}: {e.message}", "red")
                continue
            if drew:
                _say(f"turn ended; drew {' '.join(map(str, drew))}")
            elif not session.state.over:
                _say("turn ended")
        elif cmd in ("undo", "u"):
            undone = session.undo()
            if undone is None:
                _say("nothing to undo", "red")
                continue
            _say(f"took back {_action_text(session.state, undone)}")
        elif cmd in ("hint", "h"):
            _hint(session, hint_time)
            continue
        elif cmd in ("solve", "s"):
            _solve(session.state, solve_time)
            continue
        else:
            try:
                card, pile = _parse_play(state, cmd)
                session.play(card, pile)
            except InvalidInputError as e:
                _say(f"invalid: {e.message}", "red")
                continue
            except IllegalMoveError as e:
                _say(f"illegal: rule {e.rule}: {e.message}", "red")
                continue
        if not session.state.over:
            out.print(position_view(session.state))
    return session.state.status


def _hint(session: Session, time_limit: float) -> None:
    from ...analysis.the_game.review import hint_for

    session.hints += 1
    if session.state.rules.is_duel:
        _hint_duel(session.state, time_limit)
        return
    hint = hint_for(session.state, Limit(time_limit))
    _say(f"hint: {hint.text}", "cyan")


def _solve(state: GameState, time_limit: float) -> None:
    from ...models.outcome import Verdict
    from ...solver.the_game.api import replay_actions, search_position

    if state.rules.is_duel:
        _solve_duel(state, time_limit)
        return
    res = search_position(state, Limit(time_limit))
    turns, final = replay_actions(state, res.actions)
    if res.verdict == Verdict.WIN and final.status == Status.WON:
        _say("a perfect clear from here: " + turns_text(state, turns), "green")
    elif res.verdict == Verdict.LOSS:
        _say(
            f"no perfect clear from here; best: {final.cards_left()} left: "
            + turns_text(state, turns),
            "red",
        )
    else:
        _say(
            f"no proof within {time_limit:g} s; best found: {final.cards_left()} left: "
            + turns_text(state, turns),
            "yellow",
        )


def end_analysis(session: Session, ending: str, time_limit: float) -> dict[str, Any]:
    """Print how the game ended and the hindsight analysis of the player's part."""
    state = session.state
    if state.rules.is_duel and state.over:
        _say(f"player {state.winner} wins: {state.reason}", "bold")
    elif ending == Status.WON:
        _say("won: a perfect clear!", "bold green")
    elif ending == "quit":
        _say(f"quit with {state.cards_left()} cards left", "bold yellow")
    else:
        _say(f"lost: {state.reason}; {state.cards_left()} cards left", "bold red")
    record = session.record()
    opening = len(session.puzzle.position)
    if len(record.turns) == opening:
        _say("no turn completed: nothing to analyse", "dim")
        return {"result": state.cards_left(), "mistakes": []}
    if state.rules.is_duel:
        return _end_analysis_duel(record, opening, time_limit)
    from ...analysis.the_game.review import analyze_record
    from .analyze import analysis_view

    with live_status(True, "analysing your game...") as update:
        # The opening is the puzzle's, not the player's: judge from the position.
        analysis = analyze_record(
            record,
            Limit(time_limit),
            progress=lambda d, t: update(f"analysing {d}/{t}"),
            start_turn=opening,
        )
    out.print(analysis_view(analysis))
    result: dict[str, Any] = analysis.to_dict()
    return result


# -- Face to Face (rules D1-D7) ----------------------------------------------------------


def _hint_duel(state: GameState, time_limit: float) -> None:
    from ...analysis.the_game.duel import duel_hint

    _say(f"hint: {duel_hint(state, Limit(time_limit)).text}", "cyan")


def _solve_duel(state: GameState, time_limit: float) -> None:
    from ...solver.the_game.duel.api import decide

    res = decide(state, Limit(time_limit))
    if res.winner is None:
        _say(f"no proof within {time_limit:g} s", "yellow")
        return
    who = "you win" if res.winner == state.current + 1 else f"player {res.winner} wins"
    _say(f"with best play from here {who}: " + turns_text(state, res.turns), "green")


def _end_analysis_duel(record: Record, opening: int, time_limit: float) -> dict[str, Any]:
    from ...analysis.the_game.duel import analyze_duel
    from .duel_view import duel_analysis_view

    with live_status(True, "analysing the duel...") as update:
        analysis = analyze_duel(
            record,
            Limit(time_limit),
            progress=lambda d, t: update(f"analysing {d}/{t}"),
            start_turn=opening,
        )
    out.print(duel_analysis_view(analysis))
    result: dict[str, Any] = analysis.to_dict()
    return result


@click.command()
@click.argument("puzzle_file", metavar="PUZZLE", required=False)
@click.option("--daily", "use_daily", is_flag=True, help="Play the daily puzzle.")
@click.option("--date", metavar="YYYY-MM-DD", help="With --daily: the day (default today, UTC).")
@click.option("--hint-time", type=SECONDS, default=5.0, show_default=True, help="Seconds.")
@click.option(
    "--analysis-time",
    type=SECONDS,
    default=2.0,
    show_default=True,
    help="Seconds per position for the analysis at the end.",
)
@user_errors
def play(
    puzzle_file: str | None,
    use_daily: bool,
    date: str | None,
    hint_time: float,
    analysis_time: float,
) -> None:
    """Play a puzzle file (or --daily) in the terminal."""
    if use_daily == (puzzle_file is not None):
        raise InvalidInputError("give a PUZZLE file or --daily (one of them)", "play")
    if date is not None and not use_daily:
        raise InvalidInputError("--date goes with --daily", "play")
    puzzle = load_daily(date, show=True) if use_daily else load_puzzle(str(puzzle_file))
    out.print(puzzle_title(puzzle))
    if puzzle.difficulty:
        out.print(difficulty_text(puzzle))
    session = Session(puzzle, puzzle.start())
    ending = run_session(session, hint_time, solve_time=hint_time)
    end_analysis(session, ending, analysis_time)
