"""The two kinds of game of The Game family on the command line, each
declared once: the team game (classic, Profi, On Fire, Extreme) and the duel
(Face to Face, rules D1-D7). A command finds its game's kind with
``kind_of(rules)`` and calls it; no command tests the kind itself."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...models import InvalidInputError, Limit
from ...models.the_game import Deal, GameKind, GameState, Record, Rules
from ...models.the_game.notation import plural

if TYPE_CHECKING:
    from ...puzzles.the_game.files import Puzzle
    from .review_view import ReviewOptions
    from .session import Session


class Team:
    """The cooperative game and its variants: one draw pile, a clear to reach."""

    explained = True  # 'thegame explain' walks its games
    split_jobs = True  # solve's --jobs splits the deal's search (a duel's races its proof)
    open_table = False  # a puzzle shows the player to move's side (a duel's: the whole table)
    spoiler_words = "whether a perfect clear still exists"
    hidden_words = "whether a perfect clear still exists with the real order"

    def difficulty(self, puzzle: Puzzle) -> str | None:
        d = puzzle.difficulty
        if "bits" not in d:
            return None
        return (
            f" - {d.get('steps', 0)} steps, {d.get('bits', 0)} bits of choice, "
            f"{d.get('only_moves', 0)} only moves, {d.get('traps', 0)} traps "
            f"(deepest {d.get('trap_depth', 0)}), {d.get('nodes', 0):,} nodes"
        )

    def puzzle_goal(self, state: GameState, variant: str, played: str) -> str:
        left = plural(state.cards_left(), "card")
        return f" - {variant}, clear the last {left} ({played} already played)"

    def analyze(self, record: Record, record_file: str, limit: Limit, opts: ReviewOptions,
                as_json: bool, jobs: int = 1) -> None:  # fmt: skip
        from .review_view import review_team

        self.check_jobs(record.deal, jobs)
        review_team(record, record_file, opts, as_json)

    def hint(self, record: Record, state: GameState, limit: Limit, as_json: bool,
             jobs: int = 1) -> None:  # fmt: skip
        from .review_view import hint_team

        self.check_jobs(record.deal, jobs)
        hint_team(record, state, limit, as_json)

    def check_jobs(self, deal: Deal, jobs: int) -> None:
        """hint's and analyze's --jobs: worker processes for a duel's proofs only."""
        if jobs > 1:
            raise InvalidInputError(
                f"--jobs races Face to Face's proof search; {deal.rules.name} searches "
                "in one process here",
                "--jobs",
            )

    def check_engine(self, deal: Deal) -> None:
        raise InvalidInputError(
            f"--vs engine plays Face to Face (--variant face-to-face), not {deal.rules.name}",
            "--vs",
        )

    def blind_hint(self, session: Session, samples: int, seconds: float,
                   level: str) -> tuple[str, str]:  # fmt: skip
        from .play_real import hidden_hint_text

        return hidden_hint_text(session.state, samples, seconds, level)

    def spoiler(self, session: Session, seconds: float) -> tuple[str, str]:
        from .play_real import spoiler_text

        return spoiler_text(session.state, seconds)

    def open_hint(self, session: Session, seconds: float) -> str:
        from ...analysis.the_game.review import hint_for

        return hint_for(session.state, Limit(seconds)).text

    def open_solve(self, session: Session, seconds: float) -> None:
        from .play_real import solve_open

        solve_open(session.state, seconds)

    def ending(self, session: Session) -> tuple[str, str] | None:
        return None  # won, lost or quit: said the same for every team game

    def end_analysis(self, record: Record, opening: int, seconds: float) -> dict[str, Any]:
        from ...solver.the_game.api import covered
        from .play_real import end_analysis_team

        covered(record.deal)
        return end_analysis_team(record, opening, seconds)


class Duel(Team):
    """Face to Face: two players, a draw pile each, won by the first to play out (D6)."""

    explained = False
    split_jobs = False
    open_table = True  # the duel's puzzle hides nothing: both hands, both draw piles
    spoiler_words = "who wins"
    hidden_words = "who wins with best play (both draw piles known)"

    def difficulty(self, puzzle: Puzzle) -> str | None:
        d = puzzle.difficulty
        if "depth" not in d:
            return None
        player = puzzle.start().current + 1
        return (
            f" - player {player} wins within {plural(d.get('depth', 0), 'turn')}; "
            f"{d.get('winning', 0)} of their {d.get('choices', 0)} turns do"
        )

    def puzzle_goal(self, state: GameState, variant: str, played: str) -> str:
        # A duel is won by the first to play out (D6), not by a clear.
        return f" - {variant}, {played} already played; player {state.current + 1} to move"

    def analyze(self, record: Record, record_file: str, limit: Limit, opts: ReviewOptions,
                as_json: bool, jobs: int = 1) -> None:  # fmt: skip
        from .review_view import review_duel

        review_duel(record, limit, as_json, opts.full_view, jobs)

    def hint(self, record: Record, state: GameState, limit: Limit, as_json: bool,
             jobs: int = 1) -> None:  # fmt: skip
        from .review_view import hint_duel

        hint_duel(record, state, limit, as_json, jobs)

    def check_jobs(self, deal: Deal, jobs: int) -> None:
        pass  # any number: 2 or more race each proof

    def check_engine(self, deal: Deal) -> None:
        from ...solver.the_game.duel.api import check_duel

        check_duel(deal)

    def blind_hint(self, session: Session, samples: int, seconds: float,
                   level: str) -> tuple[str, str]:  # fmt: skip
        from .play_real import blind_duel_text

        return blind_duel_text(session.state, samples, seconds)

    def spoiler(self, session: Session, seconds: float) -> tuple[str, str]:
        from .play_real import duel_spoiler_text

        return duel_spoiler_text(session.state, seconds, session.duel_searcher())

    def open_hint(self, session: Session, seconds: float) -> str:
        from ...analysis.the_game.duel import duel_hint

        return duel_hint(session.state, Limit(seconds), session.duel_searcher()).text

    def open_solve(self, session: Session, seconds: float) -> None:
        from .play_real import solve_duel

        solve_duel(session.state, seconds, session.duel_searcher())

    def ending(self, session: Session) -> tuple[str, str] | None:
        state = session.state
        if not state.over:
            return None
        who = ""
        if session.engine_seat is not None:
            who = " (the engine)" if state.winner == session.engine_seat else " (you)"
        return f"player {state.winner}{who} wins: {state.reason}", "bold"

    def end_analysis(self, record: Record, opening: int, seconds: float) -> dict[str, Any]:
        from .play_real import duel_end_analysis

        return duel_end_analysis(record, opening, seconds)


KINDS: dict[GameKind, Team] = {GameKind.CLASSIC: Team(), GameKind.DUEL: Duel()}


def kind_of(rules: Rules) -> Team:
    """What the command line does for a game under ``rules``."""
    return KINDS[rules.kind]
