"""Ctrl-C: stop every search, print no answer, exit 130.

The console script installs ``handler`` for SIGINT. While a search that
polls ``requested()`` runs (inside ``polling()``), the first Ctrl-C only
sets the flags: the search stops at its next budget check as if its time
had run out, and then the polled function raises ``KeyboardInterrupt``
instead of returning, so what it found is never taken for an answer. A
second Ctrl-C, or one while nothing polls, raises ``KeyboardInterrupt`` at
once.

``request()`` is the other way to stop the searches (a server worker whose
budget is spent): it sets ``requested()`` only, and the polled functions
return their best so far as usual. ``signalled()`` tells the two apart.
"""

from __future__ import annotations

import contextlib
import functools
import signal
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_state = {"requested": False, "polling": 0, "signalled": False}


def requested() -> bool:
    """Whether the running searches were asked to stop (Ctrl-C or ``request``)."""
    return bool(_state["requested"])


def signalled() -> bool:
    """Whether Ctrl-C arrived: then nothing found since may be an answer."""
    return bool(_state["signalled"])


def request() -> None:
    """Ask the running searches to stop with their best so far (not Ctrl-C)."""
    _state["requested"] = True


def reset() -> None:
    _state["requested"] = False
    _state["signalled"] = False


def check() -> None:
    """Raise ``KeyboardInterrupt`` if Ctrl-C arrived: call it before using a
    result that a search cut short may have produced."""
    if _state["signalled"]:
        raise KeyboardInterrupt


@contextlib.contextmanager
def polling() -> Iterator[None]:
    """Inside, the first Ctrl-C sets the flags instead of raising."""
    _state["polling"] += 1
    try:
        yield
    finally:
        _state["polling"] -= 1


def polled(func: F) -> F:
    """Run ``func`` inside ``polling()``: it checks ``requested()`` itself.
    After a Ctrl-C its result is dropped: ``KeyboardInterrupt`` instead."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with polling():
            result = func(*args, **kwargs)
        check()
        return result

    return wrapper  # type: ignore[return-value]


def handler(signum: int, frame: FrameType | None) -> None:
    """The SIGINT handler the console script installs."""
    first = not _state["signalled"]
    _state["signalled"] = True
    if _state["polling"] and first:
        _state["requested"] = True
        return
    raise KeyboardInterrupt


@contextlib.contextmanager
def deaf_children() -> Iterator[None]:
    """Start worker processes inside: they never hear Ctrl-C.

    A terminal's Ctrl-C reaches every process of its group; a worker that
    is still loading its modules when it arrives prints a traceback before
    its own handler can ignore it. SIGINT is blocked here, the block is
    inherited by the processes started inside, and a Ctrl-C that comes
    meanwhile is delivered to this process when the block ends."""
    try:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    except (AttributeError, OSError):  # no POSIX signal masks here
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
