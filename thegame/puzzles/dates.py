"""The day of a daily puzzle, read the same way in every game."""

from __future__ import annotations

import datetime as dt
import re

from ..models import InvalidInputError

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def parse_date(text: str) -> dt.date:
    """A ``YYYY-MM-DD`` date; anything else is an ``InvalidInputError``."""
    if not _DATE.fullmatch(text.strip()):
        raise InvalidInputError(f"{text!r} is not a date YYYY-MM-DD", "--date")
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError as e:
        raise InvalidInputError(f"{text!r} is not a valid date ({e})", "--date") from None


def today_utc() -> dt.date:
    return dt.datetime.now(dt.UTC).date()
