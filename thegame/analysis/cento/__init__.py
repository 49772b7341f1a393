"""Cento game 2 analyses: the best next turn of a record, proven by the exact solvers."""
