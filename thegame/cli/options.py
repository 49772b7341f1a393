"""The options every game's commands share, defined once (one name, one type,
one help text): the budget as one ``Limit``, ``--json``, a deal's source, a
record ``FILE``, ``--sample-seed``. Their ranges: docs/commands.md."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

import click

from ..models.outcome import MAX_MEMORY_MIB, MAX_NODES, MAX_SECONDS, MIN_MEMORY_MIB, Backend, Limit
from ..models.seeds import MAX_SEED

F = TypeVar("F", bound=Callable[..., Any])


class FiniteSeconds(click.FloatRange):
    """Seconds: a finite number above 0 and at most ``MAX_SECONDS`` (0 would
    decide nothing; ``inf`` would never end and ``nan`` compares false with
    every clock, so it passes a plain range). A range type, so that every
    option of seconds shows its range in its help."""

    name = "seconds"

    def __init__(self) -> None:
        super().__init__(min=0, max=MAX_SECONDS, min_open=True)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or not 0 < seconds <= MAX_SECONDS:
            self.fail(
                f"{value!r} is not a number of seconds above 0 and at most {MAX_SECONDS:.0e}",
                param,
                ctx,
            )
        return seconds

    def _describe_range(self) -> str:
        return f"0<x<={MAX_SECONDS:.0e}"


# Shared option types: seconds as above; a seed fits SplitMix64's 64 bits
# (a larger one would wrap); nodes count from 1.
SECONDS = FiniteSeconds()
SEED = click.IntRange(min=0, max=MAX_SEED)
NODES = click.IntRange(min=1, max=MAX_NODES)
# --jobs: worker processes, at least one.
JOBS = click.IntRange(min=1)
# --memory, in MiB (``Limit.memory``): the compiled tables index their
# dominance chains with 32-bit integers, which 128 GiB keeps within range.
MEMORY = click.IntRange(min=MIN_MEMORY_MIB, max=MAX_MEMORY_MIB)

TIME_HELP = "Seconds before the answer is 'unknown' (the best found so far)."
NODES_HELP = "Search nodes before the answer is 'unknown' (the best found so far)."
MEMORY_HELP = (
    "MiB for the search's tables of proven positions (default 768: a worker stays "
    "under 1 GiB); more lets a deep loss proof go further."
)


def _apply(func: F, decorators: Sequence[Callable[[F], F]]) -> F:
    for deco in reversed(decorators):
        func = deco(func)
    return func


def limit_options(
    time_default: float | None = 60.0,
    *,
    time_help: str = TIME_HELP,
    nodes: bool = True,
    nodes_help: str = NODES_HELP,
    memory: bool = False,
    memory_help: str = MEMORY_HELP,
) -> Callable[[F], F]:
    """``--time-limit`` (and ``--node-limit``, ``--memory`` when asked for),
    handed to the command as one keyword argument ``limit: Limit``.

    ``time_default`` None: no time limit unless one is given."""

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            limit = Limit(
                kwargs.pop("time_limit"),
                kwargs.pop("node_limit", None),
                None,
                kwargs.pop("memory", None),
            )
            return func(*args, limit=limit, **kwargs)

        decorators: list[Callable[[F], F]] = [
            click.option(
                "--time-limit",
                type=SECONDS,
                default=time_default,
                show_default=time_default is not None,
                help=time_help,
            )
        ]
        if nodes:
            decorators.append(
                click.option("--node-limit", type=NODES, default=None, help=nodes_help)
            )
        if memory:
            decorators.append(
                click.option("--memory", type=MEMORY, default=None, metavar="MIB", help=memory_help)
            )
        return _apply(cast(F, wrapper), decorators)

    return decorate


def jobs_option(help: str, default: int | None = None) -> Callable[[F], F]:
    """``--jobs N`` (``JOBS``), passed as ``jobs``."""
    return click.option("--jobs", type=JOBS, default=default, metavar="N",
                        show_default=default is not None, help=help)  # fmt: skip


def json_option(
    help: str = "Print the result as JSON (one document on stdout).",
) -> Callable[[F], F]:
    """``--json``, passed as ``as_json``."""
    return click.option("--json", "as_json", is_flag=True, help=help)


def record_argument(required: bool = True, help_name: str = "FILE") -> Callable[[F], F]:
    """The record a command reads: the positional ``FILE``, passed as
    ``record_file`` ('-' reads stdin)."""
    return click.argument("record_file", metavar=help_name if required else f"[{help_name}]",
                          required=required)  # fmt: skip


def deal_source_options(
    seed_help: str = "Deal by seed (the same deal on every machine).",
    deck_help: str = 'The deck in deal order, "c1 c2 ..." (spaces or commas).',
    deal_help: str = "A deal file ('-': stdin).",
    deck: bool = True,
) -> Callable[[F], F]:
    """``--seed N`` / ``--deck`` / ``--deal FILE``: where a deal comes from,
    passed as ``seed``, ``deck`` (when offered) and ``deal_file``."""
    decorators: list[Callable[[F], F]] = [click.option("--seed", type=SEED, help=seed_help)]
    if deck:
        decorators.append(click.option("--deck", metavar="CARDS", help=deck_help))
    decorators.append(click.option("--deal", "deal_file", metavar="FILE", help=deal_help))

    def decorate(func: F) -> F:
        return _apply(func, decorators)

    return decorate


def sample_seed_option(
    default: int = 0, help: str = "Seed of the random samples (the same seed, the same figures)."
) -> Callable[[F], F]:
    """``--sample-seed``: the seed of a sampling, passed as ``sample_seed``."""
    return click.option(
        "--sample-seed", "sample_seed", type=SEED, default=default, show_default=True, help=help
    )


def choice_option(
    name: str,
    choices: Sequence[str],
    help: str,
    default: str | None = None,
    dest: str | None = None,
) -> Callable[[F], F]:
    """An option whose values are listed in the help (``--variant [classic|profi|...]``)."""
    decls = [name] if dest is None else [name, dest]
    return click.option(
        *decls,
        type=click.Choice(list(choices)),
        default=default,
        show_default=default is not None,
        help=help,
    )


def backend_option(help: str) -> Callable[[F], F]:
    """``--backend local|ray``, passed on as a ``Backend``."""
    return click.option(
        "--backend",
        type=click.Choice([b.value for b in Backend]),
        default=Backend.LOCAL.value,
        show_default=True,
        callback=lambda _ctx, _param, value: Backend(value),
        help=help,
    )


def save_option(
    help: str = "Write the game as a record ('check' and 'analyze' read it).",
) -> Callable[[F], F]:
    """``--save FILE``: where a command writes a record, passed as ``save_file``."""
    return click.option("--save", "save_file", metavar="FILE", help=help)
