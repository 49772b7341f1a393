# Stub of the optional C extension _crollout (the files of csrc/); rollout.playouts_c
# builds the arguments (their layout is documented there and in csrc/module.c).

from collections.abc import Callable

def playouts(
    ints: tuple[int, ...],
    floats: tuple[float, ...],
    fire: bytes,
    position: tuple[int, ...],  # 5 entries, or 6: the last says end the turn first
    tops: bytes,
    top_turn: tuple[int, ...],
    hand: bytes,
    sizes: tuple[int, ...],
    orders: bytes,
    n: int,
    # (node_limit, deadline, memory, progress): ckernel.c_budget's form; a
    # playout is a node; None: no limit. Fewer results when it stops them.
    budget: tuple[int | None, float | None, int, Callable[[int], bool] | None] | None = None,
    /,
) -> list[tuple[bool, int]]: ...

def plan(
    ints: tuple[int, ...],
    floats: tuple[float, ...],
    fire: bytes,
    position: tuple[int, ...],
    tops: bytes,
    top_turn: tuple[int, ...],
    hand: bytes,
    sizes: tuple[int, ...],
    order: bytes,
    n: int,
    /,
) -> list[tuple[int, int]]: ...

def options(
    ints: tuple[int, ...],
    floats: tuple[float, ...],
    fire: bytes,
    position: tuple[int, ...],
    tops: bytes,
    top_turn: tuple[int, ...],
    hand: bytes,
    sizes: tuple[int, ...],
    order: bytes,
    n: int,
    k: int,
    /,
) -> list[tuple[float, list[tuple[int, int]]]]: ...
