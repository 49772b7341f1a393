"""The work of The Mind's, 6 nimmt!'s and Cento's pages that runs in the worker pool:
each function takes plain values, calls the library and returns the API's
JSON (a ``ThegameError`` is the user's bad input). Kept apart from the
routes so a worker imports no web framework; the pool preloads it."""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Any

from ..analysis.cento.explain import explain_line
from ..analysis.cento.hint import hint_for
from ..analysis.nimmt.budget import SAMPLES as NIMMT_SAMPLES
from ..analysis.nimmt.review import hint, review
from ..analysis.nimmt.table import Table, advance, hand, next_turn, open_table, others_cards
from ..models import InvalidInputError, Limit, interrupt
from ..models.cento.record import Record as CentoRecord
from ..models.mind import Rules as MindRules
from ..models.nimmt.record import GameRecord, Record, replay, replay_game
from ..models.nimmt.rules import HEADS
from ..models.nimmt.state import GameResult
from ..puzzles.cento.puzzles import daily
from ..solver.mind.campaign import solve_campaign
from ..solver.mind.gap import check_tolerance
from ..solver.mind.table import campaign_odds_once
from .pool import report

# Samples behind a 6 nimmt! hint and a review's blind column on the page: the
# CLI's default (a review of ten turns takes well under a second).
SAMPLES = NIMMT_SAMPLES
# Seconds a Cento daily puzzle may take to make (the CLI's budget per seed).
DAILY_TIME = 60.0

# -- 6 nimmt! ------------------------------------------------------------------------


def _cards(cards: tuple[int, ...] | list[int]) -> list[dict[str, int]]:
    return [{"card": c, "heads": HEADS[c]} for c in cards]


def table_view(table: Table) -> dict[str, Any]:
    """The table as the page draws it: the rows, the person's hand, the
    heads of the round and the points of the game, the last turn revealed."""
    now = replay(table.current)
    heads = now.heads
    scores = table.scores
    out: dict[str, Any] = {
        "round": len(table.game.rounds),
        "turn": len(table.current.turns) + 1,
        "rows": [
            {"row": i, "cards": _cards(r), "heads": sum(HEADS[c] for c in r)}
            for i, r in enumerate(now.rows[-1], 1)
        ],
        "hand": _cards(hand(table)),
        "heads": heads,
        "points": scores,
        "totals": [s + h for s, h in zip(scores, heads, strict=True)],
        "rounds": [[t.to_json() for t in r.turns] for r in table.game.rounds],
        "state": "over" if table.over else "playing",
    }
    # The turn just played: the last of this round, or of the round before
    # when a whole game has just dealt the next one.
    played = table.game.rounds[-1] if table.current.turns else None
    if played is None and len(table.game.rounds) > 1:
        played = table.game.rounds[-2]
    if played is not None and played.turns:
        placed = replay(played).placements[-1]
        out["last"] = {
            "turn": len(played.turns),
            "cards": list(played.turns[-1].cards),
            "placements": [
                {
                    "player": p.player + 1,
                    "card": p.card,
                    "row": p.row + 1,
                    "taken": list(p.taken),
                    "heads": sum(HEADS[c] for c in p.taken),
                    "chose": p.chose,
                }
                for p in placed
            ],
        }
    if table.over:
        out["record"] = _record(table).to_json()
        totals = out["totals"] if not table.whole else replay_game(table.game).scores
        shares = GameResult(tuple(totals), table.game.rounds).shares()
        out["result"] = {
            "totals": totals,
            "winners": [p + 1 for p, s in enumerate(shares) if s > 0],
            "you": "win" if shares[0] == 1 else "shared" if shares[0] > 0 else "loss",
        }
    return out


def _record(table: Table) -> Record | GameRecord:
    return table.game if table.whole else table.current


def nimmt_table_job(
    game: dict[str, Any], rounds: list[list[Any]], card: int | None, row: int | None
) -> dict[str, Any]:
    """The table after the person's card (and row, rule S3) and the others'
    choices; with no card, the table as it stands."""
    table = open_table(game["seed"], game["players"], game["level"], game["whole"], rounds)
    trick = None
    if card is not None:
        turn = next_turn(table, card, others_cards(table), row)
        if turn is None:
            trick = (card, *others_cards(table))
        else:
            table = advance(table, turn)
    out = table_view(table)
    if trick is not None:
        # Rule S3: the cards are revealed together; the lowest, the person's,
        # is below every row: the person takes a row before any card is placed.
        out["state"] = "choose-row"
        out["trick"] = list(trick)
        out["card"] = card
    return out


def nimmt_hint_job(game: dict[str, Any], rounds: list[list[Any]]) -> dict[str, Any]:
    table = open_table(game["seed"], game["players"], game["level"], game["whole"], rounds)
    if table.over:
        raise InvalidInputError("the game is over: there is no next card", "action")
    return hint(table.current, 0, SAMPLES, len(table.current.turns)).to_json()


def nimmt_review_job(record: Record, player: int, samples: int, seed: int) -> dict[str, Any]:
    return review(record, player, samples, seed).to_json()


# -- Cento ---------------------------------------------------------------------------------


def cento_daily_job(day: str) -> dict[str, Any]:
    """The day's puzzle as ``thegame cento daily --json`` gives it."""
    return daily(dt.date.fromisoformat(day), Limit(time=DAILY_TIME)).to_dict()


def cento_hint_job(record: CentoRecord, seconds: float) -> dict[str, Any]:
    return _cut(hint_for(record, Limit(time=seconds)).to_dict())


def cento_solve_job(record: CentoRecord, seconds: float) -> dict[str, Any]:
    """``cento explain``: the solver's verdict and line, each turn with its reasons."""
    result = explain_line(record, Limit(time=seconds))
    return _cut({"headline": result.headline, **result.to_dict()})


def _cut(out: dict[str, Any]) -> dict[str, Any]:
    """``"stopped_early": true`` when the budget ended the search unproven."""
    if not out.get("optimal", True) or interrupt.requested():
        out["stopped_early"] = True
    return out


# -- The Mind ----------------------------------------------------------------------------


def _stop_when_asked(_: int) -> None:
    """A count with no partial answer: the budget's stop flag ends it here."""
    if interrupt.requested():
        raise KeyboardInterrupt


def mind_odds_job(players: int, tolerance: int, watched: bool = False) -> dict[str, Any]:
    """The Mind: the exact odds of every level, without and with a star at
    its start, and the best star policy over the campaign (``mind odds``);
    ``watched``: the levels counted so far reported to the server."""
    check_tolerance(tolerance)
    rules = MindRules(players)
    # Each level is counted twice (without and with a star), a tick per card value.
    per_level = 2 * rules.high
    ticks = itertools.count(1)

    def tick(v: int) -> None:
        _stop_when_asked(v)
        if watched:
            report(next(ticks) // per_level, rules.levels)

    # The slow ones counted once, stored.
    levels = campaign_odds_once(rules, tolerance, tick)
    sol = solve_campaign(
        rules, {n: (a.probabilities(), b.probabilities()) for n, (a, b) in levels.items()}
    )
    return {
        "players": players,
        "tolerance": tolerance,
        "levels": [
            {
                "level": n,
                "lives_lost": plain.floats(),
                "lives_lost_with_star": starred.floats(),
                "exact": True,
            }
            for n, (plain, starred) in levels.items()
        ],
        "campaign": sol.to_dict(),
    }
