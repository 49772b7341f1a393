"""Old home of 6 nimmt!'s rounds and games with players, kept so callers still
import; it now lives in :mod:`.state`."""

from .state import (
    GameResult,
    Player,
    TurnShown,
    View,
    game_deals,
    game_over,
    play_game,
    play_round,
    round_deals,
)

__all__ = [
    "GameResult",
    "Player",
    "TurnShown",
    "View",
    "game_deals",
    "game_over",
    "play_game",
    "play_round",
    "round_deals",
]
