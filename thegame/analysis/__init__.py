"""Analyses of played games: explanations, mistakes, blind play, fair ratings."""
