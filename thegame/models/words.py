"""Words on screen shared by every game."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards``, ``3 inaccuracies``; ``many`` for irregular plurals."""
    if many is None:
        consonant_y = word.endswith("y") and word[-2:-1] not in "aeiou"
        many = word[:-1] + "ies" if consonant_y else word + "s"
    return f"{n} {word if n == 1 else many}"
