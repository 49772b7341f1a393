"""``thegame play``: a real game (the draw pile face down) or a puzzle in the
terminal, with hints, undo, ``--save`` and the closing review."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from enum import Enum, auto

import click
from rich.console import Group, RenderableType
from rich.text import Text

from ...models import IllegalMoveError, InvalidInputError, interrupt
from ...models.the_game import GameState, pile_name
from ...models.the_game.notation import action_text, parse_play, plural
from ...solver.the_game.kernel import END, Action
from ..common import SECONDS, out, tell, user_errors
from ..options import record_argument, save_option
from .kinds import kind_of
from .options import deal_options
from .play_advice import PlayOptions, end_analysis, hint, say_ending, solve
from .play_engine import ENGINE_SECONDS, OPPONENTS, EngineSeat, check_engine_deal
from .play_real import say, table_legend, table_view
from .play_start import checked_sources, open_session
from .session import Ending, Saver, Session, losing_end, losing_play, wins_by_ending

HELP = (
    "commands: '37 A1' plays 37 on A1 ('37' alone when only one pile takes it; "
    "'37 A1, 40 A1 | 90 D1' a line, '|' ending the turn), 'end' ends the turn, "
    "'undo' takes back the last action, 'hint', 'solve', 'help', 'quit'; a move that "
    "loses the game is asked for again ('!' insists)"
)


def help_text(session: Session) -> str:
    if not session.hidden:
        return HELP
    spoiler = kind_of(session.deal.rules).spoiler_words
    return (
        "commands: '37 A1' plays 37 on A1 ('37' alone when only one pile takes it; "
        "'37 A1, 40 A1 | 90 D1' a line, '|' ending the turn), 'end' ends the turn and "
        "draws, 'undo' takes back a play of this turn (the cards drawn cannot go back: the "
        "draw pile is hidden), 'hint' (from what you can see), "
        f"'solve spoiler' (only {spoiler}), 'help', 'quit'; a move that loses the game is "
        "asked for again ('!' insists)"
    )


# How a command line is read; a module attribute so that tests can script
# an interrupt. ``input`` (not ``click.prompt``) because click turns Ctrl-C and
# the end of input into the same Abort, and play treats them differently.
read_line: Callable[[str], str] = input


def engine_title(session: Session, engine: EngineSeat) -> RenderableType:
    me = 3 - engine.player
    line = Text(
        f"you are player {me}; the duel engine is player {engine.player} "
        f"({engine.seconds:g} s a turn; it reads both draw piles, its hand stays hidden)",
        style="bold",
    )
    return Group(session.title, line)


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


def line_parts(cmd: str) -> list[str]:
    """A line as the vocabulary writes it, ``37 a1, 40 a1 | 90 d1``, as the
    commands it stands for: each play, and ``end`` for each ``|``. Any other
    command is itself alone."""
    if "," not in cmd and "|" not in cmd:
        return [cmd] if cmd else []
    parts: list[str] = []
    for n, turn in enumerate(cmd.split("|")):
        if n:
            parts.append("end")
        parts.extend(p.strip() for p in turn.split(",") if p.strip())
    return parts


def _action_text(state: GameState, a: Action) -> str:
    return "the end of the turn" if a == END else action_text(state.rules, a)


def _view(session: Session) -> RenderableType:
    return table_view(session.state, session.hidden)


def _read_command() -> str | None:
    """The next command line; None at the end of input (Ctrl-D, a script
    that ran out). Ctrl-C raises KeyboardInterrupt to the command."""
    try:
        return read_line("move: ")
    except EOFError:
        out.print()  # the prompt's line was left open
        return None


INSIST = "!"


def _insisted(cmd: str) -> tuple[str, bool]:
    """``'61 a1!'`` or ``'! 61 a1'``: the command, and whether it insists."""
    if cmd.endswith(INSIST) or cmd.startswith(INSIST):
        return cmd.strip(INSIST + " "), True
    return cmd, False


def run_session(
    session: Session, opts: PlayOptions, saver: Saver, engine: EngineSeat | None = None
) -> Ending:
    """The loop: read a command, act, redraw (``engine``: the engine plays
    its seat's turns). Returns how it ended."""
    say(help_text(session), "dim")
    out.print(table_legend(session.state))
    if engine is None or not engine.to_move(session):
        out.print(_view(session))  # the engine's hand is never shown
    typed = _Typed()
    while not session.state.over:
        if interrupt.requested():
            # Ctrl-C during a hint's search stopped that search: stop the game too.
            raise KeyboardInterrupt
        if engine is not None and engine.to_move(session):
            engine.play_turn(session)
            saver.save(session)
            if not session.state.over:
                out.print(_view(session))
            continue
        step = typed.next()
        if step is None:
            return Ending.QUIT
        cmd, insist = step
        if not cmd:
            continue
        if cmd in ("quit", "q", "exit"):
            return Ending.QUIT
        if cmd in ("help", "?"):
            say(help_text(session))
            continue
        if cmd in ("hint", "h"):
            hint(session, opts)
            continue
        if cmd in ("solve", "s", "solve spoiler"):
            solve(session, opts, spoiler=cmd == "solve spoiler")
            continue
        if cmd in ("end", "e"):
            after = _end_command(session, saver, insist)
        elif cmd in ("undo", "u"):
            after = _undo_command(session)
        else:
            after = _play_command(session, saver, cmd, insist)
        if after is _After.QUIT:
            return Ending.QUIT
        typed.after(cmd, after)
        if after is _After.REDRAW and not typed.queued and not session.state.over and not (
            engine is not None and engine.to_move(session)
        ):
            out.print(_view(session))  # (the engine moves first, then the table)
    return Ending(session.state.status)


class _Typed:
    """The commands as typed: a line of plays one step at a time, and a
    losing move asked about once (the same again, or '!', insists)."""

    def __init__(self) -> None:
        self.pending: str | None = None
        self.queued: list[str] = []  # the rest of a line ('88 d2, 98 d2 | 90 d1')

    def next(self) -> tuple[str, bool] | None:
        """The next command and whether it insists; None at the end of input."""
        if self.queued:
            return self.queued.pop(0), False
        line = _read_command()
        if line is None:
            return None
        cmd, insist = _insisted(" ".join(line.strip().lower().split()))
        if not cmd and insist and self.pending is not None:
            cmd = self.pending
        asked, self.pending = self.pending, None
        insist = insist or cmd == asked  # the same move again: the player means it
        cmd, *self.queued = line_parts(cmd) or [""]
        return cmd, insist

    def after(self, cmd: str, after: _After) -> None:
        if after is not _After.REDRAW:
            self.queued.clear()  # a refused or questioned step ends the line there
        if after is _After.ASKED:
            self.pending = cmd


class _After(Enum):
    """What the loop does after a move command."""

    REDRAW = auto()  # the table changed: show it
    QUIET = auto()  # nothing changed (refused, or said why)
    ASKED = auto()  # a move that loses was asked about: the same again insists
    QUIT = auto()  # the end of input at the hot seat's hand-over


def _end_command(session: Session, saver: Saver, insist: bool) -> _After:
    """``end``: asked about first when it loses the game."""
    why = None if insist else losing_end(session.state)
    if why is not None:
        say(f"ending the turn now loses the game: {why}. "
            "Type 'end' again or '!' to end it anyway.", "bold yellow")  # fmt: skip
        return _After.ASKED
    if not _end_turn(session):
        return _After.QUIET
    saver.save(session)
    hot_seat = session.hidden and session.state.players > 1 and session.engine_seat is None
    if hot_seat and not session.state.over and not _hand_over(session):
        return _After.QUIT
    return _After.REDRAW


def _undo_command(session: Session) -> _After:
    """``undo``: the last action back (in a real game only inside the turn)."""
    undone = session.undo()
    if undone is None:
        if session.hidden and session.actions:
            say(
                "nothing to undo in this turn: a turn that ended stays ended "
                "(its draw showed cards of the hidden pile)",
                "red",
            )
        else:
            say("nothing to undo", "red")
        return _After.QUIET
    say(f"took back {_action_text(session.state, undone)}")
    return _After.REDRAW


def _play_command(session: Session, saver: Saver, cmd: str, insist: bool) -> _After:
    """A play (``37 A1``): asked about first when it loses the game; the last
    card ends the turn by itself."""
    state = session.state
    try:
        card, pile = _parse_play(state, cmd)
        why = None if insist else losing_play(state, card, pile)
        if why is not None:
            say(f"{action_text(state.rules, (card, pile))} loses the game: {why}. "
                f"Type it again or '!' to play it anyway.", "bold yellow")  # fmt: skip
            return _After.ASKED
        session.play(card, pile)
    except InvalidInputError as e:
        say(f"invalid: {e.message}", "red")
        return _After.QUIET
    except IllegalMoveError as e:
        say(f"illegal: rule {e.rule}: {e.message}", "red")
        return _After.QUIET
    if wins_by_ending(session.state):
        # The last card: the turn ends by itself and the win is said now.
        say(f"{action_text(state.rules, (card, pile))} was the last card")
        session.end_turn()
        saver.save(session)
    return _After.REDRAW


HINT_SECONDS = 5.0  # 'hint' and 'solve' during play: an answer while the player waits

ENTER_PROMPT = "press Enter when only player {n} looks at the screen: "


def _hand_over(session: Session) -> bool:
    """Hot seat: clear the screen (the last hand goes out of view), then
    wait for Enter before the next hand is shown. False at the end of input."""
    out.clear()
    nxt = session.state.current + 1
    say(f"--- player {nxt}'s turn: pass the keyboard ---", "bold")
    try:
        read_line(ENTER_PROMPT.format(n=nxt))
    except EOFError:
        out.print()
        return False
    return True


def _end_turn(session: Session) -> bool:
    """``end``: end the turn and say what was drawn; False if refused."""
    player = session.state.current + 1
    try:
        drew = session.end_turn()
    except IllegalMoveError as e:
        say(f"illegal: rule {e.rule}: {e.message}", "red")
        return False
    state = session.state
    if session.hidden and state.players > 1:
        # Hot seat: the drawn cards are that player's own business (their
        # count is public); the screen is cleared before the next hand.
        say(f"player {player} ended the turn and drew {plural(len(drew), 'card')}")
    elif drew:
        say(f"turn ended; drew {' '.join(map(str, drew))}")
    elif not state.over:
        say("turn ended")
    return True


@click.command()
@record_argument(required=False)
@click.option(
    "--daily",
    "use_daily",
    is_flag=True,
    help="Play the daily puzzle (with --variant extreme: the Extreme daily).",
)
@click.option("--date", metavar="YYYY-MM-DD", help="With --daily: the day (default today, UTC).")
@deal_options
@save_option("Write the game as a record ('check' and 'analyze' read it) after every turn "
             "and at the end.")
@click.option(
    "--think",
    type=SECONDS,
    default=None,
    help=f"Seconds the computer thinks: for 'hint' and 'solve' (default {HINT_SECONDS:g}) and, "
    f"with --vs engine, for the engine's turn (default {ENGINE_SECONDS:g}: it moves every "
    "turn, the hint only when asked). The same option as 'cento play --think'.",
)
# The older names, each for its part alone: still read, not shown.
@click.option("--hint-time", type=SECONDS, default=None, hidden=True,
              help="The older name of --think, for 'hint' and 'solve' alone.")
@click.option(
    "--hint-samples",
    type=click.IntRange(min=1),
    default=200,
    show_default=True,
    help="With a hidden draw pile: orders of the hidden cards 'hint' plays out "
    "(Face to Face: sampled deals the engine is asked about, at most 10).",
)
@click.option(
    "--strength",
    "level",
    type=click.Choice(["default", "strong"]),
    default="strong",
    show_default=True,
    help="With a hidden draw pile: 'hint' from the blind policy, or from the strong blind "
    "player (it compares the policy's candidate turns over sampled orders, within the "
    "hint time).",
)
@click.option(
    "--analysis-time",
    type=SECONDS,
    default=2.0,
    show_default=True,
    help="Seconds per position for the analysis at the end.",
)
@click.option("--no-review", is_flag=True, help="Skip the analysis at the end.")
@click.option(
    "--vs",
    "opponent",
    type=click.Choice(OPPONENTS),
    default=None,
    help="Face to Face: play against the duel engine (a real game; without a deal, a "
    "random seed, named in the title).",
)
@click.option(
    "--seat",
    type=click.IntRange(1, 2),
    default=None,
    help="With --vs engine: your seat, player 1 or 2 (default 1; who starts is --first).",
)
@click.option("--seconds", type=SECONDS, default=None, hidden=True,
              help="The older name of --think, for the engine's turn alone.")
# The older name ('--level' is a level number in The Mind): still read.
@click.option("--level", "old_level", type=click.Choice(["default", "strong"]), default=None,
              hidden=True, help="The older name of --strength.")
@user_errors
def play(
    record_file: str | None,
    use_daily: bool,
    date: str | None,
    seed: int | None,
    deck: str | None,
    deal_file: str | None,
    variant: str | None,
    players: int | None,
    first: int | None,
    save_file: str | None,
    think: float | None,
    hint_time: float | None,
    hint_samples: int,
    level: str,
    analysis_time: float,
    no_review: bool,
    opponent: str | None,
    seat: int | None,
    seconds: float | None,
    old_level: str | None,
) -> None:
    """Play in the terminal: a real game with the draw pile face down
    (--seed N, --deck or --deal, with --variant and --players), or a puzzle
    or record FILE, or --daily, with everything in view.

    Face to Face against the duel engine: --variant face-to-face --vs engine
    (--seat, --think).

    Ctrl-C stops the game (exit 130), saving it first with --save.
    """
    if opponent is None and (seat is not None or seconds is not None):
        raise InvalidInputError(
            f"{'--seat' if seat is not None else '--seconds'} goes with --vs engine", "play"
        )
    hint_time = hint_time or think or HINT_SECONDS
    level = old_level or level
    seconds = seconds or think
    no_deal = record_file is None and not use_daily and (seed, deck, deal_file) == (None,) * 3
    if opponent is not None and no_deal:
        # A new game against the engine needs no deal: a random one, named.
        seed = random.SystemRandom().randrange(1, 1_000_000)
    deal_source = (seed, deck, deal_file, variant, players, first)
    stream = checked_sources(record_file, use_daily, date, deal_source)
    if opponent is not None and (record_file is not None or use_daily):
        raise InvalidInputError("--vs engine plays a real game: give a deal, not a puzzle", "play")
    try:
        session = open_session(record_file, use_daily, date, deal_source, stream)
    except KeyboardInterrupt:
        # Ctrl-C while the daily puzzle is being made: nothing to save yet.
        tell("interrupted")
        sys.exit(130)
    engine = None
    if opponent is not None:
        check_engine_deal(session.deal)
        engine = EngineSeat(3 - (seat or 1), seconds or ENGINE_SECONDS)
        session.engine_seat = engine.player
        session.title = engine_title(session, engine)
    saver = Saver(save_file)
    # Written at once, so that a path that cannot be written fails now (one
    # line, exit 2), not after the game.
    saver.save(session, strict=True)
    opts = PlayOptions(hint_time, hint_time, hint_samples, level)
    try:
        out.print(session.title)
        ending = run_session(session, opts, saver, engine)
        saver.save(session)
        say_ending(session, ending)
        if save_file is not None:
            say(f"saved to {save_file}: thegame analyze {save_file}", "dim")
        if not no_review:
            end_analysis(session, analysis_time)
    except KeyboardInterrupt:
        saver.save(session)
        tell(
            # A new line first: Ctrl-C mostly comes at the open prompt line.
            "\ninterrupted" + (f"; the game so far is saved to {save_file}" if save_file else "")
        )
        sys.exit(130)
