"""The table host layer of `cubilete server`: each shared table's game, played by an
`app.host.TableHost` (the same one the app's screens use), without Textual.

- The dice are the operating system's (`SystemDice`): no client ever throws.
- Bot seats play at the server's pace (`--bot-pace`); the coach stays home (each person's
  own client coaches them), so the server spends nothing on it.
- Every event goes to the server's records as it happens: `records.db` in its data dir (as
  the app's), or the store `--db URL|PATH` names (`records.stores.open_records`: a
  `postgresql://` URL is PostgreSQL), and then to the table's feed with what the table
  talk says about it, as messages (`rules.Text`, sent as `Words`): each client renders
  them in its reader's language.
- Beside the records, in the same database, `server_tables` keeps what a record does not
  say about a shared table: who owns each seat (and its token), the host, the invite code. A
  table being played is written there when its game starts and whenever a seat changes hands,
  and forgotten when the table is closed or its game is over; a server that starts finds
  there every table it must rebuild (`kept`, `resume`).
- On PostgreSQL, several servers may share one database. Each table being played is played
  by one of them at a time, the holder of its lease (`server_leases`): its bots, its seat
  timers, its appends run there. The holder renews its leases every `lease / 3` seconds
  (`renew`); a table whose lease ran out (its server was killed, or hung) is claimed by the
  next server that looks (`takeover`) and rebuilt there from its record, and its people
  join it again there (their seat tokens are kept with the table).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from rules import N_, Text

from ..dice import DiceSource, SystemDice
from ..games import SeatKind
from ..host import GameOver, HostEvent, Logged, Moved, Problem, TableHost
from ..records.events import Record, RecordError, dumps
from ..records.recorder import StoreRecorder
from ..records.store import RecordConflict, RecordStore, StoreError
from ..records.stores import is_postgres, open_records
from ..table import Seat, Table
from .core import TableFeed, TableSetup

log = logging.getLogger("cubilete.server")

DEFAULT_PACE = 0.8
"""Seconds before each bot decision: the app's normal pace."""
HANDED_BOT: SeatKind = "medium"
"""The level of the bot that takes over a person's seat."""
RECORDS_FILE = "records.db"
LEASE_SECONDS = 10.0
"""How long a server's hold on a table lasts without being renewed (PostgreSQL): another
server takes the table over at most this long after its server died."""


class KeptTable(NamedTuple):
    """A shared table being played when the server stopped: what the core stored about it,
    and its game's record."""

    table_id: str
    data: dict[str, Any]
    record: Record


SERVER_TABLES = (
    "CREATE TABLE IF NOT EXISTS server_tables ("
    " table_id TEXT PRIMARY KEY,"
    " record_id TEXT NOT NULL,"
    " data TEXT NOT NULL)"  # JSON: the seats' owners and tokens, the host, the code
)
SAVE_TABLE = (
    "INSERT INTO server_tables (table_id, record_id, data) VALUES (?, ?, ?)"
    " ON CONFLICT (table_id) DO UPDATE SET record_id = excluded.record_id,"
    " data = excluded.data"
)


class ServerTables(Protocol):
    """Where `server_tables` is kept: beside the records, in the same database."""

    @property
    def Error(self) -> type[Exception]:
        """What its calls raise when the database fails them."""
        ...

    def save(self, table_id: str, record_id: str, data: Mapping[str, Any]) -> None: ...

    def forget(self, table_id: str) -> None: ...

    def rows(self) -> list[tuple[str, str, dict[str, Any]]]: ...

    def close(self) -> None: ...


class SharedTables(ServerTables, Protocol):
    """Tables kept where several servers see them (PostgreSQL), each held by a lease."""

    def claim(self, own: bool) -> list[tuple[str, str, dict[str, Any]]]: ...

    def renew(self) -> set[str]: ...

    def release(self) -> None: ...

    def announce(self, address: str) -> None: ...

    def nodes(self) -> dict[str, str]: ...


class SQLiteTables:
    """`server_tables` in the records' SQLite file (its own connection to the same file)."""

    Error = sqlite3.Error

    def __init__(self, path: Path) -> None:
        self._db = sqlite3.connect(path, timeout=2.0, isolation_level=None)
        self._db.execute(SERVER_TABLES)

    def save(self, table_id: str, record_id: str, data: Mapping[str, Any]) -> None:
        self._db.execute(SAVE_TABLE, (table_id, record_id, dumps(dict(data))))

    def forget(self, table_id: str) -> None:
        self._db.execute("DELETE FROM server_tables WHERE table_id = ?", (table_id,))

    def rows(self) -> list[tuple[str, str, dict[str, Any]]]:
        rows = self._db.execute("SELECT table_id, record_id, data FROM server_tables").fetchall()
        return [(table_id, record_id, json.loads(data)) for table_id, record_id, data in rows]

    def close(self) -> None:
        self._db.close()


