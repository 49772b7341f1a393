"""The compiled proof search (``duel/csrc/solver.c``, ``dfpn.c``:
``pns.ProofNumberSearch`` with ``native`` on) against the Python reference
(``_mid`` and ``search.and_or_wins`` over ``nodes.DuelNodes``): on small
generalised duels and near the end of printed ones, the same positions
opened in the same order, the same values stored in the same order, the
same verdicts, statistics, tables of proven positions and of numbers, by
df-pn and by the depth-first search, also when the numbers table is cleared
again and again and when the budget cuts the search."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.deals import small_generalised_duels
from tests.support.the_game import DUEL, examples, turn_starts
from thegame.models.outcome import OutOfBudget
from thegame.models.the_game import Deal, get_rules
from thegame.solver.the_game.duel import ccore
from thegame.solver.the_game.duel.pns import EPSILON, Init, ProofNumberSearch
from thegame.solver.the_game.duel.position import DuelGame, Pos

pytestmark = pytest.mark.skipif(
    not ccore.BUILT, reason="the _cduel extension is not built (no C compiler)"
)


class Recorded(ProofNumberSearch):
    """The reference, writing down every position opened and every value
    stored, in order (the compiled search keeps the same trace itself)."""

    def __init__(self, game: DuelGame, nodes: int) -> None:
        super().__init__(game, nodes)
        self.log: list[tuple[str, Pos, bool | None]] = []

    def _open(self, pos: Pos) -> bool | list[Pos]:
        if not self.native:
            self.log.append(("open", pos, None))
        return super()._open(pos)

    def _store(self, pos: Pos, value: bool) -> None:
        if not self.native:
            self.log.append(("store", pos, value))
        super()._store(pos, value)


# The options: the default, without the 1 + epsilon trick, with the
# cards-left evaluation.
OPTIONS = [(EPSILON, Init.RANK), (0.0, Init.RANK), (EPSILON, Init.EVAL)]


def run(
    game: DuelGame,
    pos: Pos,
    nodes: int,
    native: bool,
    numbers_limit: int | None = None,
    options: tuple[float, Init] = OPTIONS[0],
    depth_first: bool = False,
) -> tuple[object, ...]:
    search = Recorded(game, nodes)
    assert search.native  # the compiled search is the default where it is built
    search.native = native
    search.epsilon, search.init = options
    search.depth_first = depth_first
    if numbers_limit is not None:
        search.numbers_limit = numbers_limit
    if native:
        search.tt.trace(True)  # type: ignore[attr-defined]
    try:
        value: bool | None = search.wins(pos)
    except OutOfBudget:
        value = None
    log = search.tt.trace(False) if native else search.log  # type: ignore[attr-defined]
    kept = search.numbers_kept()
    assert numbers_limit is None or len(kept) <= numbers_limit
    return value, search.stats, log, dict(search.tt.items()), kept


@settings(max_examples=examples(40), deadline=None)
@given(
    small_generalised_duels(),
    st.sampled_from([None, 2, 5]),
    st.sampled_from(OPTIONS),
    st.booleans(),
)
def test_the_compiled_search_visits_what_the_reference_visits(
    deal: Deal, numbers_limit: int | None, options: tuple[float, Init], depth_first: bool
) -> None:
    game = DuelGame.of(deal)
    pos = game.start(deal.first or 1)
    native = run(game, pos, 5000, True, numbers_limit, options, depth_first)
    assert native == run(game, pos, 5000, False, numbers_limit, options, depth_first)


def test_settled_searches_match_and_some_keep_numbers() -> None:
    # Not every small duel is settled at the first look: these need visits,
    # keep unsettled numbers, and end the same on both backends.
    settled = kept = 0
    for seed in range(1, 9):
        deal = Deal.from_seed(seed, DUEL.with_changes(high=16, hand_sizes=(3, 3)), 2)
        game = DuelGame.of(deal)
        native = run(game, game.start(1), 20_000, True)
        assert native == run(game, game.start(1), 20_000, False)
        settled += native[0] is not None and native[1].nodes > 20  # type: ignore[attr-defined]
        kept += bool(native[4])
    assert settled >= 4 and kept >= 2


@pytest.mark.parametrize("seed, back", [(1, 6), (2, 5), (3, 7)])
@pytest.mark.parametrize("options", OPTIONS)
def test_the_printed_game_near_its_end_matches(
    seed: int, back: int, options: tuple[float, Init]
) -> None:
    deal = Deal.from_seed(seed, get_rules("face-to-face"), 2)
    game = DuelGame.of(deal)
    starts = [game.from_state(s) for s, _plays in turn_starts(deal, seed)]
    for pos, nodes in ((starts[-back], 3000), (starts[0], 150)):
        for depth_first in (False, True):
            assert run(game, pos, nodes, True, None, options, depth_first) == run(
                game, pos, nodes, False, None, options, depth_first
            )


def test_the_options_change_the_search() -> None:
    # Each option steers df-pn elsewhere (else the equality above would
    # check one search three times) and the verdict stays the same.
    for seed, back in ((2, 5), (3, 7)):
        deal = Deal.from_seed(seed, get_rules("face-to-face"), 2)
        game = DuelGame.of(deal)
        pos = [game.from_state(s) for s, _plays in turn_starts(deal, seed)][-back]
        runs = [run(game, pos, 3000, True, None, o) for o in OPTIONS]
        assert runs[0][0] is not None
        for other in runs[1:]:
            assert other[0] == runs[0][0] and other[2] != runs[0][2]


def test_the_engine_reads_the_compiled_table() -> None:
    # The table of the compiled search is the search's ``tt``: the
    # playouts, the lines and the engine read it where it is.
    deal = Deal.from_seed(3, get_rules("face-to-face"), 2)
    game = DuelGame.of(deal)
    pos = [game.from_state(s) for s, _plays in turn_starts(deal, 3)][-7]
    search = ProofNumberSearch(game, 3000)
    won = search.wins(pos)
    assert search.tt.get(pos) is won and pos in search.tt and len(search.tt) > 1
    assert search.line(pos)
    winner, _state, turns = search.compiled.playout(pos, search.tt, 7)  # type: ignore[union-attr]
    assert turns == 0 and winner == (pos[8] if won else 1 - pos[8])


def test_positions_beyond_the_masks_use_the_reference() -> None:
    game = DuelGame.of(Deal.from_seed(1, DUEL.with_changes(high=64, hand_sizes=(3, 3)), 2))
    assert not ProofNumberSearch(game).native


def test_a_request_to_stop_ends_the_compiled_search_within_a_check() -> None:
    # The budget's progress runs every 64 nodes; Ctrl-C's request (or a
    # progress that asks) stops the search there, with no answer.
    from thegame.models import interrupt

    deal = Deal.from_seed(1, get_rules("face-to-face"), 2)
    game = DuelGame.of(deal)
    pos = game.start(1)  # the deal's start: undecided for hours
    for depth_first in (False, True):
        search = ProofNumberSearch(game)
        search.depth_first = depth_first
        heard: list[int] = []

        def progress(nodes: int, heard: list[int] = heard) -> None:
            heard.append(nodes)
            if nodes >= 640:
                interrupt.request()

        search.progress = progress
        try:
            with pytest.raises(OutOfBudget):
                search.wins(pos)
        finally:
            interrupt.reset()
        assert heard[:2] == [64, 128] and search.stats.nodes == 640


def test_other_bound_sizes_match_and_change_the_search() -> None:
    # The bounds' sizes reach the compiled search: with races asked of
    # more cards and with more nodes, both backends still agree, and the
    # search is not the default one.
    from thegame.solver.the_game.duel.nodes import BoundSizes

    deal = Deal.from_seed(2, get_rules("face-to-face"), 2)
    game = DuelGame.of(deal)
    pos = [game.from_state(s) for s, _plays in turn_starts(deal, 2)][-5]
    runs = []
    for sizes in (BoundSizes(), BoundSizes(24, 2000, 24, 500, 1000)):
        pair = []
        for native in (True, False):
            search = ProofNumberSearch(game, 3000)
            search.native = native
            search.sizes = sizes
            search.wins(pos)
            pair.append((search.stats, dict(search.tt.items())))
        assert pair[0] == pair[1]
        runs.append(pair[0])
    assert runs[0][0] != runs[1][0]
