"""The server's core: the open tables, who sits and who watches where, and what each request
does to them. No sockets here (`transport.py` brings the connections) and no game logic: a
table's game is played by a `TableHosting` (the table host layer), which the core starts
when every seat for a person is taken and then hands each seat owner's actions to.

Everything runs on the server's event loop, one request at a time: the core needs no locks.
A request is carried out whole or refused whole (`Refused`: an `Error` to the asker, nothing
changed).

Each table keeps its events (`SharedTable.history`): whoever sits down or starts watching gets
them all, from the first, right after their `Joined`. A person whose connection drops is
away: the seat is held for them (`hold` seconds), then a bot plays it. A table being played is
kept by the hosting beside its record, and rebuilt from it when the server starts again
(`restore`).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import secrets
import time
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from kits import KITS
from rules import N_, IllegalAction, InvalidOptions, Text, get_game

from ..games import SeatKind
from ..records.events import Event as RecordEvent
from ..records.events import Record, RecordError
from ..records.store import StoreError
from .identity import Identity, IdentityError, guest_name, same_token, seat_token
from .limits import Backoff, Limits, TokenBucket
from .logsafe import LogLimiter, shown
from .protocol import (
    Act,
    AnswerUndo,
    Away,
    Back,
    Chat,
    ChatLine,
    CloseTable,
    Done,
    Error,
    ErrorCode,
    EventBody,
    GameEvent,
    HandedToBot,
    HandToBot,
    Join,
    Joined,
    Leave,
    Left,
    ListTables,
    Message,
    Opened,
    OpenTable,
    Ping,
    Pong,
    ProposeUndo,
    Rematch,
    RematchOpened,
    Request,
    Seated,
    SeatEntry,
    Spectators,
    Status,
    StatusChanged,
    TableClosed,
    TableEntry,
    TableEvent,
    Tables,
    UndoAnswered,
    UndoProposed,
    UndoSettled,
    Unseated,
    Watch,
    Words,
    encode,
)

log = logging.getLogger("cubilete.server")
GUESSES = LogLimiter(log, period=60.0, burst=1)
"""Wrong invite codes: a line a minute per guesser and table at most, then a count."""

INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""An invite code's letters: no 0/O, 1/I to misread when it is said aloud."""
INVITE_LENGTH = 6
HOLD_SECONDS = 600.0
"""How long a person's seat waits for them after their connection drops (`--hold`)."""
UNDO_SECONDS = 30.0
"""How long the other people have to answer a proposed undo."""
OVER_SECONDS = 600.0
"""How long a table whose game is over stays listed (for a rematch, for its watchers) once
nobody is at it."""


# -- what the table host layer implements ------------------------------------------------------
@dataclass(frozen=True)
class TableSetup:
    """A table whose game is to start: every seat named, the options checked by the game's
    options model (as JSON)."""

    table_id: str
    game: str
    options: Mapping[str, Any]
    seats: tuple[tuple[str, SeatKind], ...]
    """(name, kind) per seat, in play order."""


class TableFeed(Protocol):
    """How a hosted game tells the server what happened (call it on the server's event loop:
    `loop.call_soon_threadsafe` from a worker thread). The server numbers what it is told as
    the table's events and sends them to everyone at the table."""

    def game_event(self, event: RecordEvent, said: Sequence[Text | str]) -> None:
        """An event of the game's record (written to the store first), and the table talk."""

    def moved_away(self) -> None:
        """The table is played by another server now (the records took its events): stop
        playing it here."""

    def game_over(self) -> None:
        """The game ended (its last event already told)."""


class HostedGame(Protocol):
    """One table's game, run by the host layer: it throws the dice (system randomness), drives
    the bot seats at their pace, writes the record, and tells the feed."""

    @property
    def events(self) -> int:
        """The number of events in the game's record so far."""

    @property
    def record_id(self) -> str: ...

    def undo(self, seat: int) -> None:
        """Take back `seat`'s last decision (the others agreed). Raises `IllegalAction`
        (`CannotUndo`), changing nothing."""

    def can_undo(self, seat: int) -> str | None:
        """Why `seat` cannot take back a decision now (an English message; None: it can)."""

    def hand_to_bot(self, seat: int) -> None:
        """A person's seat is played by a bot from now on."""

    def kinds(self) -> list[SeatKind]:
        """Each seat's kind now (a person's seat handed to a bot is the bot's)."""

    def act(self, seat: int, action: Mapping[str, Any]) -> None:
        """`seat`'s owner decided `action` (the server has checked who asks). Raises
        `IllegalAction` (nothing changed) when the rules refuse it."""

    def seat_connected(self, seat: int, connected: bool) -> None:
        """A person's connection to `seat` closed, or came back."""

    def close(self) -> None:
        """The table is closed: stop the bots; the record stays as it is."""


class KeptTable(Protocol):
    """A table the hosting kept (`TableHosting.kept`)."""

    @property
    def table_id(self) -> str: ...

    @property
    def data(self) -> dict[str, Any]:
        """What the core gave `keep`."""

    @property
    def record(self) -> Record: ...


class TableHosting(Protocol):
    """The table host layer, as the server uses it."""

    def start(self, setup: TableSetup, feed: TableFeed) -> HostedGame:
        """Start the game of a table whose seats are all taken (its roll-off included, told
        through `feed`). Raises `InvalidOptions` if the setup cannot make a game."""

    def keep(self, table_id: str, record_id: str, data: Mapping[str, Any]) -> None:
        """Keep what the core knows of a table being played (`data`, JSON) beside its
        record, for a restart. Called again when it changes."""

    def forget(self, table_id: str, record_id: str | None, abandon: bool) -> None:
        """The table is over or closed (`abandon`: closed before its end)."""

    def kept(self) -> Sequence[KeptTable]:
        """The tables being played when the server last stopped."""

    def takeover(self) -> Sequence[KeptTable]:
        """The tables of other servers on the same database whose leases ran out, claimed by
        this one (none when the server is alone on its database)."""
        ...

    def renew(self) -> set[str] | None:
        """Renew this server's leases: the tables it still holds (None: it has no leases, or
        the database cannot be reached now)."""
        ...

    def resume(self, kept: Any, kinds: Sequence[SeatKind], feed: TableFeed) -> HostedGame:
        """Go on with a kept table's game (its events so far are not told again). Raises
        `RecordError` if its record does not replay."""


