"""How a table's events reach a store: as they happen, and never at the cost of the game.

The table hands its recorder every new piece of the record (the header and the roll-off when
a game starts; then each action with the throws it caused). A `StoreRecorder` writes each
piece in one transaction. When that fails (a full disk, a locked database), play goes on: the
events wait in memory and go with a later write, so the record catches up when the store
works again; the caller is told once per outage (`on_problem`). While the store fails, a write
is tried again at most every `RETRY_AFTER` seconds (a locked database costs its busy timeout
at each try: the game must not stall at every move). When the store says the record
moved on elsewhere (`RecordConflict`: the same game played on in another window), the
recorder stops writing that record rather than fork it, and says so.

A record that several servers append to (one PostgreSQL database) has a `StrictRecorder`
instead: nothing waits in memory; a change is written before the table makes it, or refused.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Protocol

from .events import Event, Header, Outcome
from .store import RecordConflict, RecordNotFound, RecordStore, StoreError


class Recorder(Protocol):
    writes_first: bool
    """True: the table hands over each change before making it, and a StoreError the
    recorder raises leaves the table as it was (`StrictRecorder`); False: after."""

    def created(self, header: Header, events: Sequence[Event], outcome: Outcome | None) -> None:
        """A new record: its header and its first events."""

    def appended(self, header: Header, events: Sequence[Event], outcome: Outcome | None) -> None:
        """More events of the record; `outcome` once the game is over."""

    def retry(self) -> bool:
        """Write whatever could not be written before; True if nothing is left waiting."""


RETRY_AFTER = 10.0
"""Seconds between tries while the store fails."""


class StoreRecorder:
    writes_first = False

    def __init__(
        self,
        store: RecordStore,
        on_problem: Callable[[StoreError], None] | None = None,
        retry_after: float = RETRY_AFTER,
    ) -> None:
        self.store = store
        self.on_problem = on_problem
        self.retry_after = retry_after
        self._next_try = 0.0
        self.problem: StoreError | None = None
        """Why the last write failed (None: the store has every event)."""
        self.stopped = False
        """The record moved on elsewhere: nothing more is written."""
        self._header: Header | None = None
        self._must_create = False
        self._waiting: list[Event] = []
        self._outcome: Outcome | None = None

    @property
    def unsaved(self) -> int:
        """Events not in the store yet."""
        return len(self._waiting)

    def created(self, header: Header, events: Sequence[Event], outcome: Outcome | None) -> None:
        self._header, self._must_create = header, True
        self._add(header, events, outcome)

    def appended(self, header: Header, events: Sequence[Event], outcome: Outcome | None) -> None:
        self._add(header, events, outcome)

    def retry(self) -> bool:
        """Write what is waiting now (however recent the last try); True if the store has
        everything."""
        if self._header is not None and not self.stopped and (self._waiting or self.problem):
            self._write(self._header)
        return self.problem is None and not self._waiting

    def _add(self, header: Header, events: Sequence[Event], outcome: Outcome | None) -> None:
        self._header = header
        self._waiting.extend(events)
        self._outcome = outcome
        if not self.stopped and time.monotonic() >= self._next_try:
            self._write(header)

    def _write(self, header: Header) -> None:
        try:
            if self._must_create:
                self.store.create(header, self._waiting, self._outcome)
                self._must_create = False
            else:
                self.store.append(header.record_id, self._waiting, self._outcome)
        except (RecordConflict, RecordNotFound) as error:
            self.stopped = True
            self._report(error)
            return
        except StoreError as error:
            if self.problem is None or type(self.problem) is not type(error):
                self._report(error)
            self.problem = error
            self._next_try = time.monotonic() + self.retry_after
            return
        self._waiting = []
        self.problem = None

    def _report(self, error: StoreError) -> None:
        self.problem = error
        if self.on_problem is not None:
            self.on_problem(error)


class LateRecorder:
    """A new game's recorder that opens the records only once the game is on the screen.

    Opening the records of a new player creates the database (the file, its schema, the
    write-ahead log) — at F2 that was ≈ 10 ms of CPU and the `sqlite3` import before the game's
    first frame (docs/performance.md, "Sixth pass"). This recorder keeps the game's beginning
    (its header and the roll-off, all `created` hands over) in memory and begins the record —
    `begin()`: the store's recorder made by `make`, the beginning written in one transaction —
    when asked to (`retry`; the app asks once the game's first frame is painted) or with the
    game's next events, whichever comes first. The `RecordBook` that made it begins it before
    any read of the records and when it is closed (`RecordBook.begin_records`, which the app
    also calls as it ends), so a game left or quit before its first paint is recorded all the
    same, complete.
    """

    writes_first = False

    def __init__(self, make: Callable[[], Recorder | None]) -> None:
        self._make = make
        self._recorder: Recorder | None = None
        self._begun = False
        self._beginning: tuple[Header, tuple[Event, ...], Outcome | None] | None = None

    @property
    def begun(self) -> bool:
        return self._begun

    @property
    def recorder(self) -> Recorder | None:
        """The store's recorder once begun (None before, or when nothing can be saved)."""
        return self._recorder

    @property
    def problem(self) -> StoreError | None:
        """Why the last write failed, as the store's recorder says (None: not begun yet, or
        nothing failed)."""
        return getattr(self._recorder, "problem", None)

    def begin(self) -> Recorder | None:
        """Open the records and write the beginning kept so far (once)."""
        if not self._begun:
            self._begun = True
            self._recorder = self._make()
            beginning, self._beginning = self._beginning, None
            if self._recorder is not None and beginning is not None:
                self._recorder.created(*beginning)
        return self._recorder

    def created(self, header: Header, events: Sequence[Event], outcome: Outcome | None) -> None:
        if self._begun:
            if self._recorder is not None:
                self._recorder.created(header, events, outcome)
        else:
            self._beginning = (header, tuple(events), outcome)

    def appended(self, header: Header, events: Sequence[Event], outcome: Outcome | None) -> None:
        recorder = self.begin()
        if recorder is not None:
            recorder.appended(header, events, outcome)

    def retry(self) -> bool:
        """Begin the record if it was not yet; True if the store has everything (False when
        nothing can be saved)."""
        recorder = self.begin()
        return recorder is not None and recorder.retry()


class StrictRecorder:
    """Each change written before the table makes it, or not made at all: for a record that
    several servers may append to (one PostgreSQL database). A change the store refuses —
    `RecordConflict` when another writer took the number first, any other StoreError when the
    database cannot be reached — is raised to whoever made it, and the table stays as it
    was: the caller reads what the other writer appended and decides again (never a fork,
    never a change that exists only in memory)."""

    writes_first = True

    def __init__(self, store: RecordStore, tell: Callable[[str, int], None] | None = None) -> None:
        self.store = store
        self.tell = tell
        """Told (record id, last number) after each append: the server that holds the table,
        when another one appends to it (`PostgresStore.tell`)."""

    def created(self, header: Header, events: Sequence[Event], outcome: Outcome | None) -> None:
        self.store.create(header, events, outcome)

    def appended(self, header: Header, events: Sequence[Event], outcome: Outcome | None) -> None:
        self.store.append(header.record_id, events, outcome)
        if self.tell is not None and events:
            self.tell(header.record_id, events[-1].seq)

    def retry(self) -> bool:
        return True  # (nothing ever waits)
