"""One deal's search split into units: over worker processes, and resumable.

The search of ``api.solve`` is one process's beams and one depth-first
search with its memo; it cannot be stopped and taken up again, nor shared.
The split search cuts the same work into units a worker can finish in a
few seconds, and keeps in the parent process what decides the deal:

- **beam units**: one beam over whole turns of one width from one start
  (the widths ``api.solve`` would run, and with a long budget the broad
  beams, ``beam.broad_beams``), run whole;
- **proof units**: the complete play-by-play search (``dfs.Searcher``,
  compiled) from one turn start, within ``unit_nodes`` nodes. A unit that
  proves its position dead is done; one that wins wins the deal; one that
  runs out is expanded into the positions after each of its whole turns
  (``TurnLister``: all distinct results, so a position is dead exactly when
  every child is); children the parent already knows dead are not searched
  at all, and a worker first asks the loss arguments (``arguments``) of a
  unit's position, which close it without a search when they can (in the
  worker, not the parent: they are most of a unit's cost to the parent);
- **a stored line** (a survey's best line of a deal left unknown), walked
  back: a proof unit at each of its turn starts, the last searched first,
  before the beams and the search from the start (``line_lost_from`` in
  the report: how far back the line is proven lost).

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

import time
from pathlib import Path
from typing import Any

from ...models import Backend, InvalidInputError, Limit, Verdict, interrupt
from ...models.the_game import Deal, GameState, variants
from .backend import kernel_of, walker
from .beam import BRANCH, BROAD_BRANCH, BROAD_WIDTH, beam_widths, broad_beams
from .budget import SearchStats
from .kernel import END, Action
from .optimum import finish_greedily
from .solution import PositionResult, Solution
from .split_units import (
    DEAD_SETS,
    UNIT_NODES,
    SplitState,
    Unit,
    UnitKind,
    WorkerStats,
    covers,
    dump_table,
    line_reach,
    position_at,
    read_checkpoint,
    run_unit,
    turn_starts,
    write_checkpoint,
)
from .split_workers import Workers, start_workers
from .verify import verified

# Seconds between two writes of the checkpoint.
CHECKPOINT_SECONDS = 5.0
# The dead positions a worker tells the others about: those whose proof took
# at least 2^(SHARE_BITS-1) nodes (cheaper ones are found again faster than
# they are sent and loaded).
SHARE_BITS = 3


# -- the parent -----------------------------------------------------------------


class SplitSearch:
    """The parent: hands out units, keeps the proof together, checkpoints."""

    def __init__(
        self,
        deal: Deal,
        limit: Limit,
        jobs: int | None = 1,
        checkpoint: str | None = None,
        unit_nodes: int = UNIT_NODES,
        beams: bool = True,
        backend: Backend = Backend.LOCAL,
        address: str | None = None,
        share_bits: int = SHARE_BITS,
        line: tuple[int, list[Action]] | None = None,
    ) -> None:
        if not covers(deal):
            raise InvalidInputError(
                "--jobs and --checkpoint split the search of the classic family ("
                + ", ".join(variants.names(duel=False, commands=False))
                + ") with the compiled kernel"
            )
        self.deal = deal
        self.limit = limit
        # One local worker: the units run in this process.
        self.inline = backend is Backend.LOCAL and (jobs or 1) == 1
        self.jobs = jobs or 1
        self.asked_jobs = jobs
        self.backend = backend
        self.address = address
        self.share_bits = share_bits
        # What the workers proved, on its way to the others: (from slot,
        # entries); ``seen[slot]`` is how far that worker has had it.
        self.log: list[tuple[int, bytes]] = []
        self.log_base = 0  # the log's first entry's index (older ones all seen)
        self.seen: list[int] = []
        self.shared_bytes = 0  # bytes sent to workers
        self.path = checkpoint
        self.start = time.monotonic()
        self.cpu0 = time.process_time()
        self.deadline = limit.deadline(self.start)
        old = read_checkpoint(checkpoint, deal) if checkpoint else None
        self.resumed = old is not None
        self.state = old if old is not None else self._fresh(unit_nodes, beams, line)
        if old is not None and old.line is None and line is not None:
            self._walk_back(old, *line)  # a checkpoint from a search without the line
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

    def _fresh(
        self, unit_nodes: int, beams: bool, line: tuple[int, list[Action]] | None
    ) -> SplitState:
        st = SplitState(self.deal, unit_nodes)
        firsts = self.deal.starting_players()
        for f in firsts:  # proof units: popped after every beam
            u = self._new(st, UnitKind.PROVE, f, [])
            st.roots[f] = u.id
            key = position_at(self.deal, f, []).key()
            st.key_of[u.id] = key
            st.by_key[key] = u.id
            st.stack.append(u.id)
        if beams:
            k = position_at(self.deal, firsts[0], [])
            widths = beam_widths(k, self.limit, self.deadline)
            broad = broad_beams(k, self.limit, self.deadline)
            order: list[tuple[int, int, int]] = []  # (width, branch, start), in turn
            for w in widths:  # the narrowest first
                order.extend((w, BRANCH, f) for f in firsts)
                if broad and w == BROAD_WIDTH:
                    order.extend((w, BROAD_BRANCH, f) for f in firsts)
            for w, b, f in reversed(order):  # a stack: the first to run goes on last
                st.stack.append(self._new(st, UnitKind.BEAM, f, [], w, b).id)
        if line is not None:
            self._walk_back(st, *line)
        return st

    def _walk_back(self, st: SplitState, first: int, line: list[Action]) -> None:
        """A proof unit at each turn start of a stored line, the last on top
        of the stack: the line is proven dead from its end backwards (each
        proof makes the one before it cheaper: its child on the line is
        known), and a clear from any of them wins the deal."""
        st.line = (first, list(line))
        left = position_at(self.deal, first, line).unplayed.bit_count()
        if st.best is None or left < st.best[0]:  # the line is the best found so far
            st.best = (left, first, list(line))
        for actions, key in turn_starts(self.deal, first, line):
            if key in st.by_key or key in st.dead:  # a root's, or proven already
                continue
            u = self._new(st, UnitKind.PROVE, first, actions)
            st.key_of[u.id] = key
            st.by_key[key] = u.id
            st.stack.append(u.id)

    @staticmethod
    def _new(
        st: SplitState,
        kind: UnitKind,
        first: int,
        line: list[Action],
        width: int = 0,
        branch: int = BRANCH,
    ) -> Unit:
        u = Unit(st.next_id, kind, first, list(line), width, branch)
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

    def _share_for(self, slot: int) -> list[bytes]:
        """The entries the other workers proved since ``slot``'s last unit."""
        start = self.seen[slot] - self.log_base
        share = [b for src, b in self.log[start:] if src != slot and b]
        self.seen[slot] = self.log_base + len(self.log)
        drop = min(self.seen) - self.log_base  # seen by every worker: forgotten
        if drop > 0:
            del self.log[:drop]
            self.log_base += drop
        self.shared_bytes += sum(len(b) for b in share)
        return share

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
            "branch": u.branch,
            "nodes": nodes,
            "seconds_left": None if self.deadline is None else self.deadline - time.monotonic(),
            "tables": self.tables,
            "load": self.old_tables,
            "share_bits": 0 if self.inline else self.share_bits,
        }

    def run(self) -> Solution:
        """Search until decided, out of budget or interrupted (then the
        checkpoint is written and ``KeyboardInterrupt`` raised)."""
        with interrupt.polling():
            try:
                if self.inline:
                    # A new run starts with an empty table, as a new worker does.
                    DEAD_SETS.clear()
                    self._loop_inline()
                else:
                    self._loop_pool()
            except KeyboardInterrupt:  # a second Ctrl-C, or no handler installed
                interrupt.request()
            if self.tables is not None and self.inline:
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
        workers = start_workers(self.backend, self.asked_jobs, self.address)
        self.jobs = workers.slots
        self.seen = [self.log_base + len(self.log)] * workers.slots
        if not workers.local:
            self.tables, self.old_tables = None, []  # the workers do not see this disk
        pending: dict[int, int] = {}  # slot -> its unit
        try:
            self._pool_rounds(workers, pending)
        finally:
            workers.stop()
            # Units still running go back on the stack: searched again later.
            for uid in pending.values():
                self.in_flight.pop(uid, None)
                self.state.stack.append(uid)

    def _pool_rounds(self, workers: Workers, pending: dict[int, int]) -> None:
        last = time.monotonic()
        while True:
            for slot in range(workers.slots):
                if slot in pending or not self._can_hand_out():
                    continue
                uid = self.state.stack.pop()
                job = self._job(self.state.units[uid])
                job["share"] = self._share_for(slot)
                workers.submit(slot, job)
                pending[slot] = uid
            if not pending:
                break
            # A short wait, so that Ctrl-C and the clock are seen.
            for out in workers.results(0.25):
                del pending[out["slot"]]
                self.log.append((out["slot"], out["new"]))
                self._done(out)
            if interrupt.requested() or self._decided():
                break
            if time.monotonic() - last >= CHECKPOINT_SECONDS:
                self._save(list(pending.values()))
                last = time.monotonic()

    def _can_hand_out(self) -> bool:
        return bool(self.state.stack) and not self._decided() and not self._out_of_budget()

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
            st.argument_cuts += out.get("argument", False)
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
        k = position_at(self.deal, u.first, u.line)
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

    def _save(self, pending: list[int] | None = None) -> None:
        if self.path is None:
            return
        st = self.state
        elapsed = time.monotonic() - self.start
        cpu = self._cpu()
        # Units running now are open in the file: a kill searches them again.
        saved_stack = list(st.stack)
        st.stack = saved_stack + [i for i in (pending or []) if i in st.units]
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
        return own + (0.0 if self.inline else self.unit_cpu)

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
                "line_turns": None if st.line is None else st.line[1].count(END),
                "line_lost_from": line_reach(st),
                "run_nodes": self.run_nodes,
                "shared_bytes": self.shared_bytes,
                "cpu_seconds": round(st.cpu + self._cpu(), 2),
                "workers": {w: vars(s) for w, s in st.workers.items()},
            }
        }


def solve_split(
    deal: Deal,
    limit: Limit,
    jobs: int | None = 1,
    checkpoint: str | None = None,
    unit_nodes: int = UNIT_NODES,
    beams: bool = True,
    backend: Backend = Backend.LOCAL,
    address: str | None = None,
    share_bits: int = SHARE_BITS,
    line: tuple[int, list[Action]] | None = None,
) -> Solution:
    """Solve ``deal`` with the split search (module notes): ``jobs`` worker
    processes, resumable from ``checkpoint``. The budget covers every
    worker and this run only; Ctrl-C writes the checkpoint and raises
    ``KeyboardInterrupt``. ``line`` (a start and its whole turns, as a
    survey stores a best line) is walked back from its end first."""
    if any(GameState(deal, first=f).over for f in deal.starting_players()):
        from .api import solve  # a game over before its first turn: nothing to split

        return solve(deal, limit)
    search = SplitSearch(
        deal, limit, jobs, checkpoint, unit_nodes, beams, backend, address, share_bits, line
    )
    return search.run()
