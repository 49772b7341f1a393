"""``thegame bench``: the engines over a fixed set of positions."""

from __future__ import annotations

from typing import Any

import click

from .common import out, print_json, user_errors
from .options import json_option


@click.command()
@json_option("Print the engines' rows and the total as JSON.")
@user_errors
def bench(as_json: bool) -> None:
    """Search a fixed set of positions with each engine, a node budget each:
    the total of nodes is the same on every run, the seconds and nodes a
    second measure this machine and build (a few seconds in all)."""
    from ..solver.bench import NODES
    from ..solver.bench import bench as run_bench

    rows = run_bench()
    nodes = sum(r.nodes for r in rows)
    seconds = sum(r.seconds for r in rows)
    total: dict[str, Any] = {
        "positions": sum(r.positions for r in rows),
        "stats": {"nodes": nodes, "seconds": round(seconds, 3)},
        "nodes_per_second": round(nodes / seconds) if seconds else None,
        "node_budget": NODES,
    }
    if as_json:
        print_json({"engines": [r.to_dict() for r in rows], **total})
        return
    line = "{:<28} {:>9} {:>11} {:>9} {:>11}"
    out.print(line.format("engine", "positions", "nodes", "seconds", "nodes/s"), markup=False)
    for r in rows:
        rate = f"{r.nodes / r.seconds:,.0f}" if r.seconds else "-"
        out.print(line.format(r.engine, r.positions, f"{r.nodes:,}", f"{r.seconds:.3f}", rate),
                  markup=False)  # fmt: skip
    rate = f"{nodes / seconds:,.0f}" if seconds else "-"
    out.print(line.format("total", total["positions"], f"{nodes:,}", f"{seconds:.3f}", rate),
              markup=False)  # fmt: skip
    out.print(f"{nodes} nodes (each position at most {NODES:,})", markup=False)
