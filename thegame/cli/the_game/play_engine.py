"""``thegame play --variant face-to-face --vs engine``: the duel engine in one
seat (rules D1-D7). It plays its turns through the same rules engine as the
player, shows each as one line with its estimate (labelled as one) or its
proven verdict, and never shows its hand.

The engine reads both draw piles in their real order (the exact search and
its playouts need the whole deal): it is a perfect-information player, as
the solver is; only the screen keeps the player's hidden information."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from ...models import Limit, Verdict, interrupt
from ...models.the_game import Deal, Turn
from ...models.the_game.notation import plays_text
from .play_real import say
from .session import Session

if TYPE_CHECKING:
    from ...solver.the_game.duel.engine import DuelEngine

# The engine's default time per turn (--seconds).
ENGINE_SECONDS = 1.0
# The engine's share of a turn's time when the exact search, which has the
# rest first, does not decide the position.
ENGINE_SHARE = 0.7
OPPONENTS = ("engine",)


def check_engine_deal(deal: Deal) -> None:
    """``--vs engine`` plays Face to Face only (the engine is the duel's)."""
    from .kinds import kind_of

    kind_of(deal.rules).check_engine(deal)


@dataclasses.dataclass
class EngineSeat:
    """The engine's seat (``player``, 1-based) and its time per turn."""

    player: int
    seconds: float
    engine: DuelEngine | None = None

    def to_move(self, session: Session) -> bool:
        state = session.state
        return not state.over and state.current + 1 == self.player

    def play_turn(self, session: Session) -> Turn:
        """Think for ``seconds``, play the turn through the rules engine and
        say it; Ctrl-C while it thinks stops the game before the turn."""
        from ...solver.the_game.duel.api import decide_or_estimate, engine_for, first_guess

        state = session.state
        if self.engine is None:
            self.engine = engine_for(state.deal, session.duel_search)
            # One table for the engine and the player's 'solve spoiler'.
            session.duel_search = self.engine.search
        # The exact search first on a share of the turn's time, a proof when
        # it reaches one; else the engine on the rest, on the same table.
        limit = Limit(self.seconds)
        res = decide_or_estimate(
            state, limit, None, limit.deadline(), self.engine.search, self.engine, ENGINE_SHARE
        )
        if interrupt.requested():
            raise KeyboardInterrupt
        if res.verdict != Verdict.UNKNOWN:
            turn: Turn | None = res.turns[0] if res.turns else None
            plays = turn.plays if turn is not None else first_guess(state)
            who = "the engine wins" if res.winner == self.player else "you win"
            note = f"proven: {who} with best play ({len(res.turns)} turns to the end)"
        else:
            est = res.estimate
            turn = est.turn if est is not None else None
            plays = turn.plays if turn is not None else first_guess(state)
            note = est.summary() if est is not None else "no estimate"
        if plays is None:
            raise RuntimeError("the engine found no turn in a duel that is not over")
        made = len(state.placed)
        for p in plays[made:]:
            session.play(p.card, p.pile)  # the rules engine checks every play
        if not session.state.over:
            session.end_turn()
        done = Turn(self.player, tuple(plays))
        say(f"player {self.player} (engine): {plays_text(state.rules, plays)} - {note}", "cyan")
        return done
