"""The records in one SQLite database (standard-library `sqlite3`).

- WAL journal: readers never wait for the writer, so two Cubilete windows (or a game and a
  history screen) work on one database at once; writers take turns (`BEGIN IMMEDIATE`).
- `synchronous=NORMAL` (`SYNCHRONOUS`), for a measured reason: with FULL every commit waits
  for an fsync, and on this machine's shared disk that put the p99 of an append over its
  5 ms budget in 11 of 15 runs (NORMAL: 1 of 14; docs/performance.md). In WAL mode NORMAL
  never corrupts the database, and a crash of the app loses nothing the store has
  acknowledged (the 200 SIGKILLs of tests/records); only a power cut or a kernel crash can
  lose what was written since the last checkpoint, and a checkpoint follows the end of every
  game. FULL is one argument away.
- A busy timeout (`BUSY_TIMEOUT`): a database another process keeps locked makes a write fail
  with `StoreBusy` after that long, instead of hanging.
- Foreign keys on; one transaction per call; `(record, seq)` is the events' primary key.

While a game is played, its events are rows of `events`. When it ends (or is abandoned) they
are packed into one row of `packed` (compact JSON, zlib) in the same transaction as its last
event: a finished game then takes about a seventh of the space (measured on the bench's
games), and loads in one read.

Every query and write is `SQLRecords`'s, in SQL that PostgreSQL runs too: it is also the base
of `postgres.PostgresStore`. `SQLiteStore` adds what is SQLite's own.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sqlite3
import threading
import time
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple, cast

from rules import N_

from ..i18n import _
from .events import (
    Event,
    EventKind,
    Header,
    Outcome,
    Record,
    RecordError,
    SeatInfo,
    Status,
    check_event,
    check_sequence,
    dumps,
    pack_events,
    unpack_events,
)
from .schema import MIGRATIONS, VERSION, check_not_newer, read_version
from .store import (
    Cursor,
    HistoryPage,
    LossPoint,
    MistakeKind,
    OptionsCount,
    PlayerStats,
    RecordConflict,
    RecordNotFound,
    RecordSummary,
    ReviewRow,
    ScoreCount,
    StoreBusy,
    StoreDamaged,
    StoreError,
    StoreFull,
    StoreReadOnly,
)

SYNCHRONOUS = "NORMAL"
"""The app's `PRAGMA synchronous` (see above for why not FULL)."""
BUSY_TIMEOUT = 2.0
"""Seconds a write waits for another process's transaction before giving up (StoreBusy)."""

_FULL = ("SQLITE_FULL",)
_BUSY = ("SQLITE_BUSY", "SQLITE_LOCKED")
_READ_ONLY = ("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")
_DAMAGED = ("SQLITE_CORRUPT", "SQLITE_NOTADB")


def classify(error: sqlite3.Error | OSError, path: Path) -> StoreError:
    """A StoreError of the right kind, with a message a player can read."""
    if isinstance(error, OSError):
        if error.errno in (errno.ENOSPC, errno.EDQUOT):
            return StoreFull(_("The disk is full ({path})").format(path=path))
        if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            return StoreReadOnly(
                _("The data dir cannot be written ({path}: {reason})").format(
                    path=path.parent, reason=error.strerror
                )
            )
        return StoreError(_("Cannot use {path}: {reason}").format(path=path, reason=error))
    name = getattr(error, "sqlite_errorname", "") or ""
    if name.startswith(_FULL):
        return StoreFull(_("The disk is full ({path})").format(path=path))
    if name.startswith(_BUSY):
        return StoreBusy(_("The records are locked by another program ({path})").format(path=path))
    if name.startswith(_READ_ONLY):
        return StoreReadOnly(
            _("The data dir cannot be written ({path}: {reason})").format(
                path=path.parent, reason=error
            )
        )
    if name.startswith(_DAMAGED):
        return StoreDamaged(_("{path} is damaged ({reason})").format(path=path, reason=error))
    return StoreError(_("Cannot use {path}: {reason}").format(path=path, reason=error))


def now_ms() -> int:
    return int(time.time() * 1000)


def pack(events: Sequence[Event]) -> bytes:
    return zlib.compress(pack_events(events).encode(), 6)