def open_server_tables(
    target: str | os.PathLike[str], store: RecordStore, holder: str, lease: float
) -> ServerTables:
    """`server_tables` in the database `target` names (the one `store` is open on)."""
    if is_postgres(target):
        from ..records.postgres import PostgresStore, PostgresTables

        assert isinstance(store, PostgresStore)
        return PostgresTables(store, holder, lease)
    return SQLiteTables(Path(target))


class ServerHosting:
    """`core.TableHosting` for the real server. `data_dir`: where `records.db` lives (None:
    nothing is kept: a table does not outlive the process), unless `db` names the records'
    database (an SQLite file's path or a `postgresql://` URL). `dice`: a new table's dice.
    Raises a StoreError (one line, for the admin) if the records cannot be opened, or another
    server holds the PostgreSQL database. `holder`: this server's name among those sharing a
    PostgreSQL database (the same across its restarts); `lease`: seconds its hold on a table
    lasts unrenewed."""

    def __init__(
        self,
        data_dir: Path | None,
        pace: float = DEFAULT_PACE,
        dice: Callable[[], DiceSource] = SystemDice,
        db: str | None = None,
        holder: str = "",
        lease: float = LEASE_SECONDS,
    ) -> None:
        self.pace = pace
        self.dice = dice
        self.lease = lease
        self.store: RecordStore | None = None
        self.tables: ServerTables | None = None
        target: str | Path | None = db
        if target is None and data_dir is not None:
            target = data_dir / RECORDS_FILE
        if target is not None:
            self.store = open_records(target)
            try:
                self.tables = open_server_tables(target, self.store, holder, lease)
            except (StoreError, sqlite3.Error):
                self.store.close()
                raise

    # -- TableHosting -------------------------------------------------------------------------
    def start(self, setup: TableSetup, feed: TableFeed) -> HostedTable:
        seats = [Seat(name=name, kind=kind) for name, kind in setup.seats]
        recorder = self._recorder()
        table = Table.new(setup.game, seats, setup.options, dice=self.dice(), recorder=recorder)
        hosted = HostedTable(table, feed, self.pace, told=0, recorder=recorder)
        hosted.begin(list(table.log))
        return hosted

    def keep(self, table_id: str, record_id: str, data: Mapping[str, Any]) -> None:
        if self.tables is not None:
            try:
                self.tables.save(table_id, record_id, data)
            except (self.tables.Error, StoreError) as error:
                log.warning("table %s cannot be kept for a restart: %s", table_id, error)

    def forget(self, table_id: str, record_id: str | None, abandon: bool) -> None:
        """The table is closed (`abandon`: before its end: its record is closed too) or
        over."""
        if self.tables is not None:
            with contextlib.suppress(self.tables.Error, StoreError):
                self.tables.forget(table_id)
        if abandon and record_id is not None and self.store is not None:
            with contextlib.suppress(StoreError):
                self.store.abandon(record_id)

    @property
    def renew_every(self) -> float | None:
        """Seconds between two renewals of this server's leases (None: it has none: it is
        alone on its database)."""
        return self.lease / 3 if self._shared() is not None else None

    def renew(self) -> set[str] | None:
        """Renew this server's leases: the ids of the tables it still holds (None: it could
        not reach the database; it plays on and tries again)."""
        shared = self._shared()
        if shared is None:
            return None
        try:
            return shared.renew()
        except StoreError as error:
            log.warning("the leases cannot be renewed: %s", error)
            return None

    def takeover(self) -> list[KeptTable]:
        """The tables of other servers whose leases ran out, claimed by this one, to rebuild
        here."""
        shared = self._shared()
        if shared is None:
            return []
        return self.kept(lambda: shared.claim(own=False))

    def shared(self) -> SharedTables | None:
        """The tables and leases shared with other servers (None: alone on its database)."""
        return self._shared()

    def _shared(self) -> SharedTables | None:
        tables = self.tables
        if tables is not None and hasattr(tables, "claim"):
            return tables  # type: ignore[return-value]  # a PostgresTables: it has leases
        return None

    def kept(
        self, rows_of: Callable[[], list[tuple[str, str, dict[str, Any]]]] | None = None
    ) -> list[KeptTable]:
        """The tables to rebuild: those being played when the server stopped (or, on
        PostgreSQL, whose server stopped). A row whose record is gone, over or damaged is
        forgotten (and logged)."""
        if self.tables is None or self.store is None:
            return []
        kept = []
        try:
            rows = (rows_of or self.tables.rows)()
        except (self.tables.Error, StoreError) as error:
            log.warning("the tables being played cannot be read: %s", error)
            return []
        for table_id, record_id, data in rows:
            try:
                record = self.store.load(record_id)
                if record.header.status != "playing":
                    raise RecordError(N_("its game is {status}"), status=record.header.status)
            except (StoreError, RecordError) as error:
                log.warning("table %s is not rebuilt: %s", table_id, error)
                self.forget(table_id, None, abandon=False)
                continue
            kept.append(KeptTable(table_id, data, record))
        return kept

    def resume(
        self, kept: KeptTable, kinds: Sequence[SeatKind], feed: TableFeed
    ) -> HostedTable:
        """Go on with a kept table's game from its record (`kinds`: each seat's, a person's
        seat handed to a bot since the record began being a bot's). Its events so far are
        told by the core's rebuilt history, not here. RecordError if it does not replay."""
        recorder = self._recorder()
        table = Table.from_record(kept.record, dice=self.dice(), recorder=recorder)
        table.seats = tuple(
            Seat(name=seat.name, kind=kind) for seat, kind in zip(table.seats, kinds, strict=True)
        )
        hosted = HostedTable(table, feed, self.pace, told=len(table.events), recorder=recorder)
        hosted.begin([])
        return hosted

    def close(self) -> None:
        shared = self._shared()
        if shared is not None:
            with contextlib.suppress(StoreError):
                shared.release()
        if self.tables is not None:
            self.tables.close()
        if self.store is not None:
            self.store.close()

    def _recorder(self) -> StoreRecorder | None:
        if self.store is None:
            return None

        def problem(error: StoreError) -> None:
            log.warning("the records cannot be written: %s", error)

        return StoreRecorder(self.store, on_problem=problem)


