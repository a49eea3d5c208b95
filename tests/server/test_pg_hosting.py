"""The table host layer on a PostgreSQL database shared by two servers, in one process: a
move whose event number another server took meanwhile is refused by the records; the server
that made it reads what the other appended, tells it as its own, and validates the move again:
it stands (and follows), or its person hears that the table moved on. Never a fork."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from app.records.events import Event
from app.records.stores import open_records
from app.server.core import TableSetup
from app.server.hosting import KeptTable, MovedOn, ServerHosting
from rules import Text


class Told:
    """A table's feed that keeps what it is told (the server's core, minus the sockets)."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.moved = 0
        self.over = 0

    def game_event(self, event: Event, said: Sequence[Text | str]) -> None:
        self.events.append(event)

    def moved_away(self) -> None:
        self.moved += 1

    def game_over(self) -> None:
        self.over += 1


def a_move(hosted) -> tuple[int, dict]:
    table = hosted.table
    seat = table.current_player()
    assert seat is not None and table.game.pending_throw(table.state) is None
    action = table.game.legal_actions(table.state)[0]
    return seat, action.model_dump(mode="json")


def fill(hosted, box: str) -> tuple[int, dict]:
    seat = hosted.table.current_player()
    assert seat is not None
    return seat, {"kind": "fill", "box": box}


def stored_events(url: str, record_id: str) -> list[Event]:
    stored = open_records(url)
    try:
        return list(stored.load(record_id).events)
    finally:
        stored.close()


def two_servers(url: str) -> tuple[ServerHosting, ServerHosting]:
    return (
        ServerHosting(None, pace=0, db=url, holder="a", lease=5),
        ServerHosting(None, pace=0, db=url, holder="b", lease=5),
    )


def test_a_move_that_still_stands_after_another_servers_move_follows_it(postgres_url):
    """Both servers throw for Ana at once (a reconnecting client, say): b's throw takes the
    number; a reads it, tells it, finds that Ana may still throw, and throws after it."""
    a, b = two_servers(postgres_url)
    try:
        told_a, told_b = Told(), Told()
        setup = TableSetup("t1", "generala", {}, (("ana", "human"), ("bo", "human")))
        here = a.start(setup, told_a)
        assert told_a.events  # the roll-off
        assert b.store is not None
        there = b.resume(
            KeptTable("t1", {}, b.store.load(here.record_id)), ["human", "human"], told_b
        )
        move = a_move(there)
        there.act(*move)
        rolled = len(there.table.events)
        here.act(*move)  # the same decision, decided on the state before b's
        assert told_a.events[:rolled] == there.table.events  # b's throw told at a first
        assert (told_a.events[rolled].kind, told_a.events[rolled].seat) == ("action", move[0])
        assert stored_events(postgres_url, here.record_id) == here.table.events
        assert not here.moved
        here.close()
        there.close()
    finally:
        a.close()
        b.close()


def test_a_move_that_no_longer_stands_is_refused_as_the_table_moved_on(postgres_url):
    """Ana's last throw is in; b writes her Generala box; a, not knowing, writes her Libre
    for the same number: refused by the records, a reads b's move (the turn is Bo's now), and
    Ana hears that the table moved on. The records hold b's game; a tells it too."""
    a, b = two_servers(postgres_url)
    try:
        told_a, told_b = Told(), Told()
        setup = TableSetup("t1", "generala", {}, (("ana", "human"), ("bo", "human")))
        here = a.start(setup, told_a)
        for _throw in range(3):
            here.act(*a_move(here))
        assert b.store is not None
        there = b.resume(
            KeptTable("t1", {}, b.store.load(here.record_id)), ["human", "human"], told_b
        )
        ana = here.table.current_player()
        there.act(*fill(there, "generala"))
        with pytest.raises(MovedOn) as refusal:
            here.act(*fill(here, "libre"))
        assert "moved on" in str(refusal.value)
        assert here.table.current_player() != ana  # a followed b's move
        assert here.table.events == there.table.events
        assert told_a.events == here.table.events
        assert stored_events(postgres_url, here.record_id) == there.table.events
        here.close()
        there.close()
    finally:
        a.close()
        b.close()


def test_a_bot_whose_move_another_server_took_reads_it_and_plays_on(postgres_url):
    """A bot seat at a (its lease holder) and a person's decision appended by b: a hears of
    it, tells it, and its bot plays the next decision; the records are one game."""
    import asyncio

    async def main() -> None:
        a, b = two_servers(postgres_url)
        try:
            told_a = Told()
            setup = TableSetup("t1", "generala", {}, (("ana", "human"), ("bot", "easy")))
            here = a.start(setup, told_a)
            a.keep("t1", here.record_id, {"seats": [{"kind": "human"}, {"kind": "easy"}]})

            async def anas_turn() -> None:  # (the bot plays first if it won the roll-off)
                async with asyncio.timeout(30):
                    while here.table.current_player() != 0 or here.table.game.pending_throw(
                        here.table.state
                    ):
                        await asyncio.sleep(0.01)

            await anas_turn()
            seat, action = a_move(here)
            last = b.act_elsewhere("t1", seat, action)
            here.heard(last)
            assert told_a.events[-1].seq == last
            for _throw in range(2):
                b.act_elsewhere("t1", *a_move(here))
                here.heard(0)
            b.act_elsewhere("t1", *fill(here, "generala"))
            here.heard(0)
            await anas_turn()  # (after the bot's turn: pace 0, a task per move)
            assert stored_events(postgres_url, here.record_id) == here.table.events
            assert told_a.events == here.table.events
            here.close()
        finally:
            a.close()
            b.close()

    asyncio.run(main())
