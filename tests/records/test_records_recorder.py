"""A table's recorder: every action reaches the store in one piece; when the store cannot take
it, play goes on, the player is told once, and the record catches up when the store works."""

from __future__ import annotations

import contextlib
import sqlite3
import time

from recordhelpers import bot_move, new_table, open_store, play

from app.records.recorder import StoreRecorder
from app.records.store import RecordConflict, StoreBusy
from app.table import Table


@contextlib.contextmanager
def locked(path):
    """Another program holds the database's write lock."""
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        yield
        other.execute("ROLLBACK")


def test_a_locked_store_is_told_once_and_the_record_catches_up_after(tmp_path):
    store = open_store(tmp_path, busy_timeout=0.05)
    told = []
    table = new_table("generala", seed=2)
    table.recorder = recorder = StoreRecorder(store, told.append, retry_after=0)
    play(table, moves=2)
    with locked(tmp_path / "records.db"):
        started = time.monotonic()
        play(table, moves=5)  # play goes on
        assert time.monotonic() - started < 5  # no hang: each write gives up after the timeout
        assert len(told) == 1 and isinstance(told[0], StoreBusy)
        assert "locked by another program" in str(told[0])
        assert recorder.unsaved > 0 and recorder.problem is not None
    play(table, moves=1)  # the next action takes everything that waited
    assert recorder.problem is None and recorder.unsaved == 0
    assert store.load(table.save_id).events == tuple(table.events)
    assert len(told) == 1


def test_a_new_game_whose_first_write_fails_is_created_later(tmp_path):
    store = open_store(tmp_path, busy_timeout=0.05)
    told = []
    with locked(tmp_path / "records.db"):
        table = new_table("barco", seed=1)  # made without a recorder, then given one
        table = Table.new(
            "barco", list(table.seats), {"rounds": 2}, dice=table.dice,
            recorder=StoreRecorder(store, told.append, retry_after=0),
        )  # fmt: skip
        assert store.unfinished() == []  # (readers are not blocked by the writer's lock)
    assert len(told) == 1
    assert table.recorder is not None and table.recorder.retry()
    assert store.load(table.save_id).events == tuple(table.events)


def test_while_the_store_is_locked_the_game_waits_for_it_once_not_at_every_move(tmp_path):
    store = open_store(tmp_path, busy_timeout=0.5)
    table = new_table("generala", seed=5)
    table.recorder = recorder = StoreRecorder(store, retry_after=60)
    with locked(tmp_path / "records.db"):
        started = time.monotonic()
        play(table, moves=10)
        waited = time.monotonic() - started
    assert 0.5 <= waited < 1.5  # one busy timeout, then play at full speed
    assert recorder.unsaved > 0
    assert recorder.retry() and store.load(table.save_id).events == tuple(table.events)


def test_when_another_window_played_on_the_recorder_stops_and_says_so(tmp_path):
    store = open_store(tmp_path)
    told = []
    here = new_table("generala", seed=3)
    here.recorder = recorder = StoreRecorder(store, told.append)
    play(here, moves=2)
    there = Table.from_record(store.load(here.save_id), dice=here.dice)
    there.recorder = StoreRecorder(store)
    play(there, moves=1)  # the other window moves first
    play(here, moves=2)
    assert len(told) == 1 and isinstance(told[0], RecordConflict)
    assert recorder.stopped
    assert store.load(here.save_id).events == tuple(there.events)  # never forked


def test_a_finished_game_is_closed_by_its_last_action(tmp_path):
    store = open_store(tmp_path)
    table = new_table("multiplicacion", seed=4, store=store)
    while not table.over:
        assert store.load(table.save_id).header.status == "playing"
        table.act(bot_move(table))
    assert store.load(table.save_id).header.status == "over"
