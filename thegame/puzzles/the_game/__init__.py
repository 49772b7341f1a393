"""Puzzles of The Game family: the opening policy, the rating, puzzle files, the daily puzzle."""