# -- the connections, as the core sees them -----------------------------------------------------
class Peer(Protocol):
    """A client's connection (`transport.Connection`): who it is, and a way to send to it."""

    @property
    def identity(self) -> Identity: ...

    def send(self, message: Message) -> None:
        """Queue `message` for the client; never blocks (a client that does not read is cut
        off by the transport)."""

    def send_line(self, line: bytes) -> None:
        """Queue a message already encoded (`protocol.encode`): a table's event is encoded
        once for everyone at the table."""


class Remote(Protocol):
    """The tables other servers on the same database play (`relay.RemoteTables`)."""

    def listed(self) -> list[TableEntry]: ...

    def forward(self, peer: Peer, request: Request) -> bool:
        """Relay a request about a table played elsewhere; False if none plays it."""
        ...

    def dropped(self, peer: Peer) -> None: ...

    def relayed(self, peer: Peer) -> bool:
        """Whether `peer` sits or watches at a table played elsewhere."""
        ...

    def seat_of(self, peer: Peer, table_id: str) -> int | None:
        """The seat the table's server gave `peer` at a table played elsewhere (None: it
        sits at none there)."""
        ...

    def send_after(self, peer: Peer, table_id: str, seq: int, line: bytes) -> bool:
        """Send `line` to `peer` once the table's server has told them the table's record
        event `seq` (False: no relay to that table: nothing will be sent)."""
        ...


class Refused(Exception):
    """A request the core will not carry out: `code` and `words` make the `Error`."""

    def __init__(self, code: ErrorCode, template: str, **params: Any) -> None:
        self.code: ErrorCode = code
        self.text = Text(template, params)
        super().__init__(str(self.text))


# -- a table ---------------------------------------------------------------------------------
@dataclass
class SeatState:
    kind: SeatKind
    name: str | None
    """A bot's name from the start; a person's when they sit down (None: free)."""
    owner: Identity | None = None
    token: str | None = None
    peer: Peer | None = None
    """The connection sitting there now (None: a bot, a free seat, or its person is away)."""
    hold: asyncio.TimerHandle | None = None
    """While its person is away: when the seat goes to a bot."""

    @property
    def person(self) -> bool:
        return self.kind == "human"

    @property
    def connected(self) -> bool:
        return not self.person or self.peer is not None

    def entry(self) -> SeatEntry:
        return SeatEntry(name=self.name, kind=self.kind, connected=self.connected)


@dataclass
class SharedTable:
    id: str
    game: str
    options: dict[str, Any]
    seats: list[SeatState]
    host: Identity
    private: bool
    code: str | None
    created: float
    status: Status = "waiting"
    spectators: set[Peer] = field(default_factory=set)
    seq: int = 0
    """The number of the table's last event."""
    hosted: HostedGame | None = None
    history: list[bytes] = field(default_factory=list)
    """Every event of the table so far, in order, encoded (sent to whoever joins)."""
    undo: UndoProposal | None = None
    rematch: str | None = None
    """The id of the table where its game is played again."""

    def entry(self) -> TableEntry:
        return TableEntry(
            id=self.id,
            game=self.game,
            host=self.host.name,
            private=self.private,
            seats=[seat.entry() for seat in self.seats],
            status=self.status,
            spectators=len(self.spectators),
            events=self.hosted.events if self.hosted is not None else 0,
            options=self.options,
        )

    def kept(self) -> dict[str, Any]:
        """What a restart needs that the record does not say (JSON)."""
        return {
            "game": self.game,
            "options": self.options,
            "host": _identity_data(self.host),
            "private": self.private,
            "code": self.code,
            "created": self.created,
            "seats": [
                {
                    "kind": seat.kind,
                    "name": seat.name,
                    "owner": None if seat.owner is None else _identity_data(seat.owner),
                    "token": seat.token,
                }
                for seat in self.seats
            ],
        }

    def audience(self) -> list[Peer]:
        seated = [seat.peer for seat in self.seats if seat.peer is not None]
        return [*dict.fromkeys(seated), *self.spectators]

    def seat_of(self, peer: Peer) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.peer is peer:
                return index
        return None

    def is_at(self, peer: Peer) -> bool:
        return peer in self.spectators or self.seat_of(peer) is not None

    def full(self) -> bool:
        """Every person is at the table (a rematch's seats are theirs before they come)."""
        return all(seat.peer is not None for seat in self.seats if seat.person)

    def people(self) -> list[int]:
        """The seats that persons own (away or not)."""
        return [i for i, seat in enumerate(self.seats) if seat.person and seat.owner is not None]

    def setup(self) -> TableSetup:
        return TableSetup(
            table_id=self.id,
            game=self.game,
            options=self.options,
            seats=tuple((seat.name or "", seat.kind) for seat in self.seats),
        )


@dataclass
class UndoProposal:
    seat: int
    waiting: set[int]
    """The people who have not answered yet."""
    timer: asyncio.TimerHandle | None


def _identity_data(identity: Identity) -> dict[str, Any]:
    return {
        "kind": identity.kind,
        "name": identity.name,
        "uid": identity.uid,
        "guest_id": identity.guest_id,
    }


def _identity_of(data: Mapping[str, Any]) -> Identity:
    return Identity(data["kind"], data["name"], uid=data.get("uid"), guest_id=data["guest_id"])


