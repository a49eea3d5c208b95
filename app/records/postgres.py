"""The records in PostgreSQL (psycopg 3 and its pool): for many table servers on one database.

The same records and the same answers as the SQLite store, through the same code: every query
and write is `sqlite.SQLRecords`'s, and the schema is the same migrations (`schema`) in
PostgreSQL's dialect (`schema.for_postgres`). What is PostgreSQL's own is here:

- A pool of connections (`psycopg_pool.ConnectionPool`), each checked before it is lent, so a
  connection the server dropped (a restart, a failover) is replaced instead of failing a move.
  Every call of the store is one transaction on one connection; the store may be used from
  several threads at once (each call borrows its own connection).
- `(record, seq)` is the events' primary key, and an append locks its record's row
  (`SELECT ... FOR UPDATE`) before it reads the last number: of two servers appending event n
  to one record, one commits, and the other then finds n taken and gets `RecordConflict`,
  never a fork. The key stays the last guard: an insert it refuses is a `RecordConflict` too.
- Reads are one `REPEATABLE READ, READ ONLY` transaction: a record and its events are read at
  one moment, as in SQLite's WAL.
- A lock held longer than the busy timeout (`lock_timeout`) is `StoreBusy`, a full disk
  `StoreFull`, a lost or refused connection a `StoreError` that says the database cannot be
  reached; the messages are one line, and the URL's password never appears in them.
- Migrations run when a store opens, each version in one transaction (PostgreSQL's DDL is
  transactional) under an advisory lock, so of several servers started at once after an
  upgrade, one migrates and the others wait for it and find the schema new.

The events of a finished game are packed into one row of `packed`, as in SQLite.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import urllib.parse
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any

import psycopg
import psycopg.errors
from psycopg_pool import ConnectionPool, PoolTimeout

from ..i18n import _
from .events import dumps
from .schema import MIGRATIONS, VERSION, check_not_newer, for_postgres, read_version
from .sqlite import SQLRecords
from .store import (
    RecordConflict,
    StoreBusy,
    StoreDamaged,
    StoreError,
    StoreFull,
    StoreReadOnly,
)

BUSY_TIMEOUT = 2.0
"""Seconds a write waits for another server's lock on a record before giving up (StoreBusy)."""
CONNECT_TIMEOUT = 2.0
"""Seconds to reach the database, and to wait for a free connection of the pool: while the
database cannot be reached, a call fails after this long (as a locked SQLite file does after
its busy timeout) and the recorder tries again later."""
MAX_CONNECTIONS = 10
"""Connections of the pool at most (one is kept open)."""
MIGRATION_LOCK = 0x637562696C
"""The advisory lock key the migrations hold ("cubil"): one server migrates at a time."""
TABLES = ("meta", "records", "seats", "events", "packed", "reviews")
EVENTS_CHANNEL = "cubilete_events"
"""The channel every append notifies: each server LISTENs on it to follow the records of the
tables it serves."""
LISTEN_POLL = 0.5
"""Seconds the listener waits for a notice before looking whether it must stop."""

log = logging.getLogger("cubilete.records")

# psycopg_pool logs each failed connection attempt; with no logging set up, Python would print
# those to stderr, over a terminal's screen. The errors reach the caller as StoreErrors.
logging.getLogger("psycopg.pool").addHandler(logging.NullHandler())


def redact(url: str) -> str:
    """The URL as a message may show it: without its password."""
    parts = urllib.parse.urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        user, _at, host = netloc.rpartition("@")
        netloc = f"{user.split(':', 1)[0]}@{host}"
    query = urllib.parse.urlencode(
        [
            (key, value)
            for key, value in urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
            if key != "password"
        ],
        safe="/",
    )
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc, query=query))


def first_line(error: BaseException) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[0] if lines else type(error).__name__


