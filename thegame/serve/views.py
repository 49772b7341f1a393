"""The API's JSON, built from the library's result objects in the shared
vocabulary: turns, plays and events count from 1; a line is ``turns``;
proven is ``optimal``; figures go under ``stats`` (``nodes``, ``seconds``);
an illegal step is ``{"turn", "play", "rule", "message"}``; a play is
written ``37 A1`` and a line ``37 A1, 40 A1 | 90 D1``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..analysis.the_game.explain import TurnExplanation
from ..analysis.the_game.review import Hint
from ..models.advice import Advice
from ..models.the_game import CheckResult, GameState, Play, Rules, Turn, pile_name
from ..models.the_game.notation import play_text, plays_text
from ..models.the_game.record import turn_to_dict
from ..solver.the_game.api import Solution


def play_dict(rules: Rules, play: Play | None) -> dict[str, Any]:
    """A play as ``{"card", "pile", "text"}``; the end of a turn as ``{"end_turn": true}``."""
    if play is None:
        return {"end_turn": True, "text": "end"}
    return {
        "card": play.card,
        "pile": pile_name(rules, play.pile),
        "text": play_text(rules, play.card, play.pile),
    }


def line_text(rules: Rules, turns: Iterable[Turn]) -> str:
    """``37 A1, 40 A1 | 90 D1``."""
    return " | ".join(plays_text(rules, t.plays) for t in turns)


def turns_list(rules: Rules, turns: Iterable[Turn]) -> list[dict[str, Any]]:
    return [turn_to_dict(rules, t) for t in turns]


def stats(nodes: int | None, seconds: float) -> dict[str, Any]:
    out: dict[str, Any] = {"seconds": round(seconds, 3)}
    if nodes is not None:
        out["nodes"] = nodes
    return out


def solution_dict(sol: Solution) -> dict[str, Any]:
    """``thegame solve --json``'s object (the library's ``Solution.to_dict``),
    with the line the search played as text."""
    rules = sol.deal.rules
    from_turn = int(sol.details.get("from_turn", 0))
    out = sol.to_dict()
    out["line"] = line_text(rules, sol.turns[from_turn:])
    return out


def error_dict(result: CheckResult[GameState]) -> dict[str, Any] | None:
    """The first illegal step, counted from 1. Built from the replay's own
    counters (the turns that replayed, the plays of the failing turn that
    were placed), not from the indices of its ``error``."""
    if result.error is None:
        return None
    play = None if result.error.get("play") is None else len(result.state.placed) + 1
    return {
        "turn": result.steps_ok + 1,
        "play": play,
        "rule": result.error["rule"],
        "message": result.error["message"],
    }


def check_dict(result: CheckResult[GameState]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "legal": result.legal,
        "status": str(result.status),
        "cards_left": result.cards_left,
        "error": error_dict(result),
        "reason": result.reason,
    }
    if result.winner is not None:  # a game won by one player (Face to Face, D6)
        out["winner"] = result.winner
    return out


def hint_dict(state: GameState, turn: int, hint: Hint) -> dict[str, Any]:
    """A hint in the shape every game's hint has (``Advice``: ``player``,
    ``turn``, ``move``, ``verdict``, figures, ``text``), with ``line``."""
    rules = state.rules
    plays = [] if hint.action is None else [play_dict(rules, hint.action)]
    advice = Advice(
        state.current + 1,
        turn,
        {"plays": plays, "end_turn": hint.action is None},
        hint.verdict,
        hint.text,
        {
            "cards_left": hint.cards_left,
            "optimal": hint.optimal,
            "turns": turns_list(rules, hint.line),
        },
    )
    return {**advice.to_dict(), "line": line_text(rules, hint.line)}


def explain_list(rules: Rules, turns: Sequence[TurnExplanation]) -> list[dict[str, Any]]:
    """Each turn of a line with the reasons for its plays (``explain``)."""
    out = []
    for t in turns:
        out.append(
            {
                "turn": t.turn + 1,
                "player": t.player,
                "minimum": t.minimum,
                "before": t.before.to_dict(),
                "plays": [
                    {
                        "card": p.card,
                        "pile": p.pile,
                        "text": f"{p.card} {p.pile}",
                        "from": p.before,
                        "reasons": [r.to_dict() for r in p.reasons],
                    }
                    for p in t.plays
                ],
                "drew": list(t.drew),
                "draw_left": t.draw_left,
                "cards_left": t.cards_left,
                "status": str(t.status),
                "notes": [n.to_dict() for n in t.notes],
            }
        )
    return out


# -- numbers for people ------------------------------------------------------------

# Plurals that are not the word with an "s" (the pages' words only).
_PLURALS = {"inaccuracy": "inaccuracies", "blunder": "blunders", "mistake": "mistakes"}


def plural(n: int, word: str) -> str:
    """``1 card``, ``2 cards``, ``3 inaccuracies``: the count and its word."""
    if n == 1:
        return f"{n} {word}"
    many = _PLURALS.get(word) or (word[:-1] + "ies" if word.endswith("cy") else word + "s")
    return f"{n} {many}"


def percent(p: float) -> str:
    """A chance as people read it: ``37%``, ``2.4%``, ``0.013%``, ``< 0.01%``,
    ``> 99.99%``; never e-notation, 0 and 1 only when they are exact."""
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    q = 100 * p
    if q < 0.01:
        return "< 0.01%"
    if q > 99.99:
        return "> 99.99%"
    decimals = 0 if 10 <= q <= 90 else 1 if 1 <= q <= 99 else 2
    text = f"{q:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text + "%"
