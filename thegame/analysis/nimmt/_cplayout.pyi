def run(
    state: int,
    slots: list[int],
    hand: list[int],
    firsts: list[int],
    pool: list[int],
    others: int,
    n: int,
    me: int,
    them: int,
    common: int,
    objective: int,
) -> tuple[list[int], int]: ...