def classify(error: Exception, where: str) -> StoreError:
    """A StoreError of the right kind, with a message a player can read (one line)."""
    reason = first_line(error)
    if isinstance(error, psycopg.errors.UniqueViolation):
        # (the last guard: an append that lost a race finds the number taken under its lock)
        return RecordConflict(_("Cannot use {path}: {reason}").format(path=where, reason=reason))
    if isinstance(error, psycopg.errors.DiskFull):
        return StoreFull(_("The disk is full ({path})").format(path=where))
    if isinstance(
        error,
        psycopg.errors.LockNotAvailable
        | psycopg.errors.DeadlockDetected
        | psycopg.errors.SerializationFailure
        | psycopg.errors.QueryCanceled,
    ):
        return StoreBusy(_("The records are locked by another program ({path})").format(path=where))
    if isinstance(
        error, psycopg.errors.InsufficientPrivilege | psycopg.errors.ReadOnlySqlTransaction
    ):
        return StoreReadOnly(_("Cannot use {path}: {reason}").format(path=where, reason=reason))
    if isinstance(error, psycopg.errors.DataCorrupted | psycopg.errors.IndexCorrupted):
        return StoreDamaged(_("{path} is damaged ({reason})").format(path=where, reason=reason))
    if isinstance(error, psycopg.OperationalError | psycopg.InterfaceError):
        # the server is down, refused us, dropped the connection, or no connection came free
        return StoreError(
            _("The records database cannot be reached ({path}: {reason})").format(
                path=where, reason=reason
            )
        )
    return StoreError(_("Cannot use {path}: {reason}").format(path=where, reason=reason))


@lru_cache(maxsize=256)
def marks(sql: str) -> str:
    """SQLite's `?` marks as psycopg's `%s` (the shared SQL has no `?` or `%` of its own)."""
    return sql.replace("%", "%%").replace("?", "%s")


class Rows:
    """A statement's result, read whole (its connection may be back in the pool)."""

    def __init__(self, rows: list[tuple[Any, ...]]) -> None:
        self._rows = rows
        self._at = 0

    def fetchone(self) -> tuple[Any, ...] | None:
        if self._at >= len(self._rows):
            return None
        self._at += 1
        return self._rows[self._at - 1]

    def fetchall(self) -> list[tuple[Any, ...]]:
        rows, self._at = self._rows[self._at :], len(self._rows)
        return rows

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self.fetchall())


