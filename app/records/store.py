"""The one interface every store of records implements (SQLite now, PostgreSQL later).

A store keeps records (`events.Record`): it creates them, appends events to them, loads them,
lists them, and answers the statistics. It knows nothing of the rules: whether an event is
legal is the table's business (and a replay's). Two guarantees matter to every caller:

- `append` takes the events with their numbers: the first must follow the last one stored,
  or the store refuses with `RecordConflict` and writes nothing. A writer that has fallen
  behind (another window, another server played on) learns it and never forks the record.
- Every call is all or nothing: an error leaves the store as it was.

Errors are `StoreError`s whose message is one line a player can read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from rules import game_name

from ..i18n import _
from .events import Event, Header, Outcome, Record, SeatInfo, Status


class StoreError(Exception):
    """The store could not do what was asked; nothing was changed."""


class RecordConflict(StoreError):
    """The record has moved on (or ended) since the writer last saw it."""


class RecordNotFound(StoreError):
    pass


class StoreFull(StoreError):
    """The disk (or the file system's quota) is full."""


class StoreReadOnly(StoreError):
    """The store cannot be written: a read-only data dir, or no permission."""


class StoreBusy(StoreError):
    """Another process held the store locked for longer than the busy timeout."""


class StoreDamaged(StoreError):
    """The store's file is not a database, or fails its integrity check."""


class StoreTooNew(StoreError):
    """The store was written by a newer Cubilete, with a schema this one does not know."""


class RecordSummary(NamedTuple):
    """A record as a list shows it (no events): the lobby's unfinished games, the history."""

    record_id: str
    game_id: str
    seats: tuple[SeatInfo, ...]
    created: float
    updated: float
    status: Status
    events: int
    """How many events the record has."""
    outcome: Outcome | None

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)

    @property
    def over(self) -> bool:
        return self.status == "over"

    def summary(self) -> str:
        return _("{game} with {players}").format(
            game=game_name(self.game_id), players=", ".join(self.players)
        )


class Cursor(NamedTuple):
    """Where a page of history ends: the next page starts after it."""

    updated_ms: int
    key: int


class HistoryPage(NamedTuple):
    items: list[RecordSummary]
    next: Cursor | None
    """None on the last page."""


class PlayerStats(NamedTuple):
    """One player's finished games of one game (bots are players too)."""

    name: str
    kind: str
    game_id: str
    games: int
    wins: int
    average_score: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


class OptionsCount(NamedTuple):
    """How many finished games of one game a player (name and kind) played with one set of
    options (None: options that cannot be read)."""

    name: str
    kind: str
    options: Mapping[str, Any] | None
    games: int


class ScoreCount(NamedTuple):
    score: int
    games: int


class ReviewRow(NamedTuple):
    """The coach's reviews of one seat's decisions of one kind in one record, summed up.

    `unit` is what the losses measure (`bots.Unit`): losses of different units are never
    added together."""

    seat: int
    unit: str
    kind: str
    decisions: int
    loss: float
    """The sum of the losses."""
    mistakes: int
    """Decisions rated mistake or blunder."""
    worst_loss: float
    worst_seq: int


class LossPoint(NamedTuple):
    """A player's average loss per decision in one finished game, for a plot over time."""

    record_id: str
    ended: float
    unit: str
    decisions: int
    average_loss: float


class MistakeKind(NamedTuple):
    """What one kind of decision cost a player over many games."""

    unit: str
    kind: str
    decisions: int
    mistakes: int
    total_loss: float
    worst_loss: float

    @property
    def average_loss(self) -> float:
        return self.total_loss / self.decisions if self.decisions else 0.0


class RecordStore(Protocol):
    # -- writing ----------------------------------------------------------------------------
    def create(
        self, header: Header, events: Sequence[Event] = (), outcome: Outcome | None = None
    ) -> None:
        """A new record with its first events, in one transaction. RecordConflict if a
        record of that id exists."""

    def append(
        self, record_id: str, events: Sequence[Event], outcome: Outcome | None = None
    ) -> None:
        """Add events (numbered from the record's last + 1) in one transaction; with an
        `outcome`, the game is over: the record is closed with its final scores in the same
        transaction. RecordConflict if the numbers do not follow on or the record is closed;
        RecordNotFound if there is no such record."""

    def abandon(self, record_id: str) -> None:
        """Close an unfinished record without an outcome (it is kept, listed no more)."""

    # -- reading ----------------------------------------------------------------------------
    def load(self, record_id: str) -> Record:
        """The whole record. RecordNotFound, or RecordError if it is damaged."""

    def events_after(self, record_id: str, seq: int) -> list[Event]:
        """The record's events numbered after `seq`, in order (those another writer appended
        since a reader saw the `seq`th). RecordNotFound, or RecordError if damaged."""

    def unfinished(self, limit: int = 100) -> list[RecordSummary]:
        """Records still being played, the last played first."""

    def history(
        self,
        *,
        game_id: str | None = None,
        player: str | None = None,
        limit: int = 50,
        after: Cursor | None = None,
    ) -> HistoryPage:
        """Finished games, the newest first, filtered by game and by a player's name; pages
        of `limit`, the next one starting `after` the cursor of the one before."""

    def count_finished(self, *, game_id: str | None = None, player: str | None = None) -> int: ...

    def players(self, game_id: str | None = None) -> list[tuple[str, str, int]]:
        """Everyone with a finished game (of that game): (name, kind, games), most games
        first."""

    # -- statistics -------------------------------------------------------------------------
    def player_stats(
        self, *, game_id: str | None = None, player: str | None = None
    ) -> list[PlayerStats]:
        """Games, wins and average score per player (name and kind) and game."""

    def score_distribution(self, *, game_id: str, player: str) -> list[ScoreCount]:
        """How often the player finished a game with each score, lowest score first."""

    def games_by_options(self, *, game_id: str, player: str | None = None) -> list[OptionsCount]:
        """How many finished games of `game_id` each player played with each set of options
        (for the expert's expected score, which may depend on them)."""

    def unreviewed(self, version: int, limit: int = 100) -> list[str]:
        """Finished records without the coach's reviews of this `version`, newest first."""

    def save_reviews(self, record_id: str, version: int, rows: Sequence[ReviewRow]) -> None:
        """Replace the record's cached reviews (computed from the record by
        `records.reviews`)."""

    def loss_over_time(self, *, player: str, game_id: str | None = None) -> list[LossPoint]:
        """The player's average loss per decision in each reviewed finished game, oldest
        first, one point per game and unit."""

    def costliest_mistakes(
        self, *, player: str, game_id: str | None = None, limit: int = 10
    ) -> list[MistakeKind]:
        """The kinds of decision that cost the player most in all: for each unit (losses of
        different units are not comparable), the `limit` costliest, costliest first."""

    def close(self) -> None: ...
