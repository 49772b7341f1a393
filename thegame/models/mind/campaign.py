"""A whole game of The Mind: levels in order, lives, stars, rewards, won or lost."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import IllegalMoveError
from ..outcome import Status
from ..seeds import SplitMix64
from .deal import Deal
from .rules import START_STARS, Rules, with_reward
from .state import Collision, LevelStatus, State


@dataclass
class Campaign:
    """Levels 1..rules.levels dealt one after another (rules M1, M2, M5).

    Level n of campaign ``seed`` is ``Deal.from_seed(s_n, ...)`` where
    ``s_n`` is the n-th output of ``SplitMix64(seed)``. **Decision:** the game is
    lost at once when the last life goes, even in the middle of a level.
    """

    rules: Rules
    seed: int
    lives: int = 0
    stars: int = START_STARS
    level: int = 1
    status: Status = Status.IN_PROGRESS
    current: State = field(init=False)
    _seeds: SplitMix64 = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.lives == 0:
            self.lives = self.rules.start_lives
        self._seeds = SplitMix64(self.seed)
        self.current = State(self._deal(self.level))

    def _deal(self, level: int) -> Deal:
        return Deal.from_seed(self._seeds.next(), self.rules.players, level, self.rules.high)

    def _live(self) -> None:
        if self.status is not Status.IN_PROGRESS:
            raise IllegalMoveError("M5", f"the game is over: {self.status}")

    def play(self, player: int, card: int) -> Collision | None:
        self._live()
        collision = self.current.play(player, card)
        if collision is not None:
            self.lives -= 1  # rule M3
            if self.lives == 0:
                self.status = Status.LOST
                return collision
        self._after_play()
        return collision

    def star(self) -> list[tuple[int, int]]:
        """Rule M4, with the team's agreement assumed."""
        self._live()
        if self.stars == 0:
            raise IllegalMoveError("M4", "no throwing star left")
        thrown = self.current.star()
        self.stars -= 1
        self._after_play()
        return thrown

    def _after_play(self) -> None:
        if self.current.status is not LevelStatus.CLEARED:
            return
        if self.level == self.rules.levels:
            self.status = Status.WON  # rule M5: the last level is completed
            return
        self.lives, self.stars = with_reward(self.level, self.lives, self.stars)  # rule M5
        self.level += 1
        self.current = State(self._deal(self.level))
