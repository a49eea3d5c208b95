"""What `cubilete server` and its clients say to each other: pydantic models, one JSON object
per line.

Framing: each message is one JSON object encoded in UTF-8 and ended by a newline (`\\n`); a
message has no newline inside (JSON escapes them). A client's message may be at most
`MAX_CLIENT_BYTES` long, the newline included; the server's at most `MAX_SERVER_BYTES` (a long
list of tables). A longer line is refused whole.

A connection opens with the client's `Hello` (its `PROTOCOL_VERSION`); the server answers
`Welcome`, or an `Error` with code `version` and closes the connection when the versions
differ. Every request may carry a `ref` (a number the client chooses); the server's answer to
it, or its refusal, carries the same `ref`.

No words in one language cross the wire: a refusal is a message template and its values
(`Words`, an `app.i18n` message as data), and each client renders it in its reader's language
(`Words.text()` then `i18n.render`). Chat is the one exception: what a person wrote, shown as
plain text (never markup) exactly as written.

A table's events are numbered per table, 1, 2, 3... Right after `Opened` or `Joined` (a
player, a watcher, a person coming back) the server sends that connection every event of the
table so far, from 1 to `Joined.seq`, in order, then each new one as it happens: a client
rebuilds the game by replaying the record events of the `GameEvent`s through `rules` from the
start state of `TableEntry.game` and `TableEntry.options` (`rules.get_game(game).new_game(
names of the seats, options)`), ignoring any number it has seen. After that, a gap, a repeat
or a number out of order means a lost, duplicated or reordered event (`EventCounter`). A
server that restarts rebuilds its tables from their records and numbers their events afresh
from 1: a client that connects again starts over from the `Joined` it gets.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, TypeAdapter, ValidationError

from rules import N_, Text

from ..games import SeatKind
from ..i18n import text_from_data, text_to_data

PROTOCOL_VERSION = 3
"""Raise it whenever a message changes in a way an older peer would misread. (2: a table's
whole history after joining, `TableEntry.options`, `Away.seconds`, hand-to-bot, undo by
consent, rematch. 3: `TableClosed.kept`, which a peer of 2 would refuse as an unknown
field.)"""

MAX_CLIENT_BYTES = 8 * 1024
"""The longest message a client may send, newline included."""
MAX_SERVER_BYTES = 1024 * 1024
"""The longest message the server sends (a client reads lines up to this long)."""
MAX_CHAT_CHARS = 200
"""The longest chat line, in characters."""
MAX_NAME_CHARS = 24
"""The longest name a person or a bot is shown with at a table."""
MAX_SEATS = 8

Status = Literal["waiting", "playing", "over"]
"""A table waits for its people, is being played, or its game is over."""

TableId = Annotated[str, Field(pattern=r"^[a-z0-9]{1,16}$")]
InviteCode = Annotated[str, Field(pattern=r"^[A-Za-z0-9]{1,16}$")]
Ref = Annotated[int, Field(ge=0, le=2**53)]
SeatIndex = Annotated[int, Field(ge=0, lt=MAX_SEATS)]
Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME_CHARS)]


class Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# -- words: a message for a person, rendered by the reader --------------------------------
class Words(Message):
    """A message as data: an English template (marked with `N_`, a `C_` context, or the two
    forms of a counted message) and its values, which may be messages too. `text()` gives the
    `rules.Text` that `app.i18n.render` shows in the reader's language."""

    template: str | tuple[str, str]
    params: dict[str, JsonValue] = Field(default_factory=dict)
    count: str = "n"

    @classmethod
    def of(cls, text: Text | str) -> Words:
        if isinstance(text, str):
            return cls(template=text)
        data = text_to_data(text)
        template = data["template"]
        return cls(
            template=tuple(template) if isinstance(template, list) else template,
            params=data["params"],
            count=data.get("count", "n"),
        )

    def text(self) -> Text | str:
        """The message, for `i18n.render`. A malformed one (a wrong count) is shown as its
        English template rather than not at all."""
        data: dict[str, Any] = {
            "template": list(self.template) if isinstance(self.template, tuple) else self.template,
            "params": self.params,
            "count": self.count,
        }
        try:
            text = text_from_data(data)
        except ValueError:
            return str(self.template)
        return text


# -- client to server ------------------------------------------------------------------------
class Request(Message):
    ref: Ref | None = None
    """Chosen by the client; the answer or the refusal carries it back."""


