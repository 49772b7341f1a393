"""The results database: one SQLite file, one writer, one row per deal.

The file holds a ``meta`` table (the schema version) and two tables of rows:
``deals`` (what the exact solver decided) and ``blind`` (what the blind policy
achieved on the same deal). A row is keyed by (variant, players, seed): the
variant names a frozen rules preset, so the key is the deal itself. The
budget is not part of the key: a win or a proven loss holds whatever the
budget, and only an ``unknown`` row may be replaced by a later run
(``--retry-unknown``, with a larger budget). Each row is committed the moment
it is written, in WAL mode, so a run killed at any point keeps every finished
deal and a rerun skips them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..models.errors import InvalidInputError

SCHEMA_VERSION = 1

DEAL_COLUMNS = (
    "variant",
    "players",
    "seed",
    "verdict",  # win, loss, unknown
    "first",  # the starting player of the line (1-based)
    "cards_left",  # at the end of the line: 0 for a win
    "cards_left_proven",  # 1 when no line ends with fewer cards left
    "lower_bound",  # proven: no line ends with fewer
    "proof_kind",  # line, exhaustive, bounds; NULL for unknown
    "proof",  # the proof's sentence
    "line",  # turns "player:card pile,card pile;..." replayed through the engine
    "nodes",
    "seconds",
    "time_limit",  # the budget in seconds (NULL: none)
    "version",  # the thegame package version that decided it
)
BLIND_COLUMNS = ("variant", "players", "seed", "won", "cards_left", "turns", "seconds", "version")

_SCHEMA = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE deals (
    variant TEXT NOT NULL, players INTEGER NOT NULL, seed INTEGER NOT NULL,
    verdict TEXT NOT NULL CHECK (verdict IN ('win', 'loss', 'unknown')),
    first INTEGER NOT NULL, cards_left INTEGER NOT NULL,
    cards_left_proven INTEGER NOT NULL, lower_bound INTEGER NOT NULL,
    proof_kind TEXT, proof TEXT, line TEXT NOT NULL,
    nodes INTEGER NOT NULL, seconds REAL NOT NULL, time_limit REAL,
    version TEXT NOT NULL,
    UNIQUE (variant, players, seed)
);
CREATE TABLE blind (
    variant TEXT NOT NULL, players INTEGER NOT NULL, seed INTEGER NOT NULL,
    won INTEGER NOT NULL, cards_left INTEGER NOT NULL, turns INTEGER NOT NULL,
    seconds REAL NOT NULL, version TEXT NOT NULL,
    UNIQUE (variant, players, seed)
);
INSERT INTO meta VALUES ('schema_version', '{SCHEMA_VERSION}');
"""


class Store:
    """The survey's SQLite file. Only the process that opened it writes."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        self.path = str(path)
        if not create and not Path(path).exists():
            raise InvalidInputError("no such database", self.path)
        try:
            # Autocommit: every write below is its own transaction.
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            self._open()
        except sqlite3.DatabaseError as e:
            raise InvalidInputError(f"not a survey database ({e})", self.path) from None

    def _open(self) -> None:
        query = "SELECT name FROM sqlite_master WHERE type='table'"
        tables = {r[0] for r in self.db.execute(query)}
        if not tables:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.executescript(f"BEGIN; {_SCHEMA} COMMIT;")
        elif "meta" not in tables:
            raise InvalidInputError("not a survey database (no meta table)", self.path)
        row = self.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        found = row[0] if row else "none"
        if found != str(SCHEMA_VERSION):
            raise InvalidInputError(
                f"written with survey schema {found}, this thegame reads schema "
                f"{SCHEMA_VERSION}: use another --db file (nothing was changed)",
                self.path,
            )
        self.db.execute("PRAGMA journal_mode=WAL")
        # WAL with synchronous=NORMAL: a committed row survives the process
        # being killed (only a power cut may lose the last commits).
        self.db.execute("PRAGMA synchronous=NORMAL")

    def close(self) -> None:
        self.db.close()

    # -- writing ----------------------------------------------------------------

    def put_deal(self, row: Mapping[str, Any]) -> None:
        """Insert a deal's row; an existing row is replaced only if it is unknown."""
        _upsert(self.db, "deals", DEAL_COLUMNS, row, "deals.verdict = 'unknown'")

    def put_blind(self, row: Mapping[str, Any]) -> None:
        """Insert a blind game's row (a stored one is kept: the policy is fixed)."""
        _upsert(self.db, "blind", BLIND_COLUMNS, row, None)

    # -- reading ----------------------------------------------------------------

    def deal_seeds(self, variant: str, players: int, retry_below: float | None = None) -> set[int]:
        """Seeds already stored for (variant, players) that a run should skip.

        With ``retry_below`` (a budget in seconds), unknown rows whose budget
        was smaller are not skipped: they will be decided again."""
        rows = self.db.execute(
            "SELECT seed, verdict, time_limit FROM deals WHERE variant=? AND players=?",
            (variant, players),
        )
        return {
            seed
            for seed, verdict, limit in rows
            if retry_below is None
            or verdict != "unknown"
            or (limit is None or limit >= retry_below)
        }

    def blind_seeds(self, variant: str, players: int) -> set[int]:
        rows = self.db.execute(
            "SELECT seed FROM blind WHERE variant=? AND players=?", (variant, players)
        )
        return {r[0] for r in rows}

    def groups(self) -> list[tuple[str, int]]:
        """Every (variant, players) with deals stored, in a stable order."""
        rows = self.db.execute("SELECT DISTINCT variant, players FROM deals")
        return sorted(rows, key=lambda vp: (vp[0] != "classic", vp[0], vp[1]))

    def deals(self, variant: str, players: int) -> list[dict[str, Any]]:
        cur = self.db.execute(
            f"SELECT {', '.join(DEAL_COLUMNS)} FROM deals WHERE variant=? AND players=? "
            "ORDER BY seed",
            (variant, players),
        )
        return [dict(zip(DEAL_COLUMNS, r, strict=True)) for r in cur]

    def blinds(self, variant: str, players: int) -> list[dict[str, Any]]:
        cur = self.db.execute(
            f"SELECT {', '.join(BLIND_COLUMNS)} FROM blind WHERE variant=? AND players=? "
            "ORDER BY seed",
            (variant, players),
        )
        return [dict(zip(BLIND_COLUMNS, r, strict=True)) for r in cur]


def _upsert(
    db: sqlite3.Connection,
    table: str,
    columns: Iterable[str],
    row: Mapping[str, Any],
    replace_when: str | None,
) -> None:
    cols = list(columns)
    values = [row[c] for c in cols]
    sql = (
        f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))}) "
        "ON CONFLICT (variant, players, seed) DO "
    )
    if replace_when is None:
        sql += "NOTHING"
    else:
        sets = ", ".join(f"{c} = excluded.{c}" for c in cols[3:])
        sql += f"UPDATE SET {sets} WHERE {replace_when}"
    db.execute(sql, values)
