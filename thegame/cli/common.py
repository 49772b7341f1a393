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
from ..models.seeds import MAX_SEED

# Shared option types: a time budget must be positive (0 would decide
# nothing), a seed fits SplitMix64's 64 bits (a larger one would wrap).
SECONDS = click.FloatRange(min=0, min_open=True)
SEED = click.IntRange(min=0, max=MAX_SEED)
# --memory, in MiB (``Limit.memory``): the compiled tables index their
# dominance chains with 32-bit integers, which 128 GiB keeps within range.
MEMORY = click.IntRange(min=16, max=128 << 10)

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str) -> None:
    """Print one line to stderr and exit 2 (bad input, illegal move)."""
    err.print(f"error: {message}", markup=False, soft_wrap=True)
    sys.exit(2)


def user_errors(func: F) -> F:
    """Turn package errors into one line on stderr and exit code 2."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except ThegameError as e:
            fail(str(e))
        except OSError as e:
            fail(f"{e.filename or ''}: {e.strerror or e}")

    return wrapper  # type: ignore[return-value]


def read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
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


def write_atomic(path: str, text: str) -> None:
    """Write a whole file or nothing: a temporary file renamed into place."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(dir=target.parent or ".", prefix=f".{target.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        # mkstemp makes the file private; give it the usual permissions.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
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
