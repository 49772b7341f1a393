"""The ``thegame`` command: one group, each command in its game's room,
imported when it runs (``lazy``). How the script ends on Ctrl-C (exit 130)
and on a closed pipe is told in docs/commands.md."""

from __future__ import annotations

# The C module under ``signal``: it loads at once, where ``signal`` builds
# its enums first (a Ctrl-C landed there on a loaded machine).
import _signal  # type: ignore[import-not-found]  # no stub: the C half of signal
import os
import sys

INTERRUPTED = 130  # 128 + SIGINT, as shells report it


def _early_interrupt(signum: int, frame: object) -> None:
    """Ctrl-C before ``main`` takes over: nothing is written yet, so end at
    once, in the words of any other interruption (no traceback)."""
    os.write(2, b"interrupted\n")
    os._exit(INTERRUPTED)


# Before anything heavy loads: a Ctrl-C while the imports run ends quietly.
# (Not under a test runner, which reads Ctrl-C itself.)
if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler and "pytest" not in sys.modules:
    try:  # noqa: SIM105 (contextlib is not loaded yet)
        _signal.signal(_signal.SIGINT, _early_interrupt)
    except ValueError:  # not the main thread
        pass

import contextlib  # noqa: E402
import importlib  # noqa: E402
import io  # noqa: E402
import signal  # noqa: E402
from typing import NoReturn  # noqa: E402

import click  # noqa: E402

from .. import __version__  # noqa: E402
from .lazy import LazyGroup, PipeClosed  # noqa: E402

DOCS = (
    "Documentation: the docs/ folder of the repository (docs/vocabulary.md: the words, "
    "numbers and JSON fields every game shares); 'mkdocs build' makes it a site."
)

# Every command and where it lives, imported only when it runs.
COMMANDS = {
    "deal": ".the_game.deal:deal",
    "check": ".the_game.check:check",
    "solve": ".the_game.solve:solve",
    "solve-batch": ".the_game.solve:solve_batch",
    "explain": ".the_game.explain:explain",
    "analyze": ".the_game.analyze:analyze",
    "hint": ".the_game.analyze:hint",
    "daily": ".the_game.daily:daily",
    "generate": ".the_game.generate:generate",
    "play": ".the_game.play:play",
    "mind": ".mind:mind",
    "nimmt": ".nimmt:nimmt",
    "cento": ".cento:cento",
    "survey": ".survey:survey",
    "serve": ".serve:serve",
    "bench": ".bench:bench",
}
# The commands that print as they go (a conversation, or one whole line or
# file per item): their stdout is not held back (see ``_Held``).
LIVE = {
    ("play",), ("generate",), ("solve-batch",), ("serve",), ("survey", "run"), ("survey", "blind"),
    ("mind", "play"), ("nimmt", "play"), ("cento", "play"), ("cento", "generate"),
}  # fmt: skip


def _compiled(module: str) -> bool:
    """Whether a compiled extension loads (it alone: not the solver around it)."""
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def version_line() -> str:
    """The version and the kernels in use, as ``ckernel.kernel_name``,
    ``rollout.backend``, ``ccore.backend`` and ``ctable.backend`` name them, found without
    importing the solvers (``tests/cli/test_startup.py`` holds them equal)."""
    forced = os.environ.get("THEGAME_KERNEL", "").strip().lower() == "python"
    if forced:
        kernel = "python (THEGAME_KERNEL=python)"
    elif not _compiled("thegame.solver.the_game._ckernel"):
        kernel = "python (the C extension is not built)"
    else:
        kernel = "c (compiled, classic family and Extreme, with the Python kernel as reference)"
    off = os.environ.get("THEGAME_ROLLOUT", "").lower() == "python"
    rollout = "c" if not off and _compiled("thegame.analysis.the_game._crollout") else "python"
    duel = "c" if not forced and _compiled("thegame.solver.the_game.duel._cduel") else "python"
    cento = "c" if not forced and _compiled("thegame.solver.cento._ctable") else "python"
    return (
        f"thegame {__version__}, search kernel: {kernel}, "
        f"blind playouts: {rollout}, duel expansion: {duel}, cento table search: {cento}"
    )


def _version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """``--version``: the version and which kernels are compiled."""
    if not value or ctx.resilient_parsing:
        return
    click.echo(version_line())
    ctx.exit()


@click.group(
    cls=LazyGroup,
    lazy=COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog=DOCS,
)
# The version line names the search kernel in use: compiled C, or the
# Python reference.
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_version,
    help="Show the version and the kernels in use, and exit.",
)
def cli() -> None:
    """Exact solver and puzzle analyzer for The Game and its family."""


class _Held(io.StringIO):
    """stdout held until the command ends: printed whole then, dropped on
    Ctrl-C. It answers ``isatty`` as the real stdout does, so colours and
    widths are what they would be."""

    def __init__(self, real: io.TextIOBase) -> None:
        super().__init__()
        self.real = real

    def isatty(self) -> bool:
        return self.real.isatty()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.real, "encoding", None) or "utf-8"


