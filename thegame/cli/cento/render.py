"""Cento on screen: hands, turns, verdicts and a search's figures."""

from __future__ import annotations

from typing import Any

from ...models.cento.rules import card_text


def hand_text(hand: tuple[int, ...]) -> str:
    return " ".join(card_text(c) for c in hand) or "(empty)"


def stats_text(data: dict[str, Any]) -> str:
    return f"{data['stats']['nodes']:,} nodes, {data['stats']['seconds']:.2f} s"


def turn_text(t: dict[str, Any]) -> str:
    """A turn as a line: ``player 1: draws 1; plays 37, free as 45``."""
    parts = []
    if t.get("trick"):
        parts.append("Trick (shows the 100)")
    if t.get("treat"):
        parts.append("Treat (lays out the 100)")
    if t["draw"] and t["plays"]:
        parts.append(f"draws {t['draw']}")
    plays = [p["card"] if p["card"] != "free" else f"free as {p['as']}" for p in t["plays"]]
    if plays:
        parts.append("plays " + ", ".join(str(p) for p in plays))
    elif not t.get("treat") and not (t.get("trick") and not t["draw"]):
        parts.append(f"draws {t['draw']}" if t["draw"] else "passes (draws nothing)")
    return f"player {t['player']}: " + "; ".join(parts)


def verdict_text(players: int, data: dict[str, Any]) -> str:
    """A solver's answer in words: alone the fewest turns, two players who wins."""
    if players == 1:
        if data["verdict"] == "win":
            return f"fewest turns: {data['turn_count']} (proven optimal)"
        if data["verdict"] == "loss":
            return "the hand cannot be emptied (proven)"
        return f"unknown: budget ran out; at least {data['lower_bound']} turns"
    text = {
        "win": "player 1 wins",
        "loss": "player 2 wins",
        "tie": "a shared win",
        "unknown": "unknown: budget ran out",
    }[data["verdict"]]
    return text + (" with best play (proven)" if data["optimal"] else "")
