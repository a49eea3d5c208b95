"""The host of a table: who plays, when the bots move, what the coach says.

A `TableHost` owns a `Table` (which applies actions, throws dice and writes the record) and
everything around the play that used to live in the game screen:

- a person's decision comes in for a seat (`act`); one from a seat that is not to move is
  refused with a message, and nothing changes;
- bot seats play by themselves, at the pace given (seconds before each bot decision; `hurry`
  plays them at full speed until a person must decide), their `choose` off the event loop;
- the coach gets ready for every decision (`prepare`, and a person's hint while they think),
  rates each person's real choice (a move that offered none is not rated) — at once when the
  hint was ready, so the rating is told with the move — keeps the reviews, and words the
  game-over notes;
- the log comes out in order: a rating follows the line that tells its move, and what comes
  after waits for it however long the coach takes.

Whoever shows the game subscribes (`subscribe`) and is told of every change, as data and
messages (`rules.Text`), never as rendered text: each subscriber renders in its own language.
The game screen is one subscriber; a server (shared tables) can be another. Nothing here
imports Textual: the host runs wherever the event loop runs (`asyncio`).

Every call is made from the event loop's thread; the host runs bots and the coach in worker
threads (`asyncio.to_thread`, with the game's shipped strategy tables installed) and hands
their results back on the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from bots import Hint, Review, coach, get_bot
from rules import N_, IllegalAction, Text

from . import strategy_tables
from .coach_words import coach_notes, rating_line, talk_with_ratings
from .dice import DiceExhausted, DiceSource
from .games import SeatKind
from .records.events import Event, Record, RecordError
from .records.replay import standing
from .records.store import RecordConflict, StoreError
from .table import Seat, Table

if TYPE_CHECKING:
    from .records.recorder import Recorder

T = TypeVar("T")

HURRY_PACE = 0.01
"""Seconds before a hurried bot's decision (a screen repaints in between)."""
STORE_RETRY = 1.0
"""Seconds before a bot decides again when the records could not be written."""

Line = Text | str
"""A line of the log: a message, or plain words (the lines of saves older than messages)."""


# -- what subscribers are told ---------------------------------------------------------------


@dataclass(frozen=True)
class Logged:
    """Lines for the log, in the order things happened (a rating before its move)."""

    lines: tuple[Line, ...]


@dataclass(frozen=True)
class Moved:
    """The state changed: a decision (a person's, or a bot's: `by_bot`) and the dice it threw,
    or an undo (`action` None). `throws` are the dice thrown after it, in order: (seat that
    threw, or None, and the faces), for a screen to tumble them."""

    seq: int
    """The number of the decision's (or the undo's) event in the record."""
    seat: int | None
    action: BaseModel | None
    by_bot: bool
    before: BaseModel
    state: BaseModel
    throws: tuple[tuple[int | None, tuple[int, ...]], ...]


@dataclass(frozen=True)
class Turn:
    """A decision is awaited from `seat` (a bot's, or a person's); `hurry`: bots play at full
    speed until a person decides."""

    seat: int
    bot: bool
    hurry: bool


@dataclass(frozen=True)
class BotThinking:
    """The bot in `seat` has begun to decide (its pause is over)."""

    seat: int


@dataclass(frozen=True)
class Rated:
    """The coach rated a person's decision (event `seq`); `line` is its words in the log."""

    seq: int
    seat: int
    review: Review
    line: Text


@dataclass(frozen=True)
class ReviewsRestored:
    """A resumed game's earlier decisions were rated again (a record keeps no ratings): the
    coach's notes now cover the whole game, and their ratings are back in the log
    (`TableHost.logged`) after the moves they rate, as when they were played: a subscriber
    writes the log again."""

    count: int


@dataclass(frozen=True)
class Problem:
    """A bot's decision could not be played (loaded dice ran out); the state is unchanged."""

    text: Line


@dataclass(frozen=True)
class GameOver:
    scores: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class Resumed:
    """A shared table's server was reached again after it was lost (a restart, a failover):
    what was said about the loss no longer holds; the screens show the table as it is (a
    `Turn` follows, for the player to move)."""


