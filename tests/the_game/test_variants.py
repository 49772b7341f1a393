"""The variant registry: every preset declared once with what it supports,
and every list of variants made from it (the server's, the survey's, the
puzzle maker's, the daily streams, the solve page's menu)."""

from __future__ import annotations

from pathlib import Path

import pytest

from thegame.models import InvalidInputError
from thegame.models.the_game import PRESETS, variants
from thegame.solver.the_game import ckernel

ROOT = Path(__file__).resolve().parents[2]


def test_every_preset_is_declared_once_and_agrees_with_its_rules() -> None:
    assert [v.name for v in variants.VARIANTS] == list(PRESETS)
    for v in variants.VARIANTS:
        assert v.duel == v.rules.is_duel, v.name
        assert v.commands == bool(v.rules.commands), v.name
        if not v.duel and ckernel.BUILT:  # every team variant is the compiled kernel's
            assert ckernel.covers(v.rules, 1), v.name


def test_the_lists_are_made_from_the_registry() -> None:
    from thegame.cli.survey import SOLVED
    from thegame.puzzles.the_game.daily import CLI_STREAMS, STREAMS
    from thegame.puzzles.the_game.make import VARIANTS
    from thegame.serve.inputs import SERVED

    assert SERVED == variants.names(served=True) == (
        "classic", "profi", "profi-hard", "on-fire", "extreme")  # fmt: skip
    assert SOLVED == ["classic", "profi", "profi-hard", "on-fire"]
    assert VARIANTS == ("classic", "profi", "on-fire", "extreme")
    assert STREAMS == ("extreme",) and CLI_STREAMS == ("extreme", "face-to-face")
    # No file keeps a list of its own.
    own = ("thegame/serve/inputs.py", "thegame/cli/survey.py",
           "thegame/puzzles/the_game/make.py", "thegame/serve/templates/solve.html")  # fmt: skip
    for path in own:
        assert '"profi-hard"' not in (ROOT / path).read_text(), path
        assert "<option>profi" not in (ROOT / path).read_text(), path


def test_the_solve_page_offers_the_served_variants() -> None:
    pytest.importorskip("jinja2")
    from thegame.serve.app import Settings
    from thegame.serve.base import Server

    html = Server(Settings(workers=1)).templates.get_template("solve.html").render(
        time_cap=30, variants=variants.names(served=True)
    )
    for name in variants.names(served=True):
        assert f"<option>{name}</option>" in html
    assert "<option>face-to-face</option>" not in html


def test_an_unknown_variant_names_the_known_ones() -> None:
    with pytest.raises(InvalidInputError, match="known: classic, profi, profi-hard"):
        variants.variant("nope")
    assert variants.variant("extreme").commands
