"""CLI plumbing every game's commands share: consoles, one-line errors, files, JSON."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console

from ..models.errors import InvalidInputError, ThegameError

# The option types live with the shared options; every game's CLI imports
# them from here too.
from .options import MEMORY, NODES, SECONDS, SEED

__all__ = [
    "MEMORY",
    "NODES",
    "SECONDS",
    "SEED",
    "err",
    "fail",
    "out",
    "print_json",
    "read_text",
    "searching",
    "user_errors",
    "write_atomic",
    "write_whole",
]

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

F = TypeVar("F", bound=Callable[..., Any])


def tell(message: str) -> None:
    """A message on stderr as whole lines: never wrapped at the terminal's
    width (a script reads the line; a long path must not split it)."""
    err.print(message, markup=False, highlight=False, soft_wrap=True)


def fail(message: str) -> None:
    """Print one line to stderr and exit 2 (bad input, illegal move)."""
    tell(f"error: {message}")
    sys.exit(2)


def user_errors(func: F) -> F:
    """Turn package errors into one line on stderr and exit code 2."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except ThegameError as e:
            fail(str(e))
        except BrokenPipeError:
            raise  # the reader went away: the console script ends quietly
        except OSError as e:
            fail(f"{e.filename or ''}: {e.strerror or e}")

    return wrapper  # type: ignore[return-value]


def read_text(path: str) -> str:
    """A user's file (``-``: stdin) as text; a byte-order mark at its start,
    which some editors write, is not part of it."""
    if path == "-":
        return sys.stdin.read().removeprefix("\ufeff")
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInputError("not a UTF-8 text file", path) from None


def print_json(data: Any) -> None:
    """One JSON document and a newline on stdout, whole even under Ctrl-C."""
    write_whole(json.dumps(data) + "\n")


def write_whole(text: str) -> None:
    """Write ``text`` to stdout to its last byte.

    Not through ``sys.stdout``'s buffer: when a signal handler runs after a
    partial write to a full pipe, CPython 3.11's buffered writer drops the
    rest of the buffer, and ``solve-batch`` under Ctrl-C printed half a
    JSON line. ``os.write`` reports each partial write, so this loop ends
    only when every byte is out."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # a test runner's stream
        click.echo(text, nl=False)
        return
    sys.stdout.flush()  # what was printed before goes first
    data = memoryview(text.encode("utf-8"))
    while data:
        data = data[os.write(fd, data) :]


def writable(path: str) -> None:
    """Refuse, naming ``path``, a file that cannot be written: a directory,
    or a folder that does not exist or is not writable. Called before the
    work, so that a typo fails at once and not after a long search."""
    target = Path(path)
    if target.is_dir():
        raise InvalidInputError("is a directory, not a file", path)
    parent = target.parent
    if not parent.is_dir():
        raise InvalidInputError(f"no folder {str(parent)!r} to write into", path)
    if not os.access(parent, os.W_OK | os.X_OK):
        raise InvalidInputError(f"cannot write into the folder {str(parent)!r}", path)


def write_atomic(path: str, text: str) -> None:
    """Write a whole file or nothing: a temporary file renamed into place.
    A failure names ``path`` (not the temporary file)."""
    writable(path)
    target = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    except OSError as e:
        raise InvalidInputError(f"cannot write: {e.strerror or e}", path) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        # mkstemp makes the file private; give it the usual permissions.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError):
            raise InvalidInputError(f"cannot write: {e.strerror or e}", path) from None
        raise


@contextlib.contextmanager
def searching(enabled: bool) -> Iterator[Callable[[int], None] | None]:
    """A live 'nodes searched' line on stderr while a search runs."""
    if not enabled or not err.is_terminal:
        yield None
        return
    with err.status("searching...") as status:

        def tick(nodes: int) -> None:
            status.update(f"searching... {nodes:,} nodes")

        yield tick
