"""The API's contract: what each ``/api/`` endpoint takes and answers.

Each endpoint declares its query parameters and body fields here; the
``api`` wrapper checks every request against them before its handler runs
(a field of the wrong JSON type, or an explicit ``null`` where none is
meant, is a 400 naming the field), and ``openapi`` builds the OpenAPI 3
document ``GET /api/openapi.json`` serves from the application's own route
table and these declarations. The handlers then check what the types cannot
say (a legal record, a deal that exists) with the library's one line.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..analysis.nimmt.players import LEVELS
from ..models import InvalidInputError
from ..models.cento.rules import MAX_NAMED
from ..models.nimmt.rules import MAX_PLAYERS, MIN_PLAYERS, ROWS
from ..models.seeds import MAX_SEED
from ..puzzles.the_game.daily import STREAMS
from .inputs import SERVED

# The largest tolerance of The Mind's odds served (the count grows with it).
MIND_TOLERANCE = 10
# Samples a review may ask for (the fair column; each replays the game).
MAX_SAMPLES = 1000
NIMMT_SAMPLES = 5000
HELPED = 10_000  # hints a page may say it took


class Json(StrEnum):
    """A JSON type, as OpenAPI names it."""

    INTEGER = "integer"
    NUMBER = "number"
    BOOLEAN = "boolean"
    STRING = "string"
    OBJECT = "object"
    ARRAY = "array"


_ARTICLE = {
    Json.INTEGER: "an integer",
    Json.NUMBER: "a number",
    Json.BOOLEAN: "true or false",
    Json.STRING: "a string",
    Json.OBJECT: "a JSON object",
    Json.ARRAY: "a list",
}


def json_type(value: Any) -> str:
    """The JSON type of a parsed value (``null`` for None)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


@dataclass(frozen=True)
class Field:
    """A query parameter or a body field: its JSON type(s) and what the
    handler accepts of it (a range, a list of names)."""

    name: str
    kinds: tuple[Json, ...]
    doc: str
    low: int | float | None = None
    high: int | float | None = None
    positive: bool = False  # a number > 0 (a time budget)
    enum: tuple[str, ...] = ()  # documented; the handler names the choices
    pattern: str | None = None
    nullable: bool = False  # null means "none" (the pages send it)
    items: Json | None = None  # an array's items
    fields: tuple[Field, ...] = ()  # an object's own fields, checked too
    default: Any = None

    def schema(self) -> dict[str, Any]:
        alts = [self._one(k) for k in self.kinds]
        out: dict[str, Any] = alts[0] if len(alts) == 1 else {"oneOf": alts}
        if self.nullable:
            out = {"oneOf": [*out.get("oneOf", [out]), {"type": "null"}]}
        out["description"] = self.doc
        if self.default is not None:
            out["default"] = self.default
        return out

    def _one(self, kind: Json) -> dict[str, Any]:
        out: dict[str, Any] = {"type": str(kind)}
        if kind in (Json.INTEGER, Json.NUMBER):
            if self.low is not None:
                out["minimum"] = self.low
            if self.high is not None:
                out["maximum"] = self.high
            if self.positive:
                out["exclusiveMinimum"] = 0
        if kind is Json.STRING:
            if self.enum:
                out["enum"] = list(self.enum)
            if self.pattern:
                out["pattern"] = self.pattern
        if kind is Json.ARRAY and self.items is not None:
            out["items"] = {"type": str(self.items)}
        if kind is Json.OBJECT and self.fields:
            out["properties"] = {f.name: f.schema() for f in self.fields}
        return out

    def check(self, value: Any, where: str) -> None:
        """A 400 for a value of none of the field's types (null included)."""
        kind = json_type(value)
        if kind == "null":
            if self.nullable:
                return
        elif kind in self.kinds or (kind == "integer" and Json.NUMBER in self.kinds):
            if kind == "integer" and Json.INTEGER in self.kinds:
                low, high = self.low, self.high
                if (low is not None and value < low) or (high is not None and value > high):
                    shown = str(value) if len(str(value)) <= 24 else str(value)[:24] + "…"
                    raise InvalidInputError(f"must be from {low} to {high}, not {shown}", where)
            if kind == "object" and self.fields:
                check_fields(self.fields, value, where)
            if kind == "array" and self.items is not None:
                for i, item in enumerate(value):
                    if json_type(item) != self.items:
                        raise InvalidInputError(f"must be {_ARTICLE[self.items]}", f"{where}[{i}]")
            return
        wanted = " or ".join(_ARTICLE[k] for k in self.kinds)
        raise InvalidInputError(f"must be {wanted}, not {_NAMED.get(kind, kind)}", where)


_NAMED = {"null": "null", "boolean": "true/false", "integer": "an integer", "number": "a number",
          "string": "a string", "array": "a list", "object": "an object"}  # fmt: skip


