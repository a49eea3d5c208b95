"""A table of `cubilete server`, played from this terminal: the client side of shared tables.

The server is the one authority: it throws every die, applies every action, plays the bots and
keeps the record. A client keeps a replica of the game by replaying, through `rules`, the
record events the server sends (`GameEvent.record`), and checks each as a replay does (the
right seat, a legal action, a throw of the dice awaited). It never throws a die.

- `address.find_server` says where the server is (`--server PATH`, `$CUBILETE_SERVER`, else
  the documented default socket if a server listens there) and `address.ServerAddress` how
  to connect.
- `RemoteServer` is the app's one connection to it: the list of tables, opening, joining and
  watching one. Everything the server sends unasked (a table's events) goes to the table's
  `RemoteSession`.
- `RemoteSession` is this client at one table: its seats, its status, its chat, and once the
  game has started its `RemoteHost`.
- `RemoteHost` is a `TableHost` whose table (`RemoteTable`) is the replica: the game screens
  subscribe to it and act through it exactly as on a local table (`Logged`, `Moved`, `Turn`,
  `Rated`, `Problem`, `GameOver`). `act` for the seat this client sits in sends `Act`; the
  server's refusal comes back as a `Problem`.

What a remote table cannot do as a local one does: the bots are the server's (their pace too:
`hurry` does nothing, and the key is not offered); undo is refused (a decision stands at a
table of several people); the coach rates only this client's own decisions and gives a hint
only on its own turn (it does not coach a spectator or judge other people's play).

Nothing here imports Textual (the `textual-free` contract).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from bots import Hint
from rules import N_, NP_, IllegalAction, Text, get_game

from ..host import Line, Moved, NotYourTurn, Problem, Resumed, TableHost, Turn
from ..i18n import render
from ..records import events as rec
from ..table import CannotUndo, Seat, Table, new_header
from .address import ServerAddress
from .client import ServerClient, ServerError
from .protocol import (
    Act,
    AnswerUndo,
    Away,
    Back,
    Chat,
    ChatLine,
    Error,
    GameEvent,
    HandedToBot,
    HandToBot,
    Join,
    Joined,
    Leave,
    Left,
    ListTables,
    Opened,
    OpenTable,
    Ping,
    ProposeUndo,
    Rematch,
    RematchOpened,
    Seated,
    SeatSpec,
    Spectators,
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
)

PING_EVERY = 60.0
"""Seconds between pings: the server closes a connection silent for 300 s."""
RECONNECT_WITHIN = 60.0
"""Seconds a client that lost its server tries the servers of its list (and its tables
there) before it gives up."""
RETRY_FIRST, RETRY_MOST = 0.25, 2.0
"""The backoff between rounds of reconnecting: the first wait, doubled up to the most; each
wait is drawn between half of it and all of it, so that the many clients of a server that
died do not knock on the next one all at the same moments."""


RECONNECTING = N_("The server was lost: reconnecting…")
TABLE_LOST = N_("The server was lost, and this table with it: its game had not begun")


# -- the words of the table talk ---------------------------------------------------------------
def seat_words(seat: int) -> Text:
    return Text(N_("seat {n}"), {"n": seat + 1})


def talk_of(body: Any, names: Sequence[str | None]) -> Line | None:
    """What the table talk says about a table event that is not the game's."""

    def name(seat: int) -> str | Text:
        known = names[seat] if 0 <= seat < len(names) else None
        return known if known is not None else seat_words(seat)

    if isinstance(body, Seated):
        return Text(N_("{player} sits down"), {"player": body.name})
    if isinstance(body, Unseated):
        return Text(N_("{player} left: the seat is free again"), {"player": name(body.seat)})
    if isinstance(body, Away):
        if body.seconds >= 60:
            return Text(
                N_("{player} is away: the seat is kept for {minutes} min, then a bot plays it"),
                {"player": name(body.seat), "minutes": round(body.seconds / 60)},
            )
        return Text(N_("{player} is away (the seat is kept)"), {"player": name(body.seat)})
    if isinstance(body, HandedToBot):
        return Text(N_("A bot plays {player}'s seat from now on"), {"player": name(body.seat)})
    if isinstance(body, UndoProposed):
        return Text(
            N_("{player} asks to take back their last decision: y agrees, n refuses"),
            {"player": name(body.seat)},
        )
    if isinstance(body, UndoAnswered):
        if body.accept:
            return Text(N_("{player} agrees to the undo"), {"player": name(body.seat)})
        return Text(N_("{player} refuses the undo"), {"player": name(body.seat)})
    if isinstance(body, UndoSettled):
        if body.done:
            return None  # (the undo itself is told)
        why = body.words.text() if body.words is not None else "?"
        return Text(N_("No undo: {why}"), {"why": why})
    if isinstance(body, RematchOpened):
        return Text(N_("A rematch is open: r on the game-over screen takes your seat again"))
    if isinstance(body, Back):
        return Text(N_("{player} is back"), {"player": name(body.seat)})
    if isinstance(body, Spectators):
        return Text(NP_("{n} person is watching", "{n} people are watching"), {"n": body.count})
    if isinstance(body, ChatLine):
        # (plain text: the log shows it as written, never as markup)
        return Text(N_("{player}: {text}"), {"player": body.name, "text": body.text})
    if isinstance(body, StatusChanged) and body.status == "playing":
        return Text(N_("Every seat is taken: the game begins"))
    if isinstance(body, TableClosed) and not body.kept:
        return Text(N_("The table is closed: {why}"), {"why": body.words.text()})
    return None


