"""The records' schema, as migrations: version N is what the N first steps make.

Each step is SQL run in one transaction together with the new version number in `meta`, so a
database is always at one version or the next, never between. A step is only ever added,
never changed once released: `tests/records/fixtures/v<N>.sql` holds a database of every
earlier version, and a test migrates each to the newest.

The SQL is SQLite's. It keeps to what PostgreSQL runs too, except where marked, and
`for_postgres` turns each step into PostgreSQL's dialect (an identity column for `records.id`,
BIGINT for INTEGER, DOUBLE PRECISION for REAL, BYTEA for BLOB, byte-order "C" collation for
TEXT as SQLite compares it, no WITHOUT ROWID): both stores run the same steps, and a step
added here reaches both.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from ..i18n import _
from .store import StoreDamaged, StoreTooNew

MIGRATIONS: tuple[str, ...] = (
    # 1: records, their seats (and final scores), their events.
    """
    CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE records (
        id INTEGER PRIMARY KEY,            -- PostgreSQL: BIGINT GENERATED ALWAYS AS IDENTITY
        record_id TEXT NOT NULL UNIQUE,    -- the public id (a uuid's hex)
        game_id TEXT NOT NULL,
        options TEXT NOT NULL,             -- JSON
        start_state TEXT,                  -- JSON: a snapshot to start from; NULL: a new game
        app_version TEXT NOT NULL,
        created_ms INTEGER NOT NULL,       -- Unix time, milliseconds
        updated_ms INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('playing', 'over', 'abandoned')),
        last_seq INTEGER NOT NULL DEFAULT 0 CHECK (last_seq >= 0),
        packed BLOB                        -- a closed record's events (see sqlite.pack)
    );
    CREATE INDEX records_by_status ON records (status, updated_ms, id);
    CREATE INDEX records_by_game ON records (game_id, status, updated_ms, id);
    CREATE TABLE seats (
        record INTEGER NOT NULL REFERENCES records (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL CHECK (seat >= 0),
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        score INTEGER,                     -- the final score, once the game is over
        won INTEGER,                       -- 1 for a winner (ties shared), once it is over
        PRIMARY KEY (record, seat)
    );
    CREATE INDEX seats_by_name ON seats (name, record);
    CREATE TABLE events (
        record INTEGER NOT NULL REFERENCES records (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL CHECK (seq >= 1),
        kind TEXT NOT NULL CHECK (kind IN ('action', 'chance', 'undo')),
        seat INTEGER,
        data TEXT NOT NULL,                -- JSON
        PRIMARY KEY (record, seq)
    ) WITHOUT ROWID;                       -- PostgreSQL: (omit)
    """,
    # 2: the coach's reviews of finished games, summed per seat and kind of decision: a cache
    # (recomputed from the records by `records.reviews` whenever `reviewed` is not the current
    # REVIEW_VERSION), so that the statistics need no coach. And a closed record's packed
    # events move out of `records` into a table of their own: in `records` they filled its
    # pages, and every list or statistic read them all (0.37 s for the statistics of 10,000
    # games, against 0.03 s without them).
    """
    CREATE TABLE packed (
        record INTEGER PRIMARY KEY REFERENCES records (id) ON DELETE CASCADE,
        events BLOB NOT NULL               -- compact JSON of [seq, kind, seat, data], zlib
    );
    INSERT INTO packed (record, events) SELECT id, packed FROM records WHERE packed IS NOT NULL;
    ALTER TABLE records DROP COLUMN packed;
    -- the seats carry their record's game, and the finished ones (a final score: over, not
    -- abandoned) an index that holds every figure the statistics count, so that these need
    -- no other table
    ALTER TABLE seats ADD COLUMN game_id TEXT;
    UPDATE seats SET game_id = (SELECT game_id FROM records WHERE records.id = seats.record);
    CREATE INDEX seats_finished ON seats (name, kind, game_id, score, won)
        WHERE score IS NOT NULL;
    ALTER TABLE records ADD COLUMN reviewed INTEGER;  -- the REVIEW_VERSION cached; NULL: none
    CREATE INDEX records_by_review ON records (status, reviewed);
    CREATE TABLE reviews (
        record INTEGER NOT NULL REFERENCES records (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        unit TEXT NOT NULL,                -- what the losses measure (bots.Unit)
        kind TEXT NOT NULL,                -- the kind of decision: "fill:generala", "keep"...
        decisions INTEGER NOT NULL,
        loss REAL NOT NULL,                -- the sum of the losses
        mistakes INTEGER NOT NULL,         -- decisions rated mistake or blunder
        worst_loss REAL NOT NULL,
        worst_seq INTEGER NOT NULL,
        PRIMARY KEY (record, seat, unit, kind)
    ) WITHOUT ROWID;                       -- PostgreSQL: (omit)
    """,
    # 3: what `cubilete server` keeps beside the records. Its servers made these tables
    # themselves as they started, outside the migrations: of two servers started at once on
    # an empty PostgreSQL database, one failed (two CREATE TABLE of one type at once). Made
    # here, under the migrations' lock; IF NOT EXISTS: a database of version 2 may have them.
    """
    -- the shared tables being played: what a record does not say (the seats and their
    -- owners and tokens, the host, the invite code)
    CREATE TABLE IF NOT EXISTS server_tables (
        table_id TEXT PRIMARY KEY,
        record_id TEXT NOT NULL,
        data TEXT NOT NULL                 -- JSON
    );
    -- several servers on one PostgreSQL database: which plays each table, until when (the
    -- database clock), and where each listens (HOST:PORT); unused on SQLite
    CREATE TABLE IF NOT EXISTS server_leases (
        table_id TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        expires TIMESTAMPTZ NOT NULL
    );
    CREATE TABLE IF NOT EXISTS server_nodes (
        holder TEXT PRIMARY KEY,
        address TEXT NOT NULL,
        expires TIMESTAMPTZ NOT NULL
    );
    """,
)

VERSION = len(MIGRATIONS)
"""The newest schema version."""


_POSTGRES: tuple[tuple[str, str], ...] = (
    # SQLite's INTEGER PRIMARY KEY is the rowid, numbered by the database (unless it refers
    # to another table's key: then it is that key)
    (
        r"\bINTEGER PRIMARY KEY\b(?!\s+REFERENCES)",
        "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
    ),
    (r"\bINTEGER\b", "BIGINT"),  # (milliseconds since 1970 do not fit PostgreSQL's INTEGER)
    (r"\bREAL\b", "DOUBLE PRECISION"),  # (SQLite's REAL has 8 bytes, PostgreSQL's 4)
    (r"\bBLOB\b", "BYTEA"),
    (r"\bTEXT\b", 'TEXT COLLATE "C"'),  # (names sort the same in both, whatever the locale)
    (r"\)\s*WITHOUT ROWID\b", ")"),
)


def for_postgres(step: str) -> str:
    """A migration step in PostgreSQL's dialect (comments dropped: they may name types)."""
    step = re.sub(r"--[^\n]*", "", step)
    for pattern, replacement in _POSTGRES:
        step = re.sub(pattern, replacement, step)
    return step


def read_version(tables: Iterable[str], value: Callable[[], Any], where: str) -> int:
    """The schema version of a database whose tables (of the records' names) are `tables`,
    its `meta` row's value read by `value()` (0: none of the records' tables). StoreDamaged
    if the tables are another program's, or the version is missing; StoreTooNew if a newer
    Cubilete wrote it. `where`: the database, as its messages name it."""
    if "meta" not in set(tables):
        if tables:
            raise StoreDamaged(
                _("{path} is damaged ({reason})").format(
                    path=where, reason=_("not a database of Cubilete's records")
                )
            )
        return 0
    found = value()
    if found is None or not str(found).isdigit():
        raise StoreDamaged(
            _("{path} is damaged ({reason})").format(path=where, reason=_("no schema version"))
        )
    return int(found)


def check_not_newer(found: int, where: str) -> None:
    """StoreTooNew if version `found` is newer than this Cubilete's."""
    if found > VERSION:
        raise StoreTooNew(
            _(
                "{path} was written by a newer Cubilete (records version {found}; "
                "this one reads {version})"
            ).format(path=where, found=found, version=VERSION)
        )