class Connection:
    """What `SQLRecords` calls `_db`: `execute` and `executemany` with `?` marks, on the
    connection of this thread's transaction, or (outside one) on a connection of the pool for
    that one statement (autocommit)."""

    def __init__(self, pool: ConnectionPool[psycopg.Connection[Any]]) -> None:
        self._pool = pool
        self._local = threading.local()

    @property
    def current(self) -> psycopg.Connection[Any] | None:
        conn: psycopg.Connection[Any] | None = getattr(self._local, "conn", None)
        return conn

    @contextlib.contextmanager
    def bound(self, conn: psycopg.Connection[Any]) -> Iterator[Connection]:
        self._local.conn = conn
        try:
            yield self
        finally:
            self._local.conn = None

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        conn = self.current
        if conn is not None:
            return _run(conn, sql, params)
        with self._pool.connection() as conn:
            return _run(conn, sql, params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        conn = self.current
        if conn is None:
            raise RuntimeError("executemany outside a transaction")
        if rows:
            with conn.cursor() as cursor:
                cursor.executemany(marks(sql), rows)


def _run(conn: psycopg.Connection[Any], sql: str, params: Sequence[Any]) -> Rows:
    cursor = conn.execute(marks(sql), params)
    return Rows(cursor.fetchall() if cursor.description is not None else [])


class PostgresStore(SQLRecords):
    """A `RecordStore` in a PostgreSQL database (its current schema), given by a libpq URL:
    `postgresql://user:password@host:5432/dbname`, or a Unix socket's directory as
    `postgresql://user@/dbname?host=/run/postgresql`."""

    Error = psycopg.Error
    IntegrityError = psycopg.errors.UniqueViolation
    _LOCK = " FOR UPDATE"

    def __init__(
        self,
        url: str,
        *,
        busy_timeout: float = BUSY_TIMEOUT,
        connect_timeout: float = CONNECT_TIMEOUT,
        max_connections: int = MAX_CONNECTIONS,
    ) -> None:
        """Connect, and bring the schema up to date. Raises a StoreError: the database cannot
        be reached, StoreTooNew, StoreDamaged (its tables are not Cubilete's records)..."""
        self.url = url
        self.where = redact(url)
        self.busy_timeout = busy_timeout
        connect: dict[str, Any] = {
            "autocommit": True,
            "connect_timeout": max(1, round(connect_timeout)),
        }
        try:  # one connection first: its error says why the database cannot be reached
            with psycopg.connect(url, **connect) as conn:
                self._configure(conn)
                migrate(conn, self.where)
        except psycopg.Error as error:
            raise classify(error, self.where) from None
        self._pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
            url,
            min_size=1,
            max_size=max_connections,
            kwargs=connect,
            configure=self._configure,
            check=ConnectionPool.check_connection,
            timeout=connect_timeout,
            # the pool retries a lost connection with a growing delay, for this long at most;
            # then the next call starts again at once: the store works again within seconds
            # of the database coming back, however long it was away
            reconnect_timeout=2 * connect_timeout,
            name="cubilete-records",
            open=False,
        )
        try:
            self._pool.open(wait=True, timeout=connect_timeout)
        except PoolTimeout as error:
            self._pool.close()
            raise classify(error, self.where) from None
        self._db = Connection(self._pool)

    def _configure(self, conn: psycopg.Connection[Any]) -> None:
        conn.execute(f"SET lock_timeout = {int(self.busy_timeout * 1000)}")

    def close(self) -> None:
        self._pool.close()

    def _classify(self, error: Exception) -> StoreError:
        return classify(error, self.where)

    def _checkpoint(self) -> None:
        """(PostgreSQL checkpoints on its own.)"""

    # -- every server learns of a new event at once ------------------------------------------
    def tell(self, record_id: str, seq: int) -> None:
        """Notify every listening server that `record_id` has events up to `seq` (a notice on
        `EVENTS_CHANNEL`: "<record id> <seq>"). A server that appended to a table another
        server holds tells it so (`StrictRecorder(tell=...)`); the holder's own appends tell
        nobody: the others read a record when they need it.

        The notice is a transaction of its own, after the append has committed, without a
        synchronous commit: PostgreSQL holds one lock for every notifying transaction from
        before its commit until after it, so a notice in the append's own transaction held
        that lock across the append's flush to disk and every append of every server waited
        its turn (measured: 185 actions a second on one server, against 290). The append
        stays durable; a notice lost with the connection is made up for by the holder's
        next look (a conflict, or its listener connecting again). Errors are logged only."""
        try:
            with self._pool.connection() as conn, conn.transaction():
                conn.execute("SET LOCAL synchronous_commit TO OFF")
                conn.execute("SELECT pg_notify(%s, %s)", (EVENTS_CHANNEL, f"{record_id} {seq}"))
        except (psycopg.Error, PoolTimeout) as error:
            log.warning("a notice of new events was not sent: %s", first_line(error))

    def listen(self, heard: Callable[[str | None, int], None]) -> Listener:
        """Call `heard(record_id, seq)` (from a thread of its own) for every notice any server
        on the database sends (`tell`), this one's included; `heard(None, 0)` after
        the listening connection was lost and made again (notices may have been missed
        meanwhile: look at every record followed). Stop it with `Listener.stop`."""
        return Listener(self.url, heard)

    # -- schema -----------------------------------------------------------------------------
    def version(self) -> int:
        """The schema version of the database (0: none of the records' tables)."""
        try:
            with self._pool.connection() as conn:
                return schema_version(conn, self.where)
        except psycopg.Error as error:
            raise classify(error, self.where) from None

    # -- transactions -----------------------------------------------------------------------
    @contextlib.contextmanager
    def _write(self) -> Iterator[Connection]:
        """One write transaction: all of it or nothing, errors turned into StoreErrors."""
        with self._transaction(None) as db:
            yield db

    @contextlib.contextmanager
    def _read(self) -> Iterator[Connection]:
        """One read transaction: every query in it sees the same moment of the database."""
        with self._transaction("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY") as db:
            yield db

    @contextlib.contextmanager
    def _transaction(self, first: str | None) -> Iterator[Connection]:
        if self._db.current is not None:  # (a read inside a transaction: the same one)
            yield self._db
            return
        try:
            with self._pool.connection() as conn, conn.transaction():
                if first is not None:
                    conn.execute(first)
                with self._db.bound(conn) as db:
                    yield db
        except psycopg.Error as error:
            raise classify(error, self.where) from None


