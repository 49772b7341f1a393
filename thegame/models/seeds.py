"""The seeded generator behind every ``--seed``, for every game of the package."""

from __future__ import annotations

from .errors import InvalidInputError

_MASK64 = (1 << 64) - 1
MAX_SEED = _MASK64


class SplitMix64:
    """The seeded generator behind ``Deal.from_seed``; frozen forever.

    SplitMix64 (Steele, Lea, Flood 2014) is tiny, fully specified and
    independent of Python's ``random``, whose algorithms may change between
    versions. Do not change this class: ``--seed N`` must mean the same deal
    on every machine and every version.
    """

    def __init__(self, seed: int) -> None:
        # A seed outside 0..2^64-1 would silently equal another one.
        if not 0 <= seed <= _MASK64:
            raise InvalidInputError(f"seed {seed} is outside 0..2^64-1", "seed")
        self.state = seed

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform in ``0..n-1`` by rejection (no modulo bias)."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n

    def shuffle(self, items: list[int]) -> None:
        """Fisher-Yates from the last position down."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
