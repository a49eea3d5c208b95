"""What a record is made of: a header and numbered events. Plain data, no pydantic, no rules.

A record is the truth about one game. Its header says how the game began (the game, its
options, the seats, or a snapshot state to start from), and its events say everything that
happened since, numbered 1, 2, 3... in order:

- `action`: a seat's decision; `data` is the action as JSON (`{"kind": "fill", "box": "ones"}`).
- `chance`: the faces of a throw, in the order of the dice thrown (`[3, 3, 3, 4, 5]`); `seat`
  is who threw (None for a throw nobody owns).
- `undo`: a seat takes back its last decision (and anything after it, which is never a throw);
  `data` is `{"to": N}`: the game goes back to the state before event N.

No rendered text is kept: the narration and the coach's reviews are recomputed from the record.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NamedTuple, cast, get_args

from rules.errors import N_, Text

EventKind = Literal["action", "chance", "undo"]
EVENT_KINDS: tuple[EventKind, ...] = get_args(EventKind)
Status = Literal["playing", "over", "abandoned"]
STATUSES: tuple[Status, ...] = get_args(Status)

FORMAT = "cubilete-record"
FORMAT_VERSION = 1
"""The JSON form of a record (`Record.to_json`): its name and version."""


class RecordError(ValueError):
    """A record (or a part of one) that is not well formed or does not replay. The message
    is one line a player can read: `text`, a message (`rules.Text`: a marked template and its
    values) that `str()` renders in the reader's language (`app.i18n.render`)."""

    def __init__(self, template: str, **params: Any) -> None:
        self.text = Text(template, params)
        super().__init__(str(self.text))  # (English: for tracebacks and logs)

    def __str__(self) -> str:
        from ..i18n import render

        return render(self.text)

    def __reduce__(self) -> tuple[Any, ...]:  # (a copy, or a pickle: its message, not args)
        return (_record_error, (type(self), self.text))


def _record_error(cls: type[RecordError], text: Text) -> RecordError:
    template = text.template
    assert isinstance(template, str)
    return cls(template, **text.params)


class Event(NamedTuple):
    seq: int
    kind: EventKind
    seat: int | None
    data: Any
    """JSON: the action (a dict), the faces (a list of ints), or `{"to": seq}` for an undo."""

    def data_json(self) -> str:
        return dumps(self.data)

    def to_list(self) -> list[Any]:
        return [self.seq, self.kind, self.seat, self.data]

    @classmethod
    def from_list(cls, item: Any) -> Event:
        """An event from its JSON form `[seq, kind, seat, data]`; RecordError if it is not one."""
        if not isinstance(item, list) or len(item) != 4:
            raise RecordError(
                N_("an event is [seq, kind, seat, data], not {value}"), value=_short(item)
            )
        seq, kind, seat, data = item
        return check_event(Event(seq, kind, seat, data))


def check_event(event: Event) -> Event:
    """The event, if its fields have the right types and shapes (not whether it is legal:
    that takes a replay)."""
    seq, kind, seat, data = event
    if not _is_int(seq) or seq < 1:
        raise RecordError(
            N_("an event's number is a positive integer, not {value}"), value=_short(seq)
        )
    if kind not in EVENT_KINDS:
        raise RecordError(N_("event {seq}: no event kind {kind}"), seq=seq, kind=_short(kind))
    if seat is not None and (not _is_int(seat) or seat < 0):
        raise RecordError(
            N_("event {seq}: a seat is a number from 0, not {value}"), seq=seq, value=_short(seat)
        )
    if kind == "action" and not (isinstance(data, dict) and isinstance(data.get("kind"), str)):
        raise RecordError(
            N_("event {seq}: an action is an object with a kind, not {value}"),
            seq=seq,
            value=_short(data),
        )
    if kind == "chance" and not (
        isinstance(data, list) and all(_is_int(face) and 1 <= face <= 6 for face in data)
    ):
        raise RecordError(
            N_("event {seq}: a throw is a list of faces 1 to 6, not {value}"),
            seq=seq,
            value=_short(data),
        )
    if kind == "undo" and not (
        isinstance(data, dict) and set(data) == {"to"} and _is_int(data["to"]) and data["to"] >= 1
    ):
        raise RecordError(
            N_("event {seq}: an undo is {undo}, not {value}"),
            seq=seq,
            undo='{"to": N}',
            value=_short(data),
        )
    if kind in ("action", "undo") and seat is None:
        raise RecordError(
            N_("event {seq}: a decision or an undo needs the seat that took it"), seq=seq
        )
    return event


def check_sequence(events: Sequence[Event], first: int = 1) -> None:
    """The events are numbered `first`, `first + 1`, ... with no gap."""
    for expected, event in enumerate(events, first):
        if event.seq != expected:
            raise RecordError(
                N_("event {seq} is missing (found {found} in its place)"),
                seq=expected,
                found=event.seq,
            )


class SeatInfo(NamedTuple):
    name: str
    kind: str
    """"human", or a bot's level ("easy", "medium", "expert")."""

    @property
    def bot(self) -> bool:
        return self.kind != "human"


