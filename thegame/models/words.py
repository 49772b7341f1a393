"""Words on screen shared by every game."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards``; ``many`` for irregular plurals."""
    return f"{n} {word if n == 1 else (many or word + 's')}"
