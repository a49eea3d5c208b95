"""Every earlier schema version migrates to the newest: a database of each, made by the store
of that version (`fixtures/v<N>.sql`), is opened by today's store and every record in it
still loads, replays and goes on. On SQLite and on PostgreSQL: the PostgreSQL store came at
version 2, so its databases of earlier versions are made here, by the same migrations up to
that version (`postgres.migrate`), filled with the rows of the SQLite fixture."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest
from recordhelpers import bot_move

from app.dice import RandomDice
from app.records.recorder import StoreRecorder
from app.records.reviews import REVIEW_VERSION, review_rows
from app.records.schema import MIGRATIONS, VERSION
from app.records.sqlite import SQLiteStore
from app.records.stores import is_postgres, open_records
from app.table import Table

FIXTURES = Path(__file__).with_name("fixtures")


def database_of_version(version: int, path: Path) -> Path:
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.executescript((FIXTURES / f"v{version}.sql").read_text(encoding="utf-8"))
        (found,) = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    assert int(found) == version
    return path


def test_there_is_a_fixture_for_every_earlier_version():
    assert VERSION == len(MIGRATIONS) >= 2
    assert sorted(p.name for p in FIXTURES.glob("v*.sql")) == [
        f"v{n}.sql" for n in range(1, VERSION)
    ]


V2_SERVER_TABLES = (
    "CREATE TABLE IF NOT EXISTS server_tables ("
    " table_id TEXT PRIMARY KEY, record_id TEXT NOT NULL, data TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS server_leases ("
    " table_id TEXT PRIMARY KEY, holder TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL)",
    "CREATE TABLE IF NOT EXISTS server_nodes ("
    " holder TEXT PRIMARY KEY, address TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL)",
)
"""What a server of version 2 ran on its PostgreSQL database as it started."""


def postgres_of_version(version: int, sqlite_path: Path, url: str) -> str:
    """The PostgreSQL database at `url` made a database of `version` holding the rows of the
    SQLite database of that version."""
    import psycopg

    from app.records.postgres import migrate

    with (
        contextlib.closing(sqlite3.connect(sqlite_path)) as source,
        psycopg.connect(url, autocommit=True) as conn,
    ):
        migrate(conn, url, target=version)
        if version == 2:  # (the servers of version 2 made their own tables as they started)
            for sql in V2_SERVER_TABLES:
                conn.execute(sql)
        with conn.transaction():
            for table in ("records", "seats", "events", "packed", "reviews"):
                if version < 2 and table in ("packed", "reviews"):
                    continue
                rows = source.execute(f"SELECT * FROM {table}")
                columns = ", ".join(c[0] for c in rows.description)
                values = ", ".join(["%s"] * len(rows.description))
                overriding = " OVERRIDING SYSTEM VALUE" if table == "records" else ""
                with conn.cursor() as cursor:
                    cursor.executemany(
                        f"INSERT INTO {table} ({columns}){overriding} VALUES ({values})",
                        rows.fetchall(),
                    )
            conn.execute(
                "SELECT setval(pg_get_serial_sequence('records', 'id'), MAX(id)) FROM records"
            )
    return url


@pytest.mark.parametrize("version", range(1, VERSION))
def test_a_database_of_an_earlier_version_migrates_and_its_records_go_on(
    tmp_path, version, store_target
):
    path = database_of_version(version, tmp_path / "v.db")
    if is_postgres(store_target):
        postgres_of_version(version, path, store_target)
    else:
        path.rename(store_target)
    store = open_records(store_target)
    assert store.version() == VERSION
    ids = [rid for (rid,) in store._db.execute("SELECT record_id FROM records ORDER BY id")]
    assert len(ids) >= 5
    statuses = set()
    for record_id in ids:
        record = store.load(record_id)
        table = Table.from_record(record)  # replays, or raises
        statuses.add(record.header.status)
        if record.header.status == "over":
            assert record.header.outcome is not None
            assert record.header.outcome.scores == tuple(table.game.scores(table.state))
    assert statuses == {"playing", "over", "abandoned"}
    finished = store.count_finished()
    assert finished >= 2
    assert sum(s.games for s in store.player_stats()) == sum(
        len(store.load(g.record_id).header.seats) for g in store.history().items
    )
    # an unfinished game goes on, and its new events are written by today's store
    unfinished = store.unfinished()[0]
    table = Table.from_record(store.load(unfinished.record_id))
    table.recorder = StoreRecorder(store)
    table.dice = RandomDice(1)
    table.act(bot_move(table))
    assert store.load(unfinished.record_id).events == tuple(table.events)
    # and what the newer versions added works on the old records
    for record in [store.load(rid) for rid in store.unreviewed(REVIEW_VERSION)]:
        store.save_reviews(record.record_id, REVIEW_VERSION, review_rows(record))
    assert store.unreviewed(REVIEW_VERSION) == []
    store.close()


def test_opening_a_migrated_database_again_changes_nothing(tmp_path):
    path = database_of_version(1, tmp_path / "records.db")
    SQLiteStore(path).close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        schema = db.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall()
    SQLiteStore(path).close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall() == schema


def test_a_new_database_is_made_at_the_newest_version_in_one_go(tmp_path):
    store = SQLiteStore(tmp_path / "records.db")
    assert store.version() == VERSION
    store.close()


def test_postgresql_has_the_same_tables_columns_and_indexes_as_sqlite(tmp_path, postgres_url):
    """One schema: the migrations in PostgreSQL's dialect make what they make in SQLite."""
    import psycopg

    from app.records.postgres import PostgresStore

    SQLiteStore(tmp_path / "records.db").close()
    PostgresStore(postgres_url).close()
    with contextlib.closing(sqlite3.connect(tmp_path / "records.db")) as db:
        tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        in_sqlite = {
            table: [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
            for table in tables
        }
        sqlite_indexes = {
            name
            for (name,) in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index'"
                " AND name NOT LIKE 'sqlite_autoindex%'"
            )
        }
    with psycopg.connect(postgres_url) as conn:
        in_postgres: dict[str, list[str]] = {}
        for table, column in conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
        ):
            in_postgres.setdefault(table, []).append(column)
        postgres_indexes = {
            name
            for (name,) in conn.execute(
                "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
                " AND indexname NOT LIKE '%\\_pkey' AND indexname NOT LIKE '%\\_key'"
            )
        }
    assert in_postgres == in_sqlite
    assert postgres_indexes == sqlite_indexes
    records = {"meta", "records", "seats", "events", "packed", "reviews"}
    assert set(in_sqlite) == records | {"server_tables", "server_leases", "server_nodes"}