class Hello(Request):
    """The first message of every connection. On the Unix socket the server knows who you are
    (your Unix user): `user`, `guest` and `secret` must be left out. On TCP the front end
    proves itself with the server's shared `secret` and says who the person is: a `user` it
    authenticated, a `guest` name, or (a server relaying its own person) a `unix` user."""

    type: Literal["hello"] = "hello"
    version: int
    client: str = Field("", max_length=64)
    """The client's name and version, for the server's log."""
    user: str | None = Field(None, max_length=64)
    guest: str | None = Field(None, max_length=MAX_NAME_CHARS)
    unix: str | None = Field(None, max_length=64)
    """A Unix user of another server on the same database, relayed by that server (which
    the kernel told who they are): they stay that Unix user here, not a front end's user."""
    secret: str | None = Field(None, max_length=256)


class ListTables(Request):
    type: Literal["list_tables"] = "list_tables"


class SeatSpec(Message):
    """A seat of a table being opened: for a person (whose name is theirs, given when they
    sit down) or for a bot of a level (named here, or after its level)."""

    kind: SeatKind = "human"
    name: Name | None = None


class OpenTable(Request):
    """Open a table of `game` with `options` (the game's own options model checks them) and
    `seats` in play order. `sit`: the seat the opener takes at once (None: none, e.g. a table
    of bots to watch). A `private` table is listed but needs its invite code to join or
    watch; the code is sent only to the opener (`Opened.code`)."""

    type: Literal["open_table"] = "open_table"
    game: str = Field(max_length=32)
    options: dict[str, JsonValue] = Field(default_factory=dict)
    seats: list[SeatSpec] = Field(min_length=1, max_length=MAX_SEATS)
    sit: SeatIndex | None = 0
    private: bool = False


class Join(Request):
    """Take a seat to play: `seat` (None: the first free seat for a person). `code`: a private
    table's invite code. `token`: the seat's secret, given when it was first taken, which gets
    a seat back after a lost connection (the only proof a guest has)."""

    type: Literal["join"] = "join"
    table: TableId
    seat: SeatIndex | None = None
    code: InviteCode | None = None
    token: str | None = Field(None, max_length=64)


class Watch(Request):
    """Watch a table without a seat: see everything, act on nothing."""

    type: Literal["watch"] = "watch"
    table: TableId
    code: InviteCode | None = None


class Act(Request):
    """A decision for `seat`: the action as the game's rules read it
    (`{"kind": "fill", "box": "ones"}`). Only the seat's owner may act for it."""

    type: Literal["act"] = "act"
    table: TableId
    seat: SeatIndex
    action: dict[str, JsonValue]


class Chat(Request):
    """A line of chat at a table: plain text, one line, at most MAX_CHAT_CHARS characters."""

    type: Literal["chat"] = "chat"
    table: TableId
    text: str = Field(min_length=1, max_length=MAX_CHAT_CHARS)


class Leave(Request):
    type: Literal["leave"] = "leave"
    table: TableId


class CloseTable(Request):
    """Close a table (its opener, or the account that runs the server)."""

    type: Literal["close_table"] = "close_table"
    table: TableId


class HandToBot(Request):
    """The host hands the seat of a person who is away to a bot at once (without waiting for
    the hold to run out)."""

    type: Literal["hand_to_bot"] = "hand_to_bot"
    table: TableId
    seat: SeatIndex


class ProposeUndo(Request):
    """Take back my last decision (before any dice were thrown since): every other person at
    the table must agree (`AnswerUndo`); any refusal, or no answer in time, cancels it."""

    type: Literal["propose_undo"] = "propose_undo"
    table: TableId


class AnswerUndo(Request):
    type: Literal["answer_undo"] = "answer_undo"
    table: TableId
    accept: bool


class Rematch(Request):
    """A game that is over is played again: a new table (a new id) with the same seats, the
    same people and bots, the same options. The asker sits at once (the answer is a `Joined`
    for the new table); everyone at the old table is told (`RematchOpened`) and takes their
    seat with a `Join` (their own seat, by user or token). It starts when every person is
    back. A second request joins the same rematch."""

    type: Literal["rematch"] = "rematch"
    table: TableId


class Ping(Request):
    """Keeps an idle connection open (the server closes one silent for too long)."""

    type: Literal["ping"] = "ping"


ClientMessage = Annotated[
    Hello
    | ListTables
    | OpenTable
    | Join
    | Watch
    | Act
    | Chat
    | Leave
    | CloseTable
    | HandToBot
    | ProposeUndo
    | AnswerUndo
    | Rematch
    | Ping,
    Field(discriminator="type"),
]
CLIENT_MESSAGES: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


