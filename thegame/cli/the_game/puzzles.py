"""``thegame daily``, ``generate`` and ``play``: puzzles in the terminal.

The puzzles themselves (how they are chosen, rated and verified) live in
``thegame.puzzles``; this module parses options, draws with rich and runs
the interactive loop.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click
from rich.console import Group, RenderableType
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from ...models import IllegalMoveError, InvalidInputError
from ...models.outcome import Status
from ...models.the_game import GameState, Play, Record, Turn, is_ascending, pile_index, pile_name
from ...puzzles.the_game.puzzle import (
    CARDS_HIGH,
    CARDS_LOW,
    VARIANTS,
    Puzzle,
    parse_date,
    today_utc,
)
from ...puzzles.the_game.puzzle import generate as generate_puzzles
from ...puzzles.the_game.rating import LABELS
from ...solver.the_game.kernel import END, Action
from ..common import err, out, print_json, read_text, user_errors, write_atomic
from .render import card_text, cards_text

LABEL_STYLE = {"easy": "green", "medium": "yellow", "hard": "red", "expert": "bold magenta"}


# -- rendering -----------------------------------------------------------------


def difficulty_text(puzzle: Puzzle) -> Text:
    label = puzzle.label
    text = Text("difficulty: ")
    text.append(label, style=LABEL_STYLE.get(label, "bold"))
    text.append(f" ({puzzle.score:g}/100)")
    d = puzzle.difficulty
    if "bits" in d:
        text.append(
            f" - {d.get('steps', 0)} steps, {d.get('bits', 0)} bits of choice, "
            f"{d.get('only_moves', 0)} only moves, {d.get('traps', 0)} traps "
            f"(deepest {d.get('trap_depth', 0)}), {d.get('nodes', 0):,} nodes",
            style="dim",
        )
    return text


def puzzle_title(puzzle: Puzzle) -> Text:
    state = puzzle.start()
    where = f"daily puzzle {puzzle.date}" if puzzle.date else "puzzle"
    if puzzle.seed is not None:
        where += f" (seed {puzzle.seed})"
    title = Text(where, style="bold")
    title.append(
        f" - {puzzle.variant}, clear the last {state.cards_left()} cards"
        f" ({len(puzzle.position)} turns already played)"
    )
    return title


def position_view(state: GameState) -> RenderableType:
    """The piles, the hand and the draw pile of the player to move."""
    deal, rules = state.deal, state.rules
    piles = Table(box=None, show_header=True, header_style="bold", pad_edge=False)
    for i in range(rules.n_piles):
        arrow = "up" if is_ascending(rules, i) else "down"
        piles.add_column(f"{pile_name(rules, i)} {arrow}", justify="center")
    tops = []
    for i, top in enumerate(state.tops):
        start = rules.asc_start if is_ascending(rules, i) else rules.desc_start
        text = Text(card_text(deal, top), style="bold" if top != start else "dim")
        if top in rules.fire_cards:
            text.stylize("red")
        tops.append(text)
    piles.add_row(*tops)
    hand = Text("hand  ", style="bold")
    for c in state.hand():
        hand.append(f" {card_text(deal, c)} ", style="reverse" if c in rules.fire_cards else "")
    draw = state.draw_pile()
    pile = Text(f"draw pile: {len(draw)} cards", style="dim")
    if draw:
        pile.append(f" (top first: {cards_text(deal, draw)})", style="dim")
    n = len(state.placed)
    turn = Text(f"turn {state.turn}: played {n}, minimum {state.turn_min}", style="dim")
    if state.placed:
        turn.append(
            " - "
            + ", ".join(f"{p.card} on {pile_name(rules, p.pile)}" for p in state.plays_this_turn),
            style="dim",
        )
    return Group(piles, hand, pile, turn, Text(f"cards left: {state.cards_left()}", style="dim"))


def solution_lines(puzzle: Puzzle) -> Text:
    rules = puzzle.deal.rules
    text = Text("solution: ", style="bold")
    parts = []
    for t in puzzle.solution:
        parts.append(" ".join(f"{p.card}{pile_name(rules, p.pile)}" for p in t.plays))
    text.append(" | ".join(parts))
    return text


def _turns_text(state: GameState, turns: list[Turn]) -> str:
    rules = state.rules
    return " | ".join(
        " ".join(f"{p.card} {pile_name(rules, p.pile)}" for p in t.plays) for t in turns
    )


# -- daily -----------------------------------------------------------------------


@contextlib.contextmanager
def _status(enabled: bool, text: str) -> Iterator[Callable[[str], None]]:
    if not enabled or not err.is_terminal:
        yield lambda _: None
        return
    with err.status(text) as status:
        yield lambda message: status.update(message)


def load_daily(date: str | None, show: bool) -> Puzzle:
    day = parse_date(date) if date is not None else today_utc()
    from ...puzzles.the_game.puzzle import daily

    with _status(show, f"making the puzzle of {day.isoformat()}...") as update:
        return daily(day, lambda n: update(f"making the puzzle of {day}... seed {n + 1}"))


@click.command()
@click.option("--date", metavar="YYYY-MM-DD", help="The day (default: today, UTC).")
@click.option("--json", "as_json", is_flag=True, help="Print the puzzle as JSON.")
@click.option("--solution", "show_solution", is_flag=True, help="Show the solution too.")
@user_errors
def daily(date: str | None, as_json: bool, show_solution: bool) -> None:
    """The puzzle of the day: the same on every machine and in every version."""
    puzzle = load_daily(date, show=not as_json)
    if as_json:
        print_json(puzzle.to_dict())
        return
    out.print(puzzle_title(puzzle))
    out.print(difficulty_text(puzzle))
    out.print(position_view(puzzle.start()))
    if show_solution:
        out.print(solution_lines(puzzle))
    else:
        out.print(Text(f"play it: thegame play --daily --date {puzzle.date}", style="dim"))


# -- generate ------------------------------------------------------------------


def _cards_range(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*", text)
    if not m or not 0 < int(m.group(1)) <= int(m.group(2)):
        raise InvalidInputError(f"{text!r} is not a range LOW-HIGH of cards left", "--cards")
    return int(m.group(1)), int(m.group(2))


@click.command()
@click.option("--count", type=click.IntRange(min=1), default=10, show_default=True)
@click.option(
    "--difficulty",
    type=click.Choice(["any", *LABELS]),
    default="any",
    show_default=True,
    help="Keep only puzzles of this label.",
)
@click.option("--variant", type=click.Choice(VARIANTS), default="classic", show_default=True)
@click.option("--out", "out_dir", metavar="DIR", required=True, help="Directory for the files.")
@click.option(
    "--seed-start", type=click.IntRange(min=0), default=1, show_default=True, help="First seed."
)
@click.option(
    "--cards",
    default=f"{CARDS_LOW}-{CARDS_HIGH}",
    show_default=True,
    help="Cards left at the puzzle position, LOW-HIGH.",
)
@click.option(
    "--max-seeds",
    type=click.IntRange(min=1),
    default=100_000,
    show_default=True,
    help="Give up after this many seeds.",
)
@click.option("--json", "as_json", is_flag=True, help="Also print each puzzle as a JSON line.")
@user_errors
def generate(
    count: int,
    difficulty: str,
    variant: str,
    out_dir: str,
    seed_start: int,
    cards: str,
    max_seeds: int,
    as_json: bool,
) -> None:
    """Generate verified puzzles into DIR (one JSON file each)."""
    low, high = _cards_range(cards)
    target = Path(out_dir)
    target.mkdir(parents=True, exist_ok=True)
    written = 0
    tried = 0
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    want = "" if difficulty == "any" else f" {difficulty}"
    try:
        with Progress(*columns, console=err, transient=False) as progress:
            task = progress.add_task(f"{variant}{want} puzzles", total=count)
            for seed, puzzle in generate_puzzles(variant, seed_start, low, high):
                tried += 1
                progress.update(
                    task, description=f"{variant}{want} puzzles (seed {seed}, {tried} tried)"
                )
                if puzzle is not None and difficulty in ("any", puzzle.label):
                    puzzle.verify()  # the solution replays to a win
                    name = f"{variant}-{seed}-{puzzle.label}.json"
                    write_atomic(str(target / name), puzzle.to_json() + "\n")
                    if as_json:
                        print_json(puzzle.to_dict())
                    written += 1
                    progress.advance(task)
                if written >= count or tried >= max_seeds:
                    break
    except KeyboardInterrupt:
        err.print(f"interrupted: {written} puzzle(s) written to {target}", markup=False)
        raise SystemExit(130) from None
    if written < count:
        err.print(
            f"only {written} of {count} puzzle(s) in {tried} seeds; raise --max-seeds",
            markup=False,
        )
    else:
        err.print(f"{written} puzzle(s) written to {target} ({tried} seeds tried)", markup=False)


# -- play --------------------------------------------------------------------------

HELP = (
    "commands: '37 A1' plays 37 on A1 ('37' alone when only one pile takes it), "
    "'end' ends the turn, 'undo' takes back the last action, 'hint', 'solve', "
    "'help', 'quit'"
)
_PLAY = re.compile(r"(\d+)\s*(?:on\s*)?([a-z]\d+)?")


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
    m = _PLAY.fullmatch(text)
    if m is None:
        raise InvalidInputError(f"unknown command {text!r}; {HELP}")
    card = int(m.group(1))
    if card not in state.hands[state.current]:
        raise InvalidInputError(f"{card} is not in your hand")
    if m.group(2) is not None:
        return card, pile_index(state.rules, m.group(2))
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
    return "the end of the turn" if a == END else f"{a[0]} on {pile_name(state.rules, a[1])}"


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
    hint = hint_for(session.state, time_limit=time_limit)
    _say(f"hint: {hint.text}", "cyan")


def _solve(state: GameState, time_limit: float) -> None:
    from ...models.outcome import Limit, Verdict
    from ...solver.the_game.api import replay_actions, search_position

    res = search_position(state, Limit(time_limit))
    turns, final = replay_actions(state, res.actions)
    if res.verdict == Verdict.WIN and final.status == Status.WON:
        _say("a perfect clear from here: " + _turns_text(state, turns), "green")
    elif res.verdict == Verdict.LOSS:
        _say(
            f"no perfect clear from here; best: {final.cards_left()} left: "
            + _turns_text(state, turns),
            "red",
        )
    else:
        _say(
            f"no proof within {time_limit:g} s; best found: {final.cards_left()} left: "
            + _turns_text(state, turns),
            "yellow",
        )


def end_analysis(session: Session, ending: str, time_limit: float) -> dict[str, Any]:
    """Print how the game ended and the hindsight analysis of the player's part."""
    state = session.state
    if ending == Status.WON:
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
    from ...analysis.the_game.review import analyze_record
    from .analyze import analysis_view

    with _status(True, "analysing your game...") as update:
        # The opening is the puzzle's, not the player's: judge from the position.
        analysis = analyze_record(
            record,
            time_limit=time_limit,
            progress=lambda d, t: update(f"analysing {d}/{t}"),
            start_turn=opening,
        )
    out.print(analysis_view(analysis))
    result: dict[str, Any] = analysis.to_dict()
    return result


@click.command()
@click.argument("puzzle_file", metavar="PUZZLE", required=False)
@click.option("--daily", "use_daily", is_flag=True, help="Play the daily puzzle.")
@click.option("--date", metavar="YYYY-MM-DD", help="With --daily: the day (default today, UTC).")
@click.option(
    "--hint-time", type=click.FloatRange(min=0), default=5.0, show_default=True, help="Seconds."
)
@click.option(
    "--analysis-time",
    type=click.FloatRange(min=0),
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


__all__ = ["daily", "generate", "play"]
