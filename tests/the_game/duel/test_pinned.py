"""The duel solver on larger generalised duels (rule D7: cards 2..11 and 2..12,
hand 3) against verdicts the engine-only minimax (``duel_brute.pin``)
computed once and stored in ``data/duel_pinned.json`` (minutes each there,
so they are pinned, not recomputed)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.support import DATA
from thegame.models import Limit
from thegame.models.outcome import Verdict
from thegame.models.the_game import Deal, GameState, Record, replay
from thegame.solver.the_game.duel.api import decide

PINNED = json.loads((DATA / "duel_pinned.json").read_text())


@pytest.mark.parametrize(
    "entry", PINNED, ids=lambda e: f"{e['deal']['rules']}-{e['deal']['first']}"
)
def test_pinned_engine_verdicts(entry: dict[str, Any]) -> None:
    deal = Deal.from_dict(entry["deal"])
    res = decide(GameState(deal), Limit(nodes=500_000))
    assert res.verdict == (Verdict.WIN if entry["mover_wins"] else Verdict.LOSS)
    result = replay(Record(deal, tuple(res.turns)))
    assert result.legal and result.winner == res.winner
