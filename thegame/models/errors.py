"""Errors split by cause: bad input data versus an illegal play."""

from __future__ import annotations


class ThegameError(Exception):
    """Base of every error the package reports to a user as one line."""


class InvalidInputError(ThegameError, ValueError):
    """Input data (a deal, a record, a command line value) is malformed.

    ``where`` names the place (a JSON path, a file, an option), so the
    message can say what is wrong and where in one line.
    """

    def __init__(self, message: str, where: str | None = None) -> None:
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}" if where else message)


class IllegalMoveError(ThegameError):
    """A play or a turn end that the rules forbid; ``rule`` is the rule id."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.message = message
        super().__init__(f"rule {rule}: {message}")