class Outcome(NamedTuple):
    """How a game ended: each seat's final score, and the winning seats (a tie is shared)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


class Header(NamedTuple):
    """Everything about a record but its events.

    A record starts either from a new game (`start` is None: the rules' `new_game` with these
    seats' names and `options`) or from a snapshot of a state (`start`, the state as JSON):
    that is how a game saved by an older version, which kept no events, becomes a record.
    Its events then go on from that state.
    """

    record_id: str
    game_id: str
    options: Mapping[str, Any]
    seats: tuple[SeatInfo, ...]
    created: float
    """Unix time, seconds."""
    updated: float
    app_version: str
    start: Mapping[str, Any] | None = None
    status: Status = "playing"
    outcome: Outcome | None = None
    """Set when the game is over."""

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)

    def to_dict(self) -> dict[str, Any]:
        return {
            "record_id": self.record_id,
            "game": self.game_id,
            "options": dict(self.options),
            "seats": [{"name": s.name, "kind": s.kind} for s in self.seats],
            "created": self.created,
            "updated": self.updated,
            "app_version": self.app_version,
            "start": None if self.start is None else dict(self.start),
            "status": self.status,
            "outcome": None
            if self.outcome is None
            else {"scores": list(self.outcome.scores), "winners": list(self.outcome.winners)},
        }

    @classmethod
    def from_dict(cls, data: Any) -> Header:
        """A header from its JSON form; RecordError names what is wrong."""
        if not isinstance(data, dict):
            raise RecordError(N_("a record's header is an object"))
        try:
            seats = tuple(SeatInfo(str(s["name"]), str(s["kind"])) for s in data["seats"])
            outcome = data.get("outcome")
            header = cls(
                record_id=_text(data["record_id"], "record_id"),
                game_id=_text(data["game"], "game"),
                options=_object(data.get("options", {}), "options"),
                seats=seats,
                created=_number(data["created"], "created"),
                updated=_number(data["updated"], "updated"),
                app_version=_text(data.get("app_version", ""), "app_version"),
                start=None if data.get("start") is None else _object(data["start"], "start"),
                status=cast(Status, data.get("status", "playing")),
                outcome=None
                if outcome is None
                else Outcome(
                    tuple(_int(s, "score") for s in outcome["scores"]),
                    tuple(_int(s, "winner") for s in outcome["winners"]),
                ),
            )
        except (KeyError, TypeError) as error:
            raise RecordError(N_("a record's header lacks {field}"), field=str(error)) from None
        if header.status not in STATUSES:
            raise RecordError(N_("no record status {value}"), value=_short(header.status))
        if not seats:
            raise RecordError(N_("a record needs at least one seat"))
        return header


class Record(NamedTuple):
    header: Header
    events: tuple[Event, ...]

    @property
    def record_id(self) -> str:
        return self.header.record_id

    @property
    def last_seq(self) -> int:
        return self.events[-1].seq if self.events else 0

    def to_json(self) -> str:
        """The record as one JSON document (for export; `from_json` reads it back)."""
        return dumps(
            {
                "format": FORMAT,
                "version": FORMAT_VERSION,
                "header": self.header.to_dict(),
                "events": [event.to_list() for event in self.events],
            }
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> Record:
        """A record from `to_json`'s form, checked for shape (a replay checks the rest)."""
        try:
            data = json.loads(text)
        except ValueError as error:
            raise RecordError(N_("not JSON ({reason})"), reason=str(error)) from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(N_("not a Cubilete record"))
        if data.get("version") != FORMAT_VERSION:
            raise RecordError(
                N_("a record of version {version}; this version reads {readable}"),
                version=_short(data.get("version")),
                readable=FORMAT_VERSION,
            )
        if not isinstance(data.get("events"), list):
            raise RecordError(N_("a record's events are a list"))
        events = tuple(Event.from_list(item) for item in data["events"])
        check_sequence(events)
        return cls(Header.from_dict(data.get("header")), events)


def dumps(value: Any) -> str:
    """Compact JSON, as stored."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def pack_events(events: Sequence[Event]) -> str:
    return dumps([event.to_list() for event in events])


def unpack_events(text: str | bytes) -> tuple[Event, ...]:
    try:
        items = json.loads(text)
    except ValueError as error:
        raise RecordError(N_("damaged events ({reason})"), reason=str(error)) from None
    if not isinstance(items, list):
        raise RecordError(N_("damaged events (not a list)"))
    return tuple(Event.from_list(item) for item in items)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str) or not value:
        raise RecordError(
            N_("a record's {name} is a text, not {value}"), name=name, value=_short(value)
        )
    return value


def _number(value: Any, name: str) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        raise RecordError(
            N_("a record's {name} is a number, not {value}"), name=name, value=_short(value)
        )
    return float(value)


def _int(value: Any, name: str) -> int:
    if not _is_int(value):
        raise RecordError(N_("a {name} is an integer, not {value}"), name=name, value=_short(value))
    return int(value)


def _object(value: Any, name: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(
            N_("a record's {name} is an object, not {value}"), name=name, value=_short(value)
        )
    return value


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