class _Feed:
    """A table's `TableFeed`: what its hosted game tells, numbered and sent to the table."""

    def __init__(self, core: ServerCore, table: SharedTable) -> None:
        self.core = core
        self.table = table

    def game_event(self, event: RecordEvent, said: Sequence[Text | str]) -> None:
        if self.core.tables.get(self.table.id) is not self.table:
            return  # closed meanwhile
        body = GameEvent(record=tuple(event.to_list()), said=[Words.of(text) for text in said])
        self.core.broadcast(self.table, body)
        if event.kind != "undo" and self.table.undo is not None:
            self.core.settle_undo(self.table, Text(N_("the game moved on")))

    def moved_away(self) -> None:
        table = self.table
        if self.core.tables.get(table.id) is table:
            log.warning("table %s moved on at another server: no longer played here", table.id)
            self.core.moved_away(table)

    def game_over(self) -> None:
        table = self.table
        if self.core.tables.get(table.id) is table and table.status != "over":
            table.status = "over"
            self.core.broadcast(table, StatusChanged(status="over"))
            self.core.game_ended(table)


# -- the core --------------------------------------------------------------------------------
class ServerCore:
    """The open tables and what requests do to them. `hosting` plays the games (None: no host
    layer yet: tables fill up and wait). `admin_uid`: the Unix user who may close any table
    (the account running the server)."""

    def __init__(
        self,
        hosting: TableHosting | None = None,
        *,
        limits: Limits | None = None,
        admin_uid: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        hold: float = HOLD_SECONDS,
        undo_seconds: float = UNDO_SECONDS,
        over_seconds: float = OVER_SECONDS,
    ) -> None:
        self.hosting = hosting
        self.hold = hold
        self.undo_seconds = undo_seconds
        self.over_seconds = over_seconds
        self.limits = limits or Limits()
        self.admin_uid = os.getuid() if admin_uid is None else admin_uid
        self.clock = clock
        self.tables: dict[str, SharedTable] = {}
        self._at: dict[Peer, set[str]] = {}
        """The tables each connection sits or watches at."""
        self._chat: dict[Peer, TokenBucket] = {}
        self.remote: Remote | None = None
        """The other servers' tables (several servers on one PostgreSQL database)."""
        self._entries: dict[str, tuple[int, bytes]] = {}
        """Each table's entry in the list as JSON, and its last event's number then."""
        self._unattended: dict[str, asyncio.TimerHandle] = {}
        """The waiting tables with no person at them: when each closes."""
        limits = self.limits
        self.guesses = Backoff(limits.free_failures, limits.backoff_most, clock=clock)
        """Wrong invite codes per person (per front end, for guests)."""
        self.table_guesses = Backoff(
            limits.free_failures_per_table, limits.backoff_most, clock=clock
        )
        """Wrong invite codes per table."""

    # -- connections -----------------------------------------------------------------------
    def connected(self, peer: Peer) -> None:
        self._at[peer] = set()
        self._chat[peer] = TokenBucket(
            self.limits.chat_per_second, self.limits.chat_burst, self.clock
        )

    def disconnected(self, peer: Peer) -> None:
        for table_id in sorted(self._at.get(peer, ())):
            table = self.tables.get(table_id)
            if table is not None:
                self._remove(table, peer)
        self._at.pop(peer, None)
        self._chat.pop(peer, None)
        if self.remote is not None:
            self.remote.dropped(peer)

    def at_a_table(self, peer: Peer) -> bool:
        """Whether `peer` sits or watches at a table (here, or played elsewhere)."""
        return bool(self._at.get(peer)) or (self.remote is not None and self.remote.relayed(peer))

    def handle(self, peer: Peer, request: Request) -> None:
        """Carry out a request (anything but the hello, which the transport answers): the
        answer, or an `Error` if it is refused, goes to `peer`."""
        handler = self._handlers.get(type(request))
        table = getattr(request, "table", None)
        try:
            if (
                self.remote is not None
                and isinstance(table, str)
                and table not in self.tables
                and not isinstance(request, OpenTable)
            ):
                if isinstance(request, Act) and self._act_here(peer, request):
                    return  # (validated and appended here: the table's server hears of it)
                if self.remote.forward(peer, request):
                    return  # (played by another server: its answer comes back through the relay)
            if handler is None:
                raise Refused("malformed", N_("you have already said hello"))
            handler(self, peer, request)
        except Refused as refusal:
            peer.send(Error(ref=request.ref, code=refusal.code, words=Words.of(refusal.text)))

    def shutdown(self) -> None:
        """The server stops: every table closes; those being played are kept (with their
        records) and come back when it starts again."""
        for table in list(self.tables.values()):
            self._close(table, Text(N_("the server is stopping")), forget=False)

    def restore(self) -> int:
        """Rebuild the tables that were being played when the server stopped (call it on the
        event loop, before serving): their seats' owners as they were, every person away
        (their hold starts now), the bots playing on. Returns how many."""
        if self.hosting is None:
            return 0
        return self._rebuild_all(self.hosting.kept())

    def take_over(self) -> int:
        """On a database shared with other servers (call it every few seconds): renew this
        server's leases; stop playing the tables another server took meanwhile (this one
        hung past its leases); rebuild here the tables whose server's leases ran out (it was
        killed, or hangs). Returns how many tables were taken over."""
        if self.hosting is None:
            return 0
        held = self.hosting.renew()
        if held is not None:
            for table in list(self.tables.values()):
                if table.status == "playing" and table.hosted is not None and table.id not in held:
                    log.warning("table %s was taken over by another server", table.id)
                    self.moved_away(table)
        taken = self._rebuild_all(self.hosting.takeover())
        if taken:
            log.info("%d tables taken over from a server that stopped", taken)
        return taken

    def moved_away(self, table: SharedTable) -> None:
        """Another server plays `table` now (it took it over while this one hung): it closes
        here, kept (it is that server's to forget), and its people join it again there."""
        if self.tables.get(table.id) is table:
            self._close(table, Text(N_("this table moved to another server")), forget=False)

    def _rebuild_all(self, kept_tables: Sequence[KeptTable]) -> int:
        assert self.hosting is not None
        rebuilt = 0
        for kept in kept_tables:
            if kept.table_id in self.tables:
                continue  # (played here already)
            try:
                self._rebuild(kept)
            except (RecordError, KeyError, TypeError, ValueError) as error:
                log.warning("table %s cannot be rebuilt: %s", kept.table_id, error)
                self.tables.pop(kept.table_id, None)
                self.hosting.forget(kept.table_id, None, abandon=False)
                continue
            rebuilt += 1
        return rebuilt

    def _rebuild(self, kept: KeptTable) -> None:
        from ..records.replay import game_of, narrate, steps

        assert self.hosting is not None
        data, record = kept.data, kept.record
        seats = [
            SeatState(
                one["kind"],
                one["name"],
                owner=None if one["owner"] is None else _identity_of(one["owner"]),
                token=one["token"],
            )
            for one in data["seats"]
        ]
        if len(seats) != len(record.header.seats):
            raise RecordError(N_("the kept seats are not the record's"))
        table = SharedTable(
            id=kept.table_id,
            game=data["game"],
            options=dict(data["options"]),
            seats=seats,
            host=_identity_of(data["host"]),
            private=bool(data["private"]),
            code=data["code"],
            created=float(data["created"]),
            status="playing",
        )
        for index, seat in enumerate(seats):
            if seat.person and seat.name is not None:
                self.broadcast(table, Seated(seat=index, name=seat.name))
        self.broadcast(table, StatusChanged(status="playing"))
        game = game_of(record.header)
        players = record.header.players
        for step in steps(record):  # (RecordError if it does not replay)
            said = [Words.of(text) for text in narrate(game, step, players)]
            self.broadcast(table, GameEvent(record=tuple(step.event.to_list()), said=said))
        self.tables[table.id] = table
        table.hosted = self.hosting.resume(kept, [seat.kind for seat in seats], _Feed(self, table))
        for index in table.people():
            self.broadcast(table, Away(seat=index, seconds=self.hold))
            self._start_hold(table, index)
        log.info("table %s rebuilt from its record (%d events)", table.id, len(record.events))

    # -- requests ----------------------------------------------------------------------------
    def _ping(self, peer: Peer, request: Ping) -> None:
        peer.send(Pong(ref=request.ref))

    def _list(self, peer: Peer, request: ListTables) -> None:
        there = self.remote.listed() if self.remote is not None else []
        there = [entry for entry in there if entry.id not in self.tables]
        entries = [self._entry_json(table) for table in self.tables.values()]
        entries += [entry.model_dump_json().encode() for entry in there]
        head = encode(Tables(ref=request.ref, tables=[])).rstrip()  # ...,"tables":[]}
        peer.send_line(head[:-2] + b",".join(entries) + b"]}\n")

    def _entry_json(self, table: SharedTable) -> bytes:
        """A table's entry in the list, as JSON: made again only when the table changed (each
        change of what it shows is one of its events): a list of 256 tables costs 20 ms to
        make whole, and anyone may ask for it 20 times a second."""
        kept = self._entries.get(table.id)
        if kept is None or kept[0] != table.seq:
            if len(self._entries) > 2 * len(self.tables) + 64:  # (closed tables' go)
                self._entries = {k: v for k, v in self._entries.items() if k in self.tables}
            kept = self._entries[table.id] = (table.seq, table.entry().model_dump_json().encode())
        return kept[1]

    def _open(self, peer: Peer, request: OpenTable) -> None:
        identity = peer.identity
        if len(self.tables) >= self.limits.max_tables:
            raise Refused("full", N_("the server has as many tables as it can hold"))
        mine = [
            t for t in self.tables.values() if t.host.key == identity.key and t.status != "over"
        ]
        if len(mine) >= self.limits.tables_per_person:
            raise Refused(
                "full",
                N_("you already have {n} tables open: close one first"),
                n=len(mine),
            )
        if identity.kind == "guest" and identity.origin:
            guests = [
                t
                for t in self.tables.values()
                if t.host.kind == "guest"
                and t.host.origin == identity.origin
                and t.status != "over"
            ]
            if len(guests) >= self.limits.guest_tables_per_address:
                raise Refused(
                    "full",
                    N_("the guests who play from where you do have {n} tables open: close one"),
                    n=len(guests),
                )
        options = self._checked_options(request)
        seats = self._checked_seats(request)
        if request.sit is not None and (request.sit >= len(seats) or not seats[request.sit].person):
            raise Refused(
                "bad_setup", N_("seat {seat} is not a seat for a person"), seat=request.sit + 1
            )
        code = None
        if request.private:
            code = "".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_LENGTH))
        table = SharedTable(
            id=self._new_id(),
            game=request.game,
            options=options,
            seats=seats,
            host=identity,
            private=request.private,
            code=code,
            created=time.time(),
        )
        self.tables[table.id] = table
        log.info(
            "table %s opened by %s: %s, %d seats",
            table.id,
            shown(identity.key),
            shown(table.game),
            len(seats),
        )
        seat = token = None
        if request.sit is not None:
            seat, token = self._sit(table, peer, request.sit, None)
        peer.send(
            Opened(
                ref=request.ref,
                table=table.entry(),
                code=code,
                seat=seat,
                token=token,
                seq=table.seq,
            )
        )
        self._send_history(table, peer)
        self._start_if_full(table)
        self._mind_waiting(table)

    def _join(self, peer: Peer, request: Join) -> None:
        table = self._table(request.table)
        self._check_code(table, peer, request.code, request.token)
        if table.seat_of(peer) is not None:
            raise Refused("already_at_table", N_("you already sit at this table"))
        try:
            index = self._seat_for(table, peer.identity, request.seat, request.token)
        except Refused:
            if table.status == "over":  # (its people may come back: to see it, for a rematch)
                raise Refused("over", N_("this table's game is over")) from None
            raise
        self._join_at(table, peer, index, request.token, request.ref)

    def _join_at(
        self, table: SharedTable, peer: Peer, index: int, token: str | None, ref: int | None
    ) -> None:
        seat, token = self._sit(table, peer, index, token)
        peer.send(Joined(ref=ref, table=table.entry(), seat=seat, token=token, seq=table.seq))
        self._send_history(table, peer)
        self._start_if_full(table)
        self._mind_waiting(table)

    def _watch(self, peer: Peer, request: Watch) -> None:
        table = self._table(request.table)
        self._check_code(table, peer, request.code)
        if table.seat_of(peer) is not None:
            raise Refused("already_at_table", N_("you already sit at this table"))
        if peer not in table.spectators:
            self.broadcast(table, Spectators(count=len(table.spectators) + 1))
            table.spectators.add(peer)
            self._at[peer].add(table.id)
        peer.send(Joined(ref=request.ref, table=table.entry(), seat=None, seq=table.seq))
        self._send_history(table, peer)

    def _act(self, peer: Peer, request: Act) -> None:
        table = self._table(request.table)
        if request.seat >= len(table.seats):
            raise Refused(
                "not_your_seat", N_("this table has no seat {seat}"), seat=request.seat + 1
            )
        seat = table.seats[request.seat]
        if seat.peer is not peer:
            if peer in table.spectators:
                raise Refused("spectator", N_("you are watching this table: you cannot play"))
            raise Refused(
                "not_your_seat",
                N_("seat {seat} is not yours: only who sits there plays it"),
                seat=request.seat + 1,
            )
        if table.status == "over":
            raise Refused("over", N_("this table's game is over"))
        if table.status == "waiting" or table.hosted is None:
            raise Refused(
                "not_started", N_("the game has not started: it starts when every seat is taken")
            )
        if table.undo is not None:
            raise Refused("undo", N_("an undo is being asked: wait for the answers"))
        try:
            table.hosted.act(request.seat, request.action)
        except IllegalAction as error:
            peer.send(Error(ref=request.ref, code="illegal", words=Words.of(error.text)))
            return
        if self.tables.get(table.id) is not table:  # (its records moved on at another server)
            raise Refused(
                "no_table",
                N_("the table moved on at another server: join it again to play on"),
            )
        peer.send(Done(ref=request.ref))

    def _act_here(self, peer: Peer, request: Act) -> bool:
        """A decision for a table another server plays, from a person who sits there (their
        seat given by that server, through the relay): validated against the table's record
        and appended by this server (`act_elsewhere`); the table's server hears of the new
        event from the database and tells everyone at the table, this person included, and
        only then is the person answered (events before answers, as at the table's own
        server). False: this person does not sit at that table, or the table is not kept in
        the database (the relay passes the request on and the table's server answers)."""
        assert self.remote is not None
        seat = self.remote.seat_of(peer, request.table)
        act_elsewhere = getattr(self.hosting, "act_elsewhere", None)
        if seat is None or act_elsewhere is None:
            return False
        if request.seat != seat:
            raise Refused(
                "not_your_seat",
                N_("seat {seat} is not yours: only who sits there plays it"),
                seat=request.seat + 1,
            )
        try:
            last = act_elsewhere(request.table, seat, request.action)
        except IllegalAction as error:
            peer.send(Error(ref=request.ref, code="illegal", words=Words.of(error.text)))
            return True
        if last is None:  # (not in the database yet, or no more: the table's server answers)
            return False
        done = encode(Done(ref=request.ref))
        if not self.remote.send_after(peer, request.table, last, done):
            peer.send_line(done)
        return True

    def heard(self, record_id: str | None, seq: int) -> None:
        """Another server (or this one) appended event `seq` to a record (None: records may
        have moved on unheard): the table here that plays it reads what it lacks."""
        for table in list(self.tables.values()):
            hosted = table.hosted
            heard = getattr(hosted, "heard", None)
            if hosted is None or heard is None:
                continue
            if record_id is None or hosted.record_id == record_id:
                heard(seq if record_id is not None else 0)

    def _chat_line(self, peer: Peer, request: Chat) -> None:
        table = self._table(request.table)
        if not table.is_at(peer):
            raise Refused("not_at_table", N_("you are not at this table"))
        text = chat_text(request.text, self.limits.chat_chars)
        if not self._chat[peer].take():
            raise Refused(
                "too_fast",
                N_("slow down: the chat takes a line every {seconds} seconds"),
                seconds=round(1 / self.limits.chat_per_second),
            )
        seat = table.seat_of(peer)
        name = table.seats[seat].name if seat is not None else peer.identity.name
        self.broadcast(table, ChatLine(seat=seat, name=name or peer.identity.name, text=text))
        peer.send(Done(ref=request.ref))

    def _leave(self, peer: Peer, request: Leave) -> None:
        table = self._table(request.table)
        if not table.is_at(peer):
            raise Refused("not_at_table", N_("you are not at this table"))
        self._remove(table, peer)
        self._at[peer].discard(table.id)
        peer.send(Left(ref=request.ref, table=table.id))

    def _close_table(self, peer: Peer, request: CloseTable) -> None:
        table = self._table(request.table)
        identity = peer.identity
        admin = identity.kind == "unix" and identity.uid == self.admin_uid
        if identity.key != table.host.key and not admin:
            raise Refused("not_host", N_("only who opened this table can close it"))
        self._close(table, Text(N_("{name} closed the table"), {"name": identity.name}))
        peer.send(Done(ref=request.ref))

    def _hand_to_bot(self, peer: Peer, request: HandToBot) -> None:
        table = self._table(request.table)
        if peer.identity.key != table.host.key:
            raise Refused("not_host", N_("only who opened this table can hand a seat to a bot"))
        if request.seat >= len(table.seats):
            raise Refused("not_away", N_("this table has no seat {seat}"), seat=request.seat + 1)
        seat = table.seats[request.seat]
        if table.status != "playing" or not seat.person or seat.owner is None or seat.peer:
            raise Refused(
                "not_away",
                N_("seat {seat} is not a person's who is away from a game being played"),
                seat=request.seat + 1,
            )
        self._to_bot(table, request.seat)
        peer.send(Done(ref=request.ref))

    def _propose_undo(self, peer: Peer, request: ProposeUndo) -> None:
        table = self._table(request.table)
        index = table.seat_of(peer)
        if index is None:
            raise Refused("not_at_table", N_("only a player at this table can undo"))
        if table.status != "playing" or table.hosted is None:
            raise Refused("undo", N_("the game is not being played"))
        if table.undo is not None:
            raise Refused("undo", N_("an undo is already being asked"))
        why = table.hosted.can_undo(index)
        if why is not None:
            raise Refused("undo", why)
        others = {i for i in table.people() if i != index}
        if not others:  # nobody to ask
            self._undo_now(table, index)
            peer.send(Done(ref=request.ref))
            return
        timer = self._later(
            self.undo_seconds,
            lambda: self.settle_undo(table, Text(N_("not everyone answered in time"))),
        )
        table.undo = UndoProposal(index, others, timer)
        self.broadcast(table, UndoProposed(seat=index, seconds=self.undo_seconds))
        peer.send(Done(ref=request.ref))

    def _answer_undo(self, peer: Peer, request: AnswerUndo) -> None:
        table = self._table(request.table)
        index = table.seat_of(peer)
        proposal = table.undo
        if proposal is None or index is None or index not in proposal.waiting:
            raise Refused("undo", N_("no undo waits for your answer at this table"))
        proposal.waiting.discard(index)
        self.broadcast(table, UndoAnswered(seat=index, accept=request.accept))
        peer.send(Done(ref=request.ref))
        if not request.accept:
            name = table.seats[index].name or "?"
            self.settle_undo(table, Text(N_("{name} said no"), {"name": name}))
        elif not proposal.waiting:
            self.settle_undo(table, None)

    def settle_undo(self, table: SharedTable, why: Text | None) -> None:
        """End the table's undo proposal: carried out (`why` None), or cancelled."""
        proposal = table.undo
        if proposal is None:
            return
        table.undo = None
        if proposal.timer is not None:
            proposal.timer.cancel()
        if why is None and table.hosted is not None:
            reason = table.hosted.can_undo(proposal.seat)
            why = None if reason is None else Text(reason)
        if why is not None:
            self.broadcast(table, UndoSettled(seat=proposal.seat, done=False, words=Words.of(why)))
            return
        self.broadcast(table, UndoSettled(seat=proposal.seat, done=True))
        self._undo_now(table, proposal.seat)

    def _undo_now(self, table: SharedTable, seat: int) -> None:
        assert table.hosted is not None
        try:
            table.hosted.undo(seat)
        except IllegalAction as error:
            log.warning("table %s: an agreed undo failed: %s", table.id, error)

    def _rematch(self, peer: Peer, request: Rematch) -> None:
        old = self._table(request.table)
        index = old.seat_of(peer)
        if index is None:
            raise Refused("not_at_table", N_("only a player at this table can ask for a rematch"))
        if old.status != "over":
            raise Refused("rematch", N_("a rematch comes once the game is over"))
        table = self.tables.get(old.rematch or "")
        if table is None:
            if len(self.tables) >= self.limits.max_tables:
                raise Refused("full", N_("the server has as many tables as it can hold"))
            table = SharedTable(
                id=self._new_id(),
                game=old.game,
                options=old.options,
                seats=[
                    SeatState(seat.kind, seat.name, owner=seat.owner, token=seat.token)
                    for seat in old.seats
                ],
                host=old.host,
                private=old.private,
                code=old.code,
                created=time.time(),
            )
            self.tables[table.id] = table
            old.rematch = table.id
            for number, seat in enumerate(table.seats):
                if seat.person and seat.name is not None:
                    self.broadcast(table, Seated(seat=number, name=seat.name))
            self.broadcast(old, RematchOpened(table=table.id))
            log.info("table %s: a rematch at %s", old.id, table.id)
        self._remove(old, peer)
        self._at[peer].discard(old.id)
        self._join_at(table, peer, index, old.seats[index].token, request.ref)

    _handlers: ClassVar[dict[type[Request], Callable[[ServerCore, Peer, Any], None]]] = {
        Ping: _ping,
        ListTables: _list,
        OpenTable: _open,
        Join: _join,
        Watch: _watch,
        Act: _act,
        Chat: _chat_line,
        Leave: _leave,
        CloseTable: _close_table,
        HandToBot: _hand_to_bot,
        ProposeUndo: _propose_undo,
        AnswerUndo: _answer_undo,
        Rematch: _rematch,
    }

    # -- the parts -----------------------------------------------------------------------------
    def broadcast(self, table: SharedTable, body: EventBody) -> None:
        """The table's next event, to everyone at it."""
        table.seq += 1
        line = encode(TableEvent(table=table.id, seq=table.seq, body=body))
        table.history.append(line)
        for peer in table.audience():
            peer.send_line(line)

    def _send_history(self, table: SharedTable, peer: Peer) -> None:
        """Every event of the table so far, to one who has just joined or started watching."""
        for line in table.history:
            peer.send_line(line)

    def game_ended(self, table: SharedTable) -> None:
        """The table's game is over: no seat is held any more, nothing to keep."""
        self.settle_undo(table, Text(N_("the game is over")))
        for seat in table.seats:
            if seat.hold is not None:
                seat.hold.cancel()
                seat.hold = None
        if self.hosting is not None and table.hosted is not None:
            self.hosting.forget(table.id, table.hosted.record_id, abandon=False)
        self._later(self.over_seconds, lambda: self._drop_if_left(table))

    def _drop_if_left(self, table: SharedTable) -> None:
        """A table whose game is over goes from the list once nobody has been at it for
        `over_seconds` (its record stays)."""
        if self.tables.get(table.id) is not table:
            return
        if table.audience():
            self._later(self.over_seconds, lambda: self._drop_if_left(table))
            return
        del self.tables[table.id]
        log.info("table %s is over and left: no longer listed", table.id)

    def _later(self, seconds: float, then: Callable[[], None]) -> asyncio.TimerHandle | None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # (no loop: a core driven by hand, nothing runs out)
            return None
        return loop.call_later(seconds, then)

    def _start_hold(self, table: SharedTable, index: int) -> None:
        seat = table.seats[index]
        if seat.hold is not None:
            seat.hold.cancel()
        seat.hold = self._later(self.hold, lambda: self._hold_over(table, index))

    def _hold_over(self, table: SharedTable, index: int) -> None:
        seat = table.seats[index]
        seat.hold = None
        if self.tables.get(table.id) is not table or table.status != "playing":
            return
        if seat.person and seat.owner is not None and seat.peer is None:
            log.info("table %s: seat %d was held long enough: a bot plays it", table.id, index)
            self._to_bot(table, index)

    def _to_bot(self, table: SharedTable, index: int) -> None:
        seat = table.seats[index]
        if seat.hold is not None:
            seat.hold.cancel()
            seat.hold = None
        if table.undo is not None and (table.undo.seat == index or index in table.undo.waiting):
            self.settle_undo(table, Text(N_("a player left")))
        assert table.hosted is not None
        table.hosted.hand_to_bot(index)
        seat.kind = table.hosted.kinds()[index]
        seat.owner = seat.token = None
        self.broadcast(table, HandedToBot(seat=index, bot=seat.kind))
        self._keep(table)

    def _keep(self, table: SharedTable) -> None:
        if self.hosting is not None and table.hosted is not None and table.status == "playing":
            self.hosting.keep(table.id, table.hosted.record_id, table.kept())

    def _table(self, table_id: str) -> SharedTable:
        table = self.tables.get(table_id)
        if table is None:
            raise Refused("no_table", N_("there is no table {table}"), table=table_id)
        return table

    def _check_code(
        self, table: SharedTable, peer: Peer, code: str | None, token: str | None = None
    ) -> None:
        if not table.private or peer.identity.key == table.host.key:
            return
        if any(owns(seat, peer.identity, token) for seat in table.seats):
            return  # a person (or a guest, by their token) coming back to their seat
        self._check_guess(table, peer, code)

    def _check_guess(self, table: SharedTable, peer: Peer, code: str | None) -> None:
        """An invite code given for a private table: right, or refused. Who gives wrong ones
        (a person; the guests of one front end together), or gives them for one table, too
        often must wait before the next try (`Backoff`), and each wrong one is logged (once a
        minute per guesser and table at most)."""
        if code is None or table.code is None:
            raise Refused("private", N_("this table is private: ask its host for the invite code"))
        identity = peer.identity
        guesser = f"guests {identity.origin}" if identity.kind == "guest" else identity.key
        wait = max(self.guesses.wait(guesser), self.table_guesses.wait(table.id))
        if wait > 0:
            raise Refused(
                "too_fast",
                N_("too many wrong invite codes: try again in {n} seconds"),
                n=math.ceil(wait),
            )
        if same_token(code.upper(), table.code):
            self.guesses.succeeded(guesser)
            return
        mine, theirs = self.guesses.failed(guesser), self.table_guesses.failed(table.id)
        GUESSES.warning(
            f"{guesser} {table.id}",
            "table %s: a wrong invite code from %s (%d in a row; %d for the table)",
            table.id,
            shown(guesser),
            mine,
            theirs,
        )
        raise Refused("private", N_("this table is private: ask its host for the invite code"))

    def _seat_for(
        self, table: SharedTable, identity: Identity, wanted: int | None, token: str | None
    ) -> int:
        """The seat a join asks for, if the joiner may have it: a free seat for a person, or
        their own (same user, or the seat's token)."""

        def theirs(seat: SeatState) -> bool:
            return owns(seat, identity, token)

        if wanted is None:
            own = [i for i, seat in enumerate(table.seats) if seat.person and theirs(seat)]
            free = [i for i, seat in enumerate(table.seats) if seat.person and seat.owner is None]
            if own or (free and table.status == "waiting"):
                return (own or free)[0]
            raise Refused("seat_taken", N_("there is no free seat at this table"))
        if wanted >= len(table.seats):
            raise Refused("seat_taken", N_("this table has no seat {seat}"), seat=wanted + 1)
        seat = table.seats[wanted]
        if not seat.person:
            raise Refused("seat_taken", N_("seat {seat} is a bot's"), seat=wanted + 1)
        if seat.owner is None:
            if table.status != "waiting":
                raise Refused("seat_taken", N_("this table's game has started"))
            return wanted
        if theirs(seat):
            return wanted
        raise Refused(
            "seat_taken", N_("seat {seat} is taken by {name}"), seat=wanted + 1, name=seat.name
        )

    def _sit(
        self, table: SharedTable, peer: Peer, index: int, token: str | None
    ) -> tuple[int, str]:
        seat = table.seats[index]
        if peer in table.spectators:
            table.spectators.discard(peer)
            self.broadcast(table, Spectators(count=len(table.spectators)))
        if seat.owner is not None:  # their own seat again
            previous = seat.peer
            seat.peer = None
            if previous is not None and previous is not peer:  # a connection not yet seen dead
                self._at[previous].discard(table.id)
                previous.send(Left(table=table.id))
            self.broadcast(table, Back(seat=index))
            seat.peer = peer
            if seat.hold is not None:
                seat.hold.cancel()
                seat.hold = None
            if table.hosted is not None:
                table.hosted.seat_connected(index, True)
        else:
            others = {s.name for s in table.seats if s is not seat and s.name is not None}
            seat.name = unique_name(peer.identity.name, others)
            seat.owner = peer.identity
            seat.token = seat_token()
            self.broadcast(table, Seated(seat=index, name=seat.name))
            seat.peer = peer
        self._at[peer].add(table.id)
        assert seat.token is not None
        return index, seat.token

    def _remove(self, table: SharedTable, peer: Peer) -> None:
        """`peer` leaves `table` (a request, or its connection closed)."""
        if peer in table.spectators:
            table.spectators.discard(peer)
            self.broadcast(table, Spectators(count=len(table.spectators)))
            return
        index = table.seat_of(peer)
        if index is None:
            return
        seat = table.seats[index]
        seat.peer = None
        if table.status == "waiting":  # nothing played yet: the seat is free again
            seat.owner = seat.token = seat.name = None
            self.broadcast(table, Unseated(seat=index))
            self._mind_waiting(table)
        else:
            held = self.hold if table.status == "playing" else 0.0
            self.broadcast(table, Away(seat=index, seconds=held))
            if table.undo is not None and table.undo.seat == index:
                self.settle_undo(table, Text(N_("a player left")))
            if table.status == "playing":
                self._start_hold(table, index)
            if table.hosted is not None:
                table.hosted.seat_connected(index, False)

    def _mind_waiting(self, table: SharedTable) -> None:
        """A waiting table with no person connected to it closes after the waiting grace
        (a tab closed, a client that quit, a table opened without sitting); someone sitting
        down stops the count."""
        timer = self._unattended.pop(table.id, None)
        if timer is not None:
            timer.cancel()
        if self._unattended_now(table):
            then = self._later(self.limits.waiting_grace, lambda: self._unattended_over(table))
            if then is not None:
                self._unattended[table.id] = then

    def _unattended_now(self, table: SharedTable) -> bool:
        return (
            self.tables.get(table.id) is table
            and table.status == "waiting"
            and all(seat.peer is None for seat in table.seats)
        )

    def _unattended_over(self, table: SharedTable) -> None:
        self._unattended.pop(table.id, None)
        if not self._unattended_now(table):
            return
        grace = math.ceil(self.limits.waiting_grace)
        log.info("table %s: nobody sat at it for %d seconds: closed", table.id, grace)
        self._close(
            table,
            Text(N_("nobody sat at this table for {n} seconds: it is closed"), {"n": grace}),
        )

    def _close(self, table: SharedTable, why: Text, forget: bool = True) -> None:
        """Close `table` (`forget`: for good; else it is kept for a restart)."""
        if table.undo is not None and table.undo.timer is not None:
            table.undo.timer.cancel()
        for seat in table.seats:
            if seat.hold is not None:
                seat.hold.cancel()
        kept = not forget and table.status == "playing"  # (it goes on: a restart, elsewhere)
        self.broadcast(table, TableClosed(words=Words.of(why), kept=kept))
        for peer in table.audience():
            self._at.get(peer, set()).discard(table.id)
        del self.tables[table.id]
        if table.hosted is not None:
            table.hosted.close()
            if forget and self.hosting is not None:
                playing = table.status == "playing"
                self.hosting.forget(table.id, table.hosted.record_id, abandon=playing)
        log.info("table %s closed", table.id)

    def _start_if_full(self, table: SharedTable) -> None:
        if table.status != "waiting" or not table.full() or self.hosting is None:
            return
        table.status = "playing"  # (told first: the roll-off's events follow)
        self.broadcast(table, StatusChanged(status="playing"))
        try:
            table.hosted = self.hosting.start(table.setup(), _Feed(self, table))
        except (InvalidOptions, StoreError) as error:
            log.warning("table %s could not start: %s", table.id, error)
            self._close(table, Text(N_("this table's game could not start")))
            return
        self._keep(table)

    def _checked_options(self, request: OpenTable) -> dict[str, Any]:
        if request.game not in KITS:
            raise Refused(
                "bad_setup",
                N_("there is no game {game}: the games are {games}"),
                game=request.game,
                games=", ".join(KITS),
            )
        game = get_game(request.game)
        if not game.min_players <= len(request.seats) <= game.max_players:
            raise Refused(
                "bad_setup",
                N_("{game} takes {low} to {high} players"),
                game=game.name,
                low=game.min_players,
                high=game.max_players,
            )
        try:
            options = game.options(request.options)
        except InvalidOptions as error:
            name, why = error.problems[0]
            raise Refused("bad_setup", N_("option {name}: {why}"), name=name, why=why) from None
        return dict(options.model_dump(mode="json"))

    def _checked_seats(self, request: OpenTable) -> list[SeatState]:
        seats: list[SeatState] = []
        names: set[str] = set()
        for index, spec in enumerate(request.seats):
            if spec.kind == "human":
                seats.append(SeatState("human", None))
                continue
            try:
                name = guest_name(spec.name) if spec.name else f"Bot {index + 1}"
            except IdentityError as error:
                raise Refused(
                    "bad_setup", N_("seat {seat}: {why}"), seat=index + 1, why=error.words
                ) from None
            if name in names:
                raise Refused("bad_setup", N_("two seats are named {name}"), name=name)
            names.add(name)
            seats.append(SeatState(spec.kind, name))
        return seats

    def _new_id(self) -> str:
        while True:
            table_id = secrets.token_hex(3)
            if table_id not in self.tables:
                return table_id


