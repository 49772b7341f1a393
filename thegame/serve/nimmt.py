"""6 nimmt! in the browser: a round or a whole game to 66 against the
``by_level`` players, the record at the end and its review.

The page keeps the game as its seed and the turns played; each click sends
them with the action to ``/api/nimmt/table``, which replays them through the
referee (``analysis.nimmt.table``) and answers with the table. The other
players' decisions and the review run in the worker pool.
"""

from __future__ import annotations

import json
import random
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from ..analysis.nimmt.players import LEVELS
from ..analysis.nimmt.table import (
    hand,
    open_table,
    rounds_from_json,
)
from ..models import InvalidInputError
from ..models.nimmt.deal import check_players
from ..models.nimmt.record import GameRecord, load_file, replay_game
from ..models.nimmt.rules import GAME_END, MAX_PLAYERS, MIN_PLAYERS, ROWS
from ..models.seeds import MAX_SEED
from . import game_jobs, inputs
from .base import _int_param, _json, _server, api, page

# The level a game starts with: the command line's default, while the library has it.
DEFAULT_LEVEL = "strong" if "strong" in LEVELS else next(iter(LEVELS))


def _game(raw: Any) -> dict[str, Any]:
    g = inputs.obj(raw, "game")
    seed = inputs.integer(g, "seed", 0, MAX_SEED, None)
    if seed is None:
        raise InvalidInputError('give "seed"', "game")
    players = inputs.integer(g, "players", MIN_PLAYERS, MAX_PLAYERS, 4)
    assert players is not None
    level = inputs.text(g, "level", DEFAULT_LEVEL) or DEFAULT_LEVEL
    if level not in LEVELS:
        raise InvalidInputError(f"no level {level[:24]!r}; the levels are {', '.join(LEVELS)}",
                                "level")  # fmt: skip
    whole = inputs.flag(g, "whole", True)
    return {"seed": seed, "players": players, "level": level, "whole": whole}


@api
async def api_table(request: Request) -> Response:
    """``action``: ``{"card": N}``, ``{"card": N, "row": R}`` (rule S3),
    ``"hint"``, or none (the table as it stands)."""
    server, data = _server(request), await _json(request)
    game = _game(data.get("game"))
    rounds = rounds_from_json(game["seed"], game["players"], data.get("rounds", []))
    # Checked here (milliseconds) so a bad request never waits for a worker.
    table = open_table(game["seed"], game["players"], game["level"], game["whole"], rounds)
    action = data.get("action")
    cap = server.settings.time_cap
    if action is None:
        return JSONResponse(game_jobs.table_view(table))
    if action == "hint":
        out = await server.run(request, game_jobs.nimmt_hint_job, game, rounds, budget=cap)
        return JSONResponse({"hint": out})
    if not isinstance(action, dict) or not set(action) <= {"card", "row"} or "card" not in action:
        raise InvalidInputError('must be {"card": N}, {"card": N, "row": R} or "hint"', "action")
    card = inputs.integer(action, "card", 1, 104, None)
    row = inputs.integer(action, "row", 1, ROWS, None)
    if table.over:
        raise InvalidInputError("the game is over: no next turn", "action")
    assert card is not None
    if card not in hand(table):
        raise InvalidInputError(f"card {card} is not in your hand (rule S2)", "action.card")
    out = await server.run(
        request,
        game_jobs.nimmt_table_job,
        game,
        rounds,
        card,
        None if row is None else row - 1,
        budget=cap,
    )
    return JSONResponse(out)


@api
async def api_review(request: Request) -> Response:
    """The review of player ``player`` in a round record, or in round
    ``round`` of a game record (default: its last)."""
    server, data = _server(request), await _json(request)
    raw = data.get("record")
    if raw is None:
        raise InvalidInputError('missing "record"', "body")
    loaded = load_file(raw)
    if isinstance(loaded, GameRecord):
        checked = replay_game(loaded)
        if checked.error is not None:
            e = checked.error
            raise InvalidInputError(f"round {e.round}: {e.error.message}", "record")
        number = inputs.integer(data, "round", 1, len(loaded.rounds), len(loaded.rounds))
        assert number is not None
        record = loaded.rounds[number - 1]
    else:
        record = loaded
    player = inputs.integer(data, "player", 1, record.deal.players, 1)
    samples = inputs.integer(data, "samples", 1, 5000, game_jobs.SAMPLES)
    seed = inputs.integer(data, "sample_seed", 0, MAX_SEED, 0)
    assert player is not None and samples is not None and seed is not None
    from ..solver.nimmt.problem import problem_from_record

    problem_from_record(record, player - 1)  # a legal finished round, before any work
    out = await server.run(
        request,
        game_jobs.nimmt_review_job,
        record,
        player - 1,
        samples,
        seed,
        budget=server.settings.time_cap,
    )
    return JSONResponse(out)


@page
async def nimmt_page(request: Request) -> Response:
    server, q = _server(request), request.query_params
    players = _int_param(q.get("players"), "players", MIN_PLAYERS, MAX_PLAYERS, 4)
    check_players(players, "players")
    level = q.get("level") or DEFAULT_LEVEL
    if level not in LEVELS:
        raise InvalidInputError(f"no level {level[:24]!r}; the levels are {', '.join(LEVELS)}",
                                "level")  # fmt: skip
    whole = q.get("round") in (None, "", "0")
    if q.get("seed") in (None, ""):
        seed = random.SystemRandom().randrange(1 << 32)
        query = f"seed={seed}&players={players}&level={level}" + ("" if whole else "&round=1")
        return RedirectResponse(f"/nimmt?{query}", 303)
    seed = _int_param(q.get("seed"), "seed", 0, MAX_SEED, 0)
    game = {"seed": seed, "players": players, "level": level, "whole": whole}
    what = f"a game to {GAME_END} points" if whole else "one round"
    return server.page(
        "nimmt.html",
        title=f"6 nimmt!: seed {seed}",
        game=json.dumps(game),
        subtitle=f"{what}; you and {players - 1} {level} player{'s' if players > 2 else ''}",
        levels=list(LEVELS),
        level=level,
        players=players,
        whole=whole,
    )


PAGES = (Route("/nimmt", nimmt_page),)
