"""The server's core: the open tables, who sits and who watches where, and what each request
does to them. No sockets here (`transport.py` brings the connections) and no game logic: a
table's game is played by a `TableHosting` (the table host layer), which the core starts
when every seat for a person is taken and then hands each seat owner's actions to.

Everything runs on the server's event loop, one request at a time: the core needs no locks.
A request is carried out whole or refused whole (`Refused`: an `Error` to the asker, nothing
changed).
"""

from __future__ import annotations

import logging
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
from .identity import Identity, IdentityError, guest_name, same_token, seat_token
from .limits import Limits, TokenBucket
from .protocol import (
    Act,
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
    Unseated,
    Watch,
    Words,
)

log = logging.getLogger("cubilete.server")

INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""An invite code's letters: no 0/O, 1/I to misread when it is said aloud."""
INVITE_LENGTH = 6


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

    def game_over(self) -> None:
        """The game ended (its last event already told)."""


class HostedGame(Protocol):
    """One table's game, run by the host layer: it throws the dice (system randomness), drives
    the bot seats at their pace, writes the record, and tells the feed."""

    @property
    def events(self) -> int:
        """The number of events in the game's record so far."""

    def act(self, seat: int, action: Mapping[str, Any]) -> None:
        """`seat`'s owner decided `action` (the server has checked who asks). Raises
        `IllegalAction` (nothing changed) when the rules refuse it."""

    def seat_connected(self, seat: int, connected: bool) -> None:
        """A person's connection to `seat` closed, or came back."""

    def close(self) -> None:
        """The table is closed: stop the bots; the record stays as it is."""


class TableHosting(Protocol):
    """The table host layer, as the server uses it."""

    def start(self, setup: TableSetup, feed: TableFeed) -> HostedGame:
        """Start the game of a table whose seats are all taken (its roll-off included, told
        through `feed`). Raises `InvalidOptions` if the setup cannot make a game."""


# -- the connections, as the core sees them -----------------------------------------------------
class Peer(Protocol):
    """A client's connection (`transport.Connection`): who it is, and a way to send to it."""

    @property
    def identity(self) -> Identity: ...

    def send(self, message: Message) -> None:
        """Queue `message` for the client; never blocks (a client that does not read is cut
        off by the transport)."""


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
        )

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
        return all(seat.owner is not None for seat in self.seats if seat.person)

    def setup(self) -> TableSetup:
        return TableSetup(
            table_id=self.id,
            game=self.game,
            options=self.options,
            seats=tuple((seat.name or "", seat.kind) for seat in self.seats),
        )


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

    def game_over(self) -> None:
        if self.core.tables.get(self.table.id) is self.table and self.table.status != "over":
            self.table.status = "over"
            self.core.broadcast(self.table, StatusChanged(status="over"))


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
    ) -> None:
        self.hosting = hosting
        self.limits = limits or Limits()
        self.admin_uid = os.getuid() if admin_uid is None else admin_uid
        self.clock = clock
        self.tables: dict[str, SharedTable] = {}
        self._at: dict[Peer, set[str]] = {}
        """The tables each connection sits or watches at."""
        self._chat: dict[Peer, TokenBucket] = {}

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

    def handle(self, peer: Peer, request: Request) -> None:
        """Carry out a request (anything but the hello, which the transport answers): the
        answer, or an `Error` if it is refused, goes to `peer`."""
        handler = self._handlers.get(type(request))
        try:
            if handler is None:
                raise Refused("malformed", N_("you have already said hello"))
            handler(self, peer, request)
        except Refused as refusal:
            peer.send(Error(ref=request.ref, code=refusal.code, words=Words.of(refusal.text)))

    def shutdown(self) -> None:
        """The server stops: every table closes (their games' records stay)."""
        for table in list(self.tables.values()):
            self._close(table, Text(N_("the server is stopping")))

    # -- requests ----------------------------------------------------------------------------
    def _ping(self, peer: Peer, request: Ping) -> None:
        peer.send(Pong(ref=request.ref))

    def _list(self, peer: Peer, request: ListTables) -> None:
        peer.send(Tables(ref=request.ref, tables=[t.entry() for t in self.tables.values()]))

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
            "table %s opened by %s: %s, %d seats", table.id, identity.key, table.game, len(seats)
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
        self._start_if_full(table)

    def _join(self, peer: Peer, request: Join) -> None:
        table = self._table(request.table)
        self._check_code(table, peer, request.code)
        if table.status == "over":
            raise Refused("over", N_("this table's game is over"))
        if table.seat_of(peer) is not None:
            raise Refused("already_at_table", N_("you already sit at this table"))
        index = self._seat_for(table, peer.identity, request.seat, request.token)
        seat, token = self._sit(table, peer, index, request.token)
        peer.send(
            Joined(ref=request.ref, table=table.entry(), seat=seat, token=token, seq=table.seq)
        )
        self._start_if_full(table)

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
        try:
            table.hosted.act(request.seat, request.action)
        except IllegalAction as error:
            peer.send(Error(ref=request.ref, code="illegal", words=Words.of(error.text)))
            return
        peer.send(Done(ref=request.ref))

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
    }

    # -- the parts -----------------------------------------------------------------------------
    def broadcast(self, table: SharedTable, body: EventBody) -> None:
        """The table's next event, to everyone at it."""
        table.seq += 1
        event = TableEvent(table=table.id, seq=table.seq, body=body)
        for peer in table.audience():
            peer.send(event)

    def _table(self, table_id: str) -> SharedTable:
        table = self.tables.get(table_id)
        if table is None:
            raise Refused("no_table", N_("there is no table {table}"), table=table_id)
        return table

    def _check_code(self, table: SharedTable, peer: Peer, code: str | None) -> None:
        if not table.private or peer.identity.key == table.host.key:
            return
        if any(
            seat.owner is not None and seat.owner.key == peer.identity.key for seat in table.seats
        ):
            return  # a person coming back to their seat
        if code is None or table.code is None or not same_token(code.upper(), table.code):
            raise Refused("private", N_("this table is private: ask its host for the invite code"))

    def _seat_for(
        self, table: SharedTable, identity: Identity, wanted: int | None, token: str | None
    ) -> int:
        """The seat a join asks for, if the joiner may have it: a free seat for a person, or
        their own (same user, or the seat's token)."""

        def theirs(seat: SeatState) -> bool:
            if seat.owner is None:
                return False
            same_person = identity.kind != "guest" and seat.owner.key == identity.key
            return same_person or same_token(token, seat.token)

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
        else:
            self.broadcast(table, Away(seat=index))
            if table.hosted is not None:
                table.hosted.seat_connected(index, False)

    def _close(self, table: SharedTable, why: Text) -> None:
        self.broadcast(table, TableClosed(words=Words.of(why)))
        for peer in table.audience():
            self._at.get(peer, set()).discard(table.id)
        del self.tables[table.id]
        if table.hosted is not None:
            table.hosted.close()
        log.info("table %s closed", table.id)

    def _start_if_full(self, table: SharedTable) -> None:
        if table.status != "waiting" or not table.full() or self.hosting is None:
            return
        table.status = "playing"  # (told first: the roll-off's events follow)
        self.broadcast(table, StatusChanged(status="playing"))
        try:
            table.hosted = self.hosting.start(table.setup(), _Feed(self, table))
        except InvalidOptions as error:
            log.warning("table %s could not start: %s", table.id, error)
            self._close(table, Text(N_("this table's game could not start")))

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
            except IdentityError:
                raise Refused(
                    "bad_setup",
                    N_("seat {seat}: a name of letters, digits and spaces"),
                    seat=index + 1,
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
