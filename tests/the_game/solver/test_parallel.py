"""The split search (``parallel``): the verdicts of the brute force, on one
worker and on two; a search cut by its node budget, by Ctrl-C or by a kill
goes on from its checkpoint to the same verdict, with nearly the nodes of
an uncut run."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings

from tests.support.brute import Brute
from tests.support.deals import small_deals
from thegame.models import InvalidInputError, Limit, Verdict, interrupt
from thegame.models.the_game import Deal, GameState, get_rules, small_rules
from thegame.solver.the_game import beam, ckernel
from thegame.solver.the_game.parallel import SplitSearch, read_checkpoint, solve_split
from thegame.solver.the_game.split_units import Unit, UnitKind

pytestmark = pytest.mark.skipif(not ckernel.BUILT, reason="the C extension is not built")


def lost_deal(i: int, high: int = 50) -> Deal:
    """A generalised solo deal (cards 2..high, hand 4, two a turn): most lose."""
    rules = small_rules(high=high, hand=4, min_play=2)
    deck = list(rules.cards)
    random.Random(i).shuffle(deck)
    return Deal.create(rules, 1, [deck], first=1)


@settings(max_examples=40, deadline=None)
@given(deal=small_deals())
def test_the_split_search_decides_as_the_brute_force(deal: Deal) -> None:
    # Units of 200 nodes: nearly every deal is split into many.
    sol = solve_split(deal, Limit(nodes=5_000_000), unit_nodes=200)
    wins = any(Brute().wins_from(GameState(deal, first=f)) for f in deal.starting_players())
    assert sol.verdict == (Verdict.WIN if wins else Verdict.LOSS)
    if sol.verdict == Verdict.LOSS:
        assert sol.to_dict()["proof_kind"] == "search"


def test_two_workers_share_the_work_and_agree() -> None:
    deal = lost_deal(5)  # about a million nodes: each worker gets many units
    one = solve_split(deal, Limit(), jobs=1, unit_nodes=20_000)
    two = solve_split(deal, Limit(), jobs=2, unit_nodes=20_000)
    deaf = solve_split(deal, Limit(), jobs=2, unit_nodes=20_000, share_bits=0)
    assert one.verdict == two.verdict == deaf.verdict == Verdict.LOSS
    workers = two.details["split"]["workers"]
    assert len(workers) == 2 and all(w["units"] > 0 for w in workers.values())
    # each worker tells the other what it proved: close to one worker's
    # nodes. (Without sharing each proves again some of what the other did,
    # but how much depends on when the units ran: on a loaded machine the
    # two counts can meet, so the test does not order them.)
    assert two.details["split"]["shared_bytes"] > 0
    assert deaf.details["split"]["shared_bytes"] == 0
    assert one.nodes * 0.8 < two.nodes < 1.3 * one.nodes


def test_a_node_budget_covers_every_worker() -> None:
    sol = solve_split(lost_deal(1), Limit(nodes=30_000), jobs=2, unit_nodes=2000)
    assert sol.verdict == Verdict.UNKNOWN
    assert sol.nodes <= 30_000


def test_a_search_resumed_run_after_run_reaches_the_same_verdict(tmp_path: Path) -> None:
    deal = lost_deal(3)
    # a budget short of the long one, as the cut runs': the same beams
    # (the widest and the broad ones run only in long budgets)
    unit = 500
    whole = solve_split(deal, Limit(nodes=100_000_000), unit_nodes=unit)
    path = str(tmp_path / "search.json")
    runs = 0
    while True:
        runs += 1
        sol = solve_split(deal, Limit(nodes=whole.nodes // 3), checkpoint=path, unit_nodes=unit)
        if sol.verdict != Verdict.UNKNOWN:
            break
        assert runs < 10
    assert runs >= 3
    assert sol.verdict == whole.verdict == Verdict.LOSS
    assert sol.details["split"]["runs"] == runs
    # every run's nodes together: the uncut run's, and at most a few units
    # each cut searched again (with the table of dead turn starts saved
    # beside the checkpoint, the new run knows what the cut one proved; what
    # a cut loses is the units under way, so the allowance is counted in
    # units, not as a share of a proof the turn-start cut has made small)
    assert 0.95 * whole.nodes <= sol.nodes <= whole.nodes + (runs - 1) * 3 * unit
    assert not list(tmp_path.glob("search.json.dead.*"))  # decided: the tables go


def test_ctrl_c_writes_the_checkpoint_and_the_search_goes_on(tmp_path: Path) -> None:
    deal = lost_deal(3)
    whole = solve_split(deal, Limit(), unit_nodes=500)
    path = str(tmp_path / "search.json")

    def press_ctrl_c(nodes: int) -> None:
        if nodes > whole.nodes // 2:
            interrupt.request()

    try:
        with pytest.raises(KeyboardInterrupt):
            solve_split(deal, Limit(progress=press_ctrl_c), checkpoint=path, unit_nodes=500)
    finally:
        interrupt.reset()
    saved = read_checkpoint(path, deal)
    assert saved is not None and saved.stack and saved.nodes > whole.nodes // 2
    sol = solve_split(deal, Limit(), checkpoint=path, unit_nodes=500)
    assert sol.verdict == whole.verdict
    # the unit cut by Ctrl-C is searched again, without the dominance chains
    # of the search it was part of: a few thousand nodes on this small deal
    assert sol.nodes < 1.1 * whole.nodes


def test_a_checkpoint_of_another_deal_is_refused(tmp_path: Path) -> None:
    path = str(tmp_path / "search.json")
    solve_split(lost_deal(3), Limit(nodes=5000), checkpoint=path, unit_nodes=2000)
    with pytest.raises(InvalidInputError, match="another deal"):
        solve_split(lost_deal(4), Limit(nodes=5000), checkpoint=path, unit_nodes=2000)
    Path(path).write_text("{}")
    with pytest.raises(InvalidInputError, match="not a checkpoint"):
        solve_split(lost_deal(3), Limit(nodes=5000), checkpoint=path, unit_nodes=2000)


def test_a_profi_hard_win_is_replayed() -> None:
    deal = Deal.from_seed(5, get_rules("profi-hard"), 3)
    sol = solve_split(deal, Limit(time=60), jobs=1)
    assert sol.verdict == Verdict.WIN and sol.cards_left == 0


RUNNER = """
import sys
from thegame.models import Limit
from tests.the_game.solver.test_parallel import lost_deal
from thegame.solver.the_game.parallel import solve_split
sol = solve_split(lost_deal(5, 60), Limit(), checkpoint=sys.argv[1], unit_nodes=20000)
print(sol.verdict, sol.nodes)
"""


@pytest.mark.slow
def test_a_kill_loses_at_most_the_units_that_were_running(tmp_path: Path) -> None:
    path = str(tmp_path / "search.json")
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    proc = subprocess.Popen([sys.executable, "-c", RUNNER, path], env=env)
    # wait for a checkpoint that has some work in it, then kill -9
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        time.sleep(0.5)
        if os.path.exists(path) and json.loads(Path(path).read_text())["nodes"] > 0:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    saved = json.loads(Path(path).read_text())  # never half-written
    out = subprocess.run(
        [sys.executable, "-c", RUNNER, path], env=env, capture_output=True, text=True, check=True
    )
    verdict, nodes = out.stdout.split()
    whole = solve_split(lost_deal(5, 60), Limit(), unit_nodes=20000)
    assert verdict == whole.verdict
    assert int(nodes) >= saved["nodes"]
    assert int(nodes) < 1.2 * whole.nodes


def test_a_long_budget_adds_broad_beams_after_the_beams_of_their_width() -> None:
    deal = Deal.from_seed(1, get_rules("profi-hard"), 3)

    def beams_in_turn(limit: Limit) -> list[tuple[int, int, int]]:
        st = SplitSearch(deal, limit).state
        units = [st.units[i] for i in reversed(st.stack)]  # the order they run in
        return [(u.width, u.branch, u.first) for u in units if u.kind is UnitKind.BEAM]

    short = beams_in_turn(Limit(30))
    assert all(b == beam.BRANCH for _, b, _ in short)
    long = beams_in_turn(Limit(600))
    broad = [(w, f) for w, b, f in long if b == beam.BROAD_BRANCH]
    assert broad == [(beam.BROAD_WIDTH, f) for f in (1, 2, 3)]
    first_broad = long.index((beam.BROAD_WIDTH, beam.BROAD_BRANCH, 1))
    assert long[first_broad - 1] == (beam.BROAD_WIDTH, beam.BRANCH, 3)
    assert long[first_broad + 3][0] > beam.BROAD_WIDTH
    # a checkpoint keeps the branch; one written before broad beams has none
    unit = Unit(7, UnitKind.BEAM, 2, [], beam.BROAD_WIDTH, beam.BROAD_BRANCH)
    assert Unit.from_dict(json.loads(json.dumps(unit.to_dict()))) == unit
    old = unit.to_dict()
    del old["branch"]
    assert Unit.from_dict(old).branch == beam.BRANCH