def check_fields(fields: Iterable[Field], data: dict[str, Any], prefix: str = "") -> None:
    for f in fields:
        if f.name in data:
            f.check(data[f.name], f"{prefix}.{f.name}" if prefix else f.name)


@dataclass(frozen=True)
class Endpoint:
    """One operation of the API: its parameters, its body and its answer."""

    summary: str
    query: tuple[Field, ...] = ()
    body: tuple[Field, ...] | None = None  # None: no body
    answer: tuple[str, ...] = ()  # fields every 200 answer has
    worker: bool = True  # may wait for the pool (a 503)
    time_limit: bool = False  # takes a time_limit (the 503's advice)


def _int(name: str, low: int, high: int, doc: str, default: int | None = None) -> Field:
    return Field(name, (Json.INTEGER,), doc, low, high, default=default)


def _seconds(name: str, doc: str, default: float) -> Field:
    return Field(name, (Json.NUMBER,), doc, positive=True, default=default)


_DATE = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
SEED = _int("seed", 0, MAX_SEED, "the deal's seed")
RECORD = Field("record", (Json.OBJECT, Json.STRING), "a game record, or a record file's text")
TURNS = Field("turns", (Json.ARRAY,), "the turns played, in the record format", items=Json.OBJECT)
PLAYS = Field("plays", (Json.ARRAY,), 'the turn\'s plays so far: [{"card": 37, "pile": "A1"}]',
              items=Json.OBJECT)  # fmt: skip
TIME = "seconds of search (the server's cap wins)"
VARIANT = Field("variant", (Json.STRING,), "a served variant", enum=SERVED)
STREAM = Field("variant", (Json.STRING,), "the daily stream", enum=("classic", *STREAMS))
DAY = Field("date", (Json.STRING,), "a day YYYY-MM-DD (default today, UTC)", pattern=_DATE)

ANALYZE = (
    RECORD,
    _int("samples", 2, MAX_SAMPLES, "sampled orders of the unseen cards", 100),
    _int("sample_seed", 0, MAX_SEED, "the samples' seed", 0),
    Field("hindsight", (Json.BOOLEAN,), "the hindsight column", default=True),
    _seconds("time_limit", "seconds per position of the hindsight column", 1.0),
    _seconds("hindsight_total", "seconds for the whole hindsight column", 6.0),
)
MIND_ODDS = (
    _int("players", 2, 4, "players", 2),
    _int("tolerance", 1, MIND_TOLERANCE, "the largest gap counted", 3),
)
CENTO_PLAYERS = _int("players", 1, 6, "players: 1 alone, 2-6 a table against the engine", 1)
# A watched job's answer: its id, kind, status (running, done, failed,
# cancelled), done of total in its unit, seconds; result once done, error once failed.
JOB = ("job", "kind", "status", "done", "total", "unit", "seconds")