# -- server to client ------------------------------------------------------------------------
class Limits(Message):
    """What the server allows one connection, told in its welcome."""

    max_message_bytes: int
    max_chat_chars: int
    messages_per_second: float
    burst: int
    idle_timeout: float


class Welcome(Message):
    type: Literal["welcome"] = "welcome"
    ref: Ref | None = None
    version: int = PROTOCOL_VERSION
    server: str
    """The version of Cubilete the server runs."""
    user: str
    """Who the server takes you for (your Unix user, the front end's user, or your guest name)."""
    identity: Literal["unix", "user", "guest"]
    limits: Limits


ErrorCode = Literal[
    "version",
    "hello_first",
    "auth",
    "malformed",
    "too_long",
    "too_fast",
    "too_many_errors",
    "idle",
    "full",
    "shutdown",
    "no_table",
    "private",
    "bad_setup",
    "seat_taken",
    "not_your_seat",
    "spectator",
    "not_at_table",
    "already_at_table",
    "not_started",
    "over",
    "illegal",
    "chat",
    "not_host",
    "not_away",
    "undo",
    "rematch",
]


class Error(Message):
    """A refusal: what was asked changed nothing. `fatal`: the server closes the connection
    after this message."""

    type: Literal["error"] = "error"
    ref: Ref | None = None
    code: ErrorCode
    words: Words
    fatal: bool = False


class SeatEntry(Message):
    name: str | None
    """Who sits there (None: a free seat for a person)."""
    kind: SeatKind
    connected: bool
    """A person's connection is open (a bot is always connected)."""


class TableEntry(Message):
    id: str
    game: str
    host: str
    """Who opened it."""
    private: bool
    seats: list[SeatEntry]
    status: Status
    spectators: int
    events: int
    """The number of events in the table's game record so far (0 until the game starts)."""
    options: dict[str, JsonValue] = Field(default_factory=dict)
    """The game's options, as its options model checked them (JSON): with `game` and the
    seats' names they make the game's start state."""


class Tables(Message):
    type: Literal["tables"] = "tables"
    ref: Ref | None = None
    tables: list[TableEntry]


class Opened(Message):
    """The table is open. `code`: a private table's invite code, for the opener to pass on.
    If the opener sat down (`OpenTable.sit`), `seat`, `token` and `seq` are as in `Joined`."""

    type: Literal["opened"] = "opened"
    ref: Ref | None = None
    table: TableEntry
    code: str | None = None
    seat: int | None = None
    token: str | None = None
    seq: int = 0


class Joined(Message):
    """You sit at `seat` (None: you watch). `token` gets the seat back after a lost
    connection: keep it. `seq`: the number of the table's last event so far."""

    type: Literal["joined"] = "joined"
    ref: Ref | None = None
    table: TableEntry
    seat: int | None
    token: str | None = None
    seq: int


class Left(Message):
    type: Literal["left"] = "left"
    ref: Ref | None = None
    table: str


class Pong(Message):
    type: Literal["pong"] = "pong"
    ref: Ref | None = None


class Done(Message):
    """A request that needs no other answer was carried out (a chat line sent, a table
    closed)."""

    type: Literal["done"] = "done"
    ref: Ref | None = None


# -- a table's events ------------------------------------------------------------------------
class Seated(Message):
    kind: Literal["seated"] = "seated"
    seat: int
    name: str


class Unseated(Message):
    """A person left a table that had not started: the seat is free again."""

    kind: Literal["unseated"] = "unseated"
    seat: int


class Away(Message):
    """A seated person's connection closed: the seat stays theirs for `seconds` (the hold),
    then a bot plays it (`HandedToBot`)."""

    kind: Literal["away"] = "away"
    seat: int
    seconds: float = 0.0


class Back(Message):
    kind: Literal["back"] = "back"
    seat: int


class HandedToBot(Message):
    """A person's seat is a bot's from now on (the hold ran out, or the host handed it)."""

    kind: Literal["handed_to_bot"] = "handed_to_bot"
    seat: int
    bot: SeatKind


class UndoProposed(Message):
    """`seat` asks to take back its last decision: every other person has `seconds` to
    answer (`AnswerUndo`)."""

    kind: Literal["undo_proposed"] = "undo_proposed"
    seat: int
    seconds: float


class UndoAnswered(Message):
    kind: Literal["undo_answered"] = "undo_answered"
    seat: int
    accept: bool


class UndoSettled(Message):
    """The proposal is over: `done` (everyone agreed; the undo's own `GameEvent` follows),
    or cancelled (`words` say why: a refusal, no answer in time, the table moved on)."""

    kind: Literal["undo_settled"] = "undo_settled"
    seat: int
    done: bool
    words: Words | None = None


