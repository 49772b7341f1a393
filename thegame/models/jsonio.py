"""Reading JSON that users give: every game's files go through ``load_json``."""

from __future__ import annotations

import json
from typing import Any

from .errors import InvalidInputError


def load_json(text: str, where: str) -> Any:
    """Parse JSON; any failure is an ``InvalidInputError`` naming ``where``."""
    if not text.strip():
        # Said as plainly as a deal file's text form says it, not as a
        # decoder's "Expecting value at line 1 column 1".
        raise InvalidInputError("the file is empty", where)
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise InvalidInputError(
            f"malformed JSON: {err.msg} at line {err.lineno} column {err.colno}", where
        ) from None
    except (ValueError, RecursionError):
        # A number too long for int() (Python's 4300-digit limit) or
        # nesting too deep for the decoder: bad input, not a crash.
        raise InvalidInputError(
            "malformed JSON: number too long or nesting too deep", where
        ) from None


def item(where: str, index: int) -> str:
    """The path of the item at 0-based ``index`` of the list at ``where``,
    counted from 1 as turns, plays and players are on screen:
    ``item("turns", 0)`` is ``turns[1]``, the first turn."""
    return f"{where}[{index + 1}]"


def in_file(err: InvalidInputError, path: str) -> InvalidInputError:
    """``err`` placed in the file ``path``: the file's name, a colon, then
    the path inside it (``game.json: turns[2].plays[1].card``), never the
    file's name run into the path (``game.json.turns``)."""
    where = err.where or ""
    if where == path:
        where = ""
    elif where.startswith(path + "."):
        where = where[len(path) + 1 :]
    elif where.startswith(path + ": "):
        return err
    return InvalidInputError(err.message, f"{path}: {where}" if where else path)
