"""``thegame nimmt ...``: deal, check, solve, hint, analyze and play 6 nimmt!,
one module per pair of commands."""

from __future__ import annotations

import click

# The modules, not their commands, are the package's names: a command named
# like its module (``play``) would hide the module from ``import ...play``.
from . import analyze, deal, play, solve


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def nimmt() -> None:
    """6 nimmt! (rules S1-S6): deals, records, the exact best response, play.

    A deal is --seed N, --deck CARDS or --deal FILE; a record is a positional
    FILE: one round (rule S6) or a whole game (its rounds, as 'play --save'
    writes). The guide: docs/games/nimmt.md; the rules: docs/rules/nimmt.md.
    """


for command in (deal.deal, deal.check, solve.solve, analyze.hint, analyze.analyze, play.play):
    nimmt.add_command(command)
