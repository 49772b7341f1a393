"""``thegame nimmt ...``: deal, check, solve, hint, analyze and play 6 nimmt!,
one module per pair of commands."""

from __future__ import annotations

import click

from ..lazy import LazyGroup

# Each command's module is imported when the command runs (``LazyGroup``).
COMMANDS = {
    "deal": ".nimmt.deal:deal",
    "check": ".nimmt.deal:check",
    "solve": ".nimmt.solve:solve",
    "hint": ".nimmt.analyze:hint",
    "analyze": ".nimmt.analyze:analyze",
    "play": ".nimmt.play:play",
}


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
def nimmt() -> None:
    """6 nimmt! (rules S1-S6): deals, records, the exact best response, play.

    A deal is --seed N, --deck CARDS or --deal FILE; a record is a positional
    FILE: one round (rule S6) or a whole game (its rounds, as 'play --save'
    writes). The guide: docs/games/nimmt.md; the rules: docs/rules/nimmt.md.
    """

