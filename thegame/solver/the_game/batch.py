"""Many deals on all cores: a JSON line per deal, in input order."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
from collections.abc import Generator
from pathlib import Path
from typing import Any

from ...models import InvalidInputError, interrupt
from ...models.jsonio import item
from ...models.outcome import Limit
from ...models.seeds import MAX_SEED
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
    if b > MAX_SEED:
        raise InvalidInputError(f"seed {b} is outside 0..2^64-1", "--seeds")
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
    text = Path(deals_file).read_text(encoding="utf-8-sig")
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
    if not raw:
        raise InvalidInputError("no deals in the file (an empty list)", deals_file)
    items = []
    for i, d in enumerate(raw):
        deal = Deal.from_dict(d, f"{deals_file}: {item('deals', i)}")
        items.append(({"index": i}, deal.to_dict()))
    return items


def _work(job: tuple[Item, float | None, int | None, int | None]) -> dict[str, Any]:
    (label, deal_json), time_limit, node_limit, memory = job
    deal = Deal.from_dict(deal_json)
    sol = solve(deal, Limit(time_limit, node_limit, None, memory))
    out = dict(label)
    out.update(sol.to_dict())
    out["deal"] = deal_json
    return out


def run_batch(
    items: list[Item], limit: Limit, jobs: int | None
) -> Generator[dict[str, Any], None, None]:
    """Solve every item in a process pool; yield results in input order.

    Each deal gets ``limit``'s time, nodes and memory (its progress callback is not
    sent to the workers: a caller counts the results as they come)."""
    jobs = jobs or os.cpu_count() or 1
    work = [(item, limit.time, limit.nodes, limit.memory) for item in items]
    ctx = multiprocessing.get_context("spawn")
    # Ctrl-C reaches every process of the terminal's group: the workers
    # ignore it and the parent stops them (no traceback from each worker).
    with interrupt.deaf_children():
        pool = ctx.Pool(jobs, initializer=_ignore_sigint)
    with interrupt.polling(), pool:
        results = pool.imap(_work, work)
        while not interrupt.requested():  # Ctrl-C: the lines so far are the result
            try:
                # A short wait, so that Ctrl-C is seen while workers are busy.
                line = results.next(timeout=0.25)
            except multiprocessing.TimeoutError:
                continue
            except StopIteration:
                break
            yield line


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
