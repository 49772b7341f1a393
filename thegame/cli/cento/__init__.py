"""``thegame cento``: Cento game 2 (rules Z1-Z6): deal, check, solve, hint,
analyze, explain, generate, daily and play, one module per pair of commands."""

from __future__ import annotations

import click

from ..lazy import LazyGroup

# Each command's module is imported when the command runs (``LazyGroup``).
COMMANDS = {
    "deal": ".cento.deal:deal",
    "check": ".cento.deal:check",
    "solve": ".cento.solve:solve",
    "explain": ".cento.solve:explain",
    "hint": ".cento.analyze:hint",
    "analyze": ".cento.analyze:analyze",
    "generate": ".cento.daily:generate",
    "daily": ".cento.daily:daily",
    "play": ".cento.play:play",
}


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
def cento() -> None:
    """Cento game 2, "Das große Ziffernspiel" (rules Z1-Z6).

    A deal is --seed N, --deck CARDS or --deal FILE; a record is a positional
    FILE. The guide: docs/games/cento.md; the rules: docs/rules/cento.md.
    """

