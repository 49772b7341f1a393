"""Ctrl-C as one more budget: stop with the best result so far.

The console script installs ``handler`` for SIGINT. While a search that
polls ``requested()`` runs (inside ``polling()``), the first Ctrl-C only
sets the flag: the search stops at its next budget check as if its time had
run out, and the command reports the best it found, then exits 130. A
second Ctrl-C, or one while nothing polls, raises ``KeyboardInterrupt`` at
once.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_state = {"requested": False, "polling": 0}


def requested() -> bool:
    """Whether Ctrl-C asked the running searches to stop."""
    return bool(_state["requested"])


def request() -> None:
    """Ask the running searches to stop (what the first Ctrl-C does)."""
    _state["requested"] = True


def reset() -> None:
    _state["requested"] = False


@contextlib.contextmanager
def polling() -> Iterator[None]:
    """Inside, the first Ctrl-C sets the flag instead of raising."""
    _state["polling"] += 1
    try:
        yield
    finally:
        _state["polling"] -= 1


def polled(func: F) -> F:
    """Run ``func`` inside ``polling()``: it checks ``requested()`` itself."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with polling():
            return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def handler(signum: int, frame: FrameType | None) -> None:
    """The SIGINT handler the console script installs."""
    if _state["polling"] and not _state["requested"]:
        _state["requested"] = True
        return
    raise KeyboardInterrupt
