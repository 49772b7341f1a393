"""The objective: the number of filled slots (cards played), maximised. A
perfect clear is an objective of N."""

from __future__ import annotations

from .model import Model


def add(m: Model) -> None:
    """Maximise the cards played."""
    m.model.maximize(sum(m.filled))


def at_most(m: Model, cards: int) -> None:
    """Cap the cards played, e.g. by a sound bound on cards left (``bounds``)."""
    m.model.add(sum(m.filled) <= cards)