ENDPOINTS: dict[tuple[str, str], Endpoint] = {
    ("GET", "/api/daily"): Endpoint(
        "The day's puzzle as `thegame daily --json` prints it, its solution under `turns`",
        query=(DAY, STREAM),
        answer=("date", "variant", "seed", "cards_left", "deal", "position", "turns"),
    ),
    ("GET", "/api/mind/odds"): Endpoint(
        "The Mind: the exact odds of every level and the best star policy",
        query=MIND_ODDS,
        answer=("players", "tolerance", "levels", "campaign"),
    ),
    ("POST", "/api/solve"): Endpoint(
        "Solve a deal (a seed, a deck or a deal file), or on from a record's turns",
        body=(
            SEED,
            Field("deck", (Json.STRING,), "the deck's cards in order"),
            Field("deal", (Json.OBJECT, Json.STRING), "a deal, record or puzzle, or a file's text"),
            VARIANT,
            _int("players", 1, 5, "players"),
            _int("first", 1, 5, "the player who starts"),
            _seconds("time_limit", TIME, 10.0),
            Field("explain", (Json.BOOLEAN,), "the reasons of each play", default=False),
        ),
        answer=("verdict", "cards_left", "optimal", "turns", "line", "stats"),
        time_limit=True,
    ),
    ("POST", "/api/check"): Endpoint(
        "Replay a record through the rules: legal, or its first illegal step",
        body=(RECORD,),
        answer=("legal", "status", "cards_left", "error"),
        worker=False,
    ),
    ("POST", "/api/hint"): Endpoint(
        "The best next action with the whole deal known",
        body=(RECORD, PLAYS, _seconds("time_limit", TIME, 3.0)),
        answer=("player", "turn", "move", "verdict", "text"),
        time_limit=True,
    ),
    ("POST", "/api/analyze"): Endpoint(
        "The annotated review of a record: win chance per turn, marks, hindsight",
        body=ANALYZE,
        answer=("cards_left", "status", "turn_starts", "actions", "stats"),
        time_limit=True,
    ),
    ("POST", "/api/jobs"): Endpoint(
        "Start a job a page watches: a review or The Mind's odds; its id at once",
        body=(
            Field("analyze", (Json.OBJECT,), "a review: the body of /api/analyze", fields=ANALYZE),
            Field(
                "mind_odds",
                (Json.OBJECT,),
                "The Mind's odds: {players, tolerance}",
                fields=MIND_ODDS,
            ),
            Field(
                "daily",
                (Json.OBJECT,),
                'a day\'s puzzle made: {"date", "variant"} (the deals tried so far)',
                fields=(DAY, STREAM),
            ),
            Field(
                "cento_review",
                (Json.OBJECT,),
                'a Cento table\'s game reviewed: {"game": {"seed", "players"}, "turns"}',
                fields=(
                    Field("game", (Json.OBJECT,), "the table", fields=(SEED, CENTO_PLAYERS)),
                    TURNS,
                ),
            ),
        ),
        answer=JOB,
        time_limit=True,
    ),
    ("GET", "/api/job"): Endpoint(
        "How far a job got (done of total, in its unit), and its answer once done",
        query=(Field("id", (Json.STRING,), "the job's id"),),
        answer=JOB,
        worker=False,
    ),
    ("POST", "/api/job/cancel"): Endpoint(
        "Stop a job: it leaves the queue, or its worker is ended",
        body=(Field("id", (Json.STRING,), "the job's id"),),
        answer=JOB,
        worker=False,
    ),
    ("POST", "/api/explain"): Endpoint(
        "Each play of a record with its reasons",
        body=(RECORD,),
        answer=("turns",),
        worker=False,
    ),
    ("POST", "/api/board"): Endpoint(
        "One action on a page's game; the position as the player may see it",
        body=(
            Field(
                "game",
                (Json.OBJECT,),
                'a daily puzzle {"daily", "variant"} or a real game {"seed", "variant", "players"}',
                fields=(
                    Field("daily", (Json.STRING,), "the puzzle's day", pattern=_DATE),
                    Field(
                        "variant", (Json.STRING,), "a served variant or daily stream", enum=SERVED
                    ),
                    SEED,
                    _int("players", 1, 5, "players", 1),
                ),
            ),
            TURNS,
            PLAYS,
            Field(
                "action",
                (Json.STRING, Json.OBJECT),
                'a play {"play": {"card", "pile"}}, "end", "undo", "hint", "solution"; '
                "null or absent: none",
                enum=("end", "undo", "hint", "solution"),
                nullable=True,
                fields=(Field("play", (Json.OBJECT,), "the play"),),
            ),
            _int("helped", 0, HELPED, "hints taken so far (a puzzle's share text)", 0),
        ),
        answer=("state",),
    ),
    ("POST", "/api/nimmt/table"): Endpoint(
        "6 nimmt!: the table after the person's card and the others' choices",
        body=(
            Field(
                "game",
                (Json.OBJECT,),
                'the game: {"seed", "players", "level", "whole"}',
                fields=(
                    SEED,
                    _int("players", MIN_PLAYERS, MAX_PLAYERS, "players", 4),
                    Field("level", (Json.STRING,), "the others' level", enum=tuple(LEVELS)),
                    Field("whole", (Json.BOOLEAN,), "a game to 66 (false: one round)"),
                ),
            ),
            Field("rounds", (Json.ARRAY,), "the turns of each round so far", items=Json.ARRAY),
            Field(
                "action",
                (Json.STRING, Json.OBJECT),
                '{"card": N}, {"card": N, "row": R} (rule S3) or "hint"; null or absent: none',
                enum=("hint",),
                nullable=True,
                fields=(_int("card", 1, 104, "the card"), _int("row", 1, ROWS, "the row taken")),
            ),
        ),
        answer=(),  # the table, or {"hint": ...} for a hint
    ),
    ("POST", "/api/nimmt/review"): Endpoint(
        "6 nimmt!: the review of a round as `thegame nimmt analyze --json` prints it",
        body=(
            Field("record", (Json.OBJECT,), "a round record, or a game's"),
            _int("round", 1, 1000, "the round of a game record (default its last)"),
            _int("player", 1, MAX_PLAYERS, "the player reviewed", 1),
            _int("samples", 1, NIMMT_SAMPLES, "samples of the blind column", 500),
            _int("sample_seed", 0, MAX_SEED, "the samples' seed", 0),
        ),
    ),
    ("GET", "/api/cento/daily"): Endpoint(
        "Cento's solo puzzle of the day as `thegame cento daily --json` prints it",
        query=(DAY,),
        answer=("date", "seed", "deal", "turn_count", "turns"),
    ),
    ("POST", "/api/cento/board"): Endpoint(
        "Cento: one step on a page's game; the position and the steps allowed next",
        body=(
            Field(
                "game",
                (Json.OBJECT,),
                '{"daily": "YYYY-MM-DD"}, {"seed": N} (alone) or {"seed": N, "players": 2-6} '
                "(a table: seat 1 against the engine, the others' hands and the pile hidden)",
                fields=(
                    Field("daily", (Json.STRING,), "the puzzle's day", pattern=_DATE),
                    SEED,
                    CENTO_PLAYERS,
                ),
            ),
            TURNS,
            Field(
                "steps",
                (Json.ARRAY,),
                'the turn being built: "37", "free 45", "draw", ...',
                items=Json.STRING,
            ),
            Field(
                "action",
                (Json.STRING, Json.OBJECT),
                '{"play": 37}, {"play": "free", "as": 45}, "draw", "trick", "treat", "end", '
                '"undo", "hint", "solution"; null or absent: none',
                enum=("draw", "trick", "treat", "end", "undo", "hint", "solution"),
                nullable=True,
                fields=(
                    Field(
                        "play",
                        (Json.INTEGER, Json.STRING),
                        'a card 1-100, or "free"',
                        1,
                        100,
                        enum=("free",),
                    ),
                    _int("as", 1, MAX_NAMED, "the value a free card is played as (rule Z4)"),
                ),
            ),
        ),
        answer=("state", "turn", "turns", "steps", "hand"),
    ),
    ("POST", "/api/cento/solve"): Endpoint(
        "Cento: a seed or a record solved, each turn with its reasons",
        body=(
            SEED,
            _int("players", 1, 2, "players", 1),
            Field("record", (Json.OBJECT,), "a Cento record"),
            _seconds("time_limit", TIME, 10.0),
        ),
        answer=("verdict", "optimal", "turns", "stats", "headline"),
        time_limit=True,
    ),
    ("GET", "/api/openapi.json"): Endpoint("This document", worker=False),
}

