"""What replaying a record through a game's rules answers, one type for
every game (``thegame check``, ``thegame mind check``, ``thegame nimmt check``,
``thegame cento check``).

``error`` names the first illegal step: ``{"turn", "play", "rule",
"message"}`` in The Game, 6 nimmt! (with ``round`` in a whole game) and
Cento, ``{"event", "rule", "message"}`` in The Mind, counted from 1 as on
screen; ``None`` for a legal record.

On screen every game says a check in one line of one shape
(``CheckResult.line``)::

    legal (5 turns): in progress; cards left: 87
    legal (46 turns): won - all cards played: a perfect clear (rule C7); cards left: 0
    illegal: turn 2, play 1: rule C4: card 100 is not in player 1's hand

and a command that needs a legal record names the same step after its
file: ``FILE: illegal record: turn 2, play 1: rule C4: ...``
(``illegal_record``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar

from .errors import InvalidInputError
from .words import plural


class Checked(Protocol):
    """The position a replay stops at, as a ``CheckResult`` reads it."""

    @property
    def status(self) -> StrEnum: ...

    @property
    def reason(self) -> str | None:
        """Why the game ended, with the rule id; None while it goes on."""

    @property
    def winner(self) -> int | None:
        """The player who won alone (a duel, from 1); None in a team game."""

    def cards_left(self) -> int: ...

    def check_fields(self) -> dict[str, Any]:
        """The game's own fields of the check's JSON, in order (after
        ``legal``, and after ``status`` unless a key ``status`` among them
        places it); a key ``error`` among them places the error there, else
        it comes last."""


S = TypeVar("S", bound=Checked)


def status_text(status: StrEnum | str) -> str:
    """A status on screen: its JSON value in words (``in_progress`` reads
    ``in progress``), the one spelling every game prints."""
    return str(status).replace("_", " ")


def step_text(error: Mapping[str, Any]) -> str:
    """An illegal step in words, counted from 1 like its JSON:
    ``turn 2, play 1: rule C5: ...``; ``round 2, turn 3, play 1: ...`` in a
    whole game of 6 nimmt!, ``event 4: ...`` in The Mind."""
    at = ", ".join(
        f"{key} {error[key]}"
        for key in ("round", "turn", "event", "play")
        if error.get(key) is not None
    )
    return f"{at}: rule {error['rule']}: {error['message']}"


def illegal_record(error: Mapping[str, Any], where: str) -> InvalidInputError:
    """The error a command raises for a record that must be legal and is
    not (``solve``, ``hint``, ``analyze``): ``FILE: illegal record: turn 2,
    play 1: rule C4: ...``, one line, exit 2."""
    return InvalidInputError(f"illegal record: {step_text(error)}", where)


@dataclass(frozen=True)
class CheckResult(Generic[S]):
    """A record replayed: legal or not, and the position where it stops."""

    legal: bool
    state: S
    error: dict[str, Any] | None = None
    steps_ok: int = 0  # the turns (events) replayed before the first illegal one
    # What the replay knows beyond the position, put into the game's fields
    # by name: a Cento position does not hold its deal, so the draw pile
    # left is the replay's to say.
    facts: Mapping[str, Any] = field(default_factory=dict)

    @property
    def status(self) -> StrEnum:
        return self.state.status

    @property
    def reason(self) -> str | None:
        return self.state.reason

    @property
    def winner(self) -> int | None:
        return self.state.winner

    @property
    def cards_left(self) -> int:
        return self.state.cards_left()

    def line(
        self, steps: str, facts: str = "", status: str | None = None, count: int | None = None
    ) -> str:
        """The check in one line, the same shape in every game:
        ``legal (5 turns): in progress; cards left: 87`` (``steps`` the noun
        of what was replayed, ``facts`` the game's own figures, ``status``
        words that replace the status's own, e.g. ``won by player 2``;
        ``count`` the steps when they are not the turns replayed), or
        ``illegal: turn 2, play 1: rule C4: ...``."""
        if self.error is not None:
            return f"illegal: {step_text(self.error)}"
        done = plural(self.steps_ok if count is None else count, steps)
        text = f"legal ({done}): {status or status_text(self.status)}"
        if self.reason:
            text += f" - {self.reason}"
        return f"{text}; {facts}" if facts else text

    def to_dict(self) -> dict[str, Any]:
        fields = self.state.check_fields()
        out: dict[str, Any] = {"legal": self.legal}
        if "status" not in fields:
            out["status"] = self.status
        out.update(fields)
        out.update(self.facts)
        out["error"] = self.error
        return out
