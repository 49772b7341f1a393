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


# Each game's name in its files' "game" key: the game in words, and the
# command that reads its records.
GAMES = {
    "the-game": ("The Game", "thegame check"),
    "the-mind": ("The Mind", "thegame mind check"),
    "6-nimmt": ("6 nimmt!", "thegame nimmt check"),
    "cento": ("Cento", "thegame cento check"),
}


def game_of(data: Any) -> str | None:
    """The game a parsed file names: its own ``"game"``, its deal's, or its
    first round's (a whole game of 6 nimmt!); None when it names none."""
    if not isinstance(data, dict):
        return None
    for holder in (data, data.get("deal"), _first(data.get("rounds"))):
        if isinstance(holder, dict):
            if isinstance(holder.get("game"), str):
                return str(holder["game"])
            if isinstance(holder.get("deal"), dict) and isinstance(holder["deal"].get("game"), str):
                return str(holder["deal"]["game"])
    return None


def _first(value: Any) -> Any:
    return value[0] if isinstance(value, list) and value else None


def same_game(data: Any, game: str, where: str) -> None:
    """Refuse a file of another game, naming that game and the command
    that reads it (``a 6 nimmt! file: 'thegame nimmt check' reads it``);
    a file that names no game is left to the reader."""
    named = game_of(data)
    if named is None or named == game:
        return
    if named in GAMES:
        words, command = GAMES[named]
        raise InvalidInputError(
            f"a file of {words}, not of {GAMES[game][0]}: '{command}' reads it", where
        )
    known = ", ".join(GAMES)
    raise InvalidInputError(f'"game" is {named!r}: not a game of thegame ({known})', where)