class Listener:
    """A thread that LISTENs on `EVENTS_CHANNEL` on a connection of its own (not the pool's),
    made again a second after it is lost, for as long as the database is away."""

    def __init__(self, url: str, heard: Callable[[str | None, int], None]) -> None:
        self._url = url
        self._heard = heard
        self._stopped = threading.Event()
        self.listening = threading.Event()
        """Set once the first LISTEN is in place (a test waits on it)."""
        self._thread = threading.Thread(target=self._run, name="cubilete-listen", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join(timeout=2 * LISTEN_POLL)

    def _run(self) -> None:
        lost = False
        while not self._stopped.is_set():
            try:
                with psycopg.connect(
                    self._url, autocommit=True, connect_timeout=max(1, round(CONNECT_TIMEOUT))
                ) as conn:
                    conn.execute(f"LISTEN {EVENTS_CHANNEL}")
                    self.listening.set()
                    if lost:
                        self._heard(None, 0)
                    while not self._stopped.is_set():
                        for notice in conn.notifies(timeout=LISTEN_POLL):
                            record_id, _space, seq = notice.payload.rpartition(" ")
                            if record_id and seq.isdigit():
                                self._heard(record_id, int(seq))
            except psycopg.Error as error:
                if not lost:
                    log.warning("the database's notices are lost: %s", first_line(error))
                lost = True
                self._stopped.wait(1.0)


class PostgresTables:
    """`cubilete server`'s tables being played, in the records' PostgreSQL database, shared
    by every server on it, through the store's pool:

    - `server_tables`: what a record does not say about a shared table (its seats' owners,
      the host, the invite code), as in SQLite;
    - `server_leases`: which server plays each of them (`holder`) until when (`expires`, the
      database's clock): its bots and seat timers run there and nowhere else. The holder
      renews its leases (`renew`); a table whose lease ran out (its server died or hung) is
      taken by the next server that looks (`claim`), which rebuilds it from its record.

    The three (and `server_nodes`, where each server listens) are made by the records'
    migrations (`schema`, version 3), under their lock, not here: servers that start at once
    on an empty database take turns.

    `holder`: this server's name, the same when it restarts (it then takes its tables back at
    once, without waiting for their leases to run out); `lease`: seconds a lease lasts."""

    Error = StoreError

    def __init__(self, store: PostgresStore, holder: str, lease: float) -> None:
        self._store = store
        self.holder = holder
        self.lease = lease
        self.address: str | None = None
        """This server's TCP address, announced to the others (None: it has none)."""

    def announce(self, address: str) -> None:
        """Tell the other servers where this one listens on TCP (renewed with the leases).
        StoreError if the database cannot be reached now (the next renewal tries again)."""
        self.address = address
        self._announce()

    def _announce(self) -> None:
        if self.address is None:
            return
        with self._store._write() as db:
            db.execute(
                "INSERT INTO server_nodes (holder, address, expires)"
                f" VALUES (?, ?, {self._until()})"
                " ON CONFLICT (holder) DO UPDATE SET address = excluded.address,"
                " expires = excluded.expires",
                (self.holder, self.address),
            )

    def nodes(self) -> dict[str, str]:
        """The other live servers on the database: name -> TCP address."""
        with self._store._read() as db:
            rows = db.execute(
                "SELECT holder, address FROM server_nodes WHERE holder <> ? AND expires >= now()",
                (self.holder,),
            ).fetchall()
        return dict(rows)

    def _until(self) -> str:
        return f"now() + interval '{float(self.lease):.3f} seconds'"

    def save(self, table_id: str, record_id: str, data: Mapping[str, Any]) -> None:
        with self._store._write() as db:
            db.execute(
                "INSERT INTO server_tables (table_id, record_id, data) VALUES (?, ?, ?)"
                " ON CONFLICT (table_id) DO UPDATE SET record_id = excluded.record_id,"
                " data = excluded.data",
                (table_id, record_id, dumps(dict(data))),
            )
            db.execute(
                "INSERT INTO server_leases (table_id, holder, expires)"
                f" VALUES (?, ?, {self._until()})"
                " ON CONFLICT (table_id) DO UPDATE SET holder = excluded.holder,"
                " expires = excluded.expires"
                " WHERE server_leases.holder = excluded.holder OR server_leases.expires < now()",
                (table_id, self.holder),
            )

    def holds(self, table_id: str) -> bool:
        """Whether this server's lease on the table runs now."""
        with self._store._read() as db:
            row = db.execute(
                "SELECT 1 FROM server_leases WHERE table_id = ? AND holder = ?"
                " AND expires >= now()",
                (table_id, self.holder),
            ).fetchone()
        return row is not None

    def one(self, table_id: str) -> tuple[str, dict[str, Any]] | None:
        """A table's record id and what is kept about it (None: no such table is played)."""
        with self._store._read() as db:
            row = db.execute(
                "SELECT record_id, data FROM server_tables WHERE table_id = ?", (table_id,)
            ).fetchone()
        return None if row is None else (row[0], json.loads(row[1]))

    def forget(self, table_id: str) -> None:
        with self._store._write() as db:
            db.execute("DELETE FROM server_tables WHERE table_id = ?", (table_id,))
            db.execute("DELETE FROM server_leases WHERE table_id = ?", (table_id,))

    def rows(self) -> list[tuple[str, str, dict[str, Any]]]:
        """The tables this server may rebuild now: those whose lease ran out, or is its own
        (a restart), or that have none. Claimed (their leases are this server's) before
        they are returned."""
        return self.claim(own=True)

    def claim(self, own: bool) -> list[tuple[str, str, dict[str, Any]]]:
        """Take every table whose lease ran out (`own`: and those already this server's, as
        at a start) and return them. Of two servers claiming at once, each table goes to
        one: the update of its lease row is the lock."""
        mine = " OR server_leases.holder = excluded.holder" if own else ""
        with self._store._write() as db:
            rows = db.execute(
                "WITH claimed AS ("
                " INSERT INTO server_leases (table_id, holder, expires)"
                f" SELECT table_id, ?, {self._until()} FROM server_tables"
                " ON CONFLICT (table_id) DO UPDATE SET holder = excluded.holder,"
                " expires = excluded.expires"
                f" WHERE server_leases.expires < now(){mine}"
                " RETURNING table_id)"
                " SELECT t.table_id, t.record_id, t.data FROM server_tables t"
                " JOIN claimed USING (table_id) ORDER BY t.table_id",
                (self.holder,),
            ).fetchall()
        return [(table_id, record_id, json.loads(data)) for table_id, record_id, data in rows]

    def renew(self) -> set[str]:
        """Renew this server's leases; the ids of the tables it still holds (a table missing
        was taken by another server while this one hung: it must stop playing it)."""
        self._announce()
        with self._store._write() as db:
            rows = db.execute(
                f"UPDATE server_leases SET expires = {self._until()}"
                " WHERE holder = ? RETURNING table_id",
                (self.holder,),
            ).fetchall()
        return {table_id for (table_id,) in rows}

    def release(self) -> None:
        """This server stops: its leases run out now, so another server takes its tables at
        once (or this one again when it restarts)."""
        with self._store._write() as db:
            db.execute("DELETE FROM server_nodes WHERE holder = ?", (self.holder,))
            db.execute(
                "UPDATE server_leases SET expires = now() - interval '1 second'"
                " WHERE holder = ?",
                (self.holder,),
            )

    def close(self) -> None:
        """(The store's pool is the store's to close.)"""


def schema_version(conn: psycopg.Connection[Any], where: str) -> int:
    """The schema version of the database `conn` is on (0: none of the records' tables)."""
    tables = {
        name
        for (name,) in conn.execute(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')"
            " AND c.relname = ANY(%s)",
            (list(TABLES),),
        )
    }

    def value() -> Any:
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        return None if row is None else row[0]

    return read_version(tables, value, where)


def migrate(conn: psycopg.Connection[Any], where: str, target: int = VERSION) -> None:
    """Bring the schema of the database `conn` (autocommit) is on up to `target`, one version
    per transaction, under an advisory lock: servers starting at once take turns, each
    re-reading the version once it holds the lock."""
    found = schema_version(conn, where)
    check_not_newer(found, where)
    while found < target:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            found = schema_version(conn, where)
            if found >= target:
                break
            conn.execute(for_postgres(MIGRATIONS[found]))
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('schema_version', %s)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (str(found + 1),),
            )
        found = schema_version(conn, where)
