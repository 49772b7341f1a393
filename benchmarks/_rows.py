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
