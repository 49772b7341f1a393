"""The commands of The Game family (thegame deal, check, solve, explain, analyze, daily, ...)."""
