"""Exact Cento solvers: fewest turns alone, the winner of a two-player deal, and a brute force."""
