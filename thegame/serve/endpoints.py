"""Every endpoint of the API, declared once: its method and path, the
handler that answers it, its query parameters and body fields (checked
before the handler runs), the fields of its answer, and the words of its
row in the docs' endpoint table. The routes, the OpenAPI document
(``schema.openapi``), the checks and that table are all made from here."""

from __future__ import annotations

from ..analysis.nimmt.players import LEVELS
from ..models.cento.rules import MAX_NAMED
from ..models.nimmt.rules import MAX_PLAYERS, MIN_PLAYERS, ROWS
from ..models.seeds import MAX_SEED
from ..models.the_game import variants
from ..puzzles.the_game.daily import STREAMS
from .inputs import SERVED
from .schema import Endpoint, Field, Json

# The largest tolerance of The Mind's odds served (the count grows with it).
MIND_TOLERANCE = 10
# Samples a review may ask for (the fair column; each replays the game).
MAX_SAMPLES = 1000
NIMMT_SAMPLES = 5000
HELPED = 10_000  # hints a page may say it took


def _int(name: str, low: int, high: int, doc: str, default: int | None = None) -> Field:
    return Field(name, (Json.INTEGER,), doc, low, high, default=default)


def _seconds(name: str, doc: str, default: float) -> Field:
    return Field(name, (Json.NUMBER,), doc, positive=True, default=default)


# A day of the calendar: years 0001-9999, months 01-12, days 01-31 (the
# ``date`` format rules out the rest, 2026-02-30; the server checks it too).
_DATE = r"^(?!0000)[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$"
SEED = _int("seed", 0, MAX_SEED, "the deal's seed")
RECORD = Field(
    "record",
    (Json.OBJECT, Json.STRING),
    "a game record, or a record file's text (a deal or a puzzle is read as its position)",
    forms=(("deal",), ("deck",), ("position",)),
)
TURNS = Field("turns", (Json.ARRAY,), "the turns played, in the record format", items=Json.OBJECT)
PLAYS = Field("plays", (Json.ARRAY,), 'the turn\'s plays so far: [{"card": 37, "pile": "A1"}]',
              items=Json.OBJECT)  # fmt: skip
