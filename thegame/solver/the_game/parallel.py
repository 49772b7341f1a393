"""One deal's search split into units: over worker processes, and resumable.

The search of ``api.solve`` is one process's beams and one depth-first
search with its memo; it cannot be stopped and taken up again, nor shared.
The split search cuts the same work into units a worker can finish in a
few seconds, and keeps in the parent process what decides the deal:

- **beam units**: one beam over whole turns of one width from one start
  (the widths ``api.solve`` would run), run whole;
- **proof units**: the complete play-by-play search (``dfs.Searcher``,
  compiled) from one turn start, within ``unit_nodes`` nodes. A unit that
  proves its position dead is done; one that wins wins the deal; one that
  runs out is expanded into the positions after each of its whole turns
  (``TurnLister``: all distinct results, so a position is dead exactly when
  every child is), children the parent already knows dead or that a loss
  argument (``arguments``) closes are not searched at all.

Shared knowledge lives in the parent: the positions proven dead (by memo
key, so a position reached by two lines is searched once), the best line
and the proven starts; every worker also keeps the dead turn starts of its
own units in one table (``ckernel.new_dead_set``), which later units of
that worker reuse. As in Othello's solution and in the two-level parallel
proof-number searches, the top of the tree is a work list of independent
positions; unlike df-pn with virtual proof numbers, a unit that runs out
is not continued but expanded, so its nodes are spent again below it (the
worker's dead table keeps most of what it proved).

The parent's state is small (the open and expanded units, the dead keys,
the best line, the nodes spent) and is written atomically to the
checkpoint file every ``CHECKPOINT_SECONDS`` and when the search stops
(Ctrl-C too); the same call with the same file goes on from there. A kill
loses the units that were running, at most ``unit_nodes`` nodes a worker.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import queue
import signal
import time
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from ...models import InvalidInputError, Limit, Verdict, interrupt
from ...models.the_game import Deal, GameState
from . import ckernel
from .arguments import turn_start_bound
from .backend import kernel_of, walker
from .beam import BRANCH, EXTRA, PER_PARENT, beam_widths
from .budget import SearchStats
from .kernel import END, INF, Action, Kernel
from .optimum import finish_greedily
from .solution import PositionResult, Solution
from .verify import verified

# A proof unit's nodes: a few seconds of one core, so a kill loses little,
# and large enough that the children of a unit that runs out are few
# compared with its work.
UNIT_NODES = 4_000_000
# Seconds between two writes of the checkpoint.
CHECKPOINT_SECONDS = 5.0
# Seconds between two writes of a worker's table of dead turn starts (the
# tables are large: written less often than the checkpoint; a kill loses
# at most this much of what they learnt, never a proof).
DUMP_SECONDS = 30.0
# MiB for one proof unit's own tables (it searches at most UNIT_NODES).
UNIT_MEMORY = 256
FORMAT = "thegame-split-1"


class UnitKind(StrEnum):
    BEAM = "beam"
    PROVE = "prove"


@dataclass
class Unit:
    """A piece of the search: a beam from a start, or the proof of a turn start."""

    id: int
    kind: UnitKind
    first: int  # 1-based starting player
    line: list[Action]  # whole turns from the start to this position
    width: int = 0  # a beam's width
    parents: list[int] = field(default_factory=list)  # expanded units that wait on it
    waiting: int = 0  # an expanded unit: its children not yet proven dead
    expanded: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind.value,
            "first": self.first,
            "line": [list(a) for a in self.line],
            "width": self.width,
            "parents": self.parents,
            "waiting": self.waiting,
            "expanded": self.expanded,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Unit:
        return cls(
            d["id"],
            UnitKind(d["kind"]),
            d["first"],
            [(a[0], a[1]) for a in d["line"]],
            d["width"],
            list(d["parents"]),
            d["waiting"],
            d["expanded"],
        )


@dataclass
class WorkerStats:
    units: int = 0
    nodes: int = 0
    busy: float = 0.0  # seconds inside units
    cpu: float = 0.0  # CPU seconds inside units


@dataclass
class SplitState:
    """What the parent knows; all of it goes into the checkpoint."""

    deal: Deal
    unit_nodes: int = UNIT_NODES
    units: dict[int, Unit] = field(default_factory=dict)  # undecided units
    stack: list[int] = field(default_factory=list)  # open units, next last
    dead: set[tuple[int, ...]] = field(default_factory=set)  # proven turn starts
    key_of: dict[int, tuple[int, ...]] = field(default_factory=dict)  # proof units
    by_key: dict[tuple[int, ...], int] = field(default_factory=dict)
    roots: dict[int, int] = field(default_factory=dict)  # start -> its root proof unit
    lost: set[int] = field(default_factory=set)  # starts proven to have no clear
    won: tuple[int, list[Action]] | None = None
    best: tuple[int, int, list[Action]] | None = None  # (cards left, start, line)
    nodes: int = 0
    seconds: float = 0.0  # wall seconds of earlier runs
    cpu: float = 0.0  # CPU seconds of earlier runs (this process and its workers)
    runs: int = 0
    next_id: int = 0
    argument_cuts: int = 0  # children the loss arguments closed
    memo_cuts: int = 0  # children already known dead
    workers: dict[str, WorkerStats] = field(default_factory=dict)

    # -- the checkpoint ------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "deal": self.deal.to_dict(),
            "unit_nodes": self.unit_nodes,
            "units": [u.to_dict() for u in self.units.values()],
            "stack": self.stack,
            "dead": sorted(list(k) for k in self.dead),
            "roots": {str(f): i for f, i in self.roots.items()},
            "lost": sorted(self.lost),
            "won": None if self.won is None else [self.won[0], [list(a) for a in self.won[1]]],
            "best": None
            if self.best is None
            else [self.best[0], self.best[1], [list(a) for a in self.best[2]]],
            "nodes": self.nodes,
            "seconds": self.seconds,
            "cpu": self.cpu,
            "runs": self.runs,
            "next_id": self.next_id,
            "argument_cuts": self.argument_cuts,
            "memo_cuts": self.memo_cuts,
            "workers": {w: vars(s) for w, s in self.workers.items()},
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any], where: str) -> SplitState:
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            raise InvalidInputError("not a checkpoint of the split search", where)
        st = cls(Deal.from_dict(d["deal"], where), d["unit_nodes"])
        for ud in d["units"]:
            u = Unit.from_dict(ud)
            st.units[u.id] = u
        st.stack = list(d["stack"])
        st.dead = {tuple(k) for k in d["dead"]}
        st.roots = {int(f): i for f, i in d["roots"].items()}
        st.lost = set(d["lost"])
        if d["won"] is not None:
            st.won = (d["won"][0], [(a[0], a[1]) for a in d["won"][1]])
        if d["best"] is not None:
            b = d["best"]
            st.best = (b[0], b[1], [(a[0], a[1]) for a in b[2]])
        st.nodes, st.seconds, st.cpu = d["nodes"], d["seconds"], d["cpu"]
        st.runs, st.next_id = d["runs"], d["next_id"]
        st.argument_cuts, st.memo_cuts = d["argument_cuts"], d["memo_cuts"]
        st.workers = {w: WorkerStats(**s) for w, s in d["workers"].items()}
        for u in st.units.values():
            if u.kind is UnitKind.PROVE:
                key = _position(st.deal, u.first, u.line).key()
                st.key_of[u.id] = key
                st.by_key[key] = u.id
        return st


def write_checkpoint(path: str, state: SplitState) -> None:
    """Write the state atomically: a kill leaves the old file or the new one."""
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(state.to_dict(), f, separators=(",", ":"))
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def read_checkpoint(path: str, deal: Deal) -> SplitState | None:
    """The saved state for ``deal`` (None: no file yet); a file of another
    deal or not a checkpoint is an input error."""
    p = Path(path)
    if not p.exists():
        return None
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise InvalidInputError(f"cannot read the checkpoint: {e}", path) from None
    state = SplitState.from_dict(data, path)
    if state.deal.to_dict() != deal.to_dict():
        raise InvalidInputError("the checkpoint is of another deal", path)
    return state


# -- positions ----------------------------------------------------------------


def _position(deal: Deal, first: int, line: list[Action]) -> Kernel:
    """The Python kernel at the turn start ``line`` leads to from ``first``."""
    k = Kernel.from_state(GameState(deal, first=first))
    for a in line:
        if a == END:
            k.end_turn()
        else:
            k.play(*a)
    return k


def covers(deal: Deal) -> bool:
    """The split search runs the compiled kernel of the classic family."""
    try:
        k = kernel_of(GameState(deal, first=deal.starting_players()[0]))
    except (ValueError, InvalidInputError):
        return False
    return type(k) is Kernel and ckernel.use_compiled(k)


# -- the workers ----------------------------------------------------------------

_DEAD_SETS: dict[str, Any] = {}
_LAST_DUMP = [0.0]


def _dead_set(job: dict[str, Any], k: Kernel) -> Any:
    """This process's table of dead turn starts for the job's deal: new,
    with the tables an earlier run wrote loaded into it."""
    key = json.dumps(job["deal"], sort_keys=True)
    shared = _DEAD_SETS.get(key)
    if shared is None:
        _DEAD_SETS.clear()
        shared = _DEAD_SETS[key] = ckernel.new_dead_set(k)
        for name in job["load"]:
            # a file gone: a newer run's worker wrote its own, holding it
            with contextlib.suppress(FileNotFoundError):
                shared.load(Path(name).read_bytes())
        _LAST_DUMP[0] = time.monotonic()
    return shared


def dump_table(prefix: str) -> str | None:
    """Write this process's table to ``prefix.PID``, atomically."""
    if not _DEAD_SETS:
        return None
    (shared,) = _DEAD_SETS.values()
    name = f"{prefix}.{os.getpid()}"
    tmp = f"{name}.tmp"
    with open(tmp, "wb") as f:
        f.write(shared.dump())
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, name)
    _LAST_DUMP[0] = time.monotonic()
    return name


