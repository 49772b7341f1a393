"""Analyses of games of The Game family: explanations, mistakes, the blind policy, fair ratings."""