class RematchOpened(Message):
    """The game is played again at table `table`: take your seat there with a `Join`."""

    kind: Literal["rematch"] = "rematch"
    table: str


class Spectators(Message):
    kind: Literal["spectators"] = "spectators"
    count: int


class ChatLine(Message):
    """A chat line: `seat` None for a spectator. Show `text` as plain text, never markup."""

    kind: Literal["chat"] = "chat"
    seat: int | None
    name: str
    text: str


class StatusChanged(Message):
    kind: Literal["status"] = "status"
    status: Status


class TableClosed(Message):
    kind: Literal["closed"] = "closed"
    words: Words
    kept: bool = False
    """The table's game is kept and goes on (the server stops, or another server of the
    database took the table over): its people join it again at a server that plays it."""


class GameEvent(Message):
    """An event of the table's game record (`app.records.events.Event` as its list form
    `[seq, kind, seat, data]`), with what the table talk says about it."""

    kind: Literal["game"] = "game"
    record: tuple[int, Literal["action", "chance", "undo"], int | None, JsonValue]
    said: list[Words] = Field(default_factory=list)


EventBody = Annotated[
    Seated
    | Unseated
    | Away
    | Back
    | HandedToBot
    | UndoProposed
    | UndoAnswered
    | UndoSettled
    | RematchOpened
    | Spectators
    | ChatLine
    | StatusChanged
    | TableClosed
    | GameEvent,
    Field(discriminator="kind"),
]


class TableEvent(Message):
    type: Literal["event"] = "event"
    table: str
    seq: int
    body: EventBody


ServerMessage = Annotated[
    Welcome | Error | Tables | Opened | Joined | Left | Pong | Done | TableEvent,
    Field(discriminator="type"),
]
SERVER_MESSAGES: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)


# -- framing ---------------------------------------------------------------------------------
class ProtocolError(ValueError):
    """A line that is not a message this side accepts. `code` and `words` make the refusal."""

    def __init__(self, code: ErrorCode, words: Text) -> None:
        super().__init__(str(words))
        self.code: ErrorCode = code
        self.words = words


def encode(message: Message) -> bytes:
    """One message as its line: compact JSON and a newline."""
    return message.model_dump_json().encode() + b"\n"


def decode_client(line: bytes) -> ClientMessage:
    """A client's line as a message (its newline removed or not). ProtocolError if it is not
    one: not JSON, not an object, an unknown type, a field missing or out of bounds."""
    try:
        return CLIENT_MESSAGES.validate_json(line)
    except ValidationError as error:
        raise ProtocolError("malformed", _what_is_wrong(error)) from None


def decode_server(line: bytes) -> ServerMessage:
    try:
        return SERVER_MESSAGES.validate_json(line)
    except ValidationError as error:
        raise ProtocolError("malformed", _what_is_wrong(error)) from None


def _what_is_wrong(error: ValidationError) -> Text:

    first = error.errors()[0]
    if first["type"] in ("json_invalid", "json_type", "dict_type", "model_type"):
        return Text(N_("a message must be one JSON object per line"))
    if first["type"] == "union_tag_not_found":
        return Text(N_("a message needs a type"))
    if first["type"] == "union_tag_invalid":
        return Text(N_("unknown message type"))
    where = ".".join(str(part) for part in first["loc"][1:])
    if first["type"] == "missing":
        return Text(N_("the message lacks its {field}"), {"field": where[:60]})
    if first["type"] == "extra_forbidden":
        return Text(N_("the message has an unknown field {field}"), {"field": where[:60]})
    return Text(N_("the message's {field} is not valid"), {"field": where[:60]})


def version_of_hello(line: bytes) -> tuple[int, int | None] | None:
    """The protocol version a first line claims, and its ref, read before the rest is
    checked, so that a client of another version is told so rather than that its hello is
    malformed. None: the line is not a hello with a whole-number version."""
    import json

    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("type") != "hello":
        return None
    version, ref = data.get("version"), data.get("ref")
    if isinstance(version, bool) or not isinstance(version, int):
        return None
    if isinstance(ref, bool) or not isinstance(ref, int) or not 0 <= ref <= 2**53:
        ref = None
    return version, ref


def ref_of(line: bytes) -> int | None:
    """The `ref` of a line that is a JSON object with a whole-number ref (None otherwise),
    read without checking the rest."""
    import json

    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        return None
    ref = data.get("ref") if isinstance(data, dict) else None
    if isinstance(ref, bool) or not isinstance(ref, int) or not 0 <= ref <= 2**53:
        return None
    return ref


