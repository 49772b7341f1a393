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
