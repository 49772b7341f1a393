# Stub of the optional C extension _ctable (the files of csrc/); see ctable.py.
from typing import Protocol

Key = tuple[int, ...]

class _Budget(Protocol):
    def reach(self, nodes: int, /) -> None: ...

class Search:
    def __init__(
        self,
        n: int,
        k: int,
        share: bool,
        special: bool,
        chain_all: bool,
        trick_draw: int,
        penalty: int,
        draw: bytes,
        canon: bytes,
        repdigit: bytes,
        single: bytes,
        fit: tuple[int, ...],
        names: tuple[bytes, ...],
        chain_cards: tuple[int, ...],
        chain_names: tuple[bytes, ...],
        singles: int,
        losses: Search | None,
        /,
    ) -> None: ...
    # TableSolver.prove's loop: (pn, dn, nodes counted); budget.reach(nodes)
    # every 64 nodes and past max_nodes (-1: no limit) may raise OutOfBudget,
    # and so does a table that would grow past max_bytes (0: no bound).
    def prove(
        self, root: Key, budget: _Budget, nodes: int, max_nodes: int, max_bytes: int, /
    ) -> tuple[int, int, int]: ...
    # Worlds dealt from what the seat sees (the other hands within their
    # slots' masks of excluded cards; the search's own pile is replaced), in
    # each every candidate (drew, trick, immune, free, open, obliged, mask)
    # played and finished by greedy play, the seat's next ``turns`` turns
    # each by ``rollouts`` greedy playouts of its every turn in that world:
    # per candidate (wins, worlds). Each world is redealt (up to ``tries``
    # deals) until the others' turns in ``checks`` (seat, small fields
    # before, slots left out, hand back, hand after, open after) are greedy in it;
    # with ``steps`` each world after the first is the last one changed by
    # that many swaps of two unseen cards (kept when no more checks fail).
    def sample(
        self,
        small: int,
        own: int,
        unseen: bytes,
        head: bytes,
        slots: tuple[tuple[int, ...], ...],
        candidates: tuple[tuple[int, int, int, int, int, int, int], ...],
        seed: int,
        worlds: int,
        turns: int = 0,
        rollouts: int = 1,
        checks: tuple[tuple[int, int, int, int, int, int], ...] = (),
        tries: int = 1,
        steps: int = 0,
        /,
    ) -> list[tuple[int, int]]: ...
    # (worlds sampled, deals tried, worlds that passed every check) so far
    def dealt(self) -> tuple[int, int, int]: ...
    def nodes(self) -> int: ...
    def lookup(self, key: Key, /) -> tuple[int, int]: ...
    def get(self, key: Key, /) -> tuple[int, int] | None: ...
    def children(self, key: Key, /) -> list[tuple[Key | None, int, int, int]]: ...
    # (positions proven, disproven, nearest decided turn or -1)
    def progress(self) -> tuple[int, int, int]: ...
    def __len__(self) -> int: ...