# -- the replica of the game -------------------------------------------------------------------
class NoDice:
    """A client never throws: the dice come from the server."""

    def roll(self, count: int) -> tuple[int, ...]:
        raise IllegalAction(N_("The server throws the dice at a shared table"))


class RemoteTable(Table):
    """The game of a shared table as this client knows it: the server's record events
    replayed through `rules`. The screens read it as they read a local `Table`; only the
    server changes it (`apply_event`)."""

    def __init__(
        self, session: RemoteSession, seats: Sequence[Seat], options: Mapping[str, Any]
    ) -> None:
        game = get_game(session.entry.game)
        state = game.new_game([seat.name for seat in seats], dict(options))
        header = new_header(game, seats, state, record_id=session.table_id)
        super().__init__(game, seats, state, NoDice(), header=header)
        self.session = session
        self.host: RemoteHost | None = None
        """The host the game screen takes (`GameScreen` asks the table for it)."""

    def act(self, action: BaseModel | Mapping[str, Any]) -> list[Text | str]:
        raise IllegalAction(N_("At a shared table the server plays every move"))

    def undo_target(self, seat: int | None = None) -> int | str:
        """The decision of this client's seat an undo would take back (the other people
        must agree), or why there is none."""
        from ..records.replay import undo_target

        if self.over:
            return N_("The game is over")
        mine = self.session.seat if seat is None else seat
        if mine is None:
            return N_("You are watching this table: you cannot play")
        target = undo_target(self.events, [mine])
        return target if isinstance(target, int) else target.reason

    def apply_event(self, event: rec.Event) -> BaseModel | tuple[int, ...]:
        """Apply one event of the server's record, checked as a replay checks it; returns
        what it meant (the action, or the faces thrown). RecordError if it does not fit: the
        replica is then left as it was."""
        game, state = self.game, self.state
        seq, kind, seat, data = event
        if seq != len(self.events) + 1:
            raise rec.RecordError(
                N_("event {seq}: expected event {expected}"), seq=seq, expected=len(self.events) + 1
            )
        move: BaseModel | tuple[int, ...]
        try:
            if kind == "action":
                if game.pending_throw(state) is not None or game.current_player(state) != seat:
                    raise rec.RecordError(
                        N_("event {seq}: seat {seat} decides out of turn"), seq=seq, seat=seat
                    )
                action = game.parse_action(data)
                after = game.apply(state, action)
                move = action
            elif kind == "chance":
                pending = game.pending_throw(state)
                if pending is None or pending.player != seat:
                    raise rec.RecordError(N_("event {seq}: a throw when nobody throws"), seq=seq)
                move = tuple(data)
                after = game.apply_chance(state, move)
            else:
                from ..records.replay import replay

                after = replay(rec.Record(self.header, (*self.events, event)))
                move = ()
        except IllegalAction as error:
            raise rec.RecordError(
                N_("event {seq}: {problem}"), seq=seq, problem=error.text
            ) from None
        self.state = after
        self.events.append(event)
        return move


