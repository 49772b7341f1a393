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

The repository keeps the results as text, not as this binary file: an export
with one JSON line per deal (its ``deals`` row and its ``blind`` row), sorted
by the key, gzipped with a fixed header, so the same rows always give the same
bytes and a regeneration shows as a diff of the changed deals. ``import_export``
rebuilds the SQLite file from it; ``open_for_reading`` reads an export as if it
were the database (into memory).
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import sqlite3
import tempfile
import zlib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from ..models.errors import InvalidInputError
from ..models.outcome import Verdict

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
# The strong blind player's games: one row per deal and player (its budget
# per turn, 0 for none, and the seed of its samples). The table is made on
# first use, so a file without it is still schema 1.
STRONG_COLUMNS = (
    "variant", "players", "seed", "playouts", "turn_time", "sample_seed",
    "won", "cards_left", "turns", "playouts_spent", "seconds", "version",
)  # fmt: skip
_STRONG_TABLE = """
CREATE TABLE IF NOT EXISTS blind_strong (
    variant TEXT NOT NULL, players INTEGER NOT NULL, seed INTEGER NOT NULL,
    playouts INTEGER NOT NULL, turn_time REAL NOT NULL, sample_seed INTEGER NOT NULL,
    won INTEGER NOT NULL, cards_left INTEGER NOT NULL, turns INTEGER NOT NULL,
    playouts_spent INTEGER NOT NULL, seconds REAL NOT NULL, version TEXT NOT NULL,
    UNIQUE (variant, players, seed, playouts, turn_time, sample_seed)
)
"""

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
        _upsert(self.db, "deals", DEAL_COLUMNS, row, f"deals.verdict = '{Verdict.UNKNOWN}'")

    def put_blind(self, row: Mapping[str, Any]) -> None:
        """Insert a blind game's row (a stored one is kept: the policy is fixed)."""
        _upsert(self.db, "blind", BLIND_COLUMNS, row, None)

    def put_strong(self, row: Mapping[str, Any]) -> None:
        """Insert a strong player's game (a stored one is kept)."""
        self.db.execute(_STRONG_TABLE)
        cols = ", ".join(STRONG_COLUMNS)
        self.db.execute(
            f"INSERT OR IGNORE INTO blind_strong ({cols}) "
            f"VALUES ({', '.join('?' * len(STRONG_COLUMNS))})",
            [row[c] for c in STRONG_COLUMNS],
        )

    # -- reading ----------------------------------------------------------------

    def _has_strong(self) -> bool:
        query = "SELECT 1 FROM sqlite_master WHERE type='table' AND name='blind_strong'"
        return self.db.execute(query).fetchone() is not None

    def strong_seeds(self, variant: str, players: int, key: tuple[int, float, int]) -> set[int]:
        """Seeds the strong player with this (playouts, turn time, sample seed) has played."""
        if not self._has_strong():
            return set()
        rows = self.db.execute(
            "SELECT seed FROM blind_strong WHERE variant=? AND players=? AND playouts=? "
            "AND turn_time=? AND sample_seed=?",
            (variant, players, *key),
        )
        return {r[0] for r in rows}

    def strongs(self, variant: str, players: int) -> list[dict[str, Any]]:
        """Every strong player's game of (variant, players), by budget then seed."""
        if not self._has_strong():
            return []
        cur = self.db.execute(
            f"SELECT {', '.join(STRONG_COLUMNS)} FROM blind_strong WHERE variant=? AND players=? "
            "ORDER BY playouts, turn_time, sample_seed, seed",
            (variant, players),
        )
        return [dict(zip(STRONG_COLUMNS, r, strict=True)) for r in cur]

    def deal_seeds(self, variant: str, players: int, retry_below: float | None = None) -> set[int]:
        """Seeds already stored for (variant, players) that a run should skip.

        With ``retry_below`` (a budget in seconds), unknown rows whose budget
        was smaller are not skipped: they will be decided again (so is an
        unknown stored without a budget, which only a refused budget such
        as ``nan`` could have written)."""
        rows = self.db.execute(
            "SELECT seed, verdict, time_limit FROM deals WHERE variant=? AND players=?",
            (variant, players),
        )
        return {
            seed
            for seed, verdict, limit in rows
            if retry_below is None
            or Verdict(verdict) is not Verdict.UNKNOWN
            or (limit is not None and limit >= retry_below)
        }

    def unknown_seeds(self, variant: str, players: int) -> set[int]:
        """Seeds of (variant, players) stored as unknown."""
        rows = self.db.execute(
            "SELECT seed FROM deals WHERE variant=? AND players=? AND verdict=?",
            (variant, players, str(Verdict.UNKNOWN.value)),
        )
        return {r[0] for r in rows}

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


# -- the text export -------------------------------------------------------------

EXPORT_FORMAT = "thegame survey export"
_KEY = ("variant", "players", "seed")
# Each export line's parts: its name in the line, the table, the columns.
_TABLES = (("deal", "deals", DEAL_COLUMNS), ("blind", "blind", BLIND_COLUMNS))
# The suffixes that name an export rather than a database.
EXPORT_SUFFIXES = (".jsonl", ".jsonl.gz")


def is_export(path: str | Path) -> bool:
    return str(path).endswith(EXPORT_SUFFIXES)


