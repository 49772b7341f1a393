from collections.abc import Callable

def run(
    state: int,
    slots: list[int],
    hand: list[int],
    firsts: list[int],
    pool: list[int],
    others: int,
    budget: tuple[int | None, float | None, int, Callable[[int], object] | None],
    me: int,
    them: int,
    common: int,
    objective: int,
) -> tuple[list[int], int, int]: ...
