"""``thegame survey ...``: decide a seed range into SQLite, play it blind, report,
export the rows as text and import them back."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import click
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ..analysis.the_game.strong import TURN_PLAYOUTS, Level
from ..models import Backend, Limit
from ..models.the_game import variants
from ..models.words import plural
from ..solver.the_game.batch import parse_range
from ..solver.the_game.solution import Solution
from ..solver.the_game.split_workers import check_address, ray_module
from ..survey import report as report_mod
from ..survey.retry import Retry, checkpoint_folder, retry_all
from ..survey.runner import Plan, plan, run
from ..survey.store import Store, import_export, open_for_reading, write_export
from ..survey.work import Kind, Row, StrongSpec
from .common import err, out, read_text, tell, user_errors, write_atomic
from .options import SECONDS, backend_option, sample_seed_option

# The variants the exact solver covers (the others have no solver yet).
SOLVED = list(variants.names(survey=True))


@click.group()
def survey() -> None:
    """Decide every deal of a seed range, store it in SQLite, report the table."""


def _common(f: Callable[..., None]) -> Callable[..., None]:
    for opt in reversed(
        [
            click.option("--db", required=True, metavar="FILE", help="The SQLite results file."),
            click.option("--jobs", type=click.IntRange(min=1), default=None,
                         help="Worker processes (Ray: CPUs of a local instance); default all."),
            backend_option("local processes, or Ray (optional extra)."),
            click.option("--address", default=None, metavar="ADDR",
                         help="Ray: join this cluster instead of starting a local one."),
            click.option("--chunk", type=click.IntRange(min=1), default=None,
                         help="Seeds per task (default: local 1, Ray 4)."),
        ]
    ):
        f = opt(f)
    return f


@survey.command("run")
@click.option("--variant", type=click.Choice(SOLVED), default="classic", show_default=True)
@click.option("--players", type=click.IntRange(1, 5), default=1, show_default=True)
@click.option("--seeds", required=True, metavar="A-B", help="The seed range, e.g. 1-10000.")
@click.option("--time-limit", type=SECONDS, default=10.0, show_default=True,
              help="Seconds per deal before its verdict is 'unknown'.")
@click.option("--retry-unknown", is_flag=True,
              help="Decide again every unknown deal stored with a smaller --time-limit: one "
              "deal at a time, its search split over the workers, walking its stored best "
              "line back from the end first, and saved in a checkpoint (the next run goes "
              "on from it); a deal still open keeps its row, with a better line if one was "
              "found.")
@click.option("--retry-time", type=SECONDS, default=None, metavar="S",
              help="--retry-unknown: seconds this run gives each deal (default --time-limit).")
@click.option("--checkpoint", default=None, metavar="DIR",
              help="--retry-unknown: the folder of the checkpoints (default: beside --db).")
@_common
@user_errors
def run_cmd(
    variant: str, players: int, seeds: str, time_limit: float, retry_unknown: bool,
    retry_time: float | None, checkpoint: str | None, db: str,
    jobs: int | None, backend: Backend, address: str | None, chunk: int | None,
) -> None:
    """Decide every deal of the range; each result is stored as soon as it is known."""
    rng = parse_range(seeds)
    if not retry_unknown and (retry_time is not None or checkpoint is not None):
        raise click.UsageError("--retry-time and --checkpoint go with --retry-unknown")
    if backend is Backend.RAY:
        ray_module()  # one clear line before anything is written
        if address:
            check_address(address)
    store = Store(db)
    p = plan(store, Kind.DEAL, variant, players, rng, Limit(time_limit), retry_unknown)
    again = sorted(store.unknown_seeds(variant, players) & set(p.seeds)) if retry_unknown else []
    p = replace(p, seeds=tuple(s for s in p.seeds if s not in again))
    if p.seeds or not again:
        _execute(store, p, backend, jobs, chunk, address, store.put_deal)
    if again:
        workers = jobs if backend is Backend.RAY else jobs or os.cpu_count() or 1
        folder = Path(checkpoint) if checkpoint else checkpoint_folder(db)
        how = Retry(folder, workers, backend, address, seconds=retry_time)
        rows = [r for r in store.deals(variant, players) if r["seed"] in set(again)]
        _retry(store, how, p, rows)
    store.close()


def _retry(store: Store, how: Retry, p: Plan, rows: list[Row]) -> None:
    """The unknown deals again, one at a time on the split search."""
    label = f"{p.variant} {p.players}p"
    workers = plural(how.jobs, "worker") if how.jobs else "all the cluster's workers"
    tell(
        f"{label}: {plural(len(rows), 'unknown deal')} to search on, {workers} each, "
        f"checkpoints in {how.folder}"
    )
    decided = 0

    def on_row(row: Row) -> None:
        nonlocal decided
        store.put_deal(row)
        decided += 1
        tell(
            f"{label} seed {row['seed']}: {row['verdict']} ({row['nodes']:,} nodes, "
            f"{row['seconds']:.0f} s in all runs), stored"
        )

    def on_unknown(seed: int, sol: Solution, better: Row | None) -> None:
        split = sol.details.get("split", {})
        reach = split.get("line_lost_from")
        walked = (
            f"; stored line ({split['line_turns']} turns) proven lost from turn {reach}"
            if reach is not None else ""
        )
        if better is not None:
            store.put_deal(better)
        kept = "its better line stored" if better is not None else "not stored"
        tell(
            f"{label} seed {seed}: still unknown ({sol.nodes:,} nodes in all runs, best "
            f"line {plural(sol.cards_left, 'card')} left{walked}), {kept}; the next run "
            "goes on from its checkpoint"
        )

    try:
        with _nodes_status(label) as progress:
            how = replace(how, progress=progress)
            retry_all(how, p.variant, p.players, rows, p.limit, on_row, on_unknown)
    except KeyboardInterrupt:
        tell(
            f"interrupted: {decided} deals stored this run; the search in progress is "
            "saved in its checkpoint, run the same command again to go on"
        )
        store.close()
        sys.exit(130)


@survey.command("blind")
@click.option("--variant", type=click.Choice(SOLVED), default=None,
              help="Only this variant (default: every group in the database).")
@click.option("--players", type=click.IntRange(1, 5), default=None)
@click.option("--seeds", default=None, metavar="A-B",
              help="These seeds (default: the seeds with a decided deal stored).")
@click.option("--strength", "level", type=click.Choice([str(v) for v in Level]),
              default=str(Level.DEFAULT), show_default=True,
              help="The blind policy, or the strong blind player (it compares the policy's "
              "candidate turns over sampled orders of the hidden cards).")
@click.option("--turn-time", type=click.FloatRange(min=0, min_open=True), default=None,
              metavar="S", help="--strength strong: seconds per turn (the machine's speed "
              "decides how many playouts fit).")
@click.option("--playouts", type=click.IntRange(min=1), default=None, metavar="N",
              help=f"--strength strong: playouts per turn (deterministic; default {TURN_PLAYOUTS}, "
              "about 0.2 s of CPU, when --turn-time is not given).")
# The older name ('--level' is a level number in The Mind): still read.
@click.option("--level", "old_level", type=click.Choice([str(v) for v in Level]), default=None,
              hidden=True, help="The older name of --strength.")
@sample_seed_option()
@_common
@user_errors
def blind_cmd(
    variant: str | None, players: int | None, seeds: str | None, level: str,
    old_level: str | None,
    turn_time: float | None, playouts: int | None, sample_seed: int, db: str,
    jobs: int | None, backend: Backend, address: str | None, chunk: int | None,
) -> None:
    """Play the stored deals with the blind policy (player 1 first): the report's
    comparison of what a player who cannot see the draw pile achieves. With
    --strength strong, the strong blind player plays them (stored apart, by budget)."""
    level = old_level or level
    strong = None
    if Level(level) is Level.STRONG:
        if turn_time is None and playouts is None:
            playouts = TURN_PLAYOUTS
        strong = StrongSpec(playouts or 0, turn_time or 0.0, sample_seed)
    elif turn_time is not None or playouts is not None:
        raise click.UsageError("--turn-time and --playouts go with --strength strong")
    if backend is Backend.RAY:
        ray_module()
        if address:
            check_address(address)
    store = Store(db, create=False)  # nothing to play in a new file
    groups = [
        g for g in store.groups()
        if (variant is None or g[0] == variant) and (players is None or g[1] == players)
    ]
    if seeds is not None:
        if variant is None or players is None:
            raise click.UsageError("--seeds needs --variant and --players")
        groups = [(variant, players)]
    kind = Kind.BLIND if strong is None else Kind.STRONG
    plans = [
        plan(store, kind, v, n, parse_range(seeds) if seeds else
             [r["seed"] for r in store.deals(v, n)], strong=strong)
        for v, n in groups
    ]
    put = store.put_blind if strong is None else store.put_strong
    # The smallest tables first: each gets its comparison early, and a run
    # stopped in the largest one leaves the others complete.
    for p in sorted(plans, key=lambda p: len(p.seeds)):
        _execute(store, p, backend, jobs, chunk, address, put)
    store.close()


def _execute(
    store: Store, p: Plan, backend: Backend, jobs: int | None, chunk: int | None,
    address: str | None, put: Callable[[Row], None],
) -> None:
    what = {Kind.DEAL: "deals", Kind.BLIND: "blind games"}.get(p.kind, "strong blind games")
    label = f"{p.variant} {p.players}p"
    tell(f"{label}: {len(p.seeds)} {what} to do, {p.skipped} already stored")
    start = time.monotonic()
    done = 0
    with _progress(len(p.seeds), label, what.split()[-1]) as advance:
        def on_rows(rows: list[Row]) -> None:
            nonlocal done
            for row in rows:
                put(row)  # committed: survives anything that happens next
            done += len(rows)
            advance(len(rows))

        try:
            failed = run(p, on_rows, backend, jobs, chunk, address)
        except KeyboardInterrupt:
            tell(
                f"interrupted: {done} {what} stored this run; run the same command "
                "again to do the rest"
            )
            store.close()
            sys.exit(130)
    wall = time.monotonic() - start
    tell(f"{label}: {done} {what} in {wall:.1f} s")
    if failed:
        tell(
            f"{len(failed)} {what} failed on lost workers (seeds {failed[0]}-{failed[-1]} "
            "among them): run the same command again to do them"
        )
        sys.exit(1)


@contextlib.contextmanager
def _nodes_status(label: str) -> Iterator[Callable[[int, int], None]]:
    """The deal being retried and its nodes (its earlier sittings included),
    on stderr when it is a terminal."""
    if not err.is_terminal:
        yield lambda seed, nodes: None
        return
    with err.status(f"{label}: starting the search") as status:
        start = {0: time.monotonic()}

        def show(seed: int, nodes: int) -> None:
            began = start.setdefault(seed, time.monotonic())
            status.update(
                f"{label} seed {seed}: {nodes:,} nodes, {time.monotonic() - began:.0f} s"
            )

        yield show


@contextlib.contextmanager
def _progress(total: int, label: str, unit: str) -> Iterator[Callable[[int], None]]:
    """A bar with ``unit`` per second and the ETA, on stderr when it is a terminal."""
    if not err.is_terminal or total == 0:
        yield lambda n: None
        return
    start = time.monotonic()
    columns = (
        TextColumn(label), BarColumn(), MofNCompleteColumn(),
        TextColumn(f"{{task.fields[rate]}} {unit}/s"), TimeElapsedColumn(),
        TextColumn("ETA"), TimeRemainingColumn(),
    )
    with Progress(*columns, console=err, transient=False) as bar:
        task = bar.add_task(label, total=total, rate="-")
        done = 0

        def advance(n: int) -> None:
            nonlocal done
            done += n
            rate = done / max(1e-9, time.monotonic() - start)
            bar.update(task, advance=n, rate=f"{rate:.2f}")

        yield advance


@survey.command("report")
@click.option("--db", required=True, metavar="FILE",
              help="The SQLite results file, or an export (.jsonl or .jsonl.gz).")
@click.option("--out", "out_file", default=None, metavar="FILE",
              help="Write the report (markdown) here instead of printing it.")
@click.option("--svg", "svg_file", default=None, metavar="FILE",
              help="The histogram of fewest cards left (default: beside --out, .svg).")
@click.option("--notes", "notes_file", default=None, metavar="FILE",
              help="Markdown to include at the end (how the runs were made, what they cost).")
@user_errors
def report_cmd(
    db: str, out_file: str | None, svg_file: str | None, notes_file: str | None
) -> None:
    """The table per variant and player count, the blind comparison, the histogram."""
    notes = read_text(notes_file) if notes_file else None
    store = open_for_reading(db)
    groups = report_mod.collect(store)
    store.close()
    if svg_file is None and out_file is not None:
        svg_file = out_file.rsplit(".", 1)[0] + ".svg"
    svg_name = None
    if svg_file is not None:
        write_atomic(svg_file, report_mod.histogram_svg(groups))
        svg_name = svg_file.rsplit("/", 1)[-1]
    text = report_mod.markdown(groups, db.rsplit("/", 1)[-1], svg_name)
    if notes:
        text += "\n" + notes.strip() + "\n"
    if out_file is None:
        out.print(text, markup=False, highlight=False, soft_wrap=True)
    else:
        write_atomic(out_file, text)


@survey.command("export")
@click.option("--db", required=True, metavar="FILE", help="The SQLite results file.")
@click.argument("out_file", metavar="FILE")
@user_errors
def export_cmd(db: str, out_file: str) -> None:
    """Write every row as text: one JSON line per deal, sorted (gzipped if FILE
    ends in .gz, the same rows giving the same bytes)."""
    store = Store(db, create=False)
    try:
        count = write_export(store, out_file)
    finally:
        store.close()
    tell(f"{count} deals exported to {out_file}")


@survey.command("import")
@click.argument("in_file", metavar="FILE")
@click.option("--db", required=True, metavar="FILE",
              help="The SQLite results file to build (it must not exist).")
@user_errors
def import_cmd(in_file: str, db: str) -> None:
    """Build the SQLite results file from an export (``survey export``)."""
    count = import_export(in_file, db)
    tell(f"{count} deals imported into {db}")
