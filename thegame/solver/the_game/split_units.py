"""The split search's units and its saved state, and a worker's side of it.

``parallel`` (the parent) hands out units and keeps the proof together;
this module is what crosses between the two: a unit, the state written to
the checkpoint file (atomically), and ``run_unit``, which a worker process
calls for one unit with the worker's own table of dead turn starts.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import time
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from ...models import InvalidInputError, Limit
from ...models.the_game import Deal, GameState
from . import ckernel
from .arguments import turn_start_bound
from .backend import kernel_of
from .beam import BRANCH, EXTRA, PER_PARENT
from .kernel import END, INF, Action, Kernel

# A proof unit's nodes: a few seconds of one core, so a kill loses little,
# and large enough that the children of a unit that runs out are few
# compared with its work.
UNIT_NODES = 4_000_000
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
    branch: int = BRANCH  # a beam's plays tried at each step of a turn
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
            "branch": self.branch,
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
            d.get("branch", BRANCH),  # checkpoints from before broad beams
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
    # A stored best line the search walks back along (its start, its whole turns).
    line: tuple[int, list[Action]] | None = None

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
            "line": None if self.line is None else [self.line[0], [list(a) for a in self.line[1]]],
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
        if d.get("line") is not None:  # checkpoints from before the walk back have none
            st.line = (d["line"][0], [(a[0], a[1]) for a in d["line"][1]])
        for u in st.units.values():
            if u.kind is UnitKind.PROVE:
                key = position_at(st.deal, u.first, u.line).key()
                st.key_of[u.id] = key
                st.by_key[key] = u.id
        return st


def checkpoint_path(path: str, deal: Deal) -> str:
    """``path`` itself, or for a folder the deal's own file in it (named by
    a digest of the deal, so that one folder serves many deals)."""
    if not Path(path).is_dir():
        return path
    digest = hashlib.sha256(json.dumps(deal.to_dict(), sort_keys=True).encode()).hexdigest()
    return str(Path(path) / f"split-{digest[:16]}.json")


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


def position_at(deal: Deal, first: int, line: list[Action]) -> Kernel:
    """The Python kernel at the turn start ``line`` leads to from ``first``."""
    k = Kernel.from_state(GameState(deal, first=first))
    for a in line:
        if a == END:
            k.end_turn()
        else:
            k.play(*a)
    return k


def turn_starts(
    deal: Deal, first: int, line: list[Action]
) -> list[tuple[list[Action], tuple[int, ...]]]:
    """Each turn start along ``line`` (whole turns): the actions that lead
    to it and its position's key, from the deal's start to the line's end."""
    k = Kernel.from_state(GameState(deal, first=first))
    out: list[tuple[list[Action], tuple[int, ...]]] = [([], k.key())]
    for i, a in enumerate(line):
        if a == END:
            k.end_turn()
            out.append((line[: i + 1], k.key()))
        else:
            k.play(*a)
    return out


def line_reach(state: SplitState) -> int | None:
    """The earliest turn (1-based) from whose start to the end every turn
    start of the stored line is proven dead; None: not even the last."""
    if state.line is None:
        return None
    reach = None
    starts = turn_starts(state.deal, *state.line)
    for turn in range(len(starts), 0, -1):
        if starts[turn - 1][1] not in state.dead:
            break
        reach = turn
    return reach


def covers(deal: Deal) -> bool:
    """The split search runs the compiled kernel of the classic family."""
    try:
        k = kernel_of(GameState(deal, first=deal.starting_players()[0]))
    except (ValueError, InvalidInputError):
        return False
    return type(k) is Kernel and ckernel.use_compiled(k)


# -- the workers ----------------------------------------------------------------

DEAD_SETS: dict[str, Any] = {}
_LAST_DUMP = [0.0]


def _dead_set(job: dict[str, Any], k: Kernel) -> Any:
    """This process's table of dead turn starts for the job's deal: new,
    with the tables an earlier run wrote loaded into it."""
    key = json.dumps(job["deal"], sort_keys=True)
    shared = DEAD_SETS.get(key)
    if shared is None:
        DEAD_SETS.clear()
        shared = DEAD_SETS[key] = ckernel.new_dead_set(k)
        if job.get("share_bits"):
            # what this worker proves is kept aside for the other workers
            shared.journal(job["share_bits"])
        for name in job["load"]:
            # a file gone: a newer run's worker wrote its own, holding it
            with contextlib.suppress(FileNotFoundError):
                shared.load(Path(name).read_bytes())
        _LAST_DUMP[0] = time.monotonic()
    return shared


def dump_table(prefix: str) -> str | None:
    """Write this process's table to ``prefix.PID``, atomically."""
    if not DEAD_SETS:
        return None
    (shared,) = DEAD_SETS.values()
    name = f"{prefix}.{os.getpid()}"
    tmp = f"{name}.tmp"
    with open(tmp, "wb") as f:
        f.write(shared.dump())
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, name)
    _LAST_DUMP[0] = time.monotonic()
    return name


def ignore_sigint() -> None:
    # Ctrl-C reaches every process of the terminal's group: the parent
    # stops the workers and writes the checkpoint.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_unit(job: dict[str, Any]) -> dict[str, Any]:
    """Search one unit (in a worker, or in the parent with one worker)."""
    t0 = time.monotonic()
    c0 = time.process_time()
    deal = Deal.from_dict(job["deal"])
    line = [(a[0], a[1]) for a in job["line"]]
    k = position_at(deal, job["first"], line)
    # The budget's time as seconds from now: a Ray worker's clock is not the parent's.
    seconds_left = job["seconds_left"]
    deadline = None if seconds_left is None else t0 + seconds_left
    argument = False
    for entries in job.get("share", ()):  # what the other workers proved
        _dead_set(job, k).load(entries)
    if job["kind"] == UnitKind.BEAM:
        ck = ckernel.CKernel.of(k)
        mode = ckernel.FIRE if (k.players != 1 or k.fire) else ckernel.TURN
        budget = ckernel.c_budget(Limit(None, job["nodes"], None, UNIT_MEMORY), deadline)
        win, proven, actions, left, nodes, *_ = ck._search(
            mode, (job["width"],), job.get("branch", BRANCH), PER_PARENT, EXTRA, INF, budget,
            beams_only=True,
        )  # fmt: skip
        proven = False  # a beam proves nothing but a win
    elif k.unplayed and turn_start_bound(k) is not None:
        # a loss argument closes the position: no search
        win, proven, actions, left, nodes = False, True, [], INF, 0
        argument = True
    else:
        shared = _dead_set(job, k)
        limit = Limit(None, job["nodes"], None, UNIT_MEMORY)
        res, _ = ckernel.search(k, limit, deadline, play_level=True, shared=shared, share_all=True)
        win, proven, actions, left, nodes = (
            res.win, res.proven, res.actions, res.best_left, res.stats.nodes,
        )  # fmt: skip
    new = DEAD_SETS and job.get("share_bits")
    dumped = None
    if job["tables"] and time.monotonic() - _LAST_DUMP[0] >= DUMP_SECONDS:
        dumped = dump_table(job["tables"])
    return {
        "new": next(iter(DEAD_SETS.values())).take() if new else b"",
        "dumped": dumped,
        "id": job["id"],
        "win": win,
        "proven": proven,
        "argument": argument,
        "actions": [list(a) for a in actions],
        "left": left,
        "nodes": nodes,
        "worker": str(os.getpid()),
        "seconds": time.monotonic() - t0,
        "cpu": time.process_time() - c0,
    }
