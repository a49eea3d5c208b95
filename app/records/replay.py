"""A record replayed through `rules`: the state at any event, the narration, the decisions.

The state of a game is never stored: it is the record's start (a new game, or a snapshot)
with every event applied in order. A replay checks each event as it goes (the right seat, a
legal action, a throw of the right dice, an undo of a decision that can still be taken back)
and stops at the first that is wrong with a `RecordError` naming it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple

from pydantic import BaseModel, ValidationError

from rules import N_, Game, IllegalAction, InvalidOptions, Text, UnknownGame, get_game

from .events import Event, Header, Record, RecordError, check_sequence


class Step(NamedTuple):
    """One event of a replay, with the states on either side of it.

    `move` is what the event meant to the rules: the parsed action, the faces as a tuple, or
    for an undo the action taken back (whose state before is `after`)."""

    event: Event
    before: Any
    after: Any
    move: BaseModel | tuple[int, ...]


class Decision(NamedTuple):
    """A decision that stands (not taken back): who took it, in which state, and what."""

    seq: int
    seat: int
    state: Any
    action: BaseModel


def game_of(header: Header) -> Game[Any, Any, Any]:
    try:
        return get_game(header.game_id)
    except UnknownGame:
        raise RecordError(N_("no game called {game}"), game=repr(header.game_id)) from None


def start_state(header: Header) -> Any:
    """The state the record's events start from."""
    game = game_of(header)
    try:
        if header.start is not None:
            state = game.load_state(dict(header.start))
        else:
            state = game.new_game(header.players, dict(header.options))
    except (InvalidOptions, ValidationError, TypeError) as error:
        reason = str(error).splitlines()[0]
        raise RecordError(
            N_("the record's start does not make a game ({reason})"), reason=reason
        ) from None
    if game.players(state) != header.players:
        raise RecordError(N_("the record's seats do not match the players of its start"))
    return state


def steps(record: Record, start: Any = None, first: int = 1) -> Iterator[Step]:
    """Every event of the record, applied: a Step each. RecordError at the first bad one.
    `first`: the number of the record's first event, `start` then being the state before it
    (a part of a record from where a table stands; an undo in it can only take back a
    decision within that part)."""
    header = record.header
    game = game_of(header)
    state = start_state(header) if start is None else start
    check_sequence(record.events, first)
    before_action: dict[int, tuple[Any, BaseModel]] = {}
    """For each action since the last throw: the state before it, and the action (what an
    undo can go back to)."""
    for event in record.events:
        seq, kind, seat, data = event
        move: BaseModel | tuple[int, ...]
        if kind == "action":
            action, after = _action(game, state, event)
            before_action[seq] = (state, action)
            move = action
        elif kind == "chance":
            pending = game.pending_throw(state)
            if pending is None:
                raise RecordError(N_("event {seq}: a throw when nobody throws"), seq=seq)
            if seat != pending.player:
                raise RecordError(
                    N_("event {seq}: a throw by seat {seat}, expected {expected}"),
                    seq=seq,
                    seat=seat,
                    expected=pending.player,
                )
            move = tuple(data)
            try:
                after = game.apply_chance(state, move)
            except IllegalAction as error:
                problem = error.text
                raise RecordError(
                    N_("event {seq} is not allowed here: {problem}"), seq=seq, problem=problem
                ) from None
            before_action.clear()
        else:
            target = data["to"]
            if target not in before_action:
                raise RecordError(
                    N_(
                        "event {seq}: event {target} cannot be taken back "
                        "(not a decision, or dice were thrown since)"
                    ),
                    seq=seq,
                    target=target,
                )
            after, move = before_action[target]
            if record.events[target - first].seat != seat:
                raise RecordError(
                    N_("event {seq}: seat {seat} takes back another seat's decision"),
                    seq=seq,
                    seat=seat,
                )
            for later in [s for s in before_action if s >= target]:
                del before_action[later]
        yield Step(event, state, after, move)
        state = after


def _action(game: Game[Any, Any, Any], state: Any, event: Event) -> tuple[BaseModel, Any]:
    """The event's action, and the state after it."""
    seq = event.seq
    if game.pending_throw(state) is not None or game.current_player(state) is None:
        raise RecordError(N_("event {seq}: a decision when nobody decides"), seq=seq)
    if event.seat != game.current_player(state):
        raise RecordError(
            N_("event {seq}: seat {seat} decides, but it is seat {turn}'s turn"),
            seq=seq,
            seat=event.seat,
            turn=game.current_player(state),
        )
    try:
        action: BaseModel = game.parse_action(event.data)
        return action, game.apply(state, action)
    except IllegalAction as error:
        raise RecordError(
            N_("event {seq} is not allowed here: {problem}"), seq=seq, problem=error.text
        ) from None