REF_HEAD = 512
"""Bytes kept of the start of a line too long to read, to find its `ref` in."""
REF_TAIL = 64
"""Bytes kept of its end, for a `ref` written last."""
_REF_AT_END = re.compile(rb'[{,]\s*"ref"\s*:\s*(\d{1,16})\s*}\s*$')


def ref_of_cut(head: bytes, tail: bytes) -> int | None:
    """The `ref` of a line too long to read whole, from what was kept of it: its first bytes
    (a JSON object whose members are read in order until one is cut off), else its last
    bytes (`..., "ref": 5}`). None if neither says it. (A line that lies about its ref only
    mislabels its own refusal.)"""
    import json

    decoder = json.JSONDecoder()
    text = head.decode("utf-8", errors="replace")

    def skip(at: int) -> int:
        while at < len(text) and text[at] in " \t\r\n":
            at += 1
        return at

    try:
        at = skip(0)
        if text[at] != "{":
            return None
        at += 1
        while True:
            key, at = decoder.raw_decode(text, skip(at))
            at = skip(at)
            if not isinstance(key, str) or text[at] != ":":
                break
            value, at = decoder.raw_decode(text, skip(at + 1))
            at = skip(at)
            if at >= len(text):  # (the value may go on past what was kept)
                break
            if key == "ref":
                return _whole_ref(value)
            if text[at] != ",":
                break
            at += 1
    except (ValueError, IndexError, RecursionError):
        pass
    found = _REF_AT_END.search(tail)
    return _whole_ref(int(found.group(1))) if found else None


def _whole_ref(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 2**53:
        return None
    return value


class TooLong:
    """What `LineSplitter.feed` yields in place of a line longer than its limit: its size,
    and its `ref` if what was kept of it says it."""

    __slots__ = ("ref", "size")

    def __init__(self, size: int, ref: int | None = None) -> None:
        self.size = size
        self.ref = ref

    def __repr__(self) -> str:
        return f"TooLong({self.size}, ref={self.ref})"


class LineSplitter:
    """Cuts a byte stream into lines of at most `limit` bytes (the newline included), never
    holding more than `limit` bytes: the rest of a longer line is skipped as it arrives, and
    yields one `TooLong` when its newline comes."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._buffer = bytearray()
        self._skipping = 0
        """Bytes of an over-long line skipped so far (0: not skipping)."""
        self._head = b""
        self._tail = b""
        """The first and the last bytes of the over-long line being skipped (its ref)."""

    def feed(self, data: bytes) -> Iterator[bytes | TooLong]:
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            if self._skipping:
                if end < 0:
                    self._skipping += len(data) - start
                    self._tail = (self._tail + data[max(start, len(data) - REF_TAIL) :])[-REF_TAIL:]
                    return
                size = self._skipping + end + 1 - start
                tail = (self._tail + data[max(start, end - REF_TAIL) : end])[-REF_TAIL:]
                self._skipping = 0
                start = end + 1
                yield TooLong(size, ref_of_cut(self._head, tail))
                continue
            if end < 0:
                self._buffer += data[start:]
                if len(self._buffer) >= self.limit:  # no room left for the newline
                    self._skipping = len(self._buffer)
                    self._head = bytes(self._buffer[:REF_HEAD])
                    self._tail = bytes(self._buffer[-REF_TAIL:])
                    self._buffer.clear()
                return
            if len(self._buffer) + end + 1 - start > self.limit:
                size = len(self._buffer) + end + 1 - start
                head = (bytes(self._buffer[:REF_HEAD]) + data[start : start + REF_HEAD])[:REF_HEAD]
                tail = (bytes(self._buffer[-REF_TAIL:]) + data[start:end])[-REF_TAIL:]
                self._buffer.clear()
                start = end + 1
                yield TooLong(size, ref_of_cut(head, tail))
                continue
            line = bytes(self._buffer) + data[start:end]
            self._buffer.clear()
            start = end + 1
            yield line

    @property
    def pending(self) -> int:
        """Bytes held or skipped of a line not yet ended."""
        return len(self._buffer) + self._skipping


class EventCounter:
    """A client's check of a table's event numbers: each must be the last one + 1."""

    def __init__(self, last: int) -> None:
        self.last = last

    def check(self, seq: int) -> Literal["ok", "lost", "duplicate"]:
        if seq == self.last + 1:
            self.last = seq
            return "ok"
        if seq <= self.last:
            return "duplicate"
        self.last = seq
        return "lost"
