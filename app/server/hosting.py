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

from rules import N_, IllegalAction, Text

from ..dice import DiceSource, SystemDice
from ..games import SeatKind
from ..host import GameOver, HostEvent, Logged, Moved, Problem, TableHost
from ..records.events import Record, RecordError, dumps
from ..records.recorder import Recorder, StoreRecorder, StrictRecorder
from ..records.store import RecordConflict, RecordStore, StoreError
from ..records.stores import is_postgres, open_records
from ..table import CannotUndo, Seat, Table
from .core import Refused, TableFeed, TableSetup

log = logging.getLogger("cubilete.server")

DEFAULT_PACE = 0.8
"""Seconds before each bot decision: the app's normal pace."""
HANDED_BOT: SeatKind = "medium"
"""The level of the bot that takes over a person's seat."""
RECORDS_FILE = "records.db"
ATTEMPTS = 3
"""How many times an action races another server's append (each time the loser reads what
the winner appended and decides again) before its client hears that the table moved on."""
REPLICAS = 256
"""Tables of other servers whose game this one keeps in memory to validate its clients'
actions (the least recently used is dropped beyond)."""
LEASE_SECONDS = 10.0
"""How long a server's hold on a table lasts without being renewed (PostgreSQL): another
server takes the table over at most this long after its server died."""


UNWRITABLE = N_("the records cannot be written now: try again in a moment")


class MovedOn(IllegalAction):
    """A decision that no longer stands: another server appended a move to the table first."""

    def __init__(self, reason: str | Text) -> None:
        words = reason if isinstance(reason, Text) else Text(reason)
        super().__init__(N_("the table moved on ({reason})"), reason=words)


def act_racing(
    host: TableHost,
    seat: int,
    action: Mapping[str, Any],
    catch_up: Callable[[], None],
) -> None:
    """`host.act` on a record other servers append to: when another move took the number
    first (`RecordConflict`), `catch_up` reads it and the decision is validated again, at most
    `ATTEMPTS` times; one that no longer stands is `MovedOn`. Raises IllegalAction, or a
    StoreError other than the conflict (nothing was appended)."""
    raced: MovedOn | None = None
    for _attempt in range(ATTEMPTS):
        try:
            host.act(seat, action)
            return
        except RecordConflict:
            raced = MovedOn(N_("another move came first"))
            catch_up()
        except IllegalAction as error:
            if raced is not None:  # (it stood before the other server's move)
                raise MovedOn(error.text) from None
            raise
    assert raced is not None
    raise raced


class KeptTable(NamedTuple):
    """A shared table being played when the server stopped: what the core stored about it,
    and its game's record."""

    table_id: str
    data: dict[str, Any]
    record: Record


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

    def one(self, table_id: str) -> tuple[str, dict[str, Any]] | None: ...

    def holds(self, table_id: str) -> bool: ...


