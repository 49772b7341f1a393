"""Perft regression: the number of positions reachable in exactly k plays from
pinned deals, recomputed and compared with tests/data/perft.txt (written by
tests/data/make_perft.py; see there for the exact definition)."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

import pytest

from tests.support import DATA
from thegame.models.the_game import Deal


def _load_generator() -> ModuleType:
    path = DATA / "make_perft.py"
    spec = importlib.util.spec_from_file_location("make_perft", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_perft"] = module
    spec.loader.exec_module(module)
    return module


GEN = _load_generator()
ENTRIES = GEN.read_file()


def test_perft_file_covers_every_pinned_deal() -> None:
    assert [ident for ident, _, _ in ENTRIES] == [ident for ident, _, _ in GEN.DEALS]
    for _, _, pairs in ENTRIES:
        assert [k for k, _ in pairs] == list(range(len(pairs)))
        assert pairs[0] == (0, 1)


@pytest.mark.parametrize(("ident", "text", "pairs"), ENTRIES, ids=[e[0] for e in ENTRIES])
def test_perft_counts(ident: str, text: str, pairs: list[tuple[int, int]]) -> None:
    deal = Deal.from_text(text)
    # The stored text is the pinned deal (seeded shuffle and text form stable).
    make = {i: m for i, m, _ in GEN.DEALS}[ident]
    assert make() == deal
    assert deal.to_text() == text
    depth = pairs[-1][0]
    assert GEN.perft(deal, depth) == [n for _, n in pairs]


def test_perft_line_format_round_trips() -> None:
    ident, deal_text, pairs = ENTRIES[0]
    counts = [n for _, n in pairs]
    line = GEN.format_line(ident, Deal.from_text(deal_text), counts)
    assert GEN.parse_line(line) == (ident, deal_text, pairs)
