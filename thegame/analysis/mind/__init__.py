"""Analyses of played levels of The Mind: lives lost, who was early, what a star would change."""