HostEvent = (
    Logged | Moved | Turn | BotThinking | Rated | ReviewsRestored | Problem | GameOver | Resumed
)
Subscriber = Callable[[HostEvent], None]
Runner = Callable[[Coroutine[Any, Any, None], str], object]
"""Runs one of the coach's jobs in the background: (the coroutine, a group name)."""


class NotYourTurn(IllegalAction):
    """A decision from a seat that is not to decide now; nothing changes."""


class _RatingSlot:
    """The place in the log of the coach's rating of a person's decision: the rating is
    written there, after the line that tells the move, before all that followed it, which
    waits."""

    __slots__ = ("lines", "rated")

    def __init__(self) -> None:
        self.lines: list[Line] | None = None
        """None while the coach is thinking; then the rating (or nothing: no choice)."""
        self.rated: tuple[Review, Text] | None = None
        """The review and its line in the log, once made (not for a forced move)."""


class TableHost:
    """The play at one table: a person's decisions in, bots and the coach, changes out.

    `pace`: seconds before each bot decision (a number, or what reads it each time: a player
    may change it while playing); 0 plays bots as fast as the loop goes (tests).
    `run`: how to run the coach's jobs (the app's workers in the UI, so that its waiting and
    its crash report cover them); by default, asyncio tasks of the host's own.
    `on_error`: told of an error in a bot's turn or a coach's job (by default it is kept in
    `failure`, raised by `idle()`, and reported to the event loop's exception handler).
    `coach`: False hosts without the coach (no getting ready, no ratings): a server's shared
    tables, where each person's own client coaches them.
    `on_store_error`: see the attribute (None: such an error is an error of the bot's turn).
    """

    def __init__(
        self,
        table: Table,
        pace: float | Callable[[], float] = 0.0,
        run: Runner | None = None,
        on_error: Callable[[BaseException], None] | None = None,
        coach: bool = True,
        on_store_error: Callable[[StoreError], None] | None = None,
    ) -> None:
        self.table = table
        self._on_store_error = on_store_error
        """Told when a bot's decision was refused by a recorder that writes first (another
        server appended first: it catches the table up; the database is away: it waits), before
        the bot decides again."""
        self._coach = coach
        self._pace = pace
        self._run = run or self._run_task
        self._on_error = on_error
        self._subscribers: list[Subscriber] = []
        self._reviews: dict[int, tuple[int, Review]] = {}
        """The coach's rating of each choice of a person, by the number of its event: (seat,
        review). Those of a resumed game's decisions are recomputed from its record."""
        self._queue: list[Line | _RatingSlot] = []
        """Log lines waiting behind a rating the coach has not given yet."""
        self.logged: list[Line] = list(table.log)
        """Every line of the log so far, in order, ratings included (a resumed game's table
        talk first; its ratings join it once the coach has made them again)."""
        self._told_before = len(self.logged)
        """The lines of a resumed game's table talk (told from its record)."""
        self._hurry = False
        self._bot_task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        """Set by `hurry` to end a bot's pause at once."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._jobs = 0
        self._quiet = asyncio.Event()
        """Set whenever a bot's turn or a coach's job ends (`idle` waits on it)."""
        self._ready: tuple[BaseModel, Hint] | None = None
        """The coach's hint for the decision a person is to make now, worked out in the
        background while they think (`_prepare`): their choice is then rated at once, and its
        rating is written with the move instead of after it."""
        self._stalled: BaseModel | None = None
        """The state a bot's decision could not be played in: no bot plays again until the
        state changes (an undo)."""
        self._started = False
        self._closed = False
        self.failure: BaseException | None = None

    @classmethod
    def new(
        cls,
        game_id: str,
        seats: Sequence[Seat],
        options: BaseModel | Mapping[str, Any] | None = None,
        dice: DiceSource | None = None,
        recorder: Recorder | None = None,
        **host: Any,
    ) -> TableHost:
        """Seat the players at a new table (its roll-off played, `Table.new`) and host it.
        Raises InvalidOptions (or DiceExhausted, loaded dice too few for the roll-off)."""
        return cls(Table.new(game_id, seats, options, dice=dice, recorder=recorder), **host)

    # -- what the table is ----------------------------------------------------------------
    @property
    def game_id(self) -> str:
        return self.table.game.id

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.table.seats

    @property
    def state(self) -> BaseModel:
        return self.table.state

    @property
    def over(self) -> bool:
        return self.table.over

    @property
    def hurrying(self) -> bool:
        return self._hurry

    def current_player(self) -> int | None:
        return self.table.current_player()

    def bot_to_move(self) -> bool:
        """A bot decides now (a person's keys do nothing until it has)."""
        seat = self.table.current_player()
        return seat is not None and not self.table.over and self.table.seats[seat].bot

    # -- subscribers ----------------------------------------------------------------------
    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Tell `subscriber` of every change from now on (what is so already: `state`,
        `logged`, `reviews`). Returns what unsubscribes it."""
        self._subscribers.append(subscriber)

        def unsubscribe() -> None:
            if subscriber in self._subscribers:
                self._subscribers.remove(subscriber)

        return unsubscribe

    def _emit(self, event: HostEvent) -> None:
        for subscriber in list(self._subscribers):
            subscriber(event)

    # -- the play -------------------------------------------------------------------------
    def start(self) -> None:
        """Begin: rate a resumed game's earlier decisions, let the coach get ready and the
        bot to move (if one is) play. Call it from the event loop once subscribed."""
        if self._started:
            return
        self._started = True
        resumed = any(event.kind == "action" for event in self.table.events)
        if resumed and self._coach:
            self._spawn(self._review_past(self.table.record), "coach")
        if not self.table.over:
            self._after_change()

    def act(self, seat: int, action: BaseModel | Mapping[str, Any]) -> None:
        """A person's decision for `seat`. Raises IllegalAction (`NotYourTurn` when `seat`
        is not to decide, or a bot's) or DiceExhausted, and then changes nothing."""
        seats = self.table.seats
        if not 0 <= seat < len(seats):
            raise NotYourTurn(N_("No one sits in seat {n}"), n=seat)
        if self.table.over:
            raise IllegalAction(N_("The game is over"))
        to_move = self.table.current_player()
        if to_move is not None and seat != to_move:
            turn = N_("{player} decides now, not {other}")
            raise NotYourTurn(turn, player=seats[to_move].name, other=seats[seat].name)
        if seats[seat].bot:
            bot = N_("{player} is a bot: it decides by itself")
            raise NotYourTurn(bot, player=seats[seat].name)
        self._apply(seat, action, by_bot=False)

    def undo(self, seat: int | None = None) -> None:
        """Take back the person's last decision (`Table.undo`; `seat`: that seat's, with the
        consent of every other person at the table). Raises CannotUndo, changing nothing."""
        before = self.table.state
        seq = len(self.table.events) + 1
        lines = self.table.undo() if seat is None else self.table.undo_seat(seat)
        seat = self.table.events[-1].seat
        self._log(lines)
        self._emit(Moved(seq, seat, None, False, before, self.table.state, ()))
        self._after_change()

    def follow(self, events: Sequence[Event]) -> None:
        """Events another server appended to the table's record (several servers on one
        database): applied as if played here (`Table.follow`), told to the subscribers as
        the table's own moves are (a Moved per decision or undo, with the dice it threw, then
        whose turn it is), and a bot plays if one is to. RecordError (nothing changed) if
        they do not follow on."""
        if self._closed:
            return
        followed, lines = self.table.follow(events)
        if not followed:
            return
        self._log(lines)
        for index, step in enumerate(followed):
            event = step.event
            if event.kind == "chance":
                continue
            throws: list[tuple[int | None, tuple[int, ...]]] = []
            for later in followed[index + 1 :]:
                if later.event.kind != "chance":
                    break
                throws.append((later.event.seat, tuple(later.event.data)))
            seat = event.seat
            by_bot = seat is not None and self.table.seats[seat].bot
            action = step.move if event.kind == "action" else None
            assert action is None or isinstance(action, BaseModel)
            state = followed[index + len(throws)].after
            self._emit(Moved(event.seq, seat, action, by_bot, step.before, state, tuple(throws)))
        self._after_change()

    def hurry(self) -> None:
        """Bots play at full speed until a person must decide (a pause under way ends now)."""
        seat = self.table.current_player()
        if seat is None or not self.bot_to_move():
            return
        self._hurry = True
        self._wake.set()
        self._emit(Turn(seat, True, True))

    def hand_to_bot(self, seat: int, kind: SeatKind = "medium") -> None:
        """A person's seat is played by a bot of `kind` from now on (they left a shared
        table); if it is that seat's turn, the bot plays it."""
        seats = list(self.table.seats)
        seats[seat] = Seat(name=seats[seat].name, kind=kind)
        self.table.seats = tuple(seats)
        if self._started and not self.table.over:
            self._after_change()

    def close(self) -> None:
        """No more bot moves (the table is no longer shown). The coach's ratings under way
        still come in: a game's last rating counts after its end."""
        self._closed = True
        if self._bot_task is not None:
            self._bot_task.cancel()

    async def idle(self) -> None:
        """Wait until nothing is under way: no bot to move, no coach's job. Raises the first
        error of a bot's turn or a coach's job."""
        while True:
            if self.failure is not None:
                raise self.failure
            if not self._jobs and self._bot_task is None and not self._bot_due():
                return
            self._quiet.clear()
            await self._quiet.wait()

    async def hint(self, state: BaseModel | None = None) -> Hint | None:
        """The coach's hint for `state` (by default the table's), worked out in a thread;
        None when nobody is to decide."""
        state = self.table.state if state is None else state
        if self.table.game.current_player(state) is None:
            return None
        if self._ready is not None and self._ready[0] is state:
            return self._ready[1]  # worked out while the person thinks
        return await asyncio.to_thread(self._with_tables, coach(self.game_id).hint, state)

    # -- the coach's reviews --------------------------------------------------------------
    @property
    def reviews(self) -> list[tuple[int, Review]]:
        """Every choice of a person the coach rated and that stands (not taken back), in
        order: (seat, review). Moves without a choice (a throw that must be made) are neither
        rated nor counted."""
        stand = {event.seq for event in standing(self.table.events)}
        return [self._reviews[seq] for seq in sorted(self._reviews) if seq in stand]

    def coach_notes(self) -> list[Text]:
        """The game-over summary of each person's choices (`coach_words.coach_notes`)."""
        return coach_notes(self.table.players, self.reviews)

    @property
    def reviews_pending(self) -> int:
        """The ratings still to come."""
        return sum(isinstance(item, _RatingSlot) for item in self._queue)

    # -- inside ---------------------------------------------------------------------------
    def _apply(self, seat: int, action: BaseModel | Mapping[str, Any], by_bot: bool) -> None:
        table = self.table
        before = table.state
        choice = len(table.game.legal_actions(before)) > 1
        seq = len(table.events) + 1  # the number the decision's event will have
        decision = table.game.parse_action(action)
        lines = table.act(decision)
        throws = tuple(
            (event.seat, tuple(event.data))
            for event in table.events[seq:]
            if event.kind == "chance"
        )
        rate = not by_bot and choice and self._coach
        # the rating follows the line that tells the move (`coach_words.after_its_move`)
        slot = self._rating_slot(seq, seat, before, decision, lines[:1]) if rate else None
        self._log(lines[1:] if rate else lines)
        self._emit(Moved(seq, seat, decision, by_bot, before, table.state, throws))
        if slot is not None:
            self._rate(slot, seq, seat, before, decision)
        self._after_change()

    def _after_change(self) -> None:
        """After every new state: the end, or the coach gets ready for the decision, the
        subscribers hear whose it is, and a bot plays if it is a bot's."""
        table = self.table
        if table.over:
            scores = tuple(table.game.scores(table.state))
            self._emit(GameOver(scores, tuple(table.game.winners(table.state))))
            return
        seat = table.current_player()
        if seat is None:
            return
        if self._coach:
            self._spawn(self._prepare(table.state), "coach-prepare")
        bot = table.seats[seat].bot
        if not bot:
            self._hurry = False  # a person decides: the hurry is over
        self._emit(Turn(seat, bot, self._hurry))
        self._schedule_bot()

    def _schedule_bot(self) -> None:
        if self._bot_task is None and self._bot_due():
            self._bot_task = asyncio.get_running_loop().create_task(self._bot_turn())
            self._bot_task.add_done_callback(self._bot_done)

    def _bot_due(self) -> bool:
        stalled = self.table.state is self._stalled
        return self._started and not self._closed and not stalled and self.bot_to_move()

    async def _bot_turn(self) -> None:
        try:
            await self._pause()
            state = self.table.state
            seat = self.table.current_player()
            if seat is None or not self.table.seats[seat].bot or self._closed:
                return
            self._emit(BotThinking(seat))
            bot = get_bot(self.game_id, self.table.seats[seat].kind, seed=seat)
            action = await asyncio.to_thread(self._with_tables, bot.choose, state)
        finally:
            self._bot_task = None
        if self.table.state is not state:  # the table moved on meanwhile (an undo)
            self._schedule_bot()
            return
        if self._closed:
            return
        try:
            self._apply(seat, action, by_bot=True)
        except (IllegalAction, DiceExhausted) as error:
            self._stalled = self.table.state
            self._emit(Problem(error.text if isinstance(error, IllegalAction) else str(error)))
        except StoreError as error:  # (a record several servers write: nothing was changed)
            if self._on_store_error is None:
                raise
            self._on_store_error(error)
            if not isinstance(error, RecordConflict):
                await asyncio.sleep(STORE_RETRY)  # (the database is away: not every turn)
            self._schedule_bot()

    async def _pause(self) -> None:
        pace = self._pace() if callable(self._pace) else self._pace
        if self._hurry:
            pace = min(pace, HURRY_PACE)
        self._wake.clear()
        if pace <= 0:
            await asyncio.sleep(0)
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), pace)

    def _bot_done(self, task: asyncio.Task[None]) -> None:
        self._quiet.set()
        if not task.cancelled() and (error := task.exception()) is not None:
            self._fail(error)

    async def _prepare(self, state: BaseModel) -> None:
        """Let the coach get ready for this decision in the background (the first hint of a
        last round or of a navio round needs a table of its own), and, when a person has a
        choice to make, work out its hint: the choice is then rated as it is made."""
        seat = self.table.game.current_player(state)
        person = seat is not None and not self.table.seats[seat].bot

        def ready() -> Hint | None:
            game_coach = coach(self.game_id)
            game_coach.prepare(state)
            if person and len(self.table.game.legal_actions(state)) > 1:
                return game_coach.hint(state)
            return None

        hint = await asyncio.to_thread(self._with_tables, ready)
        if hint is not None and self.table.state is state:
            self._ready = (state, hint)

    def _rating_slot(
        self, seq: int, seat: int, before: BaseModel, action: BaseModel, told: Sequence[Line]
    ) -> _RatingSlot:
        """The place of the rating of a person's decision in the log, after `told` (the line
        that tells the move), filled at once if the coach had its hint ready (`_prepare`),
        else by `_rate`'s job."""
        slot = _RatingSlot()
        ready, self._ready = self._ready, None
        if ready is not None and ready[0] is before:
            review: Review | None = None
            with contextlib.suppress(KeyError, ValueError):  # not a decision the coach lists
                review = coach(self.game_id).review(before, action, ready[1])
            self._rated(slot, seq, seat, review)
        self._queue.extend(told)
        self._queue.append(slot)
        return slot

    def _rate(
        self, slot: _RatingSlot, seq: int, seat: int, before: BaseModel, action: BaseModel
    ) -> None:
        """Tell the rating made at once (after the move it rates), or have the coach make it."""
        if slot.lines is None:
            self._spawn(self._review(slot, seq, seat, before, action), "coach")
        elif slot.rated is not None:
            self._emit(Rated(seq, seat, *slot.rated))

    def _rated(self, slot: _RatingSlot, seq: int, seat: int, review: Review | None) -> None:
        """Fill the slot with the rating of a choice (none for a forced move)."""
        slot.lines = []
        if review is not None and not review.forced:
            self._reviews[seq] = (seat, review)
            line = rating_line(self.table.seats[seat].name, review)
            slot.rated = (review, line)
            slot.lines.append(line)

    async def _review(
        self, slot: _RatingSlot, seq: int, seat: int, before: BaseModel, action: BaseModel
    ) -> None:
        """Rate a person's decision in its place in the log, in the background; a move that
        offered no choice gets no rating."""
        result: Review | None = None
        try:
            result = await asyncio.to_thread(
                self._with_tables, coach(self.game_id).review, before, action
            )
        except (KeyError, ValueError):
            pass  # not a decision the coach lists: no rating
        finally:
            self._rated(slot, seq, seat, result)
            self._rate(slot, seq, seat, before, action)
            self._log([])

    async def _review_past(self, record: Record) -> None:
        """The coach's ratings of the decisions in a resumed game's record, so that the notes
        count the whole game (those that stand), and each in the log after the move it rates
        (those taken back too, as they were told). A record the coach cannot review leaves
        the notes to the decisions rated from now on."""
        from .records.replay import narrated
        from .records.reviews import reviewed_decisions

        def review() -> tuple[list[Any], list[tuple[Any, list[Line]]]]:
            return reviewed_decisions(record, taken_back=True), narrated(record)

        try:
            past, talk = await asyncio.to_thread(self._with_tables, review)
        except (RecordError, KeyError, ValueError):
            return
        for one in past:
            self._reviews.setdefault(one.seq, (one.seat, one.review))
        names = self.table.players
        ratings = {one.seq: rating_line(names[one.seat], one.review) for one in past}
        told = talk_with_ratings(
            [(event.seq, event.kind != "chance", lines) for event, lines in talk], ratings
        )
        if len(told) - len(ratings) == self._told_before:  # (the talk the log began with)
            self.logged[: self._told_before] = told
            self._told_before = len(told)
        self._emit(ReviewsRestored(len(past)))

    def _log(self, lines: Sequence[Line]) -> None:
        """Add `lines` to the log, after any rating the coach has still to give, and tell the
        subscribers what is ready."""
        queue = self._queue
        queue.extend(lines)
        ready: list[Line] = []
        while queue:
            head = queue[0]
            if isinstance(head, _RatingSlot):
                if head.lines is None:
                    break
                ready.extend(head.lines)
            else:
                ready.append(head)
            queue.pop(0)
        if ready:
            self.logged.extend(ready)
            self._emit(Logged(tuple(ready)))

    def _with_tables(self, function: Callable[..., T], *args: Any) -> T:
        """Run a bot or coach call (in a worker thread) with the shipped tables installed."""
        strategy_tables.prepare(self.game_id)
        return function(*args)

    def _spawn(self, job: Coroutine[Any, Any, None], group: str) -> None:
        self._jobs += 1

        async def tracked() -> None:
            try:
                await job
            finally:
                self._jobs -= 1
                self._quiet.set()

        self._run(tracked(), group)

    def _run_task(self, job: Coroutine[Any, Any, None], group: str) -> None:
        task = asyncio.get_running_loop().create_task(job, name=f"host-{group}")
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and (error := task.exception()) is not None:
            self._fail(error)

    def _fail(self, error: BaseException) -> None:
        if self.failure is None:
            self.failure = error
        self._quiet.set()
        if self._on_error is not None:
            self._on_error(error)
        else:
            asyncio.get_running_loop().call_exception_handler(
                {"message": "an error at the table", "exception": error}
            )


__all__ = [
    "BotThinking",
    "GameOver",
    "HostEvent",
    "Logged",
    "Moved",
    "NotYourTurn",
    "Problem",
    "Rated",
    "ReviewsRestored",
    "TableHost",
    "Turn",
]
