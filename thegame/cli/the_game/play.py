"""``thegame play``: a real game (the draw pile face down) or a puzzle in the
terminal, with hints, undo, ``--save`` and the closing review."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click
from rich.console import Group, RenderableType
from rich.text import Text

from ...models import IllegalMoveError, InvalidInputError, interrupt
from ...models.jsonio import load_json
from ...models.outcome import Limit, Status
from ...models.the_game import Deal, GameState, Play, Record, Turn, pile_name
from ...models.the_game.notation import action_text, parse_play, plural
from ...puzzles.the_game.daily import STREAMS
from ...puzzles.the_game.files import Puzzle
from ...solver.the_game.kernel import END, Action
from ..common import SECONDS, err, out, read_text, user_errors, write_atomic
from ..options import record_argument, save_option
from .options import deal_options, load_deal
from .play_real import (
    hidden_hint_text,
    not_available,
    solve_refusal,
    spoiler_text,
    table_legend,
    table_view,
)
from .puzzle_view import (
    difficulty_text,
    live_status,
    load_daily,
    puzzle_title,
    turns_text,
)

if TYPE_CHECKING:
    from ...solver.the_game.duel.pns import ProofNumberSearch

HELP = (
    "commands: '37 A1' plays 37 on A1 ('37' alone when only one pile takes it), "
    "'end' ends the turn, 'undo' takes back the last action, 'hint', 'solve', "
    "'help', 'quit'; a move that loses the game is asked for again ('!' insists)"
)


def help_text(session: Session) -> str:
    if not session.hidden:
        return HELP
    spoiler = "who wins" if session.deal.rules.is_duel else "whether a perfect clear still exists"
    return (
        "commands: '37 A1' plays 37 on A1 ('37' alone when only one pile takes it), "
        "'end' ends the turn and draws, 'undo' takes back a play of this turn (the cards "
        "drawn cannot go back: the draw pile is hidden), 'hint' (from what you can see), "
        f"'solve spoiler' (only {spoiler}), 'help', 'quit'; a move that loses the game is "
        "asked for again ('!' insists)"
    )


# How a command line is read; a module attribute so that tests can script
# an interrupt. ``input`` (not ``click.prompt``) because click turns Ctrl-C and
# the end of input into the same Abort, and play treats them differently.
read_line: Callable[[str], str] = input


def load_puzzle(path: str) -> Puzzle:
    """A puzzle file, or a record (its turns are the position). A deal file
    is pointed to ``--deal``; a record that is over or illegal says which."""
    text = read_text(path)
    data = load_json(text, path) if text.lstrip().startswith("{") else None
    if not isinstance(data, dict) or "deal" not in data:
        raise InvalidInputError(
            f"this file holds a deal, not a puzzle or a record: play it with "
            f"'thegame play --deal {path}'",
            path,
        )
    return Puzzle.from_dict(data, path)


@dataclasses.dataclass
class Session:
    """An interactive game from a position (a puzzle's, or a deal's start).

    ``opening``: the turns before ``start`` (a puzzle's position), kept for the
    record. ``hidden``: a real game; the draw pile is face down, and undo stays
    inside the current turn (taking back a turn end would put drawn cards,
    now seen, back into the hidden pile).
    """

    deal: Deal
    opening: tuple[Turn, ...]
    start: GameState
    hidden: bool = False
    actions: list[Action] = dataclasses.field(default_factory=list)
    hints: int = 0
    title: RenderableType = ""  # what the game is, shown first
    # A duel's search, kept across hint and solve: what it proved stays
    # proven for the rest of the game (``duel.api.session``).
    duel_search: ProofNumberSearch | None = None

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

    def in_this_turn(self) -> int:
        """How many actions of the turn in progress there are."""
        n = 0
        for a in reversed(self.actions):
            if a == END:
                break
            n += 1
        return n

    def can_undo(self) -> bool:
        return self.in_this_turn() > 0 if self.hidden else bool(self.actions)

    def undo(self) -> Action | None:
        if not self.can_undo():
            return None
        last = self.actions.pop()
        self.rebuild()
        return last

    def turns(self) -> list[Turn]:
        """The player's turns: every completed one, and the last one when the
        game ended inside it (a duel won at once, D6; a broken command, X2).
        A turn still in progress is left out: a record holds whole turns."""
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
        if plays and state.over:
            turns.append(Turn(state.current + 1, tuple(plays)))
        return turns

    def record(self) -> Record:
        return Record(self.deal, self.opening + tuple(self.turns()))


def puzzle_session(puzzle: Puzzle) -> Session:
    return Session(puzzle.deal, puzzle.position, puzzle.start())


class Saver:
    """``--save FILE``: the record so far, written whole (``write_atomic``)
    after every turn and when the game stops, however it stops."""

    def __init__(self, path: str | None) -> None:
        self.path = path

    def save(self, session: Session, strict: bool = False) -> None:
        """Write the record. A failure is one line: with ``strict`` (the
        first write, before the game) an error, exit 2; later a warning, so
        that a full disk does not end the game in progress."""
        if self.path is None:
            return
        try:
            write_atomic(self.path, session.record().to_json() + "\n")
        except InvalidInputError as e:
            if strict:
                raise
            err.print(f"warning: {e}", markup=False, soft_wrap=True)


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


def losing_play(state: GameState, card: int, pile: int) -> str | None:
    """Why this accepted play loses the game at once (a command broken,
    X2), from what the player can see; None when it does not."""
    rule = state.loses(card, pile)
    if rule is None:
        return None
    probe = state.copy()
    probe.play(card, pile)
    return probe.reason or f"it breaks a command (rule {rule})"


def losing_end(state: GameState) -> str | None:
    """Why ending the turn now loses the game, from public facts only: a
    command broken (X3b, X3c) or a fire card not covered in time (F2). A
    loss that the draw would reveal (the next player stuck, C8) is not
    foretold: the cards drawn are hidden."""
    rule = state.end_loses()
    if rule is not None:
        probe = state.copy()
        probe.end_turn()
        return probe.reason or f"it breaks a command (rule {rule})"
    rules = state.rules
    if not rules.fire_cards or not state.can_end_turn():
        return None
    if state.cards_left() == 0 and rules.fire_safe_at_clear:
        return None
    for pile, top in enumerate(state.tops):
        if top in rules.fire_cards and state.top_turn[pile] < state.turn:
            return (
                f"fire card {top} on {pile_name(rules, pile)} is not covered "
                "and this turn is its last (rule F2)"
            )
    return None


def _wins_by_ending(state: GameState) -> bool:
    """Every card is down and ending the turn clears the game (rule C7)."""
    if state.over or state.cards_left() != 0 or not state.can_end_turn():
        return False
    probe = state.copy()
    probe.end_turn()
    return probe.status == Status.WON


def run_session(session: Session, opts: PlayOptions, saver: Saver) -> str:
    """The loop: read a command, act, redraw. Returns how it ended."""
    _say(help_text(session), "dim")
    out.print(table_legend(session.state))
    out.print(_view(session))
    pending: str | None = None  # a losing move asked about once
    while not session.state.over:
        if interrupt.requested():
            # Ctrl-C during a hint's search stopped that search: stop the game too.
            raise KeyboardInterrupt
        line = _read_command()
        if line is None:
            return "quit"
        cmd, insist = _insisted(" ".join(line.strip().lower().split()))
        if not cmd and insist and pending is not None:
            cmd = pending
        asked, pending = pending, None
        insist = insist or cmd == asked  # the same move again: the player means it
        state = session.state
        if not cmd:
            continue
        if cmd in ("quit", "q", "exit"):
            return "quit"
        if cmd in ("help", "?"):
            _say(help_text(session))
            continue
        if cmd in ("end", "e"):
            why = None if insist else losing_end(state)
            if why is not None:
                pending = cmd
                _say(f"ending the turn now loses the game: {why}. "
                     "Type 'end' again or '!' to end it anyway.", "bold yellow")  # fmt: skip
                continue
            if not _end_turn(session):
                continue
            saver.save(session)
            hot_seat = session.hidden and session.state.players > 1
            if hot_seat and not session.state.over and not _hand_over(session):
                return "quit"
        elif cmd in ("undo", "u"):
            undone = session.undo()
            if undone is None:
                if session.hidden and session.actions:
                    _say(
                        "nothing to undo in this turn: a turn that ended stays ended "
                        "(its draw showed cards of the hidden pile)",
                        "red",
                    )
                else:
                    _say("nothing to undo", "red")
                continue
            _say(f"took back {_action_text(session.state, undone)}")
        elif cmd in ("hint", "h"):
            session.hints += 1
            _hint(session, opts)
            continue
        elif cmd in ("solve", "s", "solve spoiler"):
            _solve(session, opts, spoiler=cmd == "solve spoiler")
            continue
        else:
            try:
                card, pile = _parse_play(state, cmd)
                why = None if insist else losing_play(state, card, pile)
                if why is not None:
                    pending = cmd
                    _say(f"{action_text(state.rules, (card, pile))} loses the game: {why}. "
                         f"Type it again or '!' to play it anyway.", "bold yellow")  # fmt: skip
                    continue
                session.play(card, pile)
            except InvalidInputError as e:
                _say(f"invalid: {e.message}", "red")
                continue
            except IllegalMoveError as e:
                _say(f"illegal: rule {e.rule}: {e.message}", "red")
                continue
            if _wins_by_ending(session.state):
                # The last card: the turn ends by itself and the win is said now.
                _say(f"{action_text(state.rules, (card, pile))} was the last card")
                session.end_turn()
                saver.save(session)
        if not session.state.over:
            out.print(_view(session))
    return session.state.status


ENTER_PROMPT = "press Enter when only player {n} looks at the screen: "


def _hand_over(session: Session) -> bool:
    """Hot seat: clear the screen (the last hand goes out of view), then
    wait for Enter before the next hand is shown. False at the end of input."""
    out.clear()
    nxt = session.state.current + 1
    _say(f"--- player {nxt}'s turn: pass the keyboard ---", "bold")
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
        _say(f"illegal: rule {e.rule}: {e.message}", "red")
        return False
    state = session.state
    if session.hidden and state.players > 1:
        # Hot seat: the drawn cards are that player's own business (their
        # count is public); the screen is cleared before the next hand.
        _say(f"player {player} ended the turn and drew {plural(len(drew), 'card')}")
    elif drew:
        _say(f"turn ended; drew {' '.join(map(str, drew))}")
    elif not state.over:
        _say("turn ended")
    return True


@dataclasses.dataclass(frozen=True)
class PlayOptions:
    hint_time: float
    solve_time: float
    samples: int


def _hint(session: Session, opts: PlayOptions) -> None:
    state = session.state
    if session.hidden:
        text, style = hidden_hint_text(state, opts.samples, opts.hint_time)
        _say(text, style)
        return
    try:
        if state.rules.is_duel:
            from ...analysis.the_game.duel import duel_hint

            hint = duel_hint(state, Limit(opts.hint_time), _duel_search(session))
            _say(f"hint: {hint.text}", "cyan")
            return
        from ...analysis.the_game.review import hint_for

        _say(f"hint: {hint_for(state, Limit(opts.hint_time)).text}", "cyan")
    except InvalidInputError as e:
        # A variant the search does not cover: the game goes on.
        _say(f"{not_available('hint', state)}: {e.message}", "yellow")


def _solve(session: Session, opts: PlayOptions, spoiler: bool) -> None:
    state = session.state
    if session.hidden:
        if not spoiler:
            _say(solve_refusal(state), "yellow")
            return
        search = _duel_search(session) if state.rules.is_duel else None
        text, style = spoiler_text(state, opts.solve_time, search)
        _say(text, style)
        return
    try:
        if state.rules.is_duel:
            _solve_duel(state, opts.solve_time, _duel_search(session))
        else:
            _solve_open(state, opts.solve_time)
    except InvalidInputError as e:
        _say(f"{not_available('solve', state)}: {e.message}", "yellow")


def _solve_open(state: GameState, time_limit: float) -> None:
    """``solve`` with the draw pile in view (a puzzle): the whole line."""
    from ...models.outcome import Verdict
    from ...solver.the_game.api import replay_actions, search_position

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


def _duel_search(session: Session) -> ProofNumberSearch:
    """The session's duel search, made at the first question."""
    from ...solver.the_game.duel.api import session as search_session

    if session.duel_search is None:
        session.duel_search = search_session(session.state.deal)
    return session.duel_search


def _solve_duel(
    state: GameState, time_limit: float, search: ProofNumberSearch | None = None
) -> None:
    from ...solver.the_game.duel.api import decide

    res = decide(state, Limit(time_limit), search=search)
    if res.winner is None:
        _say(f"no proof within {time_limit:g} s", "yellow")
        return
    who = "you win" if res.winner == state.current + 1 else f"player {res.winner} wins"
    _say(f"with best play from here {who}: " + turns_text(state, res.turns), "green")


def say_ending(session: Session, ending: str) -> None:
    """How the game ended, and what a quit left out of the record."""
    state = session.state
    if state.rules.is_duel and state.over:
        _say(f"player {state.winner} wins: {state.reason}", "bold")
    elif ending == Status.WON:
        _say("won: a perfect clear!", "bold green")
    elif ending == "quit":
        _say(f"quit with {plural(state.cards_left(), 'card')} left", "bold yellow")
    else:
        _say(f"lost: {state.reason}; {plural(state.cards_left(), 'card')} left", "bold red")
    pending = session.in_this_turn()
    if ending == "quit" and pending:
        _say(
            f"the turn in progress ({plural(pending, 'play')}) is not in the record: "
            "a record holds whole turns",
            "dim",
        )


# Samples per turn of the closing review (``thegame analyze`` takes --samples).
REVIEW_SAMPLES = 100


def end_analysis(session: Session, time_limit: float) -> dict[str, Any]:
    """The annotated review of the player's part (the opening left out)."""
    record = session.record()
    opening = len(session.opening)
    if len(record.turns) == opening:
        _say("no turn completed: nothing to analyse", "dim")
        return {"cards_left": session.state.cards_left()}
    try:
        if record.deal.rules.is_duel:
            return _end_analysis_duel(record, opening, time_limit)
        from ...solver.the_game.api import covered

        covered(record.deal)
        return _end_analysis_open(record, opening, time_limit)
    except InvalidInputError as e:
        _say(f"{not_available('the closing review', session.state)}: {e.message}", "yellow")
        return {"cards_left": session.state.cards_left()}


def _end_analysis_open(record: Record, opening: int, time_limit: float) -> dict[str, Any]:
    """The annotated review (``thegame analyze``) of the player's turns."""
    from ...analysis.the_game.annotate import annotate_record
    from .analyze import review_view

    with live_status(True, "reviewing your game...") as update:
        # The opening is the puzzle's, not the player's: judge from the position.
        review = annotate_record(
            record,
            REVIEW_SAMPLES,
            hindsight=Limit(time_limit),
            progress=lambda d, t: update(f"reviewing {d}/{t}"),
            start_turn=opening,
        )
    out.print(review_view(review, out.is_terminal))
    result: dict[str, Any] = review.to_dict()
    return result


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


def _game_title(deal: Deal, seed: int | None) -> Text:
    rules = deal.rules
    title = Text(f"{rules.name}, {plural(deal.players, 'player')}", style="bold")
    if seed is not None:
        title.append(f", seed {seed}", style="bold")
    start = deal.first or 1  # rule C3: without a choice, player 1 starts
    title.append(f" - player {start} starts; the draw pile is face down")
    return title


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
    "--hint-time",
    type=SECONDS,
    default=5.0,
    show_default=True,
    help="Seconds that 'hint' and 'solve' may search.",
)
@click.option(
    "--hint-samples",
    type=click.IntRange(min=1),
    default=200,
    show_default=True,
    help="With a hidden draw pile: orders of the hidden cards 'hint' plays out.",
)
@click.option(
    "--analysis-time",
    type=SECONDS,
    default=2.0,
    show_default=True,
    help="Seconds per position for the analysis at the end.",
)
@click.option("--no-review", is_flag=True, help="Skip the analysis at the end.")
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
    hint_time: float,
    hint_samples: int,
    analysis_time: float,
    no_review: bool,
) -> None:
    """Play in the terminal: a real game with the draw pile face down
    (--seed N, --deck or --deal, with --variant, --players), or a puzzle
    or record FILE, or --daily) with everything in view.

    Ctrl-C stops the game (exit 130), saving it first with --save.
    """
    given = [
        name
        for name, value in (
            ("--seed", seed),
            ("--deck", deck),
            ("--deal", deal_file),
            ("--variant", variant),
            ("--players", players),
            ("--first", first),
        )
        if value is not None
    ]
    if use_daily and record_file is not None:
        raise InvalidInputError("give a FILE or --daily, not both", "play")
    stream = None
    if use_daily and variant is not None and given == ["--variant"]:
        # --daily --variant extreme: the second daily stream (thegame daily).
        if variant not in STREAMS:
            raise InvalidInputError(
                f"--daily --variant {variant}: the daily streams are the default one and "
                f"{', '.join(STREAMS)}",
                "play",
            )
        stream, given = variant, []
    if (use_daily or record_file is not None) and given:
        what = "--daily" if use_daily else "a puzzle or record FILE"
        raise InvalidInputError(
            f"{given[0]} goes with a real game, not with {what} (a puzzle has its own deal)",
            "play",
        )
    if date is not None and not use_daily:
        raise InvalidInputError("--date goes with --daily", "play")
    if "-" in (deal_file, record_file):
        raise InvalidInputError(
            "play reads its commands from stdin: give the deal or puzzle as a file", "play"
        )
    if not (use_daily or record_file is not None or given):
        raise InvalidInputError(
            "give a puzzle or record FILE, --daily, or a deal for a real game "
            "(--seed N, --deck, --deal FILE)",
            "play",
        )
    try:
        session = _open(
            record_file, use_daily, date, (seed, deck, deal_file, variant, players, first), stream
        )
    except KeyboardInterrupt:
        # Ctrl-C while the daily puzzle is being made: nothing to save yet.
        err.print("interrupted", markup=False)
        sys.exit(130)
    saver = Saver(save_file)
    # Written at once, so that a path that cannot be written fails now (one
    # line, exit 2), not after the game.
    saver.save(session, strict=True)
    opts = PlayOptions(hint_time, hint_time, hint_samples)
    try:
        out.print(session.title)
        ending = run_session(session, opts, saver)
        saver.save(session)
        say_ending(session, ending)
        if save_file is not None:
            _say(f"saved to {save_file}: thegame analyze {save_file}", "dim")
        if not no_review:
            end_analysis(session, analysis_time)
    except KeyboardInterrupt:
        saver.save(session)
        err.print(
            # A new line first: Ctrl-C mostly comes at the open prompt line.
            "\ninterrupted" + (f"; the game so far is saved to {save_file}" if save_file else ""),
            markup=False,
            soft_wrap=True,
        )
        sys.exit(130)


def _open(
    record_file: str | None,
    use_daily: bool,
    date: str | None,
    deal_source: tuple[int | None, str | None, str | None, str | None, int | None, int | None],
    stream: str | None = None,
) -> Session:
    """The session the options ask for: a puzzle (everything in view) or a
    real game from a deal (the draw pile face down); ``stream``: the daily
    stream of ``--daily``."""
    if use_daily or record_file is not None:
        if use_daily:
            puzzle = load_daily(date, show=True, stream=stream)
        else:
            puzzle = load_puzzle(str(record_file))
        session = puzzle_session(puzzle)
        lines: list[RenderableType] = [puzzle_title(puzzle)]
        if puzzle.difficulty:
            lines.append(difficulty_text(puzzle))
        session.title = Group(*lines)
        return session
    seed, deck, deal_file, variant, players, first = deal_source
    deal = load_deal(seed, deck, deal_file, variant, players, first)
    session = Session(deal, (), GameState(deal), hidden=True)
    session.title = _game_title(deal, seed)
    return session
