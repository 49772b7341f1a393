"""``--backend ray --address``: the split search and the survey on a Ray
cluster of a head and two worker nodes started on this machine (one CPU
each), the same verdicts as on one process, and a checkpoint that a later
sitting on the cluster goes on from."""

from __future__ import annotations

import importlib.util
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.ray_cluster import ENV, cluster_env, local_cluster
from tests.survey.test_survey_walk import losing_line, store_unknown, text_of
from tests.the_game.solver.test_parallel import lost_deal
from thegame.models import Backend, Limit, Verdict
from thegame.models.the_game import Deal, get_rules, replay
from thegame.models.the_game.record import Record
from thegame.solver.the_game import ckernel
from thegame.solver.the_game.api import solve
from thegame.solver.the_game.kernel import END
from thegame.solver.the_game.parallel import solve_split
from thegame.survey.work import line_turns

pytestmark = [
    pytest.mark.slow,  # the cluster takes 40-60 s to start on this machine
    pytest.mark.skipif(not ckernel.BUILT, reason="the C extension is not built"),
]


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    if importlib.util.find_spec("ray") is None:
        if os.environ.get("CI") == "true":  # CI installs the ray extra: its absence is a fault
            pytest.fail("Ray is not installed in CI")
        pytest.skip("Ray is not installed")
    with local_cluster(workers=2) as address:
        yield address


def thegame(*argv: str) -> subprocess.CompletedProcess[str]:
    """The command line in its own process (its own Ray driver)."""
    return subprocess.run(
        [sys.executable, "-m", "thegame.cli.main", *argv],
        env=cluster_env(), capture_output=True, text=True, timeout=600,
    )  # fmt: skip


def test_the_split_search_runs_a_worker_on_every_node(
    cluster: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    deal = lost_deal(5)
    one = solve_split(deal, Limit(), jobs=1, unit_nodes=20_000)
    spread = solve_split(deal, Limit(), jobs=None, unit_nodes=20_000, backend=Backend.RAY,
                         address=cluster)  # fmt: skip
    assert spread.verdict == one.verdict == Verdict.LOSS
    split = spread.details["split"]
    # a worker a CPU of the cluster, and one CPU a node: one on each node
    assert split["jobs"] == 3
    assert len(split["workers"]) == 3 and all(w["units"] > 0 for w in split["workers"].values())
    assert split["shared_bytes"] > 0
    done = thegame("solve", "--seed", "5", "--variant", "profi-hard", "--players", "3",
                   "--backend", "ray", "--address", cluster, "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["verdict"] == "win"


def test_a_checkpoint_goes_on_in_the_next_sitting(cluster: str, tmp_path: Path) -> None:
    path = tmp_path / "108.json"
    argv = ["solve", "--seed", "108", "--variant", "profi-hard", "--backend", "ray", "--address",
            cluster, "--checkpoint", str(path), "--time-limit", "4", "--json"]  # fmt: skip
    first = thegame(*argv)
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["verdict"] == "unknown"
    saved = json.loads(path.read_text())
    again = thegame(*argv)
    assert again.returncode == 0, again.stderr
    resumed = json.loads(path.read_text())
    assert (saved["runs"], resumed["runs"]) == (1, 2)
    assert resumed["nodes"] > saved["nodes"] > 0
    assert len(resumed["workers"]) >= 3  # every node's worker, in one sitting or the other


def test_the_survey_runs_and_retries_on_the_cluster(cluster: str, tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    run = thegame("survey", "run", "--seeds", "1-6", "--time-limit", "10", "--db", str(db),
                  "--backend", "ray", "--address", cluster)  # fmt: skip
    assert run.returncode == 0, run.stderr
    con = sqlite3.connect(db)
    verdicts = dict(con.execute("SELECT seed, verdict FROM deals WHERE variant='classic'"))
    con.close()
    assert verdicts == {s: "win" for s in range(1, 7)}
    # an unknown row with a line gone wrong half-way: walked back on the cluster
    deal = Deal.from_seed(9, get_rules("classic"), 1)
    won = solve(deal)
    actions = [a for t in won.turns for a in [*((p.card, p.pile) for p in t.plays), END]]
    ends = [i for i, a in enumerate(actions) if a == END]
    line, left = losing_line(deal, won.first, actions[: ends[len(ends) // 2] + 1])
    store_unknown(db, "classic", 9, won.first, text_of(deal, won.first, line), left)
    retry = thegame("survey", "run", "--seeds", "9-9", "--time-limit", "60", "--retry-unknown",
                    "--db", str(db), "--backend", "ray", "--address", cluster)  # fmt: skip
    assert retry.returncode == 0, retry.stderr
    assert "all the cluster's workers each" in retry.stderr
    con = sqlite3.connect(db)
    verdict, first, text = con.execute(
        "SELECT verdict, first, line FROM deals WHERE seed=9"
    ).fetchone()
    con.close()
    assert verdict == "win"
    assert replay(Record(deal.with_first(first), line_turns(deal.rules, text))).status == "won"
