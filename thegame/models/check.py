"""What replaying a record through a game's rules answers, one type for
every game (``thegame check``, ``thegame mind check``, ``thegame nimmt check``,
``thegame cento check``).

``error`` names the first illegal step: ``{"turn", "play", "rule",
"message"}`` in The Game, 6 nimmt! (with ``round`` in a whole game) and
Cento, ``{"event", "rule", "message"}`` in The Mind, counted from 1 as on
screen; ``None`` for a legal record.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar


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

    def to_dict(self) -> dict[str, Any]:
        fields = self.state.check_fields()
        out: dict[str, Any] = {"legal": self.legal}
        if "status" not in fields:
            out["status"] = self.status
        out.update(fields)
        out.update(self.facts)
        out["error"] = self.error
        return out
