"""What ``thegame play`` answers besides moves: ``hint``, ``solve`` and the
review when the game ends."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from rich.text import Text

from ...models import InvalidInputError
from ...models.outcome import Limit, Status
from ...models.the_game import GameState, Record
from ...models.the_game.notation import plural
from ..common import out
from .play_real import hidden_hint_text, not_available, solve_refusal, spoiler_text
from .puzzle_view import live_status, turns_text
from .session import Ending, Session

if TYPE_CHECKING:
    from ...solver.the_game.duel.pns import ProofNumberSearch


def say(text: str, style: str = "") -> None:
    out.print(Text(text, style=style), soft_wrap=True)


@dataclasses.dataclass(frozen=True)
class PlayOptions:
    hint_time: float
    solve_time: float
    samples: int
    level: str = "strong"  # the blind player of a hidden-pile hint


def hint(session: Session, opts: PlayOptions) -> None:
    state = session.state
    if session.hidden:
        text, style = hidden_hint_text(state, opts.samples, opts.hint_time, opts.level)
        say(text, style)
        return
    try:
        if state.rules.is_duel:
            from ...analysis.the_game.duel import duel_hint

            hint = duel_hint(state, Limit(opts.hint_time), _duel_search(session))
            say(f"hint: {hint.text}", "cyan")
            return
        from ...analysis.the_game.review import hint_for

        say(f"hint: {hint_for(state, Limit(opts.hint_time)).text}", "cyan")
    except InvalidInputError as e:
        # A variant the search does not cover: the game goes on.
        say(f"{not_available('hint', state)}: {e.message}", "yellow")


def solve(session: Session, opts: PlayOptions, spoiler: bool) -> None:
    state = session.state
    if session.hidden:
        if not spoiler:
            say(solve_refusal(state), "yellow")
            return
        search = _duel_search(session) if state.rules.is_duel else None
        text, style = spoiler_text(state, opts.solve_time, search)
        say(text, style)
        return
    try:
        if state.rules.is_duel:
            _solve_duel(state, opts.solve_time, _duel_search(session))
        else:
            _solve_open(state, opts.solve_time)
    except InvalidInputError as e:
        say(f"{not_available('solve', state)}: {e.message}", "yellow")


def _solve_open(state: GameState, time_limit: float) -> None:
    """``solve`` with the draw pile in view (a puzzle): the whole line."""
    from ...models.outcome import Verdict
    from ...solver.the_game.api import replay_actions, search_position

    res = search_position(state, Limit(time_limit))
    turns, final = replay_actions(state, res.actions)
    if res.verdict == Verdict.WIN and final.status == Status.WON:
        say("a perfect clear from here: " + turns_text(state, turns), "green")
    elif res.verdict == Verdict.LOSS:
        say(
            f"no perfect clear from here; best: {final.cards_left()} left: "
            + turns_text(state, turns),
            "red",
        )
    else:
        say(
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
        say(f"no proof within {time_limit:g} s", "yellow")
        return
    who = "you win" if res.winner == state.current + 1 else f"player {res.winner} wins"
    say(f"with best play from here {who}: " + turns_text(state, res.turns), "green")


def say_ending(session: Session, ending: Ending) -> None:
    """How the game ended, and what a quit left out of the record."""
    state = session.state
    if state.rules.is_duel and state.over:
        who = ""
        if session.engine_seat is not None:
            who = " (the engine)" if state.winner == session.engine_seat else " (you)"
        say(f"player {state.winner}{who} wins: {state.reason}", "bold")
    elif ending is Ending.WON:
        say("won: a perfect clear!", "bold green")
    elif ending is Ending.QUIT:
        say(f"quit with {plural(state.cards_left(), 'card')} left", "bold yellow")
    else:
        say(f"lost: {state.reason}; {plural(state.cards_left(), 'card')} left", "bold red")
    pending = session.in_this_turn()
    if ending is Ending.QUIT and pending:
        say(
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
        say("no turn completed: nothing to analyse", "dim")
        return {"cards_left": session.state.cards_left()}
    try:
        if record.deal.rules.is_duel:
            return _end_analysis_duel(record, opening, time_limit)
        from ...solver.the_game.api import covered

        covered(record.deal)
        return _end_analysis_open(record, opening, time_limit)
    except InvalidInputError as e:
        say(f"{not_available('the closing review', session.state)}: {e.message}", "yellow")
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
