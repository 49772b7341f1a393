"""What the per-deal benchmarks share: a seed range, one worker process per
row, the rows written as JSON lines as they come, the seconds columns, and
a section of RESULTS.md written in place."""

from __future__ import annotations

import json
import multiprocessing
import statistics
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from thegame.models.the_game import Deal, get_rules

W = TypeVar("W")


def seeds_of(spec: str) -> range:
    """``A-B`` (or ``A``) as a range of seeds."""
    lo, _, hi = spec.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def run_rows(
    run_one: Callable[[W], dict[str, Any]], work: Sequence[W], jobs: int, out: str
) -> list[dict[str, Any]]:
    """``run_one`` on each item in a fresh worker process (``jobs`` at a
    time, so no row inherits another's tables), in order; each row is
    written to ``out`` as soon as it is back, so an interrupted run keeps
    what it finished."""
    rows: list[dict[str, Any]] = []
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    with (
        multiprocessing.get_context("spawn").Pool(jobs, maxtasksperchild=1) as pool,
        open(out, "w") as fh,
    ):
        for row in pool.imap(run_one, work):
            rows.append(row)
            fh.write(json.dumps(row) + "\n")
            fh.flush()
    return rows


def seconds_cells(rows: list[dict[str, Any]]) -> str:
    """The median, p95 and max of the rows' ``seconds``, as table cells."""
    secs = sorted(r["seconds"] for r in rows)
    if not secs:
        return "0.00 | 0.00 | 0.00"
    p95 = secs[min(len(secs) - 1, int(0.95 * len(secs)))]
    return f"{statistics.median(secs):.2f} | {p95:.2f} | {secs[-1]:.2f}"


def write_section(path: Path, header: str, text: str) -> None:
    """Replace the section of ``path`` that starts with the line ``header``
    (or add it at the end), leaving every other byte of the file as it was."""
    old = path.read_text() if path.exists() else "# Benchmark results\n"
    start = old.find("\n" + header + "\n")
    if start < 0:
        new = old.rstrip("\n") + "\n\n" + text
    else:
        start += 1
        end = old.find("\n## ", start + len(header))
        rest = "" if end < 0 else old[end + 1 :]
        new = old[:start] + text + ("\n" + rest if rest else "")
    path.write_text(new)


# The per-deal sets of run.py and kernel.py: a name, its deals.
ROOT = Path(__file__).resolve().parent
HARD = ROOT / "data" / "hard-solo.json"

SETS: dict[str, tuple[str, int, range]] = {
    "solo": ("classic", 1, range(1, 1001)),
    "p2": ("classic", 2, range(1, 201)),
    "p3": ("classic", 3, range(1, 201)),
    "p4": ("classic", 4, range(1, 201)),
    "p5": ("classic", 5, range(1, 201)),
    "profi": ("profi", 1, range(1, 201)),
    "fire": ("on-fire", 1, range(1, 201)),
    "profi-hard": ("profi-hard", 1, range(1, 101)),
    "x-solo": ("extreme", 1, range(1, 201)),
    "x-p2": ("extreme", 2, range(1, 101)),
    "x-p3": ("extreme", 3, range(1, 101)),
    "x-p4": ("extreme", 4, range(1, 101)),
    "x-p5": ("extreme", 5, range(1, 101)),
    "profi-p3": ("profi", 3, range(1, 101)),
    "ph-p2": ("profi-hard", 2, range(1, 51)),
    "ph-p3": ("profi-hard", 3, range(1, 51)),
    "ph-p4": ("profi-hard", 4, range(1, 51)),
    "ph-p5": ("profi-hard", 5, range(1, 51)),
}
SMALL = {"high": 25, "asc_piles": 1, "desc_piles": 1, "hand_sizes": [4] * 5, "step": 5}
SMALL_MP = {"high": 30, "asc_piles": 1, "desc_piles": 1, "hand_sizes": [3] * 5, "step": 7}
EXTRA = ("hard", "small", "small-mp")


def deal_set(name: str) -> list[tuple[str, dict[str, Any]]]:
    """The deals of a named benchmark set, as (label, deal JSON)."""
    if name == "hard":
        data = json.loads(HARD.read_text())
        return [(f"hard-{i}", d) for i, d in enumerate(data["deals"])]
    if name == "small":
        rules = Deal.from_dict({"rules": SMALL, "deck": list(range(2, 26))}).rules
        return [(f"seed-{s}", Deal.from_seed(s, rules).to_dict()) for s in range(1, 201)]
    if name == "small-mp":
        rules = Deal.from_dict({"rules": SMALL_MP, "deck": list(range(2, 31))}).rules
        fire = rules.with_changes(fire_cards=frozenset({9, 18, 27}))
        two = [(f"2p-seed-{s}", Deal.from_seed(s, rules, 2).to_dict()) for s in range(1, 21)]
        three = [(f"3p-fire-seed-{s}", Deal.from_seed(s, fire, 3).to_dict()) for s in range(1, 21)]
        return two + three
    variant, players, seeds = SETS[name]
    rules = get_rules(variant)
    return [(f"seed-{s}", Deal.from_seed(s, rules, players).to_dict()) for s in seeds]