# -- the host the screens see ------------------------------------------------------------------
class RemoteHost(TableHost):
    """A shared table's play as the screens see it (see the module's docstring)."""

    table: RemoteTable

    def __init__(self, session: RemoteSession, table: RemoteTable, **host: Any) -> None:
        super().__init__(table, **host)
        self.session = session
        self._move: tuple[int, int | None, BaseModel | None, BaseModel] | None = None
        """The decision whose throws are still coming: (seq, seat, action, state before)."""
        self._throws: list[tuple[int | None, tuple[int, ...]]] = []
        self._said: list[Line] = []
        self._sent: BaseModel | None = None
        """The state this client's last decision was sent in (a second one waits for it)."""

    @property
    def seat(self) -> int | None:
        """The seat this client plays (None: it watches)."""
        return self.session.seat

    def refusal(self, seat: int) -> Text | None:
        """Why this client cannot decide for `seat` (None: it can)."""
        seats = self.table.seats
        if self.seat is None:
            return Text(N_("You are watching this table: you cannot play"))
        if seat == self.seat:
            return None
        if seats[seat].bot:
            return Text(N_("{player} (a bot) is playing: wait"), {"player": seats[seat].name})
        return Text(N_("It is {player}'s turn: wait for them"), {"player": seats[seat].name})

    # -- what the screens call --------------------------------------------------------------
    def start(self) -> None:
        if self._started:
            return
        self._started = True
        if not self.table.over:
            self._after_change()

    def _bot_due(self) -> bool:
        return False  # the server plays the bots

    def hurry(self) -> None:
        """The server sets the bots' pace: nothing to hurry here."""

    def act(self, seat: int, action: BaseModel | Mapping[str, Any]) -> None:
        """Send this client's decision for its own seat to the server (checked here first, so
        a wrong one is refused at once). The server's refusal comes back as a `Problem`."""
        table = self.table
        if not 0 <= seat < len(table.seats):
            raise NotYourTurn(N_("No one sits in seat {n}"), n=seat)
        if table.over:
            raise IllegalAction(N_("The game is over"))
        to_move = table.current_player()
        why = self.refusal(seat) or (self.refusal(to_move) if to_move is not None else None)
        if why is not None:
            raise NotYourTurn(why.template, **why.params)
        if self._sent is table.state:
            raise IllegalAction(N_("Your move is on its way to the server"))
        parsed = table.game.parse_action(action)
        table.game.apply(table.state, parsed)  # IllegalAction: refused here, nothing sent
        self._sent = table.state
        self.session.send_act(seat, parsed.model_dump(mode="json"))

    def undo(self, seat: int | None = None) -> None:
        """Ask the other people at the table to let this client take back its last decision
        (the server carries it out once everyone agrees). Raises CannotUndo, asking nothing."""
        target = self.table.undo_target()
        if not isinstance(target, int):
            raise CannotUndo(target)
        if self.session.undo_asking is not None:
            raise CannotUndo(N_("An undo is being asked already: wait for the answers"))
        self.session.propose_undo()

    @property
    def undo_question(self) -> int | None:
        """The seat whose undo waits for this client's answer (None: no question)."""
        session = self.session
        asking = session.undo_asking
        if asking is None or self.seat is None or asking == self.seat:
            return None
        return asking if self.seat not in session.undo_answered else None

    def answer_undo(self, accept: bool) -> None:
        self.session.answer_undo(accept)

    async def hint(self, state: BaseModel | None = None) -> Hint | None:
        """The coach helps only the person at this screen, on their own turn."""
        state = self.table.state if state is None else state
        if self.seat is None or self.table.game.current_player(state) != self.seat:
            return None
        return await super().hint(state)

    async def _prepare(self, state: BaseModel) -> None:
        """The coach gets ready for this client's own decisions only."""
        if self.seat is not None and self.table.game.current_player(state) == self.seat:
            await super()._prepare(state)

    def chat(self, text: str) -> None:
        """Say `text` at the table (the server's refusal comes back as a `Problem`)."""
        self.session.chat(text)

    def rematch(self) -> None:
        """Play again with the same seats (the server opens the rematch, or this client
        joins the one another person opened)."""
        self.session.rematch()

    # -- what the server tells --------------------------------------------------------------
    def refused(self, text: Text | str) -> None:
        self._sent = None
        self._emit(Problem(text))

    def resumed(self) -> None:
        """The table's server was reached again: the screens rebuild what they show from the
        table (`Resumed`), and hear again whose turn it is (the player to move is told)."""
        self._sent = None
        self._emit(Resumed())
        table = self.table
        seat = table.current_player()
        if seat is not None and not table.over:
            self._emit(Turn(seat, table.seats[seat].bot, False))

    def tell(self, line: Line) -> None:
        """A line of table talk that is not the game's (chat, seats coming and going)."""
        self.table.log.append(line)
        if self._started:
            self._log([line])
        else:
            self.logged.append(line)

    def receive(self, event: rec.Event, said: Sequence[Line]) -> None:
        """One event of the game's record. A decision is told (`Moved`) once the dice it
        throws have come too, as a local table tells it."""
        table = self.table
        before = table.state
        move = table.apply_event(event)
        table.log.extend(said)
        self._said.extend(said)
        if event.kind == "action":
            assert isinstance(move, BaseModel)
            self._move = (event.seq, event.seat, move, before)
            self._throws = []
        elif event.kind == "chance":
            assert isinstance(move, tuple)
            self._throws.append((event.seat, move))
            if self._move is None:  # (a throw no decision caused: the opening roll-off)
                self._move = (event.seq, None, None, before)
        else:
            self._move = (event.seq, event.seat, None, before)
            self._throws = []
        if table.game.pending_throw(table.state) is not None:
            return  # its dice are on their way
        seq, seat, action, first = self._move or (event.seq, event.seat, None, before)
        said_now, self._said = self._said, []
        throws, self._throws = tuple(self._throws), []
        self._move = None
        self._sent = None
        if not self._started:  # the history before this client came: no news, no coach
            self.logged.extend(said_now)
            return
        mine = seat is not None and seat == self.seat and action is not None
        if mine and len(table.game.legal_actions(first)) > 1:
            assert action is not None and seat is not None
            # (the rating follows the line that tells the move, as at a table of one's own)
            slot = self._rating_slot(seq, seat, first, action, said_now[:1])
            self._log(said_now[1:])
            self._emit(Moved(seq, seat, action, False, first, table.state, throws))
            self._rate(slot, seq, seat, first, action)
        else:
            self._log(said_now)
            by_bot = seat is not None and table.seats[seat].bot
            self._emit(Moved(seq, seat, action, by_bot, first, table.state, throws))
        self._after_change()