class SQLiteTables:
    """`server_tables` in the records' SQLite file (its own connection to the same file)."""

    Error = sqlite3.Error

    def __init__(self, path: Path) -> None:
        self._db = sqlite3.connect(path, timeout=2.0, isolation_level=None)

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
        self._replicas: dict[str, TableHost] = {}
        """Record id -> the game of another server's table (`act_elsewhere`)."""
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
        """Raises InvalidOptions, or a StoreError when its record cannot be begun on a
        database shared with other servers (nothing is played that is not written)."""
        seats = [Seat(name=name, kind=kind) for name, kind in setup.seats]
        recorder = self._recorder()
        table = Table.new(setup.game, seats, setup.options, dice=self.dice(), recorder=recorder)
        hosted = HostedTable(
            table,
            feed,
            self.pace,
            told=0,
            recorder=recorder,
            store=self.store,
            held=self._held(setup.table_id),
        )
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
        hosted = HostedTable(
            table,
            feed,
            self.pace,
            told=len(table.events),
            recorder=recorder,
            store=self.store,
            held=self._held(kept.table_id),
        )
        hosted.begin([])
        return hosted

    # -- an action for a table another server plays ------------------------------------------
    def act_elsewhere(self, table_id: str, seat: int, action: Mapping[str, Any]) -> int | None:
        """A person's decision, sent to this server, for a table another server on the same
        database plays: validated here against the table's record as it is now, and appended
        here (the other server hears of it and tells its table). Of two servers appending at
        once, the sequence key takes one: the other reads what was appended, validates again
        (`ATTEMPTS` times at most), and its person hears "the table moved on" if the decision
        no longer stands. Returns the number of the last event appended, or None if the table
        is not kept in the database (its game has just begun and its server is writing it down,
        or it is over): then only the table's server can answer. Raises IllegalAction (nothing
        was appended) or Refused."""
        shared, store = self._shared(), self.store
        if shared is None or store is None:
            return None
        try:
            row = shared.one(table_id)
            if row is None:
                return None
            record_id, data = row
            kinds: list[SeatKind] = [one["kind"] for one in data["seats"]]
            host = self._replica(record_id, kinds)
        except StoreError as error:
            log.warning("table %s: an action cannot be checked: %s", table_id, error)
            raise IllegalAction(UNWRITABLE) from None
        except (RecordError, KeyError, TypeError) as error:
            log.warning("table %s: its record cannot be followed: %s", table_id, error)
            raise Refused("no_table", N_("there is no table {table}"), table=table_id) from None
        def follow() -> None:
            host.follow(store.events_after(record_id, len(host.table.events)))

        try:
            follow()
            act_racing(host, seat, action, follow)
        except StoreError as error:
            log.warning("table %s: an action cannot be written: %s", table_id, error)
            raise IllegalAction(UNWRITABLE) from None
        except RecordError as error:
            log.warning("table %s: its record cannot be followed: %s", table_id, error)
            self._replicas.pop(record_id, None)
            raise IllegalAction(UNWRITABLE) from None
        finally:
            if host.table.over:
                self._replicas.pop(record_id, None)
        return len(host.table.events)

    def _replica(self, record_id: str, kinds: Sequence[SeatKind]) -> TableHost:
        """The game of another server's table, to validate and append this server's clients'
        actions: not started (no bots play, no coach), each seat's kind as the table's
        server keeps it (a person's seat handed to a bot is a bot's)."""
        assert self.store is not None
        host = self._replicas.pop(record_id, None)
        if host is None:
            tell = getattr(self.store, "tell", None)  # (the holder hears of what is appended)
            recorder = StrictRecorder(self.store, tell=tell)
            record = self.store.load(record_id)
            table = Table.from_record(record, dice=self.dice(), recorder=recorder)
            host = TableHost(table, coach=False)
        self._replicas[record_id] = host  # (the most recently used last)
        while len(self._replicas) > REPLICAS:
            del self._replicas[next(iter(self._replicas))]
        host.table.seats = tuple(
            Seat(name=seat.name, kind=kind)
            for seat, kind in zip(host.table.seats, kinds, strict=True)
        )
        return host

    def _held(self, table_id: str) -> Callable[[], bool] | None:
        """Whether this server's lease on the table still runs (None: alone on its
        database: no leases)."""
        shared = self._shared()
        if shared is None:
            return None

        def held() -> bool:
            try:
                return shared.holds(table_id)
            except StoreError:
                return True  # (the database is away: the next renewal decides)

        return held

    def listen(self, heard: Callable[[str | None, int], None]) -> Callable[[], None] | None:
        """On a database shared with other servers: call `heard(record_id, seq)` (from another
        thread) for every event any server appends (`PostgresStore.listen`); returns what
        stops it (None: alone on its database, nothing to hear)."""
        if self._shared() is None:
            return None
        from ..records.postgres import PostgresStore

        assert isinstance(self.store, PostgresStore)
        return self.store.listen(heard).stop

    def close(self) -> None:
        shared = self._shared()
        if shared is not None:
            with contextlib.suppress(StoreError):
                shared.release()
        if self.tables is not None:
            self.tables.close()
        if self.store is not None:
            self.store.close()

    def _recorder(self) -> Recorder | None:
        """Where a table's events go: on a database shared with other servers, written
        before the table makes them or not made (`StrictRecorder`); alone, as the app's
        (a failed write waits in memory and is tried again)."""
        if self.store is None:
            return None
        if self._shared() is not None:
            return StrictRecorder(self.store)

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
        recorder: Recorder | None = None,
        store: RecordStore | None = None,
        held: Callable[[], bool] | None = None,
    ) -> None:
        self.table = table
        self.feed = feed
        self.recorder = recorder
        self.store = store
        """The records, read for what other servers appended (a `StrictRecorder`'s table)."""
        self.held = held
        """Whether this server's lease on the table still runs (None: it has no lease)."""
        self.moved = False
        """The records took another server's events for this table: it is played there."""
        self.host = TableHost(
            table, pace=pace, coach=False, on_error=self._error, on_store_error=self._refused
        )
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
        """A person's decision for `seat`. IllegalAction (nothing changed) if it is not
        legal; on a database shared with other servers, `MovedOn` if another server appended
        a move first after which it no longer stands (it is validated again against the
        table as it is then), or IllegalAction if the records cannot be written."""
        try:
            act_racing(self.host, seat, action, self.catch_up)
        except StoreError as error:
            log.warning("an action cannot be written: %s", error)
            raise IllegalAction(UNWRITABLE) from None

    def undo(self, seat: int) -> None:
        """Take back `seat`'s last decision (every other person agreed). CannotUndo says why
        not."""
        try:
            self.host.undo(seat)
        except RecordConflict:
            self.catch_up()
            raise CannotUndo(N_("the table moved on")) from None
        except StoreError as error:
            log.warning("an undo cannot be written: %s", error)
            raise CannotUndo(UNWRITABLE) from None

    def heard(self, seq: int) -> None:
        """A server appended event `seq` to this table's record (0: perhaps, unheard): what
        is new is read and told, if this table has not got it yet."""
        if seq == 0 or seq > len(self.table.events):
            self.catch_up()

    def catch_up(self) -> None:
        """Read what other servers appended to the record and go on from there (told to the
        feed as this table's own moves are)."""
        if self.store is None or self.moved:
            return
        try:
            events = self.store.events_after(self.record_id, len(self.table.events))
            self.host.follow(events)
        except StoreError as error:
            log.warning("table events cannot be read: %s", error)
        except RecordError as error:
            log.error("the record %s cannot be followed: %s", self.record_id, error)

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
        recorder = self.recorder
        if isinstance(recorder, StoreRecorder) and isinstance(recorder.problem, RecordConflict):
            self._move_away()
            return
        events = self.table.events[self._told :]
        if not events:
            return
        self._told = len(self.table.events)
        said, self._said = self._said, []
        for event in events[:-1]:
            self.feed.game_event(event, [])
        self.feed.game_event(events[-1], said)

    def _refused(self, error: StoreError) -> None:
        """A bot's decision was refused by the records: another server appended first (read
        it, and the bot decides again), or the database is away (it tries again)."""
        if isinstance(error, RecordConflict):
            if self.held is not None and not self.held():  # (this server hung past its lease)
                self._move_away()
                return
            self.catch_up()
        else:
            log.warning("a bot's decision cannot be written: %s", error)

    def _move_away(self) -> None:
        """Another server plays the table now: no more moves here; the feed hears so."""
        self.moved = True
        self.host.close()
        self.feed.moved_away()

    def _error(self, error: BaseException) -> None:
        log.error("an error at a table", exc_info=error)
