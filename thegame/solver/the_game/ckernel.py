"""The compiled search kernel: ``Kernel`` and the searches over
it (``dfs.Searcher``, ``beam.TurnSearcher``, ``beam.FireBeamSearcher``) in C,
and Extreme's: ``ExtremeKernel`` and ``extreme.beam.ExtremeBeamSearcher``.

``_ckernel`` is a C extension module (``csrc/``, plain C and the CPython C API: gcc
and the Python headers are all it needs, no Cython or C++ toolchain), built
by ``pip install`` through ``setup.py`` where a compiler is found and
skipped where not (``optional=True``); then everything runs on the Python
kernel, which stays the reference. The C code ports the Python code line by
line: the same moves in the same order, the same memo keys and the same
sound cuts, so a compiled search visits exactly the nodes the Python one
does (``tests/the_game/test_ckernel.py`` compares node counts). Its memo tables are
bounded (``MEMO_BYTES``); past the bound they stop growing, which costs
repeated work, never soundness.

Extreme (rules X, without fire cards) is covered the same way: the C kernel
holds one card mask per command kind (stop, skull, three, no-trick,
one-pile, draw-one; no-talk is nothing for an engine) and, as
``ExtremeKernel``, the turn state packed into ``pending`` (the piles this
turn's cards went onto, a stop played, a three played); what shows is read
from the tops. A ``CKernel`` of an ``ExtremeKernel`` answers as that one.

``CKernel`` is the compiled position with the ``Kernel`` interface (for the
conformance tests and for anything that walks a kernel from Python);
``search`` runs a whole decision search in C. ``THEGAME_KERNEL=python``
forces the reference kernel.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Container

from ...models import interrupt
from ...models.outcome import Limit
from ...models.the_game import Deal, GameKind, GameState, Rules
from .beam import BRANCH, EXTRA, MULTI_ENDGAME, PER_PARENT, beam_widths
from .budget import DEFAULT_MEMORY_MIB, SearchStats
from .dfs import SearchResult
from .extreme import beam as extreme_beam
from .extreme.kernel import ExtremeKernel
from .extreme.kernel import covers as extreme_covers
from .kernel import INF, W2, W3, Kernel, KernelSnapshot

try:
    from . import _ckernel

    _Core = _ckernel.Core
    BUILT = True
except ImportError:  # installed without a C compiler: the Python kernel only
    _Core = object  # type: ignore[misc,assignment]
    BUILT = False

# Memory for the compiled search's memo tables together (``Limit.memory``
# overrides it): half for the dead positions, a quarter for the tried
# allowances (the chains' in the last, unlimited iteration, which asks no
# tried allowance), a quarter for the dominance chains; each table's slots are a
# power of two within its share, plus the old table while one grows, so a
# worker's peak stays under 1 GiB. Deep loss proofs fill it (RESULTS.md).
MEMO_BYTES = DEFAULT_MEMORY_MIB << 20
# Search modes of ``_ckernel.Core._search``: the classes they port.
# Searcher, TurnSearcher, FireBeamSearcher, ExtremeBeamSearcher
PLAY, TURN, FIRE, EXTREME = 0, 1, 2, 3
ENV = "THEGAME_KERNEL"


def _ticker(progress: Callable[[int], None] | None) -> Callable[[int], bool]:
    """What the C search calls every 64 nodes: the caller's progress, and
    True once Ctrl-C asked running searches to stop (``models.interrupt``);
    calling into Python also lets the signal handler run."""

    def tick(nodes: int) -> bool:
        if progress is not None:
            progress(nodes)
        return interrupt.requested()

    return tick


# What ``Core._search`` takes as its budget (the C side's ``Budget``,
# thegame/csrc/budget.h): node limit (None: none), deadline (time.monotonic()
# seconds, or None), bytes for the tables, progress (True from it: stop).
CBudget = tuple[int | None, float | None, int, Callable[[int], bool] | None]


def c_budget(limit: Limit, deadline: float | None) -> CBudget:
    """The compiled search's budget of ``limit`` (its memory, its progress
    with the Ctrl-C check) with ``deadline``: one Limit, one C Budget."""
    return (limit.nodes, deadline, memo_bytes(limit), _ticker(limit.progress))


def forced_python() -> bool:
    return os.environ.get(ENV, "").strip().lower() == "python"


def kernel_name() -> str:
    """Which kernel the searches use, for ``thegame --version``."""
    if forced_python():
        return f"python ({ENV}=python)"
    if not BUILT:
        return "python (the C extension is not built)"
    return "c (compiled, classic family and Extreme, with the Python kernel as reference)"


def covers(rules: Rules, players: int) -> bool:
    """The compiled kernel holds this variant: the classic family, or Extreme
    without fire cards (as ``ExtremeKernel``); card values below 128 (the
    masks are 128 bits), at most 8 piles and 8 players, short move lists."""
    if not BUILT or rules.kind is not GameKind.CLASSIC:
        return False
    if rules.commands and not extreme_covers(rules):
        return False
    n_piles = rules.asc_piles + rules.desc_piles
    return (
        rules.asc_start >= 0
        and rules.high + 2 <= _ckernel.MAX_SIZE
        and 1 <= n_piles <= _ckernel.MAX_PILES
        and players <= _ckernel.MAX_PLAYERS
        and rules.step >= 1
        and rules.hand_size(players) * n_piles <= 255
        and all(0 <= c <= rules.high for c in rules.fire_cards)
    )


def use_compiled(kernel: Kernel) -> bool:
    """Search this kernel in C: built, not forced off, and covered (the
    reference kernels themselves, not other subclasses)."""
    return (
        type(kernel) in (Kernel, ExtremeKernel)
        and not forced_python()
        and covers(kernel.rules, kernel.players)
    )


def _reference(deal: Deal, first: int) -> Kernel:
    """The Python kernel of a deal: Extreme's knows the commands (X)."""
    return ExtremeKernel(deal, first) if deal.rules.commands else Kernel(deal, first)


