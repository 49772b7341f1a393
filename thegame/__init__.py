"""thegame: exact solver and puzzle analyzer for The Game family."""

__version__ = "0.1.0"
