"""The table host layer on a PostgreSQL database shared by two servers, in one process: a
move whose event number another server took meanwhile is refused by the records, told to
nobody, and the table moves away from the server that made it (never a fork)."""

from __future__ import annotations

from collections.abc import Sequence

from app.records.events import Event
from app.records.stores import open_records
from app.server.core import TableSetup
from app.server.hosting import KeptTable, ServerHosting
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


def test_a_move_whose_number_another_server_took_is_told_to_nobody(postgres_url):
    a = ServerHosting(None, pace=0, db=postgres_url, holder="a", lease=5)
    b = ServerHosting(None, pace=0, db=postgres_url, holder="b", lease=5)
    try:
        told_a, told_b = Told(), Told()
        setup = TableSetup("t1", "generala", {}, (("ana", "human"), ("bo", "human")))
        here = a.start(setup, told_a)
        assert told_a.events  # the roll-off
        # b plays the table on from its record (a hung past its lease, say)
        assert b.store is not None
        there = b.resume(
            KeptTable("t1", {}, b.store.load(here.record_id)), ["human", "human"], told_b
        )
        there.act(*a_move(there))
        assert told_b.events and there.events == here.events + len(told_b.events)
        # a wakes and makes its own move for the same number
        before = list(told_a.events)
        here.act(*a_move(here))
        assert told_a.events == before  # told to nobody
        assert told_a.moved == 1 and here.moved
        stored = open_records(postgres_url)
        try:
            record = stored.load(here.record_id)
        finally:
            stored.close()
        assert list(record.events) == list(there.table.events)  # the records hold b's game only
        here.close()
        there.close()
    finally:
        a.close()
        b.close()
