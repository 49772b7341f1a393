"""The compiled search's dead memo when it is full: it replaces entries in
two levels (hashtable.h's ``tab_keep``: a deep level kept by the nodes a
proof took, a recent one always replaced) and the search goes on, with the
same answers as with room to spare. (With room the compiled search is node
for node the Python one, which has no table bound: test_ckernel.py.)"""

from __future__ import annotations

import random
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.the_game import examples
from thegame.models import Limit
from thegame.models.the_game import Deal, GameState, get_rules
from thegame.solver.the_game import _ckernel, api, ckernel
from thegame.solver.the_game.ckernel import BUILT
from thegame.solver.the_game.kernel import Kernel
from thegame.solver.the_game.solution import PositionResult

pytestmark = pytest.mark.skipif(not BUILT, reason="the C extension is not built")

TIGHT_BYTES = 1 << 17  # tables of 4,096 slots: some 3,700 entries each


def reduced_deal(seed: int, high: int) -> Deal:
    """Cards 2..high, one pile each way, hand 4, two plays a turn: from 36
    cards up, many are lost, with proofs of 10^4 to 10^5 nodes."""
    rules = get_rules("classic").with_changes(
        high=high, hand_sizes=(4,) * 5, min_play=2, asc_piles=1, desc_piles=1
    )
    deck = list(rules.cards)
    random.Random(seed).shuffle(deck)
    return Deal.create(rules, 1, [deck], first=1)


def both(
    state: GameState, monkeypatch: pytest.MonkeyPatch
) -> tuple[PositionResult, PositionResult]:
    """``search_position`` with the default memory and with tight tables."""
    roomy = api.search_position(state, Limit(nodes=3_000_000))
    monkeypatch.setattr(ckernel, "MEMO_BYTES", TIGHT_BYTES)
    tight = api.search_position(state, Limit(nodes=3_000_000))
    monkeypatch.undo()
    return roomy, tight


@pytest.mark.parametrize("seed", [2, 3])
def test_a_full_memo_gives_the_same_verdict_and_fewest_cards_left(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lost deal whose proof fills the tight tables many times over: the
    same verdict and the same fewest cards left, proven, at the cost of
    re-search."""
    state = GameState(reduced_deal(seed, 40))
    roomy, tight = both(state, monkeypatch)
    assert roomy.verdict == tight.verdict == "loss"
    assert roomy.cards_left == tight.cards_left
    monkeypatch.setattr(ckernel, "MEMO_BYTES", TIGHT_BYTES)
    _, dead = ckernel.search(Kernel.from_state(state), Limit(nodes=3_000_000), None)
    assert dead.replaced > 0  # type: ignore[attr-defined]


@pytest.mark.slow
@settings(max_examples=examples(12), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), high=st.integers(30, 44))
def test_full_memos_on_drawn_deals(seed: int, high: int) -> None:
    """Hypothesis: the same verdicts and fewest cards left either way."""
    with pytest.MonkeyPatch.context() as mp:
        roomy, tight = both(GameState(reduced_deal(seed, high)), mp)
    assert roomy.verdict == tight.verdict
    assert roomy.cards_left == tight.cards_left


def records(keys: range, value: int) -> bytes:
    """DeadSet.dump's records of a two-word key shape: two words and a value."""
    return b"".join(struct.pack("<QQi", 0x9E37 * k + 1, k, value) for k in keys)


def kept(dead: _ckernel.DeadSet) -> dict[int, int]:
    """The entries of a DeadSet's dump: second key word -> value."""
    raw = dead.dump()
    return {k: v for _, k, v in struct.iter_unpack("<QQi", raw)}


def test_the_full_table_keeps_costly_entries_and_takes_fresh_cheap_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Fill a table with costly proofs, then put in ten times as many cheap
    ones: the deep level keeps nearly all the costly ones, and the recent
    level still takes the newest cheap ones (one level by value alone would
    take none of them; always replacing would keep none of the costly)."""
    monkeypatch.setattr(ckernel, "MEMO_BYTES", TIGHT_BYTES)
    dead = ckernel.new_dead_set(Kernel.from_state(GameState(reduced_deal(2, 40))))
    dead.load(records(range(1, 8192), 20))
    assert len(dead.dump()) % 20 == 0  # a two-word key shape
    full = kept(dead)
    assert 0.85 * 4096 < len(full) < 4096  # full: a table stops growing at 90%
    dead.load(records(range(8192, 50_000), 1))
    after = kept(dead)
    assert len(after) == len(full)  # slots are taken in place
    # A recent slot in every window of a probe path: some three slots in ten
    still = sum(1 for k in full if after.get(k) == 20)
    newest = sum(1 for k in range(49_000, 50_000) if k in after)
    assert still > 0.6 * len(full)
    assert newest > 300
    assert set(after.values()) == {1, 20}  # the level's mark is not in a dump