def _command_path(args: list[str]) -> tuple[str, ...]:
    """The command (and subcommand) named on the command line."""
    words = [a for a in args if not a.startswith("-")][:2]
    return tuple(words)


def _live(args: list[str]) -> bool:
    path = _command_path(args)
    return path[:1] in LIVE or path[:2] in LIVE


def _broken_pipe() -> NoReturn:
    """The reader of stdout went away: end as a Unix tool does, by SIGPIPE."""
    with contextlib.suppress(OSError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)  # nothing left for Python to flush at exit
    if "multiprocessing.resource_tracker" in sys.modules:
        # After a worker pool: exit as SIGPIPE would, through the shutdown
        # whose finalizers stop the workers and release their semaphores.
        sys.exit(128 + signal.SIGPIPE)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGPIPE)
    os._exit(128 + signal.SIGPIPE)  # where SIGPIPE cannot end a process


def _write_whole(text: str) -> None:
    """``text`` on stdout to its last byte (as ``common.write_whole``, which
    loads rich: start-up keeps to click)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # a test runner's stream
        click.echo(text, nl=False)
        return
    sys.stdout.flush()
    data = memoryview(text.encode(sys.stdout.encoding or "utf-8", "replace"))
    while data:
        data = data[os.write(fd, data) :]


def _exit(code: int, held: _Held | None = None) -> NoReturn:
    """Print what was held, whole, and exit with ``code``; a Ctrl-C from
    here on is ignored.

    The answer is complete by now. Python restores the default SIGINT action
    while it shuts down, so a late Ctrl-C would otherwise kill the process
    by signal after a complete answer (exit -2 instead of 0)."""
    with contextlib.suppress(ValueError):  # not the main thread
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        if held is not None:
            sys.stdout = held.real  # type: ignore[assignment]
            _write_whole(held.getvalue())
        sys.stdout.flush()
    except BrokenPipeError:
        _broken_pipe()
    except OSError:
        pass
    sys.exit(code)


def _interrupted(held: _Held | None) -> NoReturn:
    """Ctrl-C: no answer, one word on stderr, exit 130."""
    with contextlib.suppress(ValueError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if held is not None:
        sys.stdout = held.real  # type: ignore[assignment]
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()  # the whole lines a live command printed
    with contextlib.suppress(OSError):
        sys.stderr.write("interrupted\n")
        sys.stderr.flush()
    # Not under a test runner calling ``main`` in-process, nor after worker
    # pools (their semaphores are released by the shutdown's finalizers).
    if "pytest" not in sys.modules and "multiprocessing.resource_tracker" not in sys.modules:
        # Everything is cleaned up by now (temporary files removed, rows
        # committed): skip the interpreter's shutdown, which took a second
        # more with OR-Tools loaded.
        os._exit(INTERRUPTED)
    sys.exit(INTERRUPTED)


def main() -> None:
    """The console script: click's usage errors become one line, exit 2;
    Ctrl-C stops any search and exits 130 with no answer printed."""
    from ..models import interrupt

    interrupt.reset()
    with contextlib.suppress(ValueError):  # not the main thread: no handler
        signal.signal(signal.SIGINT, interrupt.handler)
    held = None
    if not _live(sys.argv[1:]) and isinstance(sys.stdout, io.TextIOBase):
        held = _Held(sys.stdout)
        sys.stdout = held
    try:
        try:
            code = cli.main(prog_name="thegame", standalone_mode=False)
        except click.ClickException as e:
            if type(e).__name__ == "NoArgsIsHelpError":
                click.echo(e.format_message())  # bare ``thegame``: the help
                _exit(0, held)
            if held is not None:
                sys.stdout = held.real  # type: ignore[assignment]
                held = None  # an error is never half an answer: drop it
            from .common import tell

            tell(f"error: {e.format_message()}")
            _exit(e.exit_code)
        if interrupt.signalled():
            raise KeyboardInterrupt
    except (click.Abort, KeyboardInterrupt):
        _interrupted(held)
    except (BrokenPipeError, PipeClosed):
        _broken_pipe()
    except Exception:
        # A Ctrl-C that lands inside a library (a compiled module loading
        # fails with ImportError): what it broke is the interruption's.
        if interrupt.signalled():
            _interrupted(held)
        raise
    except SystemExit as e:  # a command's own exit: 2 bad input, 130 said by the command
        code = e.code if isinstance(e.code, int) else 1
        if code == INTERRUPTED:  # the command said what was kept: nothing more
            _exit(code)
        if interrupt.signalled():
            _interrupted(held)
        _exit(code, held)
    _exit(code if isinstance(code, int) else 0, held)


if __name__ == "__main__":
    main()