# -- this client at one table ------------------------------------------------------------------
class RemoteSession:
    """This client at one shared table: the seats and who sits there, the status, the chat,
    and once the game has started its host. `on_change` listeners hear of every change (the
    waiting screen)."""

    def __init__(
        self,
        server: RemoteServer,
        entry: TableEntry,
        seat: int | None,
        seq: int,
        code: str | None = None,
        token: str | None = None,
    ) -> None:
        self.server = server
        self.entry = entry
        self.table_id = entry.id
        self.seat = seat
        self.code = code
        self.token = token
        self.joined_seq = seq
        """The number of the table's last event when this client came (all up to it are
        the table's history, sent again)."""
        self.last_seq = 0
        self.again = False
        """Joined again, at a server of the list, after the connection was lost: that
        server numbers the table's events its own way, and its history is what this client
        has already (the game's events are skipped by their record's number)."""
        self.names: list[str | None] = [one.name for one in entry.seats]
        self.status = entry.status
        self.spectators = entry.spectators
        self.talk: list[Line] = []
        """The table talk before the game began (then the host's log has it)."""
        self.host: RemoteHost | None = None
        self.closed: Text | str | None = None
        """Why the table closed (or the connection was lost), once it has."""
        self.left = False
        self.problem: str | None = None
        self.undo_asking: int | None = None
        """The seat that asks to take back a decision, while the people answer."""
        self.undo_answered: set[int] = set()
        self.rematch_table: str | None = None
        """The table of the rematch another person opened."""
        self.away: dict[int, float | None] = {}
        """The seats of people who are away, held for them: when (`time.monotonic`) a bot
        takes each, None if unknown (they went before this client came)."""
        self.listeners: list[Callable[[], None]] = []

    @property
    def ready(self) -> bool:
        """The game has started and this client has caught up with it: show it."""
        return self.host is not None and self.last_seq >= self.joined_seq

    @property
    def free_seats(self) -> int:
        seats = zip(self.entry.seats, self.names, strict=True)
        return sum(1 for one, name in seats if one.kind == "human" and not name)

    def changed(self) -> None:
        for listener in list(self.listeners):
            listener()

    def receive(self, event: TableEvent) -> None:
        if event.seq <= self.last_seq:
            return  # seen already (the history sent again)
        self.last_seq = event.seq
        body = event.body
        live = event.seq > self.joined_seq
        if isinstance(body, TableClosed) and body.kept:
            # (not closed for good: it goes on at another server, or here after a restart)
            self.server.hang_up()
            return
        if isinstance(body, Seated):
            if live:
                self.names[body.seat] = body.name
        elif isinstance(body, Unseated):
            if live:
                self.names[body.seat] = None
        elif isinstance(body, Spectators):
            self.spectators = body.count
        elif isinstance(body, StatusChanged):
            self.status = body.status
        elif isinstance(body, TableClosed):
            self.closed = body.words.text()
        elif isinstance(body, HandedToBot):
            self._handed_to_bot(body)
        elif isinstance(body, UndoProposed):
            self.undo_asking, self.undo_answered = body.seat, set()
        elif isinstance(body, UndoAnswered):
            self.undo_answered.add(body.seat)
        elif isinstance(body, UndoSettled):
            self.undo_asking = None
        elif isinstance(body, RematchOpened):
            self.rematch_table = body.table
        self._note_away(body, live)
        if isinstance(body, GameEvent):
            self._game_event(body)
        elif self.again and not live:
            pass  # (the history again: its talk is in the log already)
        else:
            line = talk_of(body, self.names)
            if line is not None:
                if self.host is not None:
                    self.host.tell(line)
                else:
                    self.talk.append(line)
        if isinstance(body, TableClosed) and self.host is not None:
            self.host.refused(body.words.text())
        if live and self.host is not None and isinstance(body, (UndoProposed, RematchOpened)):
            line = talk_of(body, self.names)
            if line is not None:
                self.server.tell(line)  # (the question may be on the game-over screen)
        self.changed()

    def _note_away(self, body: Any, live: bool) -> None:
        """Keep `away` (and its countdowns) up to date."""
        if isinstance(body, Away):
            if body.seconds > 0:
                self.away[body.seat] = time.monotonic() + body.seconds if live else None
        elif isinstance(body, (Back, HandedToBot, Unseated, Seated)):
            self.away.pop(body.seat, None)
        elif isinstance(body, TableClosed) or (
            isinstance(body, StatusChanged) and body.status == "over"
        ):
            self.away.clear()

    def away_left(self, now: float | None = None) -> list[tuple[int, int | None]]:
        """The seats held for people who are away, in seat order, with the whole seconds
        left before a bot takes each (None: not known)."""
        now = time.monotonic() if now is None else now
        return [
            (seat, None if deadline is None else max(0, int(deadline - now + 0.999)))
            for seat, deadline in sorted(self.away.items())
        ]

    @property
    def hosting(self) -> bool:
        """This client opened the table (it may hand an away person's seat to a bot)."""
        return self.entry.host == self.server.user

    def hand_to_bot(self, seat: int) -> None:
        """Ask the server to give the away person's `seat` to a bot now (the host only: the
        server's refusal comes back as a `Problem`)."""
        self.server.later(HandToBot(table=self.table_id, seat=seat), self._refused_act)

    def _handed_to_bot(self, body: HandedToBot) -> None:
        seats = list(self.entry.seats)
        if 0 <= body.seat < len(seats):
            seats[body.seat] = seats[body.seat].model_copy(update={"kind": body.bot})
            self.entry = self.entry.model_copy(update={"seats": seats})
        if self.host is not None:
            table = self.host.table
            players = list(table.seats)
            players[body.seat] = Seat(name=players[body.seat].name, kind=body.bot)
            table.seats = tuple(players)

    def _game_event(self, body: GameEvent) -> None:
        seq, kind, seat, data = body.record
        if self.host is None:
            self._make_host()
        assert self.host is not None
        known = self.host.table.events
        if seq <= len(known):  # (the history again, at the server that took the table over)
            if list(known[seq - 1]) != list(body.record):
                differs = N_("event {seq} is not the one this table had")
                self._out_of_step(Text(differs, {"seq": seq}))
            return
        said = [words.text() for words in body.said]
        try:
            self.host.receive(rec.Event(seq, kind, seat, data), said)
        except rec.RecordError as error:
            self._out_of_step(error.text)

    def _out_of_step(self, why: Text | str) -> None:
        assert self.host is not None
        self.problem = render(why)
        out_of_step = N_("This table is out of step with the server ({error}): join it again")
        self.host.refused(Text(out_of_step, {"error": self.problem}))

    def _make_host(self) -> None:
        seats = [
            Seat(name=name or f"?{index + 1}", kind=one.kind)
            for index, (one, name) in enumerate(zip(self.entry.seats, self.names, strict=True))
        ]
        options = dict(getattr(self.entry, "options", None) or {})
        table = RemoteTable(self, seats, options)
        table.log.extend(self.talk)
        host = RemoteHost(self, table, **self.server.host_options)
        table.host = host
        self.host = host

    def reconnecting(self) -> None:
        """The connection to the server was lost: the client looks for another."""
        words = Text(RECONNECTING)
        if self.host is not None:
            self.host.refused(words)
        else:
            self.problem = render(words)
        self.changed()

    def rejoined(self, answer: Joined) -> None:
        """Joined again at a server of the list (`answer`): its numbering of the table's events
        from now on; the history it sends next is what this client has already."""
        self.joined_seq, self.last_seq, self.again = answer.seq, 0, True
        if answer.token is not None:
            self.token = answer.token

    def reconnected(self) -> None:
        """Joined again at a server: play goes on."""
        words = Text(N_("Connected to the server again: play goes on"))
        if self.host is not None:
            self.host.tell(words)
            self.host.resumed()  # (no more "reconnecting…" on the status line)
        else:
            self.problem = None
        self.changed()

    def lost(self, why: Text | str) -> None:
        """The connection to the server is gone."""
        if self.closed is None:
            self.closed = why
        if self.host is not None:
            self.host.refused(why)
        self.changed()

    # -- what this client asks ----------------------------------------------------------------
    def send_act(self, seat: int, action: dict[str, Any]) -> None:
        self.server.later(Act(table=self.table_id, seat=seat, action=action), self._refused_act)

    def _refused_act(self, error: ServerError) -> None:
        if self.host is not None:
            self.host.refused(error.text)

    def chat(self, text: str) -> None:
        self.server.later(Chat(table=self.table_id, text=text), self._refused_chat)

    def _refused_chat(self, error: ServerError) -> None:
        if self.host is not None:
            self.host.refused(error.text)
        else:
            self.problem = str(error)
            self.changed()

    def propose_undo(self) -> None:
        self.server.later(ProposeUndo(table=self.table_id), self._refused_act)

    def answer_undo(self, accept: bool) -> None:
        self.server.later(AnswerUndo(table=self.table_id, accept=accept), self._refused_act)

    def rematch(self) -> None:
        self.server.rematch(self)

    def leave(self) -> None:
        """Leave the table (once)."""
        if self.left:
            return
        self.left = True
        self.server.forget(self)
        if self.closed is None and not self.server.lost:
            self.server.later(Leave(table=self.table_id), lambda error: None)


