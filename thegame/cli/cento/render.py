"""Cento on screen: hands, turns, verdicts and a search's figures."""

from __future__ import annotations

from typing import Any

from ...models.cento.rules import card_text
from ...models.outcome import Verdict
from ...solver.cento.table import TableVerdict


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
    """A solver's answer in words: alone the fewest turns; two players who
    wins; 3-6 players whether the seat asked about can force a win."""
    if players == 1:
        solo = Verdict(data["verdict"])
        if solo is Verdict.WIN:
            return f"fewest turns: {data['turn_count']} (proven optimal)"
        if solo is Verdict.LOSS:
            return "the hand cannot be emptied (proven)"
        return f"unknown: budget ran out; at least {data['lower_bound']} turns"
    k = data.get("player", 1)
    verdict = TableVerdict(data["verdict"])
    if verdict is TableVerdict.UNKNOWN:
        return f"player {k}: unknown: budget ran out"
    if players == 2:
        other = 3 - k
        text = {
            TableVerdict.WIN: f"player {k} wins",
            TableVerdict.LOSS: f"player {other} wins",
            TableVerdict.TIE: "a shared win",
        }[verdict]
        return text + " with best play (proven)"
    others = f"the other {players - 1} players"
    if verdict is TableVerdict.WIN:
        return f"player {k} can force a win whatever {others} do together (proven)"
    return f"{others} together can stop player {k} from winning (proven)"


def progress_text(p: dict[str, Any]) -> str:
    """How far an undecided table search got."""
    near = p["nearest_decided_turn"]
    turns = "1 turn" if near == 1 else f"{near} turns"
    where = f"; nearest decided position {turns} in" if near is not None else ""
    return (
        f"searched: {p['positions_won']:,} positions proven won and "
        f"{p['positions_lost']:,} lost for the seat{where}; proof number "
        f"{p['proof_number']:,}, disproof number {p['disproof_number']:,} at the start"
    )