def replay(record: Record) -> Any:
    """The state after the record's last event."""
    state = start_state(record.header)
    for step in steps(record, state):
        state = step.after
    return state


def narrate(game: Game[Any, Any, Any], step: Step, seats: Sequence[str]) -> list[Text | str]:
    """What the table talk says about one step: messages each reader sees in their own
    language (`app.i18n.render`)."""
    if step.event.kind == "undo":
        assert isinstance(step.move, BaseModel)
        seat = step.event.seat
        return [
            Text(
                N_("{player} takes back: {action}"),
                {
                    "player": seats[seat] if seat is not None else "?",
                    "action": game.describe_action(step.after, step.move),
                },
            )
        ]
    return list(game.narrate(step.before, step.move, step.after))


def replay_with_log(record: Record) -> tuple[Any, list[Text | str]]:
    """The final state and the whole table talk of the record, told afresh."""
    game = game_of(record.header)
    names = record.header.players
    state = start_state(record.header)
    lines: list[Text | str] = []
    for step in steps(record, state):
        lines += narrate(game, step, names)
        state = step.after
    return state, lines


def narrated(record: Record) -> list[tuple[Event, list[Text | str]]]:
    """Each event of the record with what the table talk says of it (`replay_with_log`'s
    lines, event by event: a rating of a decision goes after the line that tells its move,
    `coach_words.talk_with_ratings`)."""
    game = game_of(record.header)
    names = record.header.players
    return [(step.event, narrate(game, step, names)) for step in steps(record)]


def last_turns(record: Record) -> dict[int, Any]:
    """Each seat's last finished turn, in a game whose states keep the turn just finished
    (`last_turn`: the Ship games' "Last throws"), as a screen that saw the whole game
    knows them."""
    found: dict[int, Any] = {}
    for step in steps(record):
        last = getattr(step.after, "last_turn", None)
        if last is not None:
            found[last.seat] = last
    return found


def standing(events: Iterable[Event]) -> list[Event]:
    """The events that stand: without the undos and the events they took back."""
    kept: list[Event] = []
    for event in events:
        if event.kind == "undo":
            target = event.data["to"]
            while kept and kept[-1].seq >= target:
                kept.pop()
        else:
            kept.append(event)
    return kept


def decisions(record: Record) -> list[Decision]:
    """Every decision that stands, in order, with the state it was taken in (for the coach:
    a decision taken back is not reviewed, the one taken instead is)."""
    taken: list[Decision] = []
    for step in steps(record):
        event = step.event
        if event.kind == "action":
            assert isinstance(step.move, BaseModel) and event.seat is not None
            taken.append(Decision(event.seq, event.seat, step.before, step.move))
        elif event.kind == "undo":
            target = event.data["to"]
            while taken and taken[-1].seq >= target:
                taken.pop()
    return taken


def every_decision(record: Record) -> list[Decision]:
    """Every decision of the record, in order, those taken back too (the table talk told
    them all)."""
    return [
        Decision(step.event.seq, step.event.seat, step.before, step.move)
        for step in steps(record)
        if step.event.kind == "action"
        and step.event.seat is not None
        and isinstance(step.move, BaseModel)
    ]


class UndoRefused(NamedTuple):
    """Why nothing can be taken back: a message for the app's `_`."""

    reason: str


def undo_target(events: Sequence[Event], people: Iterable[int]) -> int | UndoRefused:
    """The event a person's undo would go back to: their last decision that stands, if no
    dice were thrown after it (decisions of bots in between are taken back with it)."""
    persons = set(people)
    thrown = False
    for event in reversed(standing(events)):
        if event.kind == "chance":
            thrown = True
        elif event.kind == "action" and event.seat in persons:
            if thrown:
                return UndoRefused(N_("Dice were thrown since the last decision: it stands"))
            return event.seq
    return UndoRefused(N_("There is no decision to take back"))


def round_of(state: Any) -> int | None:
    """The round a game is in, as its screen counts it (a list of unfinished games shows it);
    None for a game that has no rounds (Batalla de Piratas is a race)."""
    value = getattr(state, "round", None)
    return value if isinstance(value, int) else None
