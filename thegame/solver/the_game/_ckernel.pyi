# The compiled kernel (the C files of csrc/); see ckernel.py and docs/c-kernels.md.
from collections.abc import Callable, Sequence

INF: int
MAX_SIZE: int
MAX_PILES: int
MAX_PLAYERS: int

class DeadSet:
    replaced: int
    chained: int
    def __contains__(self, key: object) -> bool: ...
    def __len__(self) -> int: ...
    def dump(self) -> bytes: ...
    def load(self, data: bytes, /) -> None: ...
    def journal(self, min_bits: int, /) -> None: ...
    def take(self) -> bytes: ...

def new_dead_set(
    n_asc: int,
    n_piles: int,
    players: int,
    hand_size: int,
    size: int,
    total: int,
    min_play: int,
    memo_bytes: int,
    extreme: bool = False,
    /,
) -> DeadSet: ...

class Core:
    tops: list[int]
    hands: list[int]
    unplayed: int
    pos: int
    cur: int
    t: int
    pending: int
    turn_min: int
    max_turn: int
    def _configure(
        self,
        players: int,
        hand_size: int,
        n_asc: int,
        n_piles: int,
        step: int,
        min_play: int,
        min_empty: int,
        low: int,
        size: int,
        base_max_turn: int,
        w2: int,
        w3: int,
        fire: int,
        deck: Sequence[int],
        trick_up: Sequence[int],
        trick_down: Sequence[int],
        first_beyond: Sequence[int],
        last_beyond: Sequence[int],
        accepted_up: Sequence[int],
        accepted_down: Sequence[int],
        /,
    ) -> None: ...
    def _commands(
        self, stop: int, skull: int, three: int, no_trick: int, one_pile: int, draw_one: int, /
    ) -> None: ...
    def _set_state(
        self,
        tops: list[int],
        hands: list[int],
        pos: int,
        unplayed: int,
        cur: int,
        t: int,
        pending: int,
        turn_min: int,
        max_turn: int,
        /,
    ) -> None: ...
    def _search(
        self,
        mode: int,
        beam_widths: Sequence[int],
        branch: int,
        per_parent: int,
        extra_cost: int,
        endgame: int,
        # (node_limit, deadline, memory bytes, progress): ckernel.c_budget
        budget: tuple[int | None, float | None, int, Callable[[int], bool | None] | None],
        shared: DeadSet | None = None,
        beams_only: bool = False,
        share_all: bool = False,
    ) -> tuple[bool, bool, list[tuple[int, int]], int, int, int, int, int, int, int, DeadSet]: ...
    def moves(self) -> list[tuple[int, int, int]]: ...
    def _all_moves(self) -> list[tuple[int, int, int]]: ...
    def legal_plays(self) -> list[tuple[int, int]]: ...
    def play(self, c: int, pile: int, /) -> tuple[int, int]: ...
    def unplay(self, c: int, pile: int, saved: tuple[int, int], /) -> None: ...
    def end_turn(self) -> tuple[int, int, int, int, int, int, int]: ...
    def unend_turn(self, saved: tuple[int, int, int, int, int, int, int], /) -> None: ...
    def key(self) -> tuple[int, ...]: ...
    def _key_words(self) -> tuple[int, ...]: ...
    def won(self) -> bool: ...
    def can_end(self) -> bool: ...
    def min_met(self) -> bool: ...
    def end_loses(self) -> bool: ...
    def auto_end(self) -> bool: ...
    def dead_card(self) -> bool: ...
    def dead_mask(self) -> int: ...
    def reach(self) -> tuple[int, int]: ...
    def stuck_ahead(self) -> bool: ...
    def turn_cut(self) -> bool: ...
    def evaluate(self) -> int: ...
    def solo_turns(
        self, branch: int = ..., longest: int = ..., extra_cost: int = ..., /
    ) -> list[tuple[int, list[tuple[int, int]]]]: ...
    def fire_turns(
        self, branch: int = ..., longest: int = ..., extra_cost: int = ..., /
    ) -> list[tuple[int, list[tuple[int, int]]]]: ...
    def extreme_turns(
        self, branch: int = ..., longest: int = ..., extra_cost: int = ..., /
    ) -> list[tuple[int, list[tuple[int, int]]]]: ...
