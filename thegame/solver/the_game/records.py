"""The kernel's plain data: actions, undo records, whole positions, and the
constants every search over a kernel shares (``kernel`` re-exports them).
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

INF = 1 << 30
# Weights of cards blocked by two and by three piles in ``Kernel.evaluate``
# (tuned on solo seeds 1-60; they steer the incomplete beam, never a proof).
W2 = 1
W3 = 8

# Added to a top in the memo key while it shows a fire card due (F2).
FIRE_MARK = 1000

# An action on the line: (card, pile) for a play, END for the end of a turn.
END = (-1, -1)
Action = tuple[int, int]
# A turn: its cost (the beam's ordering) and its plays.
TurnOption = tuple[int, list[tuple[int, int]]]


class KernelUndo(NamedTuple):
    """What ``Kernel.unplay`` restores after ``Kernel.play``."""

    top: int
    pending: int


class TurnUndo(NamedTuple):
    """What ``Kernel.unend_turn`` restores after ``Kernel.end_turn``."""

    player: int
    plays: int
    pos: int
    hand: int
    pending: int
    turn_min: int
    max_turn: int


class KernelSnapshot(NamedTuple):
    """A whole kernel position, for searches that jump between positions."""

    tops: tuple[int, ...]
    hands: tuple[int, ...]
    pos: int
    unplayed: int
    player: int
    plays: int
    pending: int
    turn_min: int
    max_turn: int

    @classmethod
    def of(cls, k: Position) -> KernelSnapshot:
        """The position of any kernel (the Python one or the compiled one)."""
        return cls(
            tuple(k.tops),
            tuple(k.hands),
            k.pos,
            k.unplayed,
            k.cur,
            k.t,
            k.pending,
            k.turn_min,
            k.max_turn,
        )


class Position(Protocol):
    """What a kernel holds of a position (see the glossary)."""

    tops: list[int]
    hands: list[int]
    pos: int
    unplayed: int
    cur: int
    t: int
    pending: int
    turn_min: int
    max_turn: int