def unpack(blob: bytes) -> tuple[Event, ...]:
    try:
        text = zlib.decompress(blob)
    except zlib.error as error:
        raise RecordError(N_("damaged events ({reason})"), reason=str(error)) from None
    return unpack_events(text)


class SQLRecords:
    """The records in the SQL that SQLite and PostgreSQL both run: every query and write of a
    `RecordStore`, written once. A subclass gives the dialect's parts:

    - `_db`: a connection whose `execute` and `executemany` take `?` marks;
    - `_write()` and `_read()`: one transaction (yielding `_db`), its errors made StoreErrors;
    - `Error` and `IntegrityError`: the driver's exceptions, `_classify` to make one a
      StoreError (for a query outside a transaction);
    - `_LOCK`: what a write's read of a record's row adds to keep others off it until the
      commit (SQLite's `BEGIN IMMEDIATE` locks the whole database already);
    - `_checkpoint()`: called after a record closes."""

    _db: Any
    Error: type[Exception]
    IntegrityError: type[Exception]
    _LOCK = ""

    def _write(self) -> contextlib.AbstractContextManager[Any]:
        raise NotImplementedError

    def _read(self) -> contextlib.AbstractContextManager[Any]:
        raise NotImplementedError

    def _classify(self, error: Exception) -> StoreError:
        raise NotImplementedError

    def _checkpoint(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def create(
        self, header: Header, events: Sequence[Event] = (), outcome: Outcome | None = None
    ) -> None:
        check_sequence(events)
        with self._write() as db:
            try:
                (key,) = db.execute(
                    "INSERT INTO records (record_id, game_id, options, start_state, app_version,"
                    " created_ms, updated_ms, status, last_seq)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, 'playing', 0) RETURNING id",
                    (
                        header.record_id,
                        header.game_id,
                        dumps(dict(header.options)),
                        None if header.start is None else dumps(dict(header.start)),
                        header.app_version,
                        int(header.created * 1000),
                        int(header.updated * 1000),
                    ),
                ).fetchone()
            except self.IntegrityError:
                raise RecordConflict(
                    _("A record {record} exists already").format(record=header.record_id)
                ) from None
            db.executemany(
                "INSERT INTO seats (record, seat, name, kind, game_id) VALUES (?, ?, ?, ?, ?)",
                [
                    (key, i, seat.name, seat.kind, header.game_id)
                    for i, seat in enumerate(header.seats)
                ],
            )
            self._add_events(key, 0, events, outcome, len(header.seats))

    def append(
        self, record_id: str, events: Sequence[Event], outcome: Outcome | None = None
    ) -> None:
        if not events and outcome is None:
            return
        if events:
            check_sequence(events, events[0].seq)
        with self._write():
            key, status, last_seq, seats = self._find(record_id)
            if status != "playing":
                raise RecordConflict(
                    _("The game {record} is over: nothing can be added to it").format(
                        record=record_id
                    )
                )
            if events and events[0].seq != last_seq + 1:
                raise RecordConflict(
                    _(
                        "The game {record} has moved on elsewhere (it has {found} events, "
                        "this table expected {expected})"
                    ).format(record=record_id, found=last_seq, expected=events[0].seq - 1)
                )
            self._add_events(key, last_seq, events, outcome, seats)
        if outcome is not None:
            self._checkpoint()

    def abandon(self, record_id: str) -> None:
        with self._write():
            key, status, _last, _seats = self._find(record_id)
            if status != "playing":
                raise RecordConflict(
                    _("The game {record} is over: nothing can be added to it").format(
                        record=record_id
                    )
                )
            self._close(key, "abandoned", None)
        self._checkpoint()

    def _find(self, record_id: str) -> tuple[int, Status, int, int]:
        row = self._db.execute(
            "SELECT id, status, last_seq, (SELECT COUNT(*) FROM seats WHERE record = id)"
            " FROM records WHERE record_id = ?" + self._LOCK,
            (record_id,),
        ).fetchone()
        if row is None:
            raise RecordNotFound(_("There is no game {record}").format(record=record_id))
        return cast("tuple[int, Status, int, int]", tuple(row))

    def _add_events(
        self,
        key: int,
        last_seq: int,
        events: Sequence[Event],
        outcome: Outcome | None,
        seats: int,
    ) -> None:
        db = self._db
        for event in events:
            check_event(event)
        db.executemany(
            "INSERT INTO events (record, seq, kind, seat, data) VALUES (?, ?, ?, ?, ?)",
            [(key, e.seq, e.kind, e.seat, e.data_json()) for e in events],
        )
        db.execute(
            "UPDATE records SET last_seq = ?, updated_ms = ? WHERE id = ?",
            (events[-1].seq if events else last_seq, now_ms(), key),
        )
        if outcome is not None:
            if len(outcome.scores) != seats or not all(0 <= w < seats for w in outcome.winners):
                raise RecordError(
                    N_("an outcome for {seats} seats: {outcome}"), seats=seats, outcome=str(outcome)
                )
            self._close(key, "over", outcome)

    def _close(self, key: int, status: Status, outcome: Outcome | None) -> None:
        """End a record: final scores (if any), its events packed into one value."""
        db = self._db
        if outcome is not None:
            db.executemany(
                "UPDATE seats SET score = ?, won = ? WHERE record = ? AND seat = ?",
                [
                    (score, int(seat in outcome.winners), key, seat)
                    for seat, score in enumerate(outcome.scores)
                ],
            )
        events = self._event_rows(key)
        db.execute("INSERT INTO packed (record, events) VALUES (?, ?)", (key, pack(events)))
        db.execute("DELETE FROM events WHERE record = ?", (key,))
        db.execute(
            "UPDATE records SET status = ?, updated_ms = ? WHERE id = ?", (status, now_ms(), key)
        )

    def _event_rows(self, key: int) -> tuple[Event, ...]:
        rows = self._db.execute(
            "SELECT seq, kind, seat, data FROM events WHERE record = ? ORDER BY seq", (key,)
        ).fetchall()
        try:
            return tuple(
                check_event(Event(seq, cast(EventKind, kind), seat, json.loads(data)))
                for seq, kind, seat, data in rows
            )
        except ValueError as error:
            raise RecordError(N_("damaged events ({reason})"), reason=str(error)) from None

    # -- reading ----------------------------------------------------------------------------
    def load(self, record_id: str) -> Record:
        with self._read() as db:
            row = db.execute(
                "SELECT id, game_id, options, start_state, app_version, created_ms,"
                " updated_ms, status, last_seq, packed.events FROM records"
                " LEFT JOIN packed ON packed.record = records.id WHERE record_id = ?",
                (record_id,),
            ).fetchone()
            if row is None:
                raise RecordNotFound(_("There is no game {record}").format(record=record_id))
            key, game_id, options, start, version, created, updated, status, last, packed = row
            seats = db.execute(
                "SELECT name, kind, score, won FROM seats WHERE record = ? ORDER BY seat",
                (key,),
            ).fetchall()
            events = unpack(packed) if packed is not None else self._event_rows(key)
        check_sequence(events)
        if len(events) != last:
            raise RecordError(
                N_("the record has {count} events of {last}"), count=len(events), last=last
            )
        try:
            header = Header(
                record_id=record_id,
                game_id=game_id,
                options=json.loads(options),
                seats=tuple(SeatInfo(name, kind) for name, kind, _s, _w in seats),
                created=created / 1000,
                updated=updated / 1000,
                app_version=version,
                start=None if start is None else json.loads(start),
                status=status,
                outcome=_outcome(seats) if status == "over" else None,
            )
        except ValueError as error:
            raise RecordError(N_("a damaged header ({reason})"), reason=str(error)) from None
        return Record(header, events)

    def events_after(self, record_id: str, seq: int) -> list[Event]:
        """The record's events numbered after `seq` (what a table following the record from
        another process has not seen yet), read in one transaction. RecordNotFound."""
        with self._read() as db:
            row = db.execute(
                "SELECT id, status FROM records WHERE record_id = ?", (record_id,)
            ).fetchone()
            if row is None:
                raise RecordNotFound(_("There is no game {record}").format(record=record_id))
            key, status = row
            rows = db.execute(
                "SELECT seq, kind, seat, data FROM events WHERE record = ? AND seq > ?"
                " ORDER BY seq",
                (key, seq),
            ).fetchall()
        if status != "playing":  # (a finished game's events are packed)
            return [event for event in self.load(record_id).events if event.seq > seq]
        try:
            events = [
                check_event(Event(n, cast(EventKind, kind), seat, json.loads(data)))
                for n, kind, seat, data in rows
            ]
        except ValueError as error:
            raise RecordError(N_("damaged events ({reason})"), reason=str(error)) from None
        if events:
            check_sequence(events, seq + 1)
        return events

    def unfinished(self, limit: int = 100) -> list[RecordSummary]:
        with self._read():
            return self._summaries(
                "SELECT id, record_id, game_id, created_ms, updated_ms, status, last_seq"
                " FROM records WHERE status = 'playing'"
                " ORDER BY updated_ms DESC, id DESC LIMIT ?",
                (limit,),
            )

    def history(
        self,
        *,
        game_id: str | None = None,
        player: str | None = None,
        limit: int = 50,
        after: Cursor | None = None,
    ) -> HistoryPage:
        where, params = _finished(game_id, player)
        if after is not None:
            where += " AND (updated_ms, id) < (?, ?)"
            params += [after.updated_ms, after.key]
        with self._read():
            rows = self._db.execute(
                "SELECT id, record_id, game_id, created_ms, updated_ms, status, last_seq"
                f" FROM records WHERE {where} ORDER BY updated_ms DESC, id DESC LIMIT ?",
                [*params, limit + 1],
            ).fetchall()
            items = self._with_seats(rows[:limit])
        following = None
        if len(rows) > limit:
            last = rows[limit - 1]
            following = Cursor(last[4], last[0])
        return HistoryPage(items, following)

    def count_finished(self, *, game_id: str | None = None, player: str | None = None) -> int:
        where, params = _finished(game_id, player)
        try:
            (count,) = self._db.execute(
                f"SELECT COUNT(*) FROM records WHERE {where}", params
            ).fetchone()
        except self.Error as error:
            raise self._classify(error) from None
        return int(count)

    def players(self, game_id: str | None = None) -> list[tuple[str, str, int]]:
        where, params = _over_seats(game_id, None)
        return self._query(
            f"SELECT s.name, s.kind, COUNT(*) FROM seats s WHERE {where}"
            " GROUP BY s.name, s.kind ORDER BY COUNT(*) DESC, s.name",
            params,
        )

    def player_stats(
        self, *, game_id: str | None = None, player: str | None = None
    ) -> list[PlayerStats]:
        where, params = _over_seats(game_id, player)
        rows = self._query(
            "SELECT s.name, s.kind, s.game_id, COUNT(*), SUM(s.won), AVG(s.score) FROM seats s"
            f" WHERE {where} GROUP BY s.name, s.kind, s.game_id"
            " ORDER BY COUNT(*) DESC, s.name, s.game_id",
            params,
        )
        return [
            PlayerStats(n, k, g, games, int(wins or 0), float(avg))  # (PostgreSQL: numeric)
            for n, k, g, games, wins, avg in rows
        ]

    def score_distribution(self, *, game_id: str, player: str) -> list[ScoreCount]:
        where, params = _over_seats(game_id, player)
        rows = self._query(
            f"SELECT s.score, COUNT(*) FROM seats s WHERE {where}"
            " GROUP BY s.score ORDER BY s.score",
            params,
        )
        return [ScoreCount(score, games) for score, games in rows]

    def games_by_options(self, *, game_id: str, player: str | None = None) -> list[OptionsCount]:
        where, params = _over_seats(game_id, player)
        rows = self._query(
            "SELECT s.name, s.kind, r.options, COUNT(*) FROM seats s"
            f" JOIN records r ON r.id = s.record WHERE {where}"
            " GROUP BY s.name, s.kind, r.options",
            params,
        )
        return [OptionsCount(name, kind, _options(text), games) for name, kind, text, games in rows]

    # -- the coach's reviews (a cache: see records.reviews) ----------------------------------
    def unreviewed(self, version: int, limit: int = 100) -> list[str]:
        rows = self._query(
            "SELECT record_id FROM records WHERE status = 'over'"
            " AND (reviewed IS NULL OR reviewed <> ?) ORDER BY updated_ms DESC, id DESC LIMIT ?",
            (version, limit),
        )
        return [record_id for (record_id,) in rows]

    def save_reviews(self, record_id: str, version: int, rows: Sequence[ReviewRow]) -> None:
        with self._write() as db:
            key, _status, _last, _seats = self._find(record_id)
            db.execute("DELETE FROM reviews WHERE record = ?", (key,))
            db.executemany(
                "INSERT INTO reviews (record, seat, unit, kind, decisions, loss, mistakes,"
                " worst_loss, worst_seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(key, *row) for row in rows],
            )
            db.execute("UPDATE records SET reviewed = ? WHERE id = ?", (version, key))

    def loss_over_time(self, *, player: str, game_id: str | None = None) -> list[LossPoint]:
        where, params = _over_seats(game_id, player)
        rows = self._query(
            "SELECT r.record_id, r.updated_ms, v.unit, SUM(v.decisions), SUM(v.loss)"
            " FROM seats s JOIN records r ON r.id = s.record"
            " JOIN reviews v ON v.record = s.record AND v.seat = s.seat"
            f" WHERE {where} GROUP BY r.id, v.unit ORDER BY r.updated_ms, r.id, v.unit",
            params,
        )
        return [
            LossPoint(record_id, ended / 1000, unit, int(n), float(loss) / int(n) if n else 0.0)
            for record_id, ended, unit, n, loss in rows
        ]

    def costliest_mistakes(
        self, *, player: str, game_id: str | None = None, limit: int = 10
    ) -> list[MistakeKind]:
        where, params = _over_seats(game_id, player)
        rows = self._query(
            "SELECT v.unit, v.kind, SUM(v.decisions), SUM(v.mistakes), SUM(v.loss),"
            " MAX(v.worst_loss) FROM seats s"
            " JOIN reviews v ON v.record = s.record AND v.seat = s.seat"
            f" WHERE {where} GROUP BY v.unit, v.kind ORDER BY v.unit, SUM(v.loss) DESC",
            params,
        )
        kept: list[MistakeKind] = []
        per_unit: dict[str, int] = {}
        for unit, kind, decisions, mistakes, loss, worst in rows:
            per_unit[unit] = per_unit.get(unit, 0) + 1
            if per_unit[unit] <= limit:
                kept.append(
                    MistakeKind(unit, kind, int(decisions), int(mistakes), float(loss), worst)
                )
        return kept

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        try:
            return self._db.execute(sql, params).fetchall()
        except self.Error as error:
            raise self._classify(error) from None

    def _summaries(self, sql: str, params: Sequence[Any]) -> list[RecordSummary]:
        return self._with_seats(self._db.execute(sql, params).fetchall())

    def _with_seats(self, rows: list[Any]) -> list[RecordSummary]:
        if not rows:
            return []
        keys = [row[0] for row in rows]
        seats: dict[int, list[tuple[str, str, int | None, int | None]]] = {k: [] for k in keys}
        marks = ", ".join("?" * len(keys))
        for key, name, kind, score, won in self._db.execute(
            f"SELECT record, name, kind, score, won FROM seats WHERE record IN ({marks})"
            " ORDER BY record, seat",
            keys,
        ):
            seats[key].append((name, kind, score, won))
        return [
            RecordSummary(
                record_id=record_id,
                game_id=game_id,
                seats=tuple(SeatInfo(name, kind) for name, kind, _s, _w in seats[key]),
                created=created / 1000,
                updated=updated / 1000,
                status=status,
                events=last_seq,
                outcome=_outcome(seats[key]) if status == "over" else None,
            )
            for key, record_id, game_id, created, updated, status, last_seq in rows
        ]


class SQLiteStore(SQLRecords):
    """A `RecordStore` in one SQLite file. Use it from one thread (each thread or process
    opens its own)."""

    Error = sqlite3.Error
    IntegrityError = sqlite3.IntegrityError

    def _classify(self, error: Exception) -> StoreError:
        assert isinstance(error, sqlite3.Error | OSError)
        return classify(error, self.path)

    def __init__(
        self,
        path: Path,
        *,
        busy_timeout: float = BUSY_TIMEOUT,
        synchronous: str = SYNCHRONOUS,
        check: bool = True,
    ) -> None:
        """Open (or create, private to the user) the database and bring its schema up to
        date. `check` runs `PRAGMA integrity_check`. Raises a StoreError: StoreDamaged for a
        file that is not a sound database of ours, StoreTooNew, StoreReadOnly, StoreBusy..."""
        self.path = path
        if synchronous not in ("FULL", "NORMAL", "OFF", "EXTRA"):
            raise ValueError(f"no synchronous mode {synchronous!r}")
        try:
            if not path.exists():  # made here, so that it is the user's alone (0600)
                os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
        except OSError as error:
            raise classify(error, path) from None
        try:
            self._db = sqlite3.connect(
                path, timeout=busy_timeout, isolation_level=None, cached_statements=64
            )
        except sqlite3.Error as error:
            raise classify(error, path) from None
        deadline = time.monotonic() + busy_timeout
        while True:
            try:
                self._set_up(synchronous, busy_timeout, check)
                break
            except sqlite3.Error as error:
                problem = classify(error, path)
            except StoreError as error:
                problem = error
            # Two processes making the same new database at once: switching it to WAL takes
            # a lock SQLite does not wait for, so wait here (as long as the busy timeout).
            if not isinstance(problem, StoreBusy) or time.monotonic() > deadline:
                self._db.close()
                raise problem from None
            time.sleep(0.02)

    def _set_up(self, synchronous: str, busy_timeout: float, check: bool) -> None:
        self._db.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        mode = self._db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreReadOnly(
                _("The data dir cannot be written ({path}: {reason})").format(
                    path=self.path.parent, reason=f"journal mode {mode}"
                )
            )
        self._db.execute(f"PRAGMA synchronous = {synchronous}")
        self._db.execute("PRAGMA foreign_keys = ON")
        if check:
            self._check_integrity()
        self._migrate()

    def close(self) -> None:
        self._db.close()

    # -- schema -----------------------------------------------------------------------------
    def _check_integrity(self) -> None:
        problem = integrity_problem(self._db, self.path)
        if problem is not None:
            raise problem

    def version(self) -> int:
        """The schema version of the database (0: empty)."""
        found = self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        tables = [name for (name,) in found]

        def value() -> Any:
            row = self._db.execute("SELECT value FROM meta WHERE key = 'schema_version'")
            return (row.fetchone() or (None,))[0]

        return read_version(tables, value, str(self.path))

    def _migrate(self, target: int = VERSION) -> None:
        """Bring the schema up to `target`, one version per transaction (two processes
        starting at once take turns: each step re-reads the version under the write lock)."""
        check_not_newer(self.version(), str(self.path))
        while self.version() < target:
            with self._write():
                version = self.version()
                if version >= target:
                    break
                for statement in statements(MIGRATIONS[version]):
                    self._db.execute(statement)
                self._db.execute(
                    "INSERT INTO meta (key, value) VALUES ('schema_version', ?) "
                    "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (str(version + 1),),
                )

    # -- transactions -----------------------------------------------------------------------
    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it or nothing, errors turned into StoreErrors."""
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise classify(error, self.path) from None
        try:
            yield db
            db.execute("COMMIT")
        except BaseException as error:
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
            if isinstance(error, sqlite3.Error):
                raise classify(error, self.path) from None
            raise

    @contextlib.contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """One read transaction: every query in it sees the same moment of the database."""
        db = self._db
        try:
            db.execute("BEGIN")
            yield db
        except sqlite3.Error as error:
            raise classify(error, self.path) from None
        finally:
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("COMMIT")

    # -- writing ----------------------------------------------------------------------------
    def _checkpoint(self) -> None:
        """Copy the WAL into the database, syncing both (with synchronous=NORMAL, what a power
        cut could lose is what was written since the last of these). PASSIVE: it waits for
        nobody, and what it cannot do now a later one does."""
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()


def _outcome(seats: Sequence[tuple[Any, ...]]) -> Outcome:
    """From (name, kind, score, won) rows."""
    return Outcome(
        tuple(int(score or 0) for _n, _k, score, _w in seats),
        tuple(i for i, (_n, _k, _s, won) in enumerate(seats) if won),
    )


def _options(text: str) -> dict[str, Any] | None:
    """A record's options as stored (JSON), or None if they cannot be read."""
    try:
        options = json.loads(text)
    except ValueError:
        return None
    return options if isinstance(options, dict) else None


def _finished(game_id: str | None, player: str | None) -> tuple[str, list[Any]]:
    where, params = "status = 'over'", []
    if game_id is not None:
        where += " AND game_id = ?"
        params.append(game_id)
    if player is not None:
        where += " AND id IN (SELECT record FROM seats WHERE name = ?)"
        params.append(player)
    return where, params


def _over_seats(game_id: str | None, player: str | None) -> tuple[str, list[Any]]:
    """Seats `s` of finished games (only those have a final score: `seats_finished`)."""
    where, params = "s.score IS NOT NULL", []
    if game_id is not None:
        where += " AND s.game_id = ?"
        params.append(game_id)
    if player is not None:
        where += " AND s.name = ?"
        params.append(player)
    return where, params


def statements(script: str) -> Iterator[str]:
    """The SQL statements of a script, one by one (`executescript` would commit on its own)."""
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            yield buffer.strip()
            buffer = ""
    if buffer.strip():
        raise ValueError(f"an incomplete SQL statement: {buffer.strip()[:60]}")


def integrity_problem(db: sqlite3.Connection, path: Path) -> StoreDamaged | None:
    """What `PRAGMA integrity_check` finds wrong with the database, in one line (None: ok)."""
    rows = db.execute("PRAGMA integrity_check").fetchall()
    if rows == [("ok",)]:
        return None
    problems = [
        line
        for (text,) in rows
        for line in str(text).splitlines()
        if line.strip() and not line.startswith("***")
    ]
    reason = problems[0] if problems else str(rows[0][0])
    if len(problems) > 1:
        reason += _(" (and {count} more problems)").format(count=len(problems) - 1)
    return StoreDamaged(_("{path} is damaged ({reason})").format(path=path, reason=reason))


class IntegrityCheck:
    """`PRAGMA integrity_check` on a connection of its own, in a thread of its own: on a big
    database it takes a while (≈ 25 µs per game on this machine), and SQLite runs it without
    Python's lock, so the app's start goes on beside it."""

    def __init__(self, path: Path, busy_timeout: float = BUSY_TIMEOUT) -> None:
        self.path = path
        self.problem: StoreError | None = None
        self._thread = threading.Thread(
            target=self._run, args=(busy_timeout,), name="records-check", daemon=True
        )
        self._thread.start()

    def _run(self, busy_timeout: float) -> None:
        try:
            db = sqlite3.connect(self.path, timeout=busy_timeout)
        except sqlite3.Error as error:
            self.problem = classify(error, self.path)
            return
        try:
            self.problem = integrity_problem(db, self.path)
        except sqlite3.Error as error:
            self.problem = classify(error, self.path)
        finally:
            db.close()

    def result(self) -> StoreError | None:
        """Wait for the check; what it found (None: the database is sound)."""
        self._thread.join()
        return self.problem


class Opened(NamedTuple):
    """What opening the records gave: a store (or None, and why not), and the name a damaged
    database was moved aside to."""

    store: SQLiteStore | None
    problem: StoreError | None
    moved_to: Path | None


def open_store(path: Path, **options: Any) -> Opened:
    """Open the records at `path`. A database that is damaged (not a database, or failing
    its integrity check) is moved aside, never deleted, and a new one begins. Any other
    problem (read-only, locked, too new) leaves the file alone and gives no store."""
    try:
        return Opened(SQLiteStore(path, **options), None, None)
    except StoreDamaged as damage:
        try:
            moved = move_aside(path)
        except OSError as error:
            return Opened(None, classify(error, path), None)
        try:
            return Opened(SQLiteStore(path, **options), damage, moved)
        except StoreError as error:
            return Opened(None, error, moved)
    except StoreError as error:
        return Opened(None, error, None)


def move_aside(path: Path) -> Path:
    """Rename a database (with its -wal and -shm files, which belong to it) to a new name
    beside it: `records.db` -> `records-damaged-20261201-101502.db`. Returns the new name."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(1000):
        suffix = f"-{n}" if n else ""
        target = path.with_name(f"{path.stem}-damaged-{stamp}{suffix}{path.suffix}")
        if not target.exists():
            break
    else:  # pragma: no cover - a thousand damaged databases within one second
        raise FileExistsError(errno.EEXIST, "no free name", str(path))
    for extra in ("-wal", "-shm"):
        companion = Path(f"{path}{extra}")
        if companion.exists():
            os.replace(companion, f"{target}{extra}")
    os.replace(path, target)
    return target
