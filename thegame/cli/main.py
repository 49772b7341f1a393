"""The ``thegame`` command: one group; each command lives in its game's room.

The Game family's commands are top level (``thegame solve``); every other
game is a group of its own (``thegame mind ...``, ``thegame nimmt ...``, ``thegame cento ...``).
"""

from __future__ import annotations

import contextlib
import signal
import sys
from typing import NoReturn

import click

from .. import __version__
from ..analysis.the_game.rollout import backend as rollout_backend
from ..models import interrupt
from ..solver.the_game.ckernel import kernel_name
from ..solver.the_game.duel.ccore import backend as duel_backend
from .cento import cento
from .common import err
from .mind import mind
from .nimmt import nimmt
from .serve import serve
from .survey import survey
from .the_game.analyze import analyze, hint
from .the_game.check import check
from .the_game.daily import daily
from .the_game.deal import deal
from .the_game.explain import explain
from .the_game.generate import generate
from .the_game.play import play
from .the_game.solve import solve, solve_batch

DOCS = (
    "Documentation: the docs/ folder of the repository (docs/vocabulary.md: the words, "
    "numbers and JSON fields every game shares); 'mkdocs build' makes it a site."
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, epilog=DOCS)
# The version line names the search kernel in use: compiled C, or the
# Python reference.
@click.version_option(
    __version__,
    prog_name="thegame",
    message=f"%(prog)s %(version)s, search kernel: {kernel_name()}, "
    f"blind playouts: {rollout_backend()}, duel expansion: {duel_backend()}",
)
def cli() -> None:
    """Exact solver and puzzle analyzer for The Game and its family."""


for command in (deal, check, solve, solve_batch, explain, analyze, hint, daily, generate, play):
    cli.add_command(command)
for group in (mind, nimmt, cento, survey):
    cli.add_command(group)
cli.add_command(serve)


INTERRUPTED = 130  # 128 + SIGINT, as shells report it


def _exit(code: int) -> NoReturn:
    """Exit with ``code``; a Ctrl-C from here on is ignored.

    The answer is written by now. Python restores the default SIGINT action
    while it shuts down, so a late Ctrl-C would otherwise kill the process
    by signal after a complete answer (exit -2 instead of 0 or 130)."""
    with contextlib.suppress(OSError):  # a closed pipe: nothing more to say
        sys.stdout.flush()
    with contextlib.suppress(ValueError):  # not the main thread
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.exit(code)


def main() -> None:
    """The console script: click's usage errors become one line, exit 2;
    Ctrl-C stops a search with its best result so far and exits 130."""
    interrupt.reset()
    with contextlib.suppress(ValueError):  # not the main thread: no handler
        signal.signal(signal.SIGINT, interrupt.handler)
    try:
        code = cli.main(prog_name="thegame", standalone_mode=False)
    except (click.Abort, KeyboardInterrupt):
        err.print("interrupted", markup=False)
        _exit(INTERRUPTED)
    except click.ClickException as e:
        if type(e).__name__ == "NoArgsIsHelpError":
            click.echo(e.format_message())  # bare ``thegame``: the help
            _exit(0)
        err.print(f"error: {e.format_message()}", markup=False, soft_wrap=True)
        _exit(e.exit_code)
    if interrupt.requested():
        err.print(
            "interrupted: what is shown is the best found before Ctrl-C, not a verdict",
            markup=False,
        )
        _exit(INTERRUPTED)
    _exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