class CKernel(_Core):
    """The compiled kernel with ``Kernel``'s interface; positions and
    results are the Python kernel's (``tests/the_game/test_kernel_conformance.py``)."""

    def __init__(self, deal: Deal, first: int) -> None:
        self._adopt(_reference(deal, first))

    @classmethod
    def from_state(cls, state: GameState) -> CKernel:
        if state.rules.commands:
            return cls.of(ExtremeKernel.from_state(state))
        return cls.of(Kernel.from_state(state))

    @classmethod
    def of(cls, py: Kernel) -> CKernel:
        """A compiled kernel at the Python kernel's position."""
        k = cls.__new__(cls)
        k._adopt(py)
        return k

    def _adopt(self, py: Kernel) -> None:
        if not BUILT:
            raise RuntimeError("the C extension is not built")
        if not covers(py.rules, py.players):
            raise ValueError(f"the compiled kernel does not cover {py.rules.name}")
        self.rules = py.rules
        self.tops_dominate = py.tops_dominate
        self.deck = py.deck
        self.players = py.players
        self.hand_size = py.hand_size
        self.n_asc = py.n_asc
        self.n_piles = py.n_piles
        self.step = py.step
        self.min_play = py.min_play
        self.min_empty = py.min_empty
        self.fire = py.fire
        self.total = py.total
        self.base_max_turn = py.base_max_turn
        self.btw = py.btw
        self.size = py.size
        self.place = py.place
        p = py.place
        self._configure(
            py.players,
            py.hand_size,
            py.n_asc,
            py.n_piles,
            py.step,
            py.min_play,
            py.min_empty,
            py.rules.low,
            py.size,
            min(py.base_max_turn, INF),
            W2,
            W3,
            py.fire,
            py.deck,
            p.trick_top[0],
            p.trick_top[1],
            p.first_beyond,
            p.last_beyond,
            p.accepted[0],
            p.accepted[1],
        )
        self.extreme = isinstance(py, ExtremeKernel)
        if isinstance(py, ExtremeKernel):
            self.cmd = dict(py.cmd)
            self.stop, self.skull, self.three = py.stop, py.skull, py.three
            self.no_trick, self.one_pile, self.draw_one = py.no_trick, py.one_pile, py.draw_one
            self._commands(py.stop, py.skull, py.three, py.no_trick, py.one_pile, py.draw_one)
        self.restore(py.snapshot())

    def snapshot(self) -> KernelSnapshot:
        return KernelSnapshot.of(self)

    def restore(self, snap: KernelSnapshot) -> None:
        self._set_state(
            list(snap.tops),
            list(snap.hands),
            snap.pos,
            snap.unplayed,
            snap.player,
            snap.plays,
            snap.pending,
            snap.turn_min,
            snap.max_turn,
        )

    def between(self, a: int, b: int) -> int:
        return self.btw[a][b]

    def draw_need(self, hand: int) -> int:
        if self.extreme and any(self.draw_one >> t & 1 for t in self.tops):
            return 1  # X4c, as ``ExtremeKernel.draw_need``
        return self.hand_size - hand.bit_count()


