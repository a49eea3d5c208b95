"""The table: the one place where actions are applied and dice are thrown.

Widgets post messages; the game screen hands the chosen action to the table; the table applies
it through `rules`, resolves any chance throw with its dice source, and writes what happened as
numbered events of the game's record (`app/records`): the decision, then the faces of every
throw it caused, handed to its `Recorder` in one piece (one transaction in the store). The
state is never saved: it is the record replayed. It imports nothing from Textual, so a remote
table can later stand in for this one.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from rules import N_, Event, Game, IllegalAction, Text, get_game
from rules.model import Frozen

from .dice import DiceSource, SystemDice
from .games import SeatKind
from .records import events as rec
from .records.version import app_version

if TYPE_CHECKING:
    from .records.recorder import Recorder
    from .records.replay import Step


class Seat(Frozen):
    """Who sits in a seat: a person, or a bot of a level (see `bots`)."""

    name: str
    kind: SeatKind = "human"

    @property
    def bot(self) -> bool:
        return self.kind != "human"


def new_header(
    game: Game[Any, Any, Any],
    seats: Sequence[Seat],
    state: Any,
    record_id: str | None = None,
    snapshot: bool = False,
) -> rec.Header:
    """The header of a new record of `state` (a new game's; with `snapshot`, the record
    starts from `state` itself)."""
    now = time.time()
    return rec.Header(
        record_id=record_id or uuid.uuid4().hex,
        game_id=game.id,
        options=state.options.model_dump(mode="json"),
        seats=tuple(rec.SeatInfo(seat.name, seat.kind) for seat in seats),
        created=now,
        updated=now,
        app_version=app_version(),
        start=state.model_dump(mode="json") if snapshot else None,
    )


class CannotUndo(IllegalAction):
    """A decision that cannot be taken back now; nothing changes."""


class Table:
    """A game being played: its seats, its state, its dice, its record so far.

    Build one with `Table.new` (a new game) or `Table.from_record` (a game to go on with). The
    plain constructor takes a state without history (an old save): its record then starts
    from that state.
    """

    def __init__(
        self,
        game: Game[Any, Any, Any],
        seats: Sequence[Seat],
        state: BaseModel,
        dice: DiceSource,
        log: Sequence[Text | str] = (),
        save_id: str | None = None,
        on_change: Callable[[Table], None] | None = None,
        *,
        header: rec.Header | None = None,
        events: Sequence[rec.Event] = (),
        recorder: Recorder | None = None,
    ) -> None:
        self.game = game
        self.seats = tuple(seats)
        self.state = state
        self.dice = dice
        self.log: list[Text | str] = list(log)
        """What happened, as messages (templates and values): each reader sees them in their
        own language. (Plain strings are lines of saves older than that.)"""
        self.on_change = on_change
        self.recorder = recorder
        """Where the events go as they happen (None: nowhere, e.g. in tests)."""
        if header is None:  # a state without history: the record starts from it
            header = new_header(game, self.seats, state, save_id, snapshot=True)
        self.header = header
        self.events: list[rec.Event] = list(events)
        """The record's events so far (undos and what they took back included)."""
        self._recorded = False
        """Whether the recorder has the header yet."""

    @classmethod
    def new(
        cls,
        game_id: str,
        seats: Sequence[Seat],
        options: BaseModel | Mapping[str, Any] | None = None,
        dice: DiceSource | None = None,
        on_change: Callable[[Table], None] | None = None,
        recorder: Recorder | None = None,
    ) -> Table:
        """Seat the players and play the opening roll-off. Raises InvalidOptions."""
        game = get_game(game_id)
        state = game.new_game([seat.name for seat in seats], options)
        header = new_header(game, seats, state)
        table = cls(
            game,
            seats,
            state,
            dice or SystemDice(),
            on_change=on_change,
            header=header,
            recorder=recorder,
        )
        state, lines, events = table._settle(state, [], [])
        table._commit(state, lines, events)
        return table

    @classmethod
    def from_record(
        cls,
        record: rec.Record,
        dice: DiceSource | None = None,
        on_change: Callable[[Table], None] | None = None,
        recorder: Recorder | None = None,
    ) -> Table:
        """The game of a record, replayed to its last event, with its table talk narrated
        afresh in the player's language. RecordError if the record does not replay."""
        from .records.replay import game_of, replay_with_log

        try:
            seats = [Seat.model_validate(seat._asdict()) for seat in record.header.seats]
        except ValidationError as error:
            reason = str(error).splitlines()[0]
            raise rec.RecordError(
                N_("the record's seats are not valid ({reason})"), reason=reason
            ) from None
        state, log = replay_with_log(record)
        table = cls(
            game_of(record.header),
            seats,
            state,
            dice or SystemDice(),
            log,
            on_change=on_change,
            header=record.header,
            events=record.events,
            recorder=recorder,
        )
        table._recorded = True
        return table

    @property
    def save_id(self) -> str:
        """The record's id (the name saves had before records)."""
        return self.header.record_id

    @property
    def record(self) -> rec.Record:
        return rec.Record(self.header, tuple(self.events))

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)

    @property
    def over(self) -> bool:
        return self.game.is_over(self.state)

    def current_player(self) -> int | None:
        return self.game.current_player(self.state)

    def act(self, action: BaseModel | Mapping[str, Any]) -> list[Text | str]:
        """Apply a player's action and throw whatever dice it calls for.

        Raises IllegalAction (or DiceExhausted with loaded dice) and then changes nothing.
        Returns the new lines of the event log.
        """
        before = self.state
        seat = self.current_player()
        parsed = self.game.parse_action(action)
        after = self.game.apply(before, parsed)
        lines = self._narrate(before, parsed, after)
        decision = rec.Event(self._next_seq(), "action", seat, parsed.model_dump(mode="json"))
        state, lines, events = self._settle(after, lines, [decision])
        return self._commit(state, lines, events)

    def check(self, action: BaseModel | Mapping[str, Any]) -> None:
        """Raise IllegalAction if `action` is not legal now; change nothing."""
        self.game.apply(self.state, action)

    # -- undo -----------------------------------------------------------------------------
    def undo_target(self) -> int | str:
        """The event an undo would go back to (the person's last decision), or why none can
        be taken back (an English message for `_`)."""
        from .records.replay import undo_target

        if self.over:
            return N_("The game is over")
        people = [i for i, seat in enumerate(self.seats) if not seat.bot]
        if len(people) > 1:
            return N_("Another person plays at this table: a decision stands once taken")
        target = undo_target(self.events, people)
        return target if isinstance(target, int) else target.reason

    def seat_undo_target(self, seat: int) -> int | str:
        """As `undo_target`, for `seat`'s last decision at a table of several people (who
        have agreed to it: a shared table asks them)."""
        from .records.replay import undo_target

        if self.over:
            return N_("The game is over")
        target = undo_target(self.events, [seat])
        return target if isinstance(target, int) else target.reason

    def can_undo(self) -> bool:
        return isinstance(self.undo_target(), int)

    def undo(self) -> list[Text | str]:
        """Take back the last decision of the person at the table (with any bot decisions
        after it), as long as no dice were thrown since. The undo is an event of its own, and
        the state is the record replayed with it. Raises CannotUndo (changing nothing).
        Returns the new lines of the event log."""
        return self._undo(self.undo_target())

    def undo_seat(self, seat: int) -> list[Text | str]:
        """As `undo`, for `seat`'s last decision (`seat_undo_target`)."""
        return self._undo(self.seat_undo_target(seat))

    def _undo(self, target: int | str) -> list[Text | str]:
        from .records.replay import narrate, steps

        if not isinstance(target, int):
            raise CannotUndo(target)
        event = rec.Event(self._next_seq(), "undo", self.events[target - 1].seat, {"to": target})
        *_, last = steps(rec.Record(self.header, (*self.events, event)))
        return self._commit(last.after, narrate(self.game, last, self.players), [event])

    # -- inside ---------------------------------------------------------------------------
    def _next_seq(self) -> int:
        return len(self.events) + 1

    def _settle(
        self, state: BaseModel, lines: list[Text | str], events: list[rec.Event]
    ) -> tuple[BaseModel, list[Text | str], list[rec.Event]]:
        while (pending := self.game.pending_throw(state)) is not None:
            faces = self.dice.roll(pending.count)
            after = self.game.apply_chance(state, faces)
            lines = lines + self._narrate(state, faces, after)
            seq = self._next_seq() + len(events)
            events = [*events, rec.Event(seq, "chance", pending.player, list(faces))]
            state = after
        return state, lines, events

    def _narrate(self, before: BaseModel, event: Event, after: BaseModel) -> list[Text | str]:
        return list(self.game.narrate(before, event, after))

    def _commit(
        self, state: BaseModel, lines: list[Text | str], events: list[rec.Event]
    ) -> list[Text | str]:
        first = self.recorder is not None and self.recorder.writes_first
        if first:  # (a StoreError leaves the table as it was)
            self._record(state, events, (*self.events, *events))
        self.state = state
        self.log.extend(lines)
        self.events.extend(events)
        if not first:
            self._record(state, events, tuple(self.events))
        if self.on_change is not None:
            self.on_change(self)
        return lines

    def _record(
        self, state: BaseModel, events: list[rec.Event], every: tuple[rec.Event, ...]
    ) -> None:
        """Hand the new `events` (`every`: the record's events with them) to the recorder."""
        if self.recorder is None:
            return
        outcome = self._outcome(state)
        if not self._recorded:
            self.recorder.created(self.header, every, outcome)
            self._recorded = True
        else:
            self.recorder.appended(self.header, tuple(events), outcome)

    def follow(self, events: Sequence[rec.Event]) -> tuple[list[Step], list[Text | str]]:
        """Events another writer appended to this table's record (numbered on from the last
        one here): applied and narrated, not recorded again. Returns their steps and the
        table talk about them. RecordError if they do not follow on or do not replay; then
        nothing changes."""
        from .records.replay import narrate, steps

        if not events:
            return [], []
        known = len(self.events)
        rec.check_sequence(events, known + 1)
        if any(event.kind == "undo" for event in events):  # (it may go back before them)
            every = rec.Record(self.header, (*self.events, *events))
            followed = [step for step in steps(every) if step.event.seq > known]
        else:  # (from the state the table is in: the rules check each event as they go)
            part = rec.Record(self.header, tuple(events))
            followed = list(steps(part, start=self.state, first=known + 1))
        lines: list[Text | str] = []
        for step in followed:
            lines += narrate(self.game, step, self.players)
        self.state = followed[-1].after
        self.log.extend(lines)
        self.events.extend(events)
        if self.on_change is not None:
            self.on_change(self)
        return followed, lines

    def _outcome(self, state: BaseModel) -> rec.Outcome | None:
        if not self.game.is_over(state):
            return None
        return rec.Outcome(tuple(self.game.scores(state)), tuple(self.game.winners(state)))


__all__ = ["CannotUndo", "IllegalAction", "Seat", "Table"]