def _ignore_sigint() -> None:
    # Ctrl-C reaches every process of the terminal's group: the parent
    # stops the workers and writes the checkpoint.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_unit(job: dict[str, Any]) -> dict[str, Any]:
    """Search one unit (in a worker, or in the parent with one worker)."""
    t0 = time.monotonic()
    c0 = time.process_time()
    deal = Deal.from_dict(job["deal"])
    line = [(a[0], a[1]) for a in job["line"]]
    k = _position(deal, job["first"], line)
    deadline = job["deadline"]
    if job["kind"] == UnitKind.BEAM:
        ck = ckernel.CKernel.of(k)
        mode = ckernel.FIRE if (k.players != 1 or k.fire) else ckernel.TURN
        win, proven, actions, left, nodes, *_ = ck._search(
            mode, job["nodes"], deadline, ckernel._ticker(None), (job["width"],),
            BRANCH, PER_PARENT, EXTRA, UNIT_MEMORY << 20, None, INF, True,
        )  # fmt: skip
        proven = False  # a beam proves nothing but a win
    else:
        shared = _dead_set(job, k)
        limit = Limit(None, job["nodes"], None, UNIT_MEMORY)
        res, _ = ckernel.search(k, limit, deadline, play_level=True, shared=shared, share_all=True)
        win, proven, actions, left, nodes = (
            res.win, res.proven, res.actions, res.best_left, res.stats.nodes,
        )  # fmt: skip
    dumped = None
    if job["tables"] and time.monotonic() - _LAST_DUMP[0] >= DUMP_SECONDS:
        dumped = dump_table(job["tables"])
    return {
        "dumped": dumped,
        "id": job["id"],
        "win": win,
        "proven": proven,
        "actions": [list(a) for a in actions],
        "left": left,
        "nodes": nodes,
        "worker": str(os.getpid()),
        "seconds": time.monotonic() - t0,
        "cpu": time.process_time() - c0,
    }


