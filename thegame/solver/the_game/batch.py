"""Many deals on all cores: a JSON line per deal, in input order."""

from __future__ import annotations

import json
import multiprocessing
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ...models import InvalidInputError
from ...models.outcome import Limit
from ...models.the_game import Deal, get_rules
from .api import solve

# (label, deal JSON) pairs travel to the workers as plain data.
Item = tuple[dict[str, Any], dict[str, Any]]


def parse_range(text: str) -> range:
    lo, sep, hi = text.partition("-")
    try:
        a = int(lo)
        b = int(hi) if sep else a
    except ValueError:
        raise InvalidInputError(f"{text!r} is not a range like 1-1000", "--seeds") from None
    if a < 0 or b < a:
        raise InvalidInputError(f"{text!r} is not a range like 1-1000", "--seeds")
    return range(a, b + 1)


def batch_items(
    seeds: str | None, deals_file: str | None, variant: str, players: int | None
) -> list[Item]:
    if (seeds is None) == (deals_file is None):
        raise InvalidInputError("give exactly one of --seeds A-B and --deals FILE", "options")
    if seeds is not None:
        rules = get_rules(variant)
        return [
            ({"seed": s}, Deal.from_seed(s, rules, players).to_dict()) for s in parse_range(seeds)
        ]
    assert deals_file is not None
    text = Path(deals_file).read_text(encoding="utf-8")
    raw: list[Any]
    try:
        data = json.loads(text)
        raw = data["deals"] if isinstance(data, dict) and "deals" in data else data
        if not isinstance(raw, list):
            raw = [raw]
    except json.JSONDecodeError:
        raw = []
        for n, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    raw.append(json.loads(line))
                except json.JSONDecodeError as e:
                    raise InvalidInputError(
                        f"line {n}: malformed JSON: {e.msg}", deals_file
                    ) from None
    items = []
    for i, d in enumerate(raw):
        deal = Deal.from_dict(d, f"{deals_file}: deals[{i}]")
        items.append(({"index": i}, deal.to_dict()))
    return items


def _work(job: tuple[Item, float, int | None]) -> dict[str, Any]:
    (label, deal_json), time_limit, node_limit = job
    deal = Deal.from_dict(deal_json)
    sol = solve(deal, Limit(time_limit, node_limit))
    out = dict(label)
    out.update(sol.to_dict())
    out["deal"] = deal_json
    return out


def run_batch(
    items: list[Item],
    time_limit: float,
    node_limit: int | None,
    jobs: int | None,
    show_progress: bool = False,
) -> Iterator[dict[str, Any]]:
    """Solve every item in a process pool; yield results in input order."""
    from rich.progress import Progress

    jobs = jobs or os.cpu_count() or 1
    work = [(item, time_limit, node_limit) for item in items]
    with (
        multiprocessing.get_context("spawn").Pool(jobs) as pool,
        Progress(transient=True, disable=not show_progress, console=_stderr()) as progress,
    ):
        task = progress.add_task("solving", total=len(work))
        for result in pool.imap(_work, work):
            progress.advance(task)
            yield result


def _stderr() -> Any:
    from rich.console import Console

    return Console(stderr=True)
