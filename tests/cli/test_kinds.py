"""Every kind of game of The Game family has its class on the command line,
found from every preset the registry holds."""

from __future__ import annotations

from thegame.cli.the_game.kinds import KINDS, Duel, Team, kind_of
from thegame.models.the_game import GameKind, variants


def test_every_kind_has_its_class() -> None:
    assert set(KINDS) == set(GameKind)


def test_every_variant_finds_its_kind_by_the_registry() -> None:
    for v in variants.VARIANTS:
        kind = kind_of(v.rules)
        assert isinstance(kind, Duel) is v.duel
        assert isinstance(kind, Team)
        # 'explain' walks the team games; the duel has its own analysis.
        assert kind.explained is not v.duel