def export_lines(store: Store) -> Iterator[str]:
    """The export's lines: a header, then one line per deal in key order."""
    yield _dumps({"format": EXPORT_FORMAT, "schema_version": SCHEMA_VERSION})
    merged: dict[tuple[str, int, int], dict[str, Any]] = {}
    for name, table, columns in _TABLES:
        for values in store.db.execute(f"SELECT {', '.join(columns)} FROM {table}"):
            row = dict(zip(columns, values, strict=True))
            key = (row["variant"], row["players"], row["seed"])
            line = merged.setdefault(key, dict(zip(_KEY, key, strict=True)))
            line[name] = {c: row[c] for c in columns[len(_KEY):]}
    if store._has_strong():
        # The strong player's games: a list per deal, one entry per budget.
        cur = store.db.execute(f"SELECT {', '.join(STRONG_COLUMNS)} FROM blind_strong "
                               "ORDER BY playouts, turn_time, sample_seed")  # fmt: skip
        for values in cur:
            row = dict(zip(STRONG_COLUMNS, values, strict=True))
            key = (row["variant"], row["players"], row["seed"])
            line = merged.setdefault(key, dict(zip(_KEY, key, strict=True)))
            line.setdefault("strong", []).append(
                {c: row[c] for c in STRONG_COLUMNS[len(_KEY):]})  # fmt: skip
    for key in sorted(merged):
        yield _dumps(merged[key])


def export_bytes(store: Store, compress: bool) -> tuple[bytes, int]:
    """The whole export and its number of deal lines; gzipped with mtime 0 and no
    file name in the header, so the same rows give the same bytes."""
    lines = list(export_lines(store))
    data = "".join(line + "\n" for line in lines).encode("utf-8")
    if compress:
        data = gzip.compress(data, compresslevel=9, mtime=0)
    return data, len(lines) - 1


def write_export(store: Store, path: str | Path) -> int:
    """Write the export to ``path`` whole or not at all (gzipped if it ends in .gz);
    returns the number of deal lines."""
    data, count = export_bytes(store, str(path).endswith(".gz"))
    with _replacing(path) as tmp:
        Path(tmp).write_bytes(data)
    return count


def import_export(source: str | Path, db: str | Path) -> int:
    """Build the SQLite file ``db`` (which must not exist) from an export, whole
    or not at all; returns the number of deal lines."""
    if Path(db).exists():
        raise InvalidInputError("exists: import builds a new database", str(db))
    with _replacing(db) as tmp:
        store = Store(tmp)
        try:
            count = load_export(store, source)
        finally:
            store.close()
    return count


def open_for_reading(path: str | Path) -> Store:
    """The database at ``path``, or an export loaded into an in-memory one."""
    if not is_export(path):
        return Store(path, create=False)
    store = Store(":memory:")
    load_export(store, path)
    return store


def load_export(store: Store, source: str | Path) -> int:
    """Insert every line of the export ``source`` into ``store`` in one transaction."""
    name = str(source)
    lines = _read_lines(name)
    header = _parse(name, 1, lines[0] if lines else "")
    if header.get("format") != EXPORT_FORMAT:
        raise InvalidInputError("not a survey export (no header line)", name)
    if header.get("schema_version") != SCHEMA_VERSION:
        raise InvalidInputError(
            f"exported with survey schema {header.get('schema_version')}, this thegame "
            f"reads schema {SCHEMA_VERSION}", name)
    store.db.execute("BEGIN")
    try:
        for number, text in enumerate(lines[1:], start=2):
            _insert_line(store, name, number, _parse(name, number, text))
    except BaseException:
        store.db.execute("ROLLBACK")
        raise
    store.db.execute("COMMIT")
    return len(lines) - 1


def _insert_line(store: Store, name: str, number: int, line: dict[str, Any]) -> None:
    parts = {"deal", "blind", "strong"}
    if not set(line) <= {*_KEY, *parts} or not parts & set(line):
        raise InvalidInputError(f"line {number}: not a deal line", name)
    strong = line.get("strong", [])
    if not isinstance(strong, list):
        raise InvalidInputError(f"line {number}: the strong rows are not a list", name)
    for entry in strong:
        if not isinstance(entry, dict) or {*_KEY, *entry} != set(STRONG_COLUMNS):
            raise InvalidInputError(f"line {number}: a strong row has other columns", name)
        try:
            store.put_strong({**{c: line.get(c) for c in _KEY}, **entry})
        except sqlite3.Error as e:
            raise InvalidInputError(f"line {number}: {e}", name) from None
    for part, table, columns in _TABLES:
        if part not in line:
            continue
        part_row = line[part]
        if not isinstance(part_row, dict) or {*_KEY, *part_row} != set(columns):
            raise InvalidInputError(f"line {number}: the {part} row has other columns", name)
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        values = [line.get(c) for c in _KEY] + [part_row[c] for c in columns[len(_KEY) :]]
        try:
            store.db.execute(sql, values)
        except sqlite3.Error as e:
            raise InvalidInputError(f"line {number}: {e}", name) from None


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _parse(name: str, number: int, text: str) -> dict[str, Any]:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError:
        obj = None
    if not isinstance(obj, dict):
        raise InvalidInputError(f"line {number}: not a JSON object", name)
    return obj


def _read_lines(name: str) -> list[str]:
    try:
        data = Path(name).read_bytes()
        if name.endswith(".gz"):
            data = gzip.decompress(data)
        return data.decode("utf-8").splitlines()
    except FileNotFoundError:
        raise InvalidInputError("no such file", name) from None
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as e:
        raise InvalidInputError(f"not a readable export ({e})", name) from None


@contextlib.contextmanager
def _replacing(path: str | Path) -> Iterator[str]:
    """A temporary path beside ``path``, renamed onto it if the block succeeds."""
    target = Path(path)
    if not target.parent.is_dir():
        raise InvalidInputError("no such directory", str(target.parent))
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    os.close(fd)
    os.unlink(tmp)  # SQLite makes its own file; the name is what was wanted
    try:
        yield tmp
        # mkstemp's name is private; give the file the usual permissions.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    finally:
        for leftover in (tmp, tmp + "-wal", tmp + "-shm"):
            with contextlib.suppress(OSError):
                os.unlink(leftover)
