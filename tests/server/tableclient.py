"""A client of shared tables for the tests, built on `app.server.client.ServerClient`, that
does what a real client must: it rebuilds each table's game by replaying the record events it
is sent through `rules` (it never throws a die), checks that the events come numbered 1, 2,
3... with nothing lost, repeated or out of order, and plays its seat's turns."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from app.server.client import ServerClient, ServerError
from app.server.protocol import (
    Act,
    Error,
    GameEvent,
    Joined,
    Opened,
    Request,
    Seated,
    StatusChanged,
    TableClosed,
    TableEntry,
    TableEvent,
)
from rules import get_game


class TableView:
    """One table as a client sees it: its events, its game rebuilt from them."""

    def __init__(self, answer: Joined | Opened) -> None:
        self.entry: TableEntry = answer.table
        self.id = answer.table.id
        self.seat = answer.seat
        self.token = answer.token
        self.joined_seq = answer.seq
        self.game = get_game(answer.table.game)
        self.names: list[str | None] = [seat.name for seat in answer.table.seats]
        self.events: list[TableEvent] = []
        self.record: list[tuple[int, str, int | None, Any]] = []
        self.states: list[Any] = []
        """The state after each record event (`states[n - 1]`: after event n)."""
        self.start: Any = None
        self.status = answer.table.status
        self.closed = False
        self.problems: list[str] = []
        """Events lost, repeated or out of order (none, if all is well)."""

    @property
    def state(self) -> Any:
        return self.states[-1] if self.states else self.start

    @property
    def over(self) -> bool:
        return self.status == "over" or self.closed

    def my_turn(self) -> bool:
        state = self.state
        return (
            state is not None
            and self.seat is not None
            and not self.over
            and not self.game.is_over(state)
            and self.game.pending_throw(state) is None
            and self.game.current_player(state) == self.seat
        )

    def take(self, event: TableEvent) -> None:
        expected = len(self.events) + 1
        if event.seq < expected:
            return  # seen
        if event.seq > expected:
            self.problems.append(f"event {expected} lost (got {event.seq})")
        self.events.append(event)
        body = event.body
        if isinstance(body, Seated):
            self.names[body.seat] = body.name
        elif isinstance(body, StatusChanged):
            self.status = body.status
        elif isinstance(body, TableClosed):
            self.closed = True
        elif isinstance(body, GameEvent):
            self._replay(body)

    def _replay(self, body: GameEvent) -> None:
        seq, kind, _seat, data = body.record
        if seq != len(self.record) + 1:
            self.problems.append(f"record event {seq} after {len(self.record)}")
        self.record.append(body.record)
        if self.start is None:
            names = [name or "?" for name in self.names]
            self.start = self.game.new_game(names, self.entry.options)
        before = self.state
        if kind == "action":
            after = self.game.apply(before, data)  # type: ignore[arg-type]  # an action's JSON
        elif kind == "chance":
            after = self.game.apply_chance(before, tuple(data))  # type: ignore[arg-type]  # faces
        else:
            target = data["to"]  # type: ignore[index]  # {"to": N}
            after = self.states[target - 2] if target > 1 else self.start
        self.states.append(after)


class Player:
    """A person's client: a connection, the tables it is at, and how it plays."""

    def __init__(self, client: ServerClient, seed: int = 0) -> None:
        self.client = client
        self.views: dict[str, TableView] = {}
        self.others: list[Any] = []
        """Whatever else the server sent (refusals without a ref...)."""
        self.random = random.Random(seed)

    async def sit(self, request: Request) -> TableView:
        """Open, join or watch: the table's view, once its history so far has come in."""
        answer = await self.client.request(request)
        assert isinstance(answer, Joined | Opened), answer
        view = TableView(answer)
        self.views[view.id] = view
        await self.pump(lambda: len(view.events) >= view.joined_seq)
        assert [event.seq for event in view.events[: view.joined_seq]] == list(
            range(1, view.joined_seq + 1)
        )
        return view

    async def pump(self, until: Callable[[], bool], timeout: float = 60.0) -> None:
        """Take in what the server has sent, then more until `until()` holds."""
        inbox = self.client.inbox
        while not inbox.empty():
            self._take(inbox.get_nowait())
        async with asyncio.timeout(timeout):
            while not until():
                self._take(await inbox.get())

    def _take(self, message: Any) -> None:
        if isinstance(message, TableEvent) and message.table in self.views:
            self.views[message.table].take(message)
        else:
            self.others.append(message)

    def choose(self, view: TableView) -> BaseModel:
        return self.random.choice(view.game.legal_actions(view.state))

    async def act(self, view: TableView, action: BaseModel | None = None) -> None:
        assert view.seat is not None
        action = action or self.choose(view)
        request = Act(table=view.id, seat=view.seat, action=action.model_dump(mode="json"))
        while True:
            try:
                await self.client.request(request)
                return
            except ServerError as error:
                if refused_code(error) != "too_fast":  # (the tests play faster than people)
                    raise
            await asyncio.sleep(0.2)

    async def play(
        self,
        view: TableView,
        stop: Callable[[], bool] = lambda: False,
        timeout: float = 120.0,
    ) -> int:
        """Play this seat's turns until the game is over (or `stop()` holds). Returns the
        number of decisions made."""
        made = 0
        async with asyncio.timeout(timeout):
            while True:
                await self.pump(lambda: view.over or stop() or view.my_turn())
                if view.over or stop():
                    break
                try:
                    await self.act(view)
                except ServerError as error:  # (a view that lags cannot happen: told first)
                    raise AssertionError(f"refused: {error}") from None
                made += 1
        return made

    async def close(self) -> None:
        await self.client.close()


def refused_code(error: ServerError) -> str:
    assert isinstance(error.error, Error)
    return error.error.code
