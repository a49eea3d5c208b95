"""What is PostgreSQL's own in its store (the queries' answers are the same as SQLite's:
test_records_sqlite.py runs on both): choosing it by URL, a database that is not ours or is
newer, servers starting at once, many threads on one store, and a lost connection, which is a
clear one-line StoreError and never a traceback, and after which the store works again."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import psycopg
import pytest
from pgcluster import PrivateCluster
from recordhelpers import new_table, play
from waiting import wait_until

from app.records.postgres import PostgresStore, redact
from app.records.recorder import StoreRecorder
from app.records.schema import VERSION
from app.records.sqlite import SQLiteStore
from app.records.store import StoreDamaged, StoreError, StoreTooNew
from app.records.stores import open_records


def test_a_url_opens_postgresql_and_anything_else_an_sqlite_file(postgres_url, tmp_path):
    store = open_records(postgres_url)
    assert isinstance(store, PostgresStore) and store.version() == VERSION
    store.close()
    other = open_records(postgres_url.replace("postgresql://", "postgres://", 1))
    assert isinstance(other, PostgresStore)
    other.close()
    for target in (str(tmp_path / "a.db"), tmp_path / "b.db"):
        local = open_records(target)
        assert isinstance(local, SQLiteStore) and Path(target).exists()
        local.close()


def test_a_database_of_a_newer_version_is_refused_and_left_alone(postgres_url):
    PostgresStore(postgres_url).close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(StoreTooNew, match="newer Cubilete"):
        PostgresStore(postgres_url)
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT value FROM meta").fetchall() == [("99",)]


def test_another_programs_tables_of_the_same_names_are_not_taken_for_ours(postgres_url):
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE records (id INTEGER, title TEXT)")
        conn.execute("CREATE TABLE invoices (id INTEGER)")  # (other tables are no concern)
    with pytest.raises(StoreDamaged, match="not a database of Cubilete's records"):
        PostgresStore(postgres_url)
    with psycopg.connect(postgres_url) as conn:
        (tables,) = conn.execute(
            "SELECT COUNT(*) FROM pg_tables WHERE schemaname = current_schema()"
        ).fetchone()
    assert tables == 2  # nothing was made


def test_servers_starting_at_once_on_a_new_database_migrate_it_once(postgres_url):
    opened: list[PostgresStore] = []
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def open_one() -> None:
        start.wait(10)
        try:
            opened.append(PostgresStore(postgres_url))
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == [] and len(opened) == 4
    assert {store.version() for store in opened} == {VERSION}
    for store in opened:
        store.close()


def test_one_store_serves_many_threads_at_once(postgres_url):
    """A server's threads share one store: each call borrows a connection of its own."""
    store = PostgresStore(postgres_url, max_connections=4)
    tables: list[str] = []

    def play_one(seed: int) -> None:
        tables.append(play(new_table("generala", seed=seed, store=store)).save_id)

    threads = [threading.Thread(target=play_one, args=(seed,)) for seed in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert len(tables) == 6
    assert store.count_finished() == 6
    assert {g.record_id for g in store.history().items} == set(tables)
    store.close()


def unreachable(url: str, reachable: bool) -> None:
    """Let nobody connect to the database (and drop who is connected), or let them again."""
    name = url.split("/", 3)[3].split("?")[0]
    admin = url.replace(f"/{name}?", "/postgres?")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"ALTER DATABASE {name} WITH ALLOW_CONNECTIONS {str(reachable).lower()}")
        if not reachable:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                (name,),
            )


def test_a_lost_connection_is_a_clear_error_and_the_store_works_again_after_it(postgres_url):
    store = PostgresStore(postgres_url, connect_timeout=1)
    table = new_table("generala", seed=5, store=None)
    told: list[StoreError] = []
    table.recorder = recorder = StoreRecorder(store, told.append, retry_after=0)
    play(table, moves=2)
    recorded = len(table.events)
    assert store.load(table.save_id).events == tuple(table.events)
    unreachable(postgres_url, reachable=False)
    try:
        play(table, moves=2)  # play goes on
        assert len(table.events) > recorded and recorder.unsaved > 0
        assert len(told) == 1
        message = str(told[0])
        assert "cannot be reached" in message and "\n" not in message
        assert redact(postgres_url) in message
        with pytest.raises(StoreError, match="cannot be reached"):
            store.unfinished()
    finally:
        unreachable(postgres_url, reachable=True)
    # the database is back: within seconds the pool connects again, and what waited is written
    wait_until(recorder.retry, 15, "the record written once the database is back", step=0.2)
    assert store.load(table.save_id).events == tuple(table.events)
    assert [g.record_id for g in store.unfinished()] == [table.save_id]
    store.close()


def test_a_database_that_cannot_be_reached_says_so_without_the_password(postgres_cluster):
    url = postgres_cluster.url("nowhere").replace("pg@", "pg:s3cret@")
    with pytest.raises(StoreError) as raised:
        PostgresStore(url, connect_timeout=1)
    message = str(raised.value)
    assert "cannot be reached" in message and '"nowhere" does not exist' in message
    assert "s3cret" not in message and "\n" not in message


def test_a_password_is_never_shown():
    assert (
        redact("postgresql://ana:s3cret@db.example:5432/cubilete?sslmode=require&password=x")
        == "postgresql://ana@db.example:5432/cubilete?sslmode=require"
    )
    assert redact("postgresql://pg@/records?host=/tmp/x") == "postgresql://pg@/records?host=/tmp/x"


def test_without_the_postgres_extra_a_url_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "app.records.postgres", None)  # (as if psycopg were absent)
    with pytest.raises(StoreError, match=r"pip install 'cubilete\[postgres\]'"):
        open_records("postgresql://pg@/records")


def test_a_private_cluster_is_stopped_and_removed_even_when_its_block_fails():
    with pytest.raises(RuntimeError, match="a test failed"), PrivateCluster.start() as cluster:
        if cluster is None:
            pytest.skip("PostgreSQL is not installed (no initdb): apt-get install postgresql")
        root = cluster.root
        pid = int((cluster.data / "postmaster.pid").read_text().split()[0])
        assert running(pid)
        raise RuntimeError("a test failed")
    assert not root.exists()
    assert not running(pid)


def running(pid: int) -> bool:
    """The process is alive (not gone, nor a zombie nobody has reaped yet: the postmaster's
    parent, pg_ctl, is gone, and what it was handed to may reap it late)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"
