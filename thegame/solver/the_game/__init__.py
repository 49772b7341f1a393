"""Engines for The Game family: the kernel, searches, bounds, CP-SAT, the portfolio."""