ERROR = {
    "type": "object",
    "required": ["error"],
    "additionalProperties": False,
    "properties": {"error": {"type": "string", "description": "one line saying what is wrong"}},
}
_WHY = {
    "400": "bad input: a field of the wrong type or range, or an illegal record",
    "403": "a foreign Host, or a request from another site",
    "408": "the body did not arrive in time",
    "413": "a body over 1 MB",
    "415": "a body that is not Content-Type: application/json",
    "503": "every worker stayed busy, or the job ran past the server's cap",
    "500": "a fault of the server (a bug), logged",
}


def _error(status: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "description": _WHY[status],
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }
    if status == "503":
        out["headers"] = {
            "Retry-After": {"description": "seconds", "schema": {"type": "string"}},
        }
    return out


def operation(method: str, path: str, spec: Endpoint) -> dict[str, Any]:
    answer: dict[str, Any] = {"type": "object"}
    if spec.answer:
        answer["required"] = list(spec.answer)
    op: dict[str, Any] = {
        "summary": spec.summary,
        "operationId": f"{method.lower()}{path[4:].replace('/', '_').replace('.', '_')}",
        "responses": {
            "200": {
                "description": "the answer",
                "content": {"application/json": {"schema": answer}},
            },
        },
    }
    statuses = ["400", "403", "500"]
    if spec.query:
        op["parameters"] = [
            {"name": f.name, "in": "query", "required": False, "schema": f.schema()}
            for f in spec.query
        ]
    if spec.body is not None:
        op["requestBody"] = {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {
                        "type": "object",
                        "properties": {f.name: f.schema() for f in spec.body},
                    }
                }
            },
        }
        statuses += ["408", "413", "415"]
    if spec.worker:
        statuses.append("503")
    for s in sorted(statuses):
        op["responses"][s] = _error(s)
    return op


def openapi(routes: Iterable[tuple[str, Iterable[str]]], version: str) -> dict[str, Any]:
    """The OpenAPI 3 document of the ``/api/`` routes (path, methods)."""
    paths: dict[str, dict[str, Any]] = {}
    for path, methods in routes:
        for method in sorted(set(methods) - {"HEAD"}):
            spec = ENDPOINTS[(method, path)]  # every route is declared: a KeyError is a bug
            paths.setdefault(path, {})[method.lower()] = operation(method, path, spec)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "thegame serve",
            "version": version,
            "description": "The JSON API of `thegame serve`: the command line's words "
            "(`verdict`, `turns`, `optimal`, `cards_left`, `stats`); every error is "
            '`{"error": "<one line>"}`.',
        },
        "paths": paths,
        "components": {"schemas": {"Error": ERROR}},
    }
