"""The split search walking back along a stored line: it decides as the brute
force, a clear is found from the latest turn start of the line that can
still be cleared (the line's turns before it kept), a lost deal has the
whole line proven lost, and the line goes into the checkpoint."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.support.brute import Brute
from tests.support.cli import run_main
from tests.support.deals import small_deals
from tests.the_game.solver.test_parallel import lost_deal, pytestmark  # noqa: F401
from thegame.models import Limit, Verdict
from thegame.models.the_game import Deal, GameState
from thegame.solver.the_game.backend import kernel_of, walker
from thegame.solver.the_game.kernel import END, Action
from thegame.solver.the_game.optimum import finish_greedily
from thegame.solver.the_game.parallel import solve_split
from thegame.solver.the_game.split_units import read_checkpoint


def greedy_line(deal: Deal, first: int) -> list[Action]:
    """A whole line of the greedy finish from the start (it often loses)."""
    return finish_greedily(walker(kernel_of(GameState(deal, first=first))))


def turn_start_states(deal: Deal, first: int, line: list[Action]) -> list[GameState]:
    """The rules engine's state at each turn start along ``line``."""
    state = GameState(deal, first=first)
    out = [state.copy()]
    for a in line:
        if a == END:
            if state.over:
                break
            state.end_turn()
            out.append(state.copy())
        else:
            state.play(*a)
    return out


def whole_turns(line: list[Action], turns: int) -> list[Action]:
    ends = [i for i, a in enumerate(line) if a == END]
    return [] if turns == 0 else line[: ends[turns - 1] + 1]


@settings(max_examples=40, deadline=None)
@given(deal=small_deals(), units=st.sampled_from([200, 5000]))
def test_the_walk_back_decides_as_the_brute_force(deal: Deal, units: int) -> None:
    first = deal.starting_players()[-1]
    assume(not any(GameState(deal, first=f).over for f in deal.starting_players()))
    line = greedy_line(deal, first)
    sol = solve_split(deal, Limit(nodes=5_000_000), unit_nodes=units, beams=False,
                      line=(first, line))  # fmt: skip
    wins = any(Brute().wins_from(GameState(deal, first=f)) for f in deal.starting_players())
    assert sol.verdict == (Verdict.WIN if wins else Verdict.LOSS)
    split = sol.details["split"]
    assert split["line_turns"] == line.count(END)
    states = turn_start_states(deal, first, line)
    winnable = [i for i, s in enumerate(states) if not s.over and Brute().wins_from(s)]
    if sol.verdict == Verdict.LOSS:
        assert split["line_lost_from"] == 1  # every turn start of the line is dead
    elif winnable:
        # the clear leaves the line at its latest turn start that can be cleared
        kept = whole_turns(line, winnable[-1])
        assert sol.first == first
        played = [a for t in sol.turns for a in [*((p.card, p.pile) for p in t.plays), END]]
        assert played[: len(kept)] == kept


def test_a_walk_cut_short_goes_on_from_its_checkpoint(tmp_path: Path) -> None:
    deal = lost_deal(5, 60)
    line = greedy_line(deal, 1)
    whole = solve_split(deal, Limit(), unit_nodes=2000, beams=False, line=(1, line))
    assert whole.verdict == Verdict.LOSS
    path = str(tmp_path / "walk.json")
    cut = solve_split(deal, Limit(nodes=whole.nodes // 4), checkpoint=path, unit_nodes=2000,
                      beams=False, line=(1, line))  # fmt: skip
    assert cut.verdict == Verdict.UNKNOWN
    reach = cut.details["split"]["line_lost_from"]
    assert reach is None or reach > 1
    saved = read_checkpoint(path, deal)
    assert saved is not None and saved.line == (1, line)
    # the next run needs no line: the checkpoint has it
    done = solve_split(deal, Limit(), checkpoint=path, unit_nodes=2000, beams=False)
    assert done.verdict == Verdict.LOSS and done.details["split"]["line_lost_from"] == 1
    assert done.nodes < 1.3 * whole.nodes


def test_a_checkpoint_folder_keeps_each_deal_in_its_own_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def sitting(seed: str) -> None:
        code, _, err = run_main(capsys, "solve", "--seed", seed, "--variant", "profi-hard",
                                "--checkpoint", str(tmp_path), "--time-limit", "1")  # fmt: skip
        assert code == 0, err

    sitting("108")
    (one,) = tmp_path.glob("*.json")
    sitting("526")
    sitting("108")  # the same command again: the same file, a second run
    assert len(list(tmp_path.glob("*.json"))) == 2
    assert json.loads(one.read_text())["runs"] == 2


def test_a_line_given_to_a_checkpoint_made_without_one_is_walked(tmp_path: Path) -> None:
    deal = lost_deal(5, 60)
    line = greedy_line(deal, 1)
    path = str(tmp_path / "walk.json")
    solve_split(deal, Limit(nodes=20_000), checkpoint=path, unit_nodes=2000, beams=False)
    saved = read_checkpoint(path, deal)
    assert saved is not None and saved.line is None
    done = solve_split(deal, Limit(), checkpoint=path, unit_nodes=2000, beams=False,
                       line=(1, line))  # fmt: skip
    assert done.verdict == Verdict.LOSS
    split = done.details["split"]
    assert split["line_turns"] == line.count(END) and split["line_lost_from"] == 1