# -- the parent -----------------------------------------------------------------


class SplitSearch:
    """The parent: hands out units, keeps the proof together, checkpoints."""

    def __init__(
        self,
        deal: Deal,
        limit: Limit,
        jobs: int = 1,
        checkpoint: str | None = None,
        unit_nodes: int = UNIT_NODES,
        beams: bool = True,
    ) -> None:
        if not covers(deal):
            raise InvalidInputError(
                "--jobs and --checkpoint split the search of the classic family "
                "(classic, profi, profi-hard, on-fire) with the compiled kernel"
            )
        self.deal = deal
        self.limit = limit
        self.jobs = jobs
        self.path = checkpoint
        self.start = time.monotonic()
        self.cpu0 = time.process_time()
        self.deadline = limit.deadline(self.start)
        old = read_checkpoint(checkpoint, deal) if checkpoint else None
        self.resumed = old is not None
        self.state = old if old is not None else self._fresh(unit_nodes, beams)
        self.state.runs += 1
        # The workers' tables of dead turn starts: written beside the
        # checkpoint, loaded by this run's workers, and the older files
        # removed once every worker of this run has written its own.
        self.tables = f"{checkpoint}.dead" if checkpoint else None
        self.old_tables = self._table_files()
        self.dumped: set[str] = set()
        self.run_nodes = 0  # nodes of this run
        self.unit_cpu = 0.0  # CPU seconds of this run's units (workers included)
        self.in_flight: dict[int, int] = {}  # unit id -> its node slice

    def _fresh(self, unit_nodes: int, beams: bool) -> SplitState:
        st = SplitState(self.deal, unit_nodes)
        firsts = self.deal.starting_players()
        for f in firsts:  # proof units: popped after every beam
            u = self._new(st, UnitKind.PROVE, f, [])
            st.roots[f] = u.id
            key = _position(self.deal, f, []).key()
            st.key_of[u.id] = key
            st.by_key[key] = u.id
            st.stack.append(u.id)
        if beams:
            k = _position(self.deal, firsts[0], [])
            widths = beam_widths(k, self.limit, self.deadline)
            for w in reversed(widths):  # the narrowest first
                for f in reversed(firsts):
                    st.stack.append(self._new(st, UnitKind.BEAM, f, [], w).id)
        return st

    @staticmethod
    def _new(
        st: SplitState, kind: UnitKind, first: int, line: list[Action], width: int = 0
    ) -> Unit:
        u = Unit(st.next_id, kind, first, list(line), width)
        st.next_id += 1
        st.units[u.id] = u
        return u

    # -- budget ------------------------------------------------------------------

    def _nodes_left(self) -> int | None:
        if self.limit.nodes is None:
            return None
        return self.limit.nodes - self.run_nodes - sum(self.in_flight.values())

    def _out_of_budget(self) -> bool:
        if interrupt.requested():
            return True
        if self.deadline is not None and time.monotonic() >= self.deadline:
            return True
        left = self._nodes_left()
        return left is not None and left <= 0

    def _decided(self) -> bool:
        st = self.state
        return st.won is not None or len(st.lost) == len(st.roots)

    # -- the loop ------------------------------------------------------------------

    def _job(self, u: Unit) -> dict[str, Any]:
        left = self._nodes_left()
        if u.kind is UnitKind.BEAM:
            nodes = (1 << 62) if left is None else max(1, left)
        else:
            nodes = (
                self.state.unit_nodes if left is None else max(1, min(left, self.state.unit_nodes))
            )
        self.in_flight[u.id] = nodes
        return {
            "id": u.id,
            "deal": self.deal.to_dict(),
            "kind": u.kind.value,
            "first": u.first,
            "line": [list(a) for a in u.line],
            "width": u.width,
            "nodes": nodes,
            "deadline": self.deadline,
            "tables": self.tables,
            "load": self.old_tables,
        }

    def run(self) -> Solution:
        """Search until decided, out of budget or interrupted (then the
        checkpoint is written and ``KeyboardInterrupt`` raised)."""
        with interrupt.polling():
            try:
                if self.jobs == 1:
                    # A new run starts with an empty table, as a new worker does.
                    _DEAD_SETS.clear()
                    self._loop_inline()
                else:
                    self._loop_pool()
            except KeyboardInterrupt:  # a second Ctrl-C, or no handler installed
                interrupt.request()
            if self.tables is not None and self.jobs == 1:
                self._note_dump(dump_table(self.tables))
            self._save()
            if self._decided():
                self._drop_tables()
            if interrupt.requested():
                raise KeyboardInterrupt
        return self._answer()

    def _loop_inline(self) -> None:
        last = time.monotonic()
        while self.state.stack and not self._decided() and not self._out_of_budget():
            uid = self.state.stack.pop()
            out = run_unit(self._job(self.state.units[uid]))
            self._done(out)
            if time.monotonic() - last >= CHECKPOINT_SECONDS:
                self._save()
                last = time.monotonic()

    def _loop_pool(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        last = time.monotonic()
        pending: dict[int, Any] = {}
        try:
            self._pool_rounds(ctx, pending, last)
        finally:
            # Units still running go back on the stack: searched again later.
            for uid in pending:
                self.in_flight.pop(uid, None)
                self.state.stack.append(uid)

    def _pool_rounds(self, ctx: Any, pending: dict[int, Any], last: float) -> None:
        done: queue.SimpleQueue[dict[str, Any]] = queue.SimpleQueue()
        # The workers are started deaf to Ctrl-C (the parent stops them and
        # writes the checkpoint): none prints a traceback while it loads.
        with interrupt.deaf_children():
            started = ctx.Pool(self.jobs, initializer=_ignore_sigint)
        with started as pool:
            while True:
                while (
                    len(pending) < self.jobs
                    and self.state.stack
                    and not self._decided()
                    and not self._out_of_budget()
                ):
                    uid = self.state.stack.pop()
                    job = self._job(self.state.units[uid])
                    pending[uid] = pool.apply_async(run_unit, (job,), callback=done.put)
                if not pending:
                    break
                try:
                    # A short wait, so that Ctrl-C and the clock are seen.
                    out = done.get(timeout=0.25)
                except queue.Empty:
                    out = None
                for r in list(pending.values()):
                    if r.ready() and not r.successful():
                        r.get()  # a worker's error is the parent's
                if out is not None:
                    del pending[out["id"]]
                    self._done(out)
                if interrupt.requested() or self._decided():
                    pool.terminate()
                    break
                if time.monotonic() - last >= CHECKPOINT_SECONDS:
                    self._save(pending)
                    last = time.monotonic()

    def _table_files(self) -> list[str]:
        if self.tables is None:
            return []
        folder = Path(self.tables).parent
        stem = Path(self.tables).name + "."
        return sorted(str(p) for p in folder.glob(stem + "*") if p.name[len(stem) :].isdigit())

    def _note_dump(self, name: str | None) -> None:
        if name is None:
            return
        self.dumped.add(name)
        if self.old_tables and len(self.dumped) >= self.jobs:
            for old in self.old_tables:
                if old not in self.dumped:
                    Path(old).unlink(missing_ok=True)
            self.old_tables = []

    def _drop_tables(self) -> None:
        """A decided search needs its tables no more."""
        for name in self._table_files():
            Path(name).unlink(missing_ok=True)

    def _done(self, out: dict[str, Any]) -> None:
        st = self.state
        self._note_dump(out.get("dumped"))
        uid = out["id"]
        given = self.in_flight.pop(uid, out["nodes"])
        u = st.units[uid]
        self.run_nodes += out["nodes"]
        st.nodes += out["nodes"]
        w = st.workers.setdefault(out["worker"], WorkerStats())
        w.units += 1
        w.nodes += out["nodes"]
        w.busy += out["seconds"]
        w.cpu += out["cpu"]
        self.unit_cpu += out["cpu"]
        if self.limit.progress is not None:
            self.limit.progress(st.nodes)
        actions = [(a[0], a[1]) for a in out["actions"]]
        if out["win"]:
            st.won = (u.first, [*u.line, *actions])
            return
        if st.best is None or out["left"] < st.best[0]:
            st.best = (out["left"], u.first, [*u.line, *actions])
        if u.kind is UnitKind.BEAM:
            clock = self.deadline is not None and time.monotonic() >= self.deadline
            if out["nodes"] >= given or clock or interrupt.requested():
                st.stack.append(uid)  # cut short: the whole beam runs again later
            else:
                del st.units[uid]
        elif out["proven"]:
            self._dead(uid)
        elif out["nodes"] < given or given < st.unit_nodes:
            # Cut by the clock, Ctrl-C or the end of a node budget: the same
            # unit is searched again by a later run, so that the tree is
            # split as an uncut run splits it.
            st.stack.append(uid)
        else:
            self._expand(u)

    def _dead(self, uid: int) -> None:
        """A proof unit proven dead: tell the units that wait on it."""
        st = self.state
        todo = [uid]
        while todo:
            i = todo.pop()
            u = st.units.pop(i)
            key = st.key_of.pop(i)
            st.dead.add(key)
            st.by_key.pop(key, None)
            if i in st.roots.values() and not u.line:
                st.lost.add(u.first)
            for p in u.parents:
                parent = st.units.get(p)
                if parent is None:
                    continue
                parent.waiting -= 1
                if parent.waiting == 0:
                    todo.append(p)

    def _expand(self, u: Unit) -> None:
        """Replace a unit that ran out by the positions after each of its
        whole turns; the parent is dead once they all are."""
        st = self.state
        k = _position(self.deal, u.first, u.line)
        turns = k.solo_turns() if k.players == 1 and not k.fire else k.fire_turns()
        snap = k.snapshot()
        children: list[tuple[int, Unit]] = []
        u.expanded = True
        for _cost, plays in turns:
            k.restore(snap)
            for c, p in plays:
                k.play(c, p)
            line = [*u.line, *plays, END]
            if k.won():
                st.won = (u.first, line)
                return
            k.end_turn()
            key = k.key()
            if key in st.dead:
                st.memo_cuts += 1
                continue
            if k.unplayed and turn_start_bound(k) is not None:
                st.argument_cuts += 1
                st.dead.add(key)
                continue
            known = st.by_key.get(key)
            if known is not None:
                st.units[known].parents.append(u.id)
                u.waiting += 1
                continue
            child = self._new(st, UnitKind.PROVE, u.first, line)
            child.parents.append(u.id)
            st.key_of[child.id] = key
            st.by_key[key] = child.id
            u.waiting += 1
            children.append((k.evaluate(), child))
        k.restore(snap)
        if u.waiting == 0:
            self._dead(u.id)
            return
        # The most promising child is searched first (the stack's top).
        for _, child in sorted(children, key=lambda x: -x[0]):
            st.stack.append(child.id)

    def _save(self, pending: dict[int, Any] | None = None) -> None:
        if self.path is None:
            return
        st = self.state
        elapsed = time.monotonic() - self.start
        cpu = self._cpu()
        # Units running now are open in the file: a kill searches them again.
        saved_stack = list(st.stack)
        st.stack = saved_stack + [i for i in (pending or {}) if i in st.units]
        st.seconds += elapsed
        st.cpu += cpu
        write_checkpoint(self.path, st)
        st.seconds -= elapsed
        st.cpu -= cpu
        st.stack = saved_stack

    # -- the answer ------------------------------------------------------------------

    def _answer(self) -> Solution:
        st = self.state
        stats = SearchStats(nodes=st.nodes, dead_positions=len(st.dead))
        seconds = st.seconds + time.monotonic() - self.start
        if st.won is not None:
            first, line = st.won
            res = PositionResult(Verdict.WIN, line, 0, True, 0, stats)
            sol = verified(self.deal, first, res, None, stats, 0, time.monotonic())
        else:
            first, line, left = self._best_whole()
            if len(st.lost) == len(st.roots):
                starts = "any starting player" if len(st.roots) > 1 else "this start"
                proof = (
                    f"no perfect clear: the search split into units from {starts}, "
                    f"{len(st.dead)} turn starts proven dead ({st.argument_cuts} by the loss "
                    f"arguments, {st.memo_cuts} found again); fewest cards left not proven: "
                    f"at least 1, best found {left}"
                )
                res = PositionResult(Verdict.LOSS, line, left, left <= 1, 1, stats)
                sol = verified(
                    self.deal, first, res, proof, stats, 0, time.monotonic(), left <= 1, 1
                )
                sol.details["proof_kind"] = "search"
                sol.details["closing_bound"] = 1
            else:
                res = PositionResult(Verdict.UNKNOWN, line, left, False, 0, stats)
                sol = verified(self.deal, first, res, None, stats, 0, time.monotonic(), False, 0)
        sol.seconds = seconds
        sol.details.update(self.report())
        return sol

    def _best_whole(self) -> tuple[int, list[Action], int]:
        """The best line found, finished greedily to a whole game."""
        st = self.state
        first = self.deal.starting_players()[0] if st.best is None else st.best[1]
        actions = [] if st.best is None else st.best[2]
        while actions and actions[-1] != END:
            actions = actions[:-1]
        state = GameState(self.deal, first=first)
        bk = walker(kernel_of(state))
        for a in actions:
            if a == END:
                bk.end_turn()
            else:
                bk.play(*a)
        line = actions + finish_greedily(bk)
        return first, line, bk.unplayed.bit_count()

    def _cpu(self) -> float:
        """CPU seconds of this run: the units' (in the workers or here) and
        the parent's own work between them."""
        own = time.process_time() - self.cpu0
        return own + (self.unit_cpu if self.jobs > 1 else 0.0)

    def report(self) -> dict[str, Any]:
        """The split search's own figures (a solution's ``details``)."""
        st = self.state
        return {
            "split": {
                "jobs": self.jobs,
                "runs": st.runs,
                "resumed": self.resumed,
                "unit_nodes": st.unit_nodes,
                "open_units": len(st.stack),
                "units": len(st.units),
                "dead_positions": len(st.dead),
                "argument_cuts": st.argument_cuts,
                "memo_cuts": st.memo_cuts,
                "lost_starts": sorted(st.lost),
                "run_nodes": self.run_nodes,
                "cpu_seconds": round(st.cpu + self._cpu(), 2),
                "workers": {w: vars(s) for w, s in st.workers.items()},
            }
        }


def solve_split(
    deal: Deal,
    limit: Limit,
    jobs: int = 1,
    checkpoint: str | None = None,
    unit_nodes: int = UNIT_NODES,
    beams: bool = True,
) -> Solution:
    """Solve ``deal`` with the split search (module notes): ``jobs`` worker
    processes, resumable from ``checkpoint``. The budget covers every
    worker and this run only; Ctrl-C writes the checkpoint and raises
    ``KeyboardInterrupt``."""
    if any(GameState(deal, first=f).over for f in deal.starting_players()):
        from .api import solve  # a game over before its first turn: nothing to split

        return solve(deal, limit)
    return SplitSearch(deal, limit, jobs, checkpoint, unit_nodes, beams).run()