class HostedTable:
    """One table's game (`core.HostedGame`): a `TableHost` whose changes are told to the
    table's feed, each record event once, in order, with the table talk about it.

    An event the records refuse because its number is taken (`RecordConflict`: another
    server on the same database took the table over while this one hung) is never told:
    the table has moved on elsewhere (`moved`), and the feed hears so instead."""

    def __init__(
        self,
        table: Table,
        feed: TableFeed,
        pace: float,
        told: int,
        recorder: StoreRecorder | None = None,
    ) -> None:
        self.table = table
        self.feed = feed
        self.recorder = recorder
        self.moved = False
        """The records took another server's events for this table: it is played there."""
        self.host = TableHost(table, pace=pace, coach=False, on_error=self._error)
        self._told = told
        """Record events told to the feed so far."""
        self._said: list[Text | str] = []
        """The table talk since the last event told."""
        self.host.subscribe(self._heard)

    def begin(self, said: list[Text | str]) -> None:
        self._said = said
        self._tell()
        self.host.start()
        if self.table.over:
            self.feed.game_over()

    # -- HostedGame ---------------------------------------------------------------------------
    @property
    def events(self) -> int:
        return len(self.table.events)

    @property
    def record_id(self) -> str:
        return self.table.header.record_id

    def act(self, seat: int, action: Mapping[str, Any]) -> None:
        self.host.act(seat, action)

    def undo(self, seat: int) -> None:
        """Take back `seat`'s last decision (every other person agreed). CannotUndo says why
        not."""
        self.host.undo(seat)

    def can_undo(self, seat: int) -> str | None:
        """Why `seat` cannot take back a decision now (an English message; None: it can)."""
        target = self.table.seat_undo_target(seat)
        return None if isinstance(target, int) else target

    def seat_connected(self, seat: int, connected: bool) -> None:
        pass  # a person away only holds up their own turns; the bots play on

    def hand_to_bot(self, seat: int) -> None:
        self.host.hand_to_bot(seat, HANDED_BOT)

    def kinds(self) -> list[SeatKind]:
        return [seat.kind for seat in self.table.seats]

    def close(self) -> None:
        self.host.close()

    # -- inside -----------------------------------------------------------------------------
    def _heard(self, event: HostEvent) -> None:
        if isinstance(event, Logged):
            self._said.extend(event.lines)
        elif isinstance(event, Moved):
            self._tell()
        elif isinstance(event, GameOver):
            self._tell()
            self.feed.game_over()
        elif isinstance(event, Problem):
            log.warning("a bot could not play: %s", event.text)

    def _tell(self) -> None:
        """The record's events not told yet, the table talk with the last of them."""
        if self.moved:
            return
        if self.recorder is not None and isinstance(self.recorder.problem, RecordConflict):
            self.moved = True
            self.host.close()
            self.feed.moved_away()
            return
        events = self.table.events[self._told :]
        if not events:
            return
        self._told = len(self.table.events)
        said, self._said = self._said, []
        for event in events[:-1]:
            self.feed.game_event(event, [])
        self.feed.game_event(events[-1], said)

    def _error(self, error: BaseException) -> None:
        log.error("an error at a table", exc_info=error)