TIME = "seconds of search (the server's cap wins)"
VARIANT = Field("variant", (Json.STRING,), "a served variant", enum=SERVED)
STREAM = Field("variant", (Json.STRING,), "the daily stream", enum=(variants.DEFAULT, *STREAMS))
DAILY = Field("daily", (Json.STRING,), "the puzzle's day", pattern=_DATE, format="date")
DAY = Field(
    "date", (Json.STRING,), "a day YYYY-MM-DD (default today, UTC)", pattern=_DATE, format="date"
)

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
        handler="the_game:api_daily",
        shown=f"GET /api/daily?date=YYYY-MM-DD&variant={STREAMS[0]}",
        takes='(both optional: today, the default stream)',
        gives=(
            'the puzzle as `thegame daily --json` prints it: `date`, `variant`, `seed`, '
            '`cards_left`, `deal`, `position`, `difficulty`, `turns` (its solution)'
        ),
    ),
    ("GET", "/api/mind/odds"): Endpoint(
        "The Mind: the exact odds of every level and the best star policy",
        query=MIND_ODDS,
        answer=("players", "tolerance", "levels", "campaign"),
        handler="mind:api_mind_odds",
        shown='GET /api/mind/odds?players=2&tolerance=3',
        takes='(players 2-4, tolerance 1-10)',
        gives=(
            '`levels` (each with `lives_lost` and `lives_lost_with_star`, the chance of '
            'losing 0, 1, 2, ... lives; exact), `campaign` (`p_win`, `p_win_without_stars`, '
            '`star_policy`, `p_complete_level`), as `thegame mind odds --json`'
        ),
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
        one_of=("seed", "deck", "deal"),
        handler="the_game:api_solve",
        takes=(
            'one deal source: `"seed"` (with `"variant"`, `"players"`, `"first"`), `"deck"` '
            '(a string), or `"deal"` (a deal, record or puzzle as JSON, or a file\'s text); '
            '`"time_limit"` (s, default 10), `"explain"` (false)'
        ),
        gives=(
            '`verdict`, `first`, `cards_left`, `optimal`, `lower_bound`, `turns`, `line`, '
            "`from_turn` (the first turn the search played: a record's turns are kept), "
            '`proof`, `engine`, `stats`, and with `explain` the reasons per turn'
        ),
    ),
    ("POST", "/api/check"): Endpoint(
        "Replay a record through the rules: legal, or its first illegal step",
        body=(RECORD,),
        answer=("legal", "status", "cards_left", "error"),
        worker=False,
        handler="the_game:api_check",
        takes='`"record"`',
        gives='`legal`, `status`, `cards_left`, `error`, `reason`',
    ),
    ("POST", "/api/hint"): Endpoint(
        "The best next action with the whole deal known",
        body=(RECORD, PLAYS, _seconds("time_limit", TIME, 3.0)),
        answer=("player", "turn", "move", "verdict", "text"),
        time_limit=True,
        handler="the_game:api_hint",
        takes='`"record"`, optional `"plays"` of the turn in progress, `"time_limit"` (3)',
        gives=(
            'the hint as `thegame hint --json` gives it: `player`, `turn`, `move` (`plays`, '
            'one play or none, and `end_turn`), `verdict`, `cards_left`, `optimal`, `turns`, '
            '`text`; and `line`'
        ),
    ),
    ("POST", "/api/analyze"): Endpoint(
        "The annotated review of a record: win chance per turn, marks, hindsight",
        body=ANALYZE,
        answer=("cards_left", "status", "full_view", "turn_starts", "actions", "stats"),
        time_limit=True,
        handler="the_game:api_analyze",
        takes=(
            '`"record"`, `"samples"` (100), `"sample_seed"` (0), `"hindsight"` (true), '
            '`"time_limit"` (per position, 1), `"hindsight_total"` (6)'
        ),
        gives=(
            'the review: `cards_left`, `status`, `turn_starts` (win chance per turn, an '
            'estimate with `samples`), `actions` (each with `mark`, `played`, `better`, '
            '`position`, `drop`, the hindsight figures with `hindsight_proven`), `hindsight` '
            '(`curve`, `steps`, `points` with `proven`, `mistakes`), `full_view`, `stats`'
        ),
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
        one_of=("analyze", "mind_odds", "daily", "cento_review"),
        handler="watched:api_jobs",
        takes=(
            'one of `"analyze"` (the body of `/api/analyze`), `"mind_odds"` (`{"players", '
            '"tolerance"}`), `"cento_review"` (`{"game": {"seed", "players"}, "turns"}`), '
            '`"daily"` (`{"date", "variant"}`: the day\'s puzzle made and kept)'
        ),
        gives=(
            'a job the page watches, started: `job` (its id), `kind`, `status` (`running`), '
            '`done`, `total`, `unit` (`turns`, `levels`, `deals`: the deals tried, out of at '
            'most the total the daily tries), `seconds`'
        ),
    ),
    ("GET", "/api/job"): Endpoint(
        "How far a job got (done of total, in its unit), and its answer once done",
        query=(Field("id", (Json.STRING,), "the job's id"),),
        required=("id",),
        missing=True,
        answer=JOB,
        worker=False,
        handler="watched:api_job",
        shown="GET /api/job?id=...",
        gives=(
            "the same fields, `done` as far as the worker has reported; once `done`, `result` "
            "(the answer the endpoint of its kind gives); once `failed`, `error` (one line); "
            "`cancelled` when stopped. A job is kept for the last 32 jobs; one nobody asks "
            "about for 20 s is stopped"
        ),
    ),
    ("POST", "/api/job/cancel"): Endpoint(
        "Stop a job: it leaves the queue, or its worker is ended",
        body=(Field("id", (Json.STRING,), "the job's id"),),
        required=("id",),
        missing=True,
        answer=JOB,
        worker=False,
        handler="watched:api_job_cancel",
        takes='`"id"`',
        gives=(
            'the job, `cancelled` (a job still waiting for a worker leaves the queue; a '
            'running one has its worker ended and replaced)'
        ),
    ),
    ("POST", "/api/explain"): Endpoint(
        "Each play of a record with its reasons",
        body=(RECORD,),
        answer=("turns",),
        worker=False,
        handler="the_game:api_explain",
        takes='`"record"`',
        gives='`turns`: each play with its reasons',
    ),
    ("POST", "/api/board"): Endpoint(
        "One action on a page's game; the position as the player may see it",
        body=(
            Field(
                "game",
                (Json.OBJECT,),
                'a daily puzzle {"daily", "variant"} or a real game {"seed", "variant", "players"}',
                fields=(
                    DAILY,
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
                forms=(("play",),),
            ),
            _int("helped", 0, HELPED, "hints taken so far (a puzzle's share text)", 0),
        ),
        answer=("state",),
        handler="the_game:api_board",
        takes=(
            '`"game"` (`{"daily": "YYYY-MM-DD", "variant"}` or `{"seed", "variant", '
            '"players"}`), `"turns"`, `"plays"`, `"action"` (`{"play": {...}}`, `"end"`, '
            '`"undo"`, `"hint"`, `"solution"`)'
        ),
        gives='the position as the player sees it (see `thegame/serve/board.py`)',
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
        handler="nimmt:api_table",
        takes=(
            '`"game"` (`{"seed", "players"` (2-10, default 4)`, "level"` (one of the '
            'library\'s levels, default `normal`)`, "whole"` (true: a game to 66; false: one '
            'round)`}`), `"rounds"` (the turns of each round so far, in the record format: '
            '`[[{"cards": [...], "rows": {"1": 2}}, ...], ...]`), `"action"`: `{"card": 37}`, '
            '`{"card": 3, "row": 2}` (the row rule S3 asks for), `"hint"`, or none'
        ),
        gives=(
            '`state` (`playing`, `choose-row` with the revealed `trick`, `over`), `round`, '
            '`turn`, `rows` (each with its `cards` and `heads`), `hand`, `heads` (this '
            'round), `points` (before it), `totals`, `last` (the last turn: its cards and '
            '`placements`), `rounds` (to send back); at the end `record` (a round record, or '
            'the game\'s rounds) and `result` (`totals`, `winners`, `you`); for `"hint"`, '
            '`hint` as `thegame nimmt hint --json`'
        ),
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
        handler="nimmt:api_review",
        takes=(
            '`"record"` (a round record, or a game\'s with `"round"`, default its last), '
            '`"player"` (1), `"samples"` (500, at most 5,000), `"sample_seed"` (0)'
        ),
        gives='the review as `thegame nimmt analyze --json` prints it',
    ),
    ("GET", "/api/cento/daily"): Endpoint(
        "Cento's solo puzzle of the day as `thegame cento daily --json` prints it",
        query=(DAY,),
        answer=("date", "seed", "deal", "turn_count", "turns"),
        handler="cento:api_daily",
        shown='GET /api/cento/daily?date=YYYY-MM-DD',
        takes='(optional: today)',
        gives=(
            'the puzzle as `thegame cento daily --json` prints it: `date`, `seed`, `deal`, '
            '`turn_count`, `optimal`, `turns` (its solution)'
        ),
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
                    DAILY,
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
        handler="cento:api_board",
        takes=(
            '`"game"` (`{"daily": "YYYY-MM-DD"}`, `{"seed": N}` alone, or `{"seed": N, '
            '"players": 2-6}` at a table: then the answer holds no `draw_next`, adds '
            "`players`, `to_move`, `seats` (each player's hand size), `engine` (the engine's "
            'turns just played, each with its `estimate`: the share of sampled worlds it wins '
            'and their number), and at the end `state` `over`, `winners`, `you`; `"solution"` '
            'is refused and `"undo"` takes back only steps of a turn that drew nothing), '
            '`"turns"` (the record\'s turns), `"steps"` (the turn being built: `"37"`, `"free '
            '45"`, `"draw"`, `"trick"`, `"treat"`), `"action"` (`{"play": 37}`, `{"play": '
            '"free", "as": 45}`, `"draw"`, `"trick"`, `"treat"`, `"end"`, `"undo"`, `"hint"`, '
            '`"solution"`)'
        ),
        gives=(
            '`state` (`playing`, `solved`, `lost`), `turn`, `turns`, `steps`, `open`, `bound` '
            '(rule Z2), `hand`, `draw_left`, `draw_next`, `cards_left`, `playable`, '
            '`free_values`, `can` (`draw`, `trick`, `treat`, `end`); `hint` (as `thegame '
            'cento hint --json`), `step` (the solution step made), `puzzle`, `share`'
        ),
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
        one_of=("seed", "record"),
        handler="cento:api_solve",
        takes='`"seed"` with `"players"` (1 or 2), or `"record"`; `"time_limit"` (10)',
        gives=(
            'as `thegame cento explain --json`: `verdict`, `optimal`, `turns` (each with its '
            '`reasons`), `stats`, and `headline`'
        ),
    ),
    ("GET", "/api/openapi.json"): Endpoint(
        "This document", worker=False,
        handler="app:api_openapi",
    ),
}
