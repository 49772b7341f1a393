"""``thegame cento``: Cento game 2 (rules Z1-Z6): deal, check, solve, hint,
analyze, explain, generate, daily and play, one module per pair of commands."""

from __future__ import annotations

import click

from .analyze import analyze, hint
from .daily import daily, generate
from .deal import check, deal
from .play import play
from .solve import explain, solve


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cento() -> None:
    """Cento game 2, "Das große Ziffernspiel" (rules Z1-Z6).

    A deal is --seed N, --deck CARDS or --deal FILE; a record is a positional
    FILE. The guide: docs/games/cento.md; the rules: docs/rules/cento.md.
    """


for command in (deal, check, solve, hint, analyze, explain, generate, daily, play):
    cento.add_command(command)