def owns(seat: SeatState, identity: Identity, token: str | None) -> bool:
    """Whether `identity` (showing `token`) is the person a taken seat is kept for: the same
    Unix user (the kernel says who is on the socket), the same front end's user, or, for a
    guest's seat, whoever shows its token (a guest is known by nothing else). A person's
    seat is never theirs by its token alone: on the socket a leaked token does not make
    another user the seat's owner."""
    owner = seat.owner
    if owner is None:
        return False
    if owner.kind == "guest":
        return same_token(token, seat.token)
    return identity.kind != "guest" and owner.key == identity.key


def unique_name(name: str, taken: set[str], most: int = 24) -> str:
    """`name`, or `name 2`, `name 3`... if another seat has it."""
    if name not in taken:
        return name
    number = 2
    while True:
        suffix = f" {number}"
        candidate = name[: most - len(suffix)] + suffix
        if candidate not in taken:
            return candidate
        number += 1


BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")
"""Characters that reorder the text around them: in a chat line they could make one person's
words look like another's."""


def chat_text(text: str, most: int) -> str:
    """A chat line as it is sent on: one line of plain text, trimmed. Refused with a reason if
    it is empty, too long, or holds control characters (newlines, escapes, bidi overrides)."""
    line = text.strip()
    if not line:
        raise Refused("chat", N_("an empty chat line"))
    if len(line) > most:
        raise Refused("chat", N_("a chat line has at most {n} characters"), n=most)
    if any(
        unicodedata.category(character) == "Cc" or character in BIDI_CONTROLS for character in line
    ):
        raise Refused("chat", N_("a chat line is plain text on one line"))
    return line
