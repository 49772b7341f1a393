"""The Mind's numbers (rules M1, M5) and its generalised form for small tests."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InvalidInputError

HIGH = 100  # rule M1: cards 1..100
LEVELS = {2: 12, 3: 10, 4: 8}  # rule M1: levels by player count
MAX_LIVES = 5  # rule M1
MAX_STARS = 3  # rule M1
START_STARS = 1  # rule M1
STAR_AFTER = frozenset({2, 5, 8})  # rule M5: a star after completing these levels
LIFE_AFTER = frozenset({3, 6, 9})  # rule M5: a life after completing these levels


@dataclass(frozen=True)
class Rules:
    """Players, the deck 1..high and the number of levels.

    The printed game (rule M1) is ``high=100`` with 12/10/8 levels for 2/3/4
    players. A smaller deck (rule C10-style generalisation, for exhaustive
    tests) caps the levels at ``high // players`` so every level can be dealt.
    """

    players: int
    high: int = HIGH
    levels: int = 0  # 0: the count of rule M1, capped by the deck

    def __post_init__(self) -> None:
        if self.players not in LEVELS:
            raise InvalidInputError(f"The Mind is for 2, 3 or 4 players, not {self.players}",
                                    "players")
        if not 2 <= self.high <= 1000:
            raise InvalidInputError(f"the deck must be 1..high with 2 <= high <= 1000, "
                                    f"not {self.high}", "high")
        cap = min(LEVELS[self.players], self.high // self.players)
        if self.levels == 0:
            object.__setattr__(self, "levels", cap)
        if not 1 <= self.levels <= self.high // self.players:
            raise InvalidInputError(
                f"{self.levels} levels of {self.players} players do not fit in 1..{self.high}",
                "levels",
            )

    @property
    def official(self) -> bool:
        return self.high == HIGH and self.levels == LEVELS[self.players]

    @property
    def start_lives(self) -> int:
        """Rule M1: as many lives as players."""
        return self.players

    def check_level(self, level: int, where: str = "level") -> None:
        if not 1 <= level <= self.levels:
            raise InvalidInputError(
                f"level must be 1..{self.levels} for {self.players} players, not {level}", where
            )


def reward_after(level: int) -> tuple[int, int]:
    """Rule M5: (lives, stars) gained by completing ``level`` (before the caps)."""
    return (1 if level in LIFE_AFTER else 0, 1 if level in STAR_AFTER else 0)


def with_reward(level: int, lives: int, stars: int) -> tuple[int, int]:
    """Lives and stars after completing ``level``: rule M5 rewards, rule M1 caps."""
    life, star = reward_after(level)
    return min(MAX_LIVES, lives + life), min(MAX_STARS, stars + star)