class RemoteServer:
    """The app's connection to the server: the tables, and this client's sessions at them."""

    def __init__(self, client: ServerClient, address: ServerAddress) -> None:
        self.client = client
        self.address = address
        self.sessions: dict[str, RemoteSession] = {}
        self._early: dict[str, list[TableEvent]] = {}
        """Events of a table that came before the answer that seats us there."""
        self.lost: Text | None = None
        self.on_lost: Callable[[Text], None] | None = None
        self.idled: Text | None = None
        """Why the server closed this connection for doing nothing but ping at no table
        (`Limits.idle_limit`): then it is not made again until the app needs the server."""
        self.host_options: dict[str, Any] = {}
        """How each table's host is made (the app's runner of the coach's jobs)."""
        self.on_news: Callable[[Line], None] | None = None
        """Told what a person must see wherever they are (a rematch, an undo to answer)."""
        self.on_error: Callable[[BaseException], None] | None = None
        """Told of an error nobody foresaw in what a server's message set going (the app ends
        with its one-line report); the connection reads on."""
        self.on_session: Callable[[RemoteSession], None] | None = None
        """Told of a session this connection was given unasked (a rematch's table)."""
        self.on_reconnected: Callable[[], None] | None = None
        """Told when a lost connection is made again and every table joined again."""
        self.servers = address
        """Every server of the client's list (`address` is the one connected to)."""
        self.reconnecting = False
        """The connection was lost: the client is looking for a server of its list."""
        self.reconnects = 0
        """How many times a lost connection was made again."""
        self.reconnect_within = RECONNECT_WITHIN
        """Seconds this client tries the servers of its list after losing its server."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing = False
        self._hanging_up = False
        self._reader = asyncio.create_task(self._run())
        self._pinger = asyncio.create_task(self._ping())

    @classmethod
    async def connect(
        cls, address: ServerAddress, *, reconnect_within: float = RECONNECT_WITHIN
    ) -> RemoteServer:
        """Connect to the first server of `address`'s list that answers. ServerError (or
        TimeoutError) if none does, or they refuse us. `reconnect_within`: seconds to find
        a server again when the connection is lost (then it is lost for good)."""
        where, client = await address.connect_any()
        remote = cls(client, where)
        remote.servers = address
        remote.reconnect_within = reconnect_within
        return remote

    @property
    def user(self) -> str:
        return self.client.welcome.user if self.client.welcome is not None else "?"

    async def tables(self) -> list[TableEntry]:
        answer = await self._ask(ListTables())
        assert isinstance(answer, Tables)
        return answer.tables

    async def open(
        self,
        game: str,
        options: Mapping[str, Any],
        seats: Sequence[SeatSpec],
        *,
        sit: int | None = 0,
        private: bool = False,
    ) -> RemoteSession:
        request = OpenTable(
            game=game, options=dict(options), seats=list(seats), sit=sit, private=private
        )
        answer = await self._ask(request)
        assert isinstance(answer, Opened)
        if answer.seat is None:  # a table of bots only: watch it
            watched = await self.watch(answer.table.id)
            watched.code = answer.code
            return watched
        session = RemoteSession(
            self, answer.table, answer.seat, answer.seq, answer.code, answer.token
        )
        return self._add(session)

    async def join(
        self, table: str, *, code: str | None = None, seat: int | None = None
    ) -> RemoteSession:
        previous = self.sessions.get(table)
        token = previous.token if previous is not None else None
        answer = await self._ask(Join(table=table, seat=seat, code=code, token=token))
        assert isinstance(answer, Joined)
        session = RemoteSession(self, answer.table, answer.seat, answer.seq, code, answer.token)
        return self._add(session)

    async def watch(self, table: str, *, code: str | None = None) -> RemoteSession:
        answer = await self._ask(Watch(table=table, code=code))
        assert isinstance(answer, Joined)
        session = RemoteSession(self, answer.table, None, answer.seq, code)
        return self._add(session)

    def tell(self, line: Line) -> None:
        if self.on_news is not None:
            self.on_news(line)

    def rematch(self, session: RemoteSession) -> None:
        """Ask for a rematch of `session`'s table (or join the one opened): the new table's
        session goes to `on_session`; a refusal to `on_news`."""

        async def ask() -> None:
            try:
                answer = await self._ask(Rematch(table=session.table_id))
            except ServerError as error:
                self.tell(error.text)
                return
            except TimeoutError:
                self.tell(Text(N_("the server did not answer")))
                return
            assert isinstance(answer, Joined)
            self.forget(session)
            session.left = True
            new = self._add(
                RemoteSession(
                    self, answer.table, answer.seat, answer.seq, session.code, answer.token
                )
            )
            if self.on_session is not None:
                self.on_session(new)

        task = asyncio.create_task(ask())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _add(self, session: RemoteSession) -> RemoteSession:
        self.sessions[session.table_id] = session
        for event in self._early.pop(session.table_id, []):
            session.receive(event)
        return session

    def forget(self, session: RemoteSession) -> None:
        if self.sessions.get(session.table_id) is session:
            del self.sessions[session.table_id]
        self._early.pop(session.table_id, None)

    def later(self, request: Any, refused: Callable[[ServerError], None]) -> None:
        """Send `request` without waiting for its answer; `refused` hears of a refusal."""

        async def send() -> None:
            try:
                await self._ask(request)
            except ServerError as error:
                refused(error)
            except TimeoutError:
                refused(ServerError(Text(N_("the server did not answer"))))

        task = asyncio.create_task(send())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _ask(self, request: Any) -> Any:
        """The server's answer to `request`. ServerError: refused, or the connection is lost
        (while the client looks for a server of its list, it says so)."""
        if self.reconnecting:
            raise ServerError(Text(RECONNECTING))
        return await self.client.request(request)

    def hang_up(self) -> None:
        """The server let go of one of this client's tables without closing it for good
        (it stops, or another server of the database took the table over): drop this
        connection and find the server that plays it now, as after a lost connection."""
        self._hanging_up = True

    async def close(self) -> None:
        self._closing = True
        for task in (self._reader, self._pinger, *self._tasks):
            task.cancel()
        await self.client.close()

    async def _run(self) -> None:
        """Read the server's messages; when the connection is lost, connect to the next
        server of the list that answers and join this client's tables again there (for a
        minute at most: then the connection is lost for good)."""
        while True:
            await self._dispatch(self.client)
            if self._closing:
                return
            await self.client.close()  # (lost, or hung up on)
            if self.idled is not None and not self.sessions:
                self.lost = self.idled  # (quietly: the next use of the server connects again)
                self._pinger.cancel()
                return
            if not await self._reconnect():
                self._lose(Text(N_("No server answered for a minute: the connection is lost")))
                return

    async def _reconnect(self) -> bool:
        """Find a server of the list and join every table of this client there again (with
        each seat's token; the server sends each table's history from its first event, and
        the replicas skip what they have). False: nothing worked within RECONNECT_WITHIN."""
        self.reconnecting = True
        lost = self.address
        for session in list(self.sessions.values()):
            session.reconnecting()
        self.tell(Text(RECONNECTING))
        deadline = time.monotonic() + self.reconnect_within
        pause = RETRY_FIRST
        tried = lost
        while time.monotonic() < deadline:
            try:
                tried, client = await self.servers.connect_any(after=tried)
            except (ServerError, TimeoutError):
                pass
            else:
                if await self._join_again(client):
                    await self.client.close()
                    self.client, self.address = client, tried
                    self.reconnecting = False
                    self.reconnects += 1
                    for session in list(self.sessions.values()):
                        session.reconnected()
                    if self.on_reconnected is not None:
                        self.on_reconnected()
                    return True
                await client.close()  # (its tables are not there yet: the next one)
            wait = pause * random.uniform(0.5, 1.0)  # (a dead server's clients not in step)
            await asyncio.sleep(min(wait, max(0.0, deadline - time.monotonic())))
            pause = min(pause * 2, RETRY_MOST)
        self.reconnecting = False
        return False

    async def _join_again(self, client: ServerClient) -> bool:
        """Join (or watch) every table of this client at the server of `client`. Their events
        wait in its inbox for `_dispatch` (the replicas skip what they have). False if a game
        being played is not there yet (its server's lease has not run out), or the connection
        ended: try again later. A table refused otherwise, or one whose game had not begun
        (only a game being played is kept), is lost with the server."""
        for session in list(self.sessions.values()):
            if session.closed is not None or session.status == "over":
                continue  # (nothing more will happen there)
            if session.seat is not None:
                request: Any = Join(
                    table=session.table_id,
                    seat=session.seat,
                    code=session.code,
                    token=session.token,
                )
            else:
                request = Watch(table=session.table_id, code=session.code)
            try:
                answer = await client.request(request)
            except TimeoutError:
                return False
            except ServerError as error:
                if error.error is None:
                    return False  # (the connection ended)
                if error.error.code == "no_table" and session.status == "playing":
                    return False
                why = error.text if error.error.code != "no_table" else Text(TABLE_LOST)
                session.lost(why)
                continue
            if isinstance(answer, Joined):
                session.rejoined(answer)
        return True

    async def _dispatch(self, client: ServerClient) -> None:
        inbox = client.inbox
        closed = asyncio.create_task(client.closed.wait())
        try:
            while True:
                getting = asyncio.create_task(inbox.get())
                done, _pending = await asyncio.wait(
                    {getting, closed}, return_when=asyncio.FIRST_COMPLETED
                )
                if getting not in done:
                    getting.cancel()
                    if inbox.empty():
                        break
                    continue
                try:
                    self._deliver(getting.result())
                except Exception as error:  # a listener's: this connection reads on
                    self._failed(error)
                if self._hanging_up:
                    self._hanging_up = False
                    break
        finally:
            closed.cancel()

    def _failed(self, error: Exception) -> None:
        if self.on_error is not None:
            self.on_error(error)
        else:
            asyncio.get_running_loop().call_exception_handler(
                {"message": "an error at a shared table", "exception": error}
            )

    def _deliver(self, message: Any) -> None:
        if isinstance(message, TableEvent):
            session = self.sessions.get(message.table)
            if session is None:
                self._early.setdefault(message.table, []).append(message)
            else:
                session.receive(message)
        elif isinstance(message, Error) and message.fatal and message.code == "idle":
            words = message.words.text()
            self.idled = words if isinstance(words, Text) else Text(words)
        elif isinstance(message, Left):  # seated from another window: this one is out
            session = self.sessions.pop(message.table, None)
            if session is not None:
                session.left = True
                session.lost(Text(N_("You sat down at this table from another window")))

    def _lose(self, why: Text) -> None:
        if self.lost is not None:
            return
        self.lost = why
        for session in list(self.sessions.values()):
            session.lost(why)
        if self.on_lost is not None:
            self.on_lost(why)

    async def _ping(self) -> None:
        with contextlib.suppress(ServerError, TimeoutError):
            while True:
                await asyncio.sleep(PING_EVERY)
                if not self.reconnecting:
                    with contextlib.suppress(ServerError, TimeoutError):
                        await self.client.request(Ping())


__all__ = [
    "RemoteHost",
    "RemoteServer",
    "RemoteSession",
    "RemoteTable",
    "talk_of",
]
