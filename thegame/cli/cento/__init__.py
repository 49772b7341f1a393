"""``thegame cento``: Cento game 2 (rules Z1-Z6): deal, check, solve, hint,
analyze, explain, generate, daily and play, one module per pair of commands."""

from __future__ import annotations

import click

# The modules, not their commands, are the package's names: a command named
# like its module (``play``) would hide the module from ``import ...play``.
from . import analyze, daily, deal, play, solve


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cento() -> None:
    """Cento game 2, "Das große Ziffernspiel" (rules Z1-Z6).

    A deal is --seed N, --deck CARDS or --deal FILE; a record is a positional
    FILE. The guide: docs/games/cento.md; the rules: docs/rules/cento.md.
    """


for command in (
    deal.deal,
    deal.check,
    solve.solve,
    solve.explain,
    analyze.hint,
    analyze.analyze,
    daily.generate,
    daily.daily,
    play.play,
):
    cento.add_command(command)
