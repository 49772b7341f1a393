"""``thegame cento play``: a game in the terminal, alone or against the solver;
the person's lines are read here, the table is drawn by ``play_view``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click
from rich.text import Text

from ...analysis.cento.sampler import DEFAULT_SECONDS, STRENGTHS, engine_choice
from ...analysis.cento.session import Opponent
from ...models import interrupt
from ...models.cento import Deal, Record
from ...models.errors import IllegalMoveError, InvalidInputError
from ...models.outcome import Limit
from ...models.words import plural
from ..common import SECONDS, out, tell, user_errors, write_atomic
from ..options import choice_option, save_option
from .daily import make_daily
from .options import deal_from_options, deal_options
from .play_view import say_ending, table
from .render import turn_text

if TYPE_CHECKING:
    from ...analysis.cento.session import Session

# How a line of play is read; a module attribute so that tests can script
# an interrupt. ``input`` (not ``click.prompt``): click turns Ctrl-C and the
# end of input into the same Abort, and play treats them differently.
read_line: Callable[[str], str] = input

PLAY_HELP = (
    "a turn, step by step: '37' plays 37, 'free 45' (or 'f45') plays a free card named 45, "
    "'draw' draws (when no card fits, or when bound by a single-digit card), 'trick' / "
    "'treat' use the 100; several steps in one line: '33 13 31'. 'end' ends a turn that "
    "could go on, 'undo', 'hint', 'help', 'quit'"
)


@click.command()
@deal_options(players=1)
@click.option("--daily", "use_daily", is_flag=True, help="Play the solo puzzle of the day.")
@click.option("--date", metavar="YYYY-MM-DD", help="With --daily: the day (default today, UTC).")
@click.option(
    "--seat",
    "seats",
    type=click.IntRange(1, 6),
    multiple=True,
    help="Your seat (player 1 moves first; default 1). Give it again for more people "
    "at one screen (hot seat): --seat 1 --seat 3.",
)
@click.option(
    "--vs",
    type=click.Choice([o.value for o in Opponent]),
    default=Opponent.SOLVER.value,
    show_default=True,
    help="Who plays the other seats: 'solver' sees every hand and the pile (Cento's deal "
    "is open) and plays proven turns; 'engine' sees only its own seat, and you see only "
    "yours.",
)
@choice_option(
    "--strength",
    STRENGTHS,
    "With --vs engine: strong searches sampled deals of the unseen cards with playouts, "
    "dealt so that the others' turns were greedy ones; normal the same search reading only "
    "what any legal turn tells; easy is the earliest engine (a one-turn score).",
    default="strong",
)
@click.option(
    "--think",
    type=SECONDS,
    default=None,
    help="Seconds the solver (default 2) or the engine (default 1) thinks for its turn "
    "and for a hint.",
)
@save_option("Write the game as a record after every turn ('cento check' and 'cento analyze' "
             "read it).")  # fmt: skip
@user_errors
def play(
    seed: int | None,
    deck: str | None,
    deal_file: str | None,
    players: int,
    use_daily: bool,
    date: str | None,
    seats: tuple[int, ...],
    vs: str,
    strength: str,
    think: float | None,
    save_file: str | None,
    **kw: Any,
) -> None:
    """Play in the terminal: alone (empty your hand in the fewest turns), or
    at a table of 2-6 against the solver or the engine, one or more people in
    their seats. Commands come from stdin, so a script can pipe them in."""
    from ...analysis.cento.session import Session

    if use_daily:
        d, goal = _daily_deal(seed, deck, deal_file, date)
    else:
        d, goal = _deal(seed, deck, deal_file, date, players, kw), ""
    people = sorted(set(seats or (1,)))
    if d.players == 1 and people != [1]:
        raise InvalidInputError("alone, you are player 1", "--seat")
    if people[-1] > d.players:
        raise InvalidInputError(f"seat {people[-1]} is not a seat of {d.players}", "--seat")
    opponent = Opponent(vs)
    if think is None:
        think = DEFAULT_SECONDS if opponent == Opponent.ENGINE else 2.0
    session = Session(
        d, frozenset(k - 1 for k in people), Limit(time=think), vs=opponent, strength=strength
    )
    saver = _Saver(save_file)
    saver.save(session.record)  # now: a path that cannot be written fails before the game
    who = "alone" if d.players == 1 else _who(d.players, people, opponent)
    out.print(Text(f"Cento, {who}" + (f"; {goal}" if goal else ""), style="bold"))
    out.print(PLAY_HELP, style="dim", markup=False)
    try:
        finished = _play_loop(session, saver)
    except KeyboardInterrupt:
        saver.save(session.record)
        kept = f"; the game so far is saved to {save_file}" if save_file else ""
        tell(f"\ninterrupted{kept}")
        raise SystemExit(130) from None
    saver.save(session.record)
    say_ending(session, finished)
    if save_file:
        out.print(
            f"saved to {save_file}: thegame cento check {save_file}; "
            f"thegame cento analyze {save_file}",
            style="dim",
            markup=False,
        )


def _who(players: int, people: list[int], vs: Opponent) -> str:
    mine = ", ".join(f"player {k}" for k in people)
    others = [k for k in range(1, players + 1) if k not in people]
    if not others:
        return f"{players} players at one screen"
    theirs = ", ".join(f"player {k}" for k in others)
    what = "the solver" if vs == Opponent.SOLVER else "the engine"
    you = "you are" if len(people) == 1 else "people play"
    return f"{you} {mine}, {what} {theirs}"


def _daily_deal(
    seed: int | None, deck: str | None, deal_file: str | None, date: str | None
) -> tuple[Deal, str]:
    """The deal of the puzzle of the day, and its goal in words."""
    if seed is not None or deck is not None or deal_file is not None:
        raise InvalidInputError("--daily has its own deal: no --seed, --deck or --deal", "play")
    try:
        puzzle = make_daily(date, show=True)
    except KeyboardInterrupt:
        tell("interrupted")
        raise SystemExit(130) from None
    goal = f"puzzle of {puzzle.date}: empty your hand in {plural(puzzle.turn_count, 'turn')}"
    return puzzle.deal, goal


def _deal(
    seed: int | None,
    deck: str | None,
    deal_file: str | None,
    date: str | None,
    players: int,
    kw: dict[str, Any],
) -> Deal:
    """The deal of a deal option; stdin is for the commands, not the deal."""
    if date is not None:
        raise InvalidInputError("--date goes with --daily", "play")
    if deal_file == "-":
        raise InvalidInputError(
            "play reads its commands from stdin: give the deal as a file", "play"
        )
    return deal_from_options(seed, deck, deal_file, players, kw)


class _Saver:
    def __init__(self, path: str | None) -> None:
        self.path = path

    def save(self, record: Record) -> None:
        if self.path is not None:
            write_atomic(self.path, record.to_json(indent=1) + "\n")


def _play_loop(session: Session, saver: _Saver) -> bool:
    """Read and apply turns until the game is over (True) or the person
    leaves it ('quit' or the end of input: False)."""
    out.print(table(session))
    while not session.over:
        if interrupt.requested():  # Ctrl-C stopped a search: stop the game too
            raise KeyboardInterrupt
        if session.to_move not in session.human:
            turn, proven = session.solver_turn()
            how = _how(session, proven)
            out.print(
                Text(f"turn {len(session.turns)}: " + turn_text(turn.to_dict()), style="magenta")
                + Text(f"  ({how})", style="dim")
            )
            saver.save(session.record)
            if not session.over:
                out.print(table(session))
            continue
        try:
            line = read_line(f"turn {len(session.turns) + 1}> ")
        except EOFError:
            out.print()
            return False
        cmd = " ".join(line.strip().lower().split())
        if cmd in ("quit", "q", "exit"):
            return False
        if cmd:
            _command(session, saver, cmd)
    return True


def _engine_hint(session: Session) -> None:
    """A hint from what the person's seat sees: the engine's turn and its estimate."""
    choice = engine_choice(
        session.deal,
        session.state,
        session.turns,
        session.think,
        session.strength,
        len(session.turns),
    )
    if interrupt.requested():
        raise KeyboardInterrupt
    why = (
        "the only legal turn"
        if choice.share is None
        else f"wins {choice.share:.0%} of {plural(choice.worlds, 'sampled world')}, an estimate"
    )
    out.print(f"hint: {turn_text(choice.turn.to_dict())}  ({why})", style="green", markup=False)


def _how(session: Session, proven: bool) -> str:
    """Why the other seat played its turn."""
    if session.vs == Opponent.ENGINE:
        c = session.last_choice
        if c is None or c.share is None:
            return "the only legal turn"
        return f"engine: wins {c.share:.0%} of {plural(c.worlds, 'sampled world')}, an estimate"
    if proven:
        return "proven best"
    return f"not decided in {session.think.time or 0:g} s: the greedy turn"


def _command(session: Session, saver: _Saver, cmd: str) -> None:
    """One line of the person's: help, undo, a hint, or steps of a turn."""
    from ...analysis.cento.hint import hint_for
    from ...analysis.cento.session import parse_steps

    if cmd in ("help", "?"):
        out.print(PLAY_HELP, style="dim", markup=False)
        return
    if cmd == "undo":
        if not session.undo():
            hidden = session.vs == Opponent.ENGINE
            why = "against the engine only a turn that drew nothing" if hidden else "nothing"
            out.print(f"{why} can be taken back", style="red")
        out.print(table(session))
        return
    if cmd == "hint":
        if session.builder is not None:
            out.print("a hint is for a whole turn: 'undo' the steps of this one first", style="red")
            return
        if session.vs == Opponent.ENGINE:
            _engine_hint(session)
            return
        h = hint_for(session.record, session.think)
        if interrupt.requested():  # Ctrl-C cut the hint's search: no half answer
            raise KeyboardInterrupt
        if h.hint is None:
            out.print(f"no proven best turn within {session.think.time or 0:g} s", style="yellow")
        else:
            out.print("hint: " + turn_text(h.hint.to_dict()), style="green", markup=False)
        return
    done = len(session.turns)
    try:
        if cmd in ("end", "done"):
            session.end_turn()
        else:
            session.step(parse_steps(cmd))
    except InvalidInputError as e:
        out.print(f"not understood: {e}; 'help' lists the commands", style="red", markup=False)
        return
    except IllegalMoveError as e:
        out.print(f"not allowed: {e}; the turn starts again", style="red", markup=False)
        out.print(table(session))
        return
    if len(session.turns) > done:
        out.print(
            f"turn {len(session.turns)}: " + turn_text(session.turns[-1].to_dict()), markup=False
        )
        saver.save(session.record)
    if not session.over:
        out.print(table(session))
