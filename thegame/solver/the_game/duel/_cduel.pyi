# Stub of the optional C extension _cduel (the files of csrc/); see ccore.py.
from collections.abc import Callable

Pos = tuple[int, int, int, int, int, int, int, int, int]

class Game:
    def __init__(
        self,
        deck0: bytes,
        deck1: bytes,
        hand_size: int,
        min_play: int,
        min_play_empty: int,
        step: int,
        draw_own: int,
        /,
    ) -> None: ...
    # (0, []) no legal turn; (1, []) a turn plays every card; (2, children):
    # the undominated results as (position after, score, opponent has a turn).
    def expand(self, pos: Pos, /) -> tuple[int, list[tuple[Pos, int, bool]]]: ...
    # engine.DuelEngine._playout: (winner 0-based, SplitMix64 state after, turns).
    def playout(
        self, pos: Pos, tt: dict[Pos, bool] | Solver, state: int, /
    ) -> tuple[int, int, int]: ...
    def turns(
        self, pos: Pos, done: int = 0, dumped: bool = False, /
    ) -> list[tuple[tuple[tuple[int, int], ...], Pos | None]]: ...
    def has_turn(self, pos: Pos, /) -> bool: ...
    def solo_turns(
        self, p: int, solo: tuple[int, int, int, int], robust: bool, /
    ) -> list[tuple[tuple[tuple[int, int], ...], tuple[int, int, int, int] | None]]: ...
    # DuelSearch._by_dominance's scan over (position, won) pairs that share
    # pos's hands, draw piles and mover.
    def dominance(self, pos: Pos, known: list[tuple[Pos, bool]], /) -> bool | None: ...
    # DuelSearch._sift over expand's children: (status 3 or 4, the child)
    # or (2, the rest best score first), then dominance reads, table hits.
    def sift(
        self,
        children: list[tuple[Pos, int, bool]],
        tt: dict[Pos, bool],
        by_cards: dict[tuple[int, ...], list[tuple[Pos, bool]]] | None,
        /,
    ) -> tuple[int, Pos | list[Pos], int, int]: ...
    def dead_cards(self, p: int, solo: tuple[int, int, int, int], /) -> int: ...
    def relaxed_turns(
        self, p: int, solo: tuple[int, int, int, int], /
    ) -> list[tuple[int, int, int, int] | None]: ...
    def numbers(
        self,
        children: list[Pos],
        tt: dict[Pos, bool],
        numbers: dict[Pos, tuple[int, int]],
        weight: int,
        inf: int,
        /,
    ) -> tuple[list[int], list[int]]: ...

class Solver:
    # The whole proof search (duel/csrc/solver.c, dfpn.c): the node of
    # nodes.DuelNodes, the depth-first search and df-pn, and its own table
    # of proven positions (get, in, len, items), which is then the search's tt.
    def __init__(
        self, game: Game, table_limit: int, numbers_limit: int, weight: int, inf: int, /
    ) -> None: ...
    def configure(
        self,
        dominance: bool,
        alone: bool,
        relaxed_race: bool,
        survival: bool,
        survival_turns: int,
        widen: float,
        eval_weight: int,
        table_limit: int,
        numbers_limit: int,
        # nodes.BoundSizes: robust cards and nodes, relaxed cards and nodes,
        # survival nodes
        sizes: tuple[int, int, int, int, int],
        /,
    ) -> None: ...
    # budget: (node_limit, deadline, memory bytes, progress), ckernel.c_budget's
    # form; None when it ran out.
    def wins(
        self,
        pos: Pos,
        depth_first: bool,
        budget: tuple[int | None, float | None, int, Callable[[int], bool] | None],
        /,
    ) -> bool | None: ...
    def first_look(self, pos: Pos, /) -> bool | None: ...
    def open(self, pos: Pos, /) -> bool | list[Pos]: ...
    def store(self, pos: Pos, won: bool, /) -> None: ...
    def get(self, pos: Pos, default: bool | None = None, /) -> bool | None: ...
    def items(self) -> list[tuple[Pos, bool]]: ...
    def numbers(self) -> dict[Pos, tuple[int, int]]: ...
    def clear(self) -> None: ...
    def clear_numbers(self) -> None: ...
    def __setitem__(self, pos: Pos, won: bool, /) -> None: ...
    # The events since the last call, ("open", pos, None) or ("store", pos, won).
    def trace(self, on: bool, /) -> list[tuple[str, Pos, bool | None]]: ...
    # (nodes, bound_cuts, survival_cuts, stuck_cuts, tt_hits, dominated)
    stats: tuple[int, int, int, int, int, int]
    def __len__(self) -> int: ...
    def __contains__(self, pos: object, /) -> bool: ...

class Race:
    # race.RaceSolver's search (duel/csrc/race.c): the same nodes, order and cuts.
    def __init__(self, game: Game, p: int, robust: bool, /) -> None: ...
    # The exact fewest turns (race.INF: never), None when `nodes` more nodes
    # (negative: no limit) ran out or stop(), called every 256 nodes, said true.
    def fewest(
        self, solo: tuple[int, int, int, int], nodes: int, stop: Callable[[], bool], /
    ) -> int | None: ...
    def known(self, solo: tuple[int, int, int, int], /) -> int | None: ...
    # race.finish_line compiled: (the finish's turns, False: none, None: `nodes`
    # (negative: no limit) ran out or stop(), called every 4096 states, said
    # true; and the states searched).
    def finishes(
        self, solo: tuple[int, int, int, int], nodes: int, stop: Callable[[], bool] | None, /
    ) -> tuple[list[tuple[tuple[int, int], ...]] | bool | None, int]: ...
    @property
    def nodes(self) -> int: ...
    @property
    def stored(self) -> int: ...