def memo_bytes(limit: Limit) -> int:
    """The bytes of the memo tables: ``limit.memory`` MiB, else ``MEMO_BYTES``."""
    return MEMO_BYTES if limit.memory is None else limit.memory << 20


def new_dead_set(kernel: Kernel) -> _ckernel.DeadSet:
    """An empty memo of dead turn-start positions, shared by the compiled
    searches of one deal (``search``'s ``shared``)."""
    return _ckernel.new_dead_set(
        kernel.n_asc,
        kernel.n_piles,
        kernel.players,
        kernel.hand_size,
        kernel.size,
        kernel.total,
        kernel.min_play,
        MEMO_BYTES // 2,
        isinstance(kernel, ExtremeKernel),
    )


def search(
    kernel: Kernel,
    limit: Limit,
    deadline: float | None,
    play_level: bool = False,
    shared: _ckernel.DeadSet | None = None,
    share_all: bool = False,
) -> tuple[SearchResult, Container[tuple[int, ...]]]:
    """The decision search ``api.search_position`` would run over ``kernel``
    (``MultiBeamSearcher`` with several players; ``TurnSearcher`` solo;
    ``FireBeamSearcher`` solo with fire cards; ``ExtremeBeamSearcher`` over an
    ``ExtremeKernel``), run in C from
    the kernel's position, which does not move.
    Returns its result and the positions it proved dead, asked by memo key.

    ``play_level``: the plain ``Searcher`` even solo. ``shared``: dead
    positions at turn starts go there and are reused from there, as
    ``puzzles.the_game.rating`` shares them between the searches of a deal;
    ``share_all``: every dead position goes there (the split search, whose
    searches all start at turn starts).
    """
    ck = CKernel.of(kernel)
    widths: tuple[int, ...] = ()
    branch, per_parent, extra = BRANCH, PER_PARENT, EXTRA
    endgame = INF  # the beam's endgame search: complete
    if play_level:
        mode = PLAY
    elif isinstance(kernel, ExtremeKernel):
        mode, widths = EXTREME, extreme_beam.beam_widths(kernel)
        branch, per_parent = extreme_beam.BRANCH, extreme_beam.PER_PARENT
        extra = extreme_beam.EXTRA
        endgame = extreme_beam.endgame_allowance(kernel)
    elif kernel.players != 1:
        mode, widths = FIRE, beam_widths(kernel, limit, deadline)
        endgame = MULTI_ENDGAME
    else:
        mode, widths = (FIRE if kernel.fire else TURN), beam_widths(kernel, limit, deadline)
    win, proven, actions, left, n, iterations, dead_n, cuts, stuck, dom, dead = ck._search(
        mode,
        widths,
        branch,
        per_parent,
        extra,
        endgame,
        c_budget(limit, deadline),
        shared,
        share_all=share_all,
    )
    stats = SearchStats(n, iterations, dead_n, cuts, stuck, dom)
    return SearchResult(win, proven, actions, left, stats), dead
