"""One record, several writers (servers on one database): each reads what the others appended,
a change is written before it is made or not made at all, and the sequence key decides a race.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from recordhelpers import bot_move, new_table, play
from waiting import wait_until

from app.dice import RandomDice
from app.records.events import Record
from app.records.postgres import PostgresStore
from app.records.recorder import StrictRecorder
from app.records.replay import replay
from app.records.store import RecordConflict, RecordStore
from app.table import Table


def follower(store: RecordStore, record_id: str, seed: int = 7) -> Table:
    """Another writer's table of the same record, writing before it changes."""
    return Table.from_record(
        store.load(record_id), dice=RandomDice(seed), recorder=StrictRecorder(store)
    )


def test_a_reader_gets_the_events_after_the_ones_it_has(stores: Callable[..., RecordStore]):
    store = stores()
    table = play(new_table("generala", store=store), moves=6)
    record_id, every = table.save_id, table.events
    assert store.events_after(record_id, 0) == every
    assert store.events_after(record_id, 3) == every[3:]
    assert store.events_after(record_id, len(every)) == []
    play(table)  # to the end: the events are packed now
    assert store.events_after(record_id, 3) == table.events[3:]


def test_a_table_follows_what_another_writer_appended_and_says_it_as_its_own(
    stores: Callable[..., RecordStore],
):
    store = stores()
    here = play(new_table("barco", store=store), moves=3)
    there = follower(stores(), here.save_id)
    play(there, moves=4)
    known = len(here.events)
    steps, lines = here.follow(store.events_after(here.save_id, known))
    assert [step.event for step in steps] == there.events[known:]
    assert here.state == there.state and here.events == there.events
    assert lines == there.log[len(there.log) - len(lines) :] and lines


def test_a_strict_writer_that_lost_the_race_is_left_as_it_was(
    stores: Callable[..., RecordStore],
):
    """Two writers decide on the same state; the one that appends second is refused by the
    sequence key, and its table is unchanged (no move that exists only in memory)."""
    store = stores()
    first = play(new_table("generala", store=store), moves=2)
    a, b = follower(stores(), first.save_id, 1), follower(stores(), first.save_id, 2)
    move = bot_move(a)
    a.act(move)
    state, events = b.state, list(b.events)
    with pytest.raises(RecordConflict):
        b.act(move)
    assert b.state is state and b.events == events
    b.follow(store.events_after(b.save_id, len(b.events)))
    assert b.state == a.state
    assert store.load(first.save_id).events == tuple(a.events)


def test_of_many_writers_appending_at_once_one_wins_each_number_and_the_record_replays(
    postgres_url,
):
    """Four threads, each a server with its own store, play one record at once for 40
    decisions: each reads what the others appended, decides, appends; a refused append is
    read again. No number is taken twice, no event is lost, and the record replays."""
    stores = [PostgresStore(postgres_url, max_connections=2) for _ in range(4)]
    record_id = play(new_table("barco", store=stores[0]), moves=1).save_id
    made: list[int] = []
    refused: list[int] = []

    def writer(index: int) -> None:
        store = stores[index]
        table = follower(store, record_id, seed=index)
        while len(made) < 40 and not table.over:
            table.follow(store.events_after(record_id, len(table.events)))
            if table.over:
                break
            try:
                table.act(bot_move(table))
            except RecordConflict:
                refused.append(index)
                continue
            made.append(index)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    record = stores[0].load(record_id)
    assert [event.seq for event in record.events] == list(range(1, len(record.events) + 1))
    replay(record)  # every event follows from the one before (RecordError if not)
    decisions = sum(event.kind == "action" for event in record.events)
    assert decisions == 1 + len(made)
    for store in stores:
        store.close()


def test_every_notice_is_heard_by_every_listener(postgres_url):
    """LISTEN/NOTIFY: a server that appended to a table another server holds tells it so
    (a StrictRecorder with `tell`), and the listener hears the record's last number at once."""
    writer, reader = PostgresStore(postgres_url), PostgresStore(postgres_url)
    heard: list[tuple[str | None, int]] = []
    listener = reader.listen(lambda record_id, seq: heard.append((record_id, seq)))
    try:
        assert listener.listening.wait(10)
        record_id = play(new_table("generala", store=writer), moves=1).save_id
        table = Table.from_record(
            writer.load(record_id),
            dice=RandomDice(3),
            recorder=StrictRecorder(writer, tell=writer.tell),
        )
        play(table, moves=3)
        wait_until(
            lambda: (table.save_id, len(table.events)) in heard, 10, "the last append heard"
        )
        assert all(record_id == table.save_id for record_id, _seq in heard)
        seqs = [seq for _record, seq in heard]
        assert seqs == sorted(seqs) and len(seqs) == 3
    finally:
        listener.stop()
        writer.close()
        reader.close()


def test_a_record_read_whole_is_the_same_as_one_followed_event_by_event(
    stores: Callable[..., RecordStore],
):
    store = stores()
    table = play(new_table("multiplicacion", store=store))
    followed = Table.from_record(Record(store.load(table.save_id).header, tuple(table.events[:5])))
    for n in range(5, len(table.events), 7):
        followed.follow(store.events_after(table.save_id, n)[:7])
    assert followed.events == table.events
    assert followed.state == table.state


def test_a_followed_undo_takes_back_the_decision_as_it_did_where_it_was_made(
    stores: Callable[..., RecordStore],
):
    """An undo among the events read from another writer goes back to the state before the
    decision it takes back (a part of the record is not enough for it: the whole is read)."""
    store = stores()
    table = new_table("generala", store=store)

    def anas_box() -> bool:  # (her throws done: only a box to write in)
        legal = table.game.legal_actions(table.state)
        return table.current_player() == 0 and all(a.kind == "fill" for a in legal)

    while not anas_box():
        table.act(bot_move(table) if table.current_player() != 0 else {"kind": "roll", "hold": []})
    known = len(table.events)
    follower_of_it = follower(stores(), table.save_id)
    before = table.state
    table.act(bot_move(table))  # Ana writes a box...
    table.undo()  # ...and takes it back
    assert table.state == before
    follower_of_it.follow(store.events_after(table.save_id, known))
    assert follower_of_it.state == table.state and follower_of_it.events == table.events
