"""Cento (game 2) puzzles: solo positions with a proven fewest number of turns."""
