"""What ``thegame play`` answers besides moves: ``hint``, ``solve`` and the
review when the game ends."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from ...models import InvalidInputError
from ...models.the_game import GameState
from ...models.the_game.notation import plural
from .kinds import kind_of
from .play_real import not_available, say
from .session import Ending, Session

if TYPE_CHECKING:
    pass


@dataclasses.dataclass(frozen=True)
class PlayOptions:
    hint_time: float
    solve_time: float
    samples: int
    level: str = "strong"  # the blind player of a hidden-pile hint


def hint(session: Session, opts: PlayOptions) -> None:
    state = session.state
    kind = kind_of(state.rules)
    if session.hidden:
        say(*kind.blind_hint(session, opts.samples, opts.hint_time, opts.level))
        return
    try:
        say(f"hint: {kind.open_hint(session, opts.hint_time)}", "cyan")
    except InvalidInputError as e:
        # A variant the search does not cover: the game goes on.
        say(f"{not_available('hint', state)}: {e.message}", "yellow")


def solve(session: Session, opts: PlayOptions, spoiler: bool) -> None:
    state = session.state
    kind = kind_of(state.rules)
    if session.hidden:
        said = kind.spoiler(session, opts.solve_time) if spoiler else None
        say(*(said or (solve_refusal(state), "yellow")))
        return
    try:
        kind.open_solve(session, opts.solve_time)
    except InvalidInputError as e:
        say(f"{not_available('solve', state)}: {e.message}", "yellow")


def say_ending(session: Session, ending: Ending) -> None:
    """How the game ended, and what a quit left out of the record."""
    state = session.state
    said = kind_of(state.rules).ending(session)
    if said is not None:
        say(*said)
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


def end_analysis(session: Session, time_limit: float) -> dict[str, Any]:
    """The annotated review of the player's part (the opening left out)."""
    record = session.record()
    opening = len(session.opening)
    if len(record.turns) == opening:
        say("no turn completed: nothing to analyse", "dim")
        return {"cards_left": session.state.cards_left()}
    try:
        return kind_of(record.deal.rules).end_analysis(record, opening, time_limit)
    except InvalidInputError as e:
        say(f"{not_available('the closing review', session.state)}: {e.message}", "yellow")
        return {"cards_left": session.state.cards_left()}


def solve_refusal(state: GameState) -> str:
    """``solve`` with a hidden draw pile: a solver would read the hidden
    order, and its line would show the cards to come, so it is refused; the
    spoiler is there for a player who asks for it by name."""
    what = kind_of(state.rules).hidden_words
    return (
        "solve: the draw pile is hidden, and solving reads its order. "
        f"'solve spoiler' tells only {what}."
    )
