"""A new player's first game opens the records once it is on the screen (`LateRecorder`),
and its record is never lost nor different for that: the beginning waits in memory until the
app begins the record, the game's next move, any read of the records or their closing."""

from __future__ import annotations

from recordhelpers import GAME_SEATS, bot_move

from app.dice import RandomDice
from app.records.book import RecordBook
from app.records.recorder import LateRecorder, StoreRecorder
from app.records.sqlite import SQLiteStore
from app.table import Table


def new_game(book: RecordBook, seed: int = 1) -> Table:
    """A game seated as the app seats one (`CubileteApp.start_game`)."""
    recorder = book.recorder(later=True)
    return Table.new("generala", GAME_SEATS["generala"], dice=RandomDice(seed), recorder=recorder)


def stored_events(path, record_id):
    store = SQLiteStore(path)
    try:
        return list(store.load(record_id).events)
    finally:
        store.close()


def test_a_new_players_first_game_makes_no_database_until_its_record_begins(tmp_path):
    path = tmp_path / "records.db"
    book = RecordBook(path)
    table = new_game(book)
    assert isinstance(table.recorder, LateRecorder) and table.events  # the roll-off, kept
    assert not path.exists()
    book.begin_records()  # (the app: once the game's first frame is painted)
    assert path.exists()
    assert stored_events(path, table.save_id) == table.events


def test_the_next_move_begins_the_record_with_the_beginning_first(tmp_path):
    path = tmp_path / "records.db"
    table = new_game(RecordBook(path))
    beginning = list(table.events)
    table.act(bot_move(table))
    assert stored_events(path, table.save_id) == table.events
    assert table.events[: len(beginning)] == beginning and len(table.events) > len(beginning)


def test_a_read_of_the_records_or_their_closing_begins_what_waits(tmp_path):
    path = tmp_path / "records.db"
    book = RecordBook(path)
    listed = new_game(book, seed=1)
    assert [game.record_id for game in book.unfinished()] == [listed.save_id]
    closed = new_game(book, seed=2)
    assert isinstance(closed.recorder, StoreRecorder)  # the records are open now: at once
    book.close()
    assert stored_events(path, closed.save_id) == closed.events

    book = RecordBook(tmp_path / "other.db")
    waiting = new_game(book, seed=3)
    book.close()
    assert stored_events(tmp_path / "other.db", waiting.save_id) == waiting.events


def test_a_record_begins_once_however_often_it_is_asked(tmp_path):
    path = tmp_path / "records.db"
    book = RecordBook(path)
    table = new_game(book)
    recorder = table.recorder
    assert isinstance(recorder, LateRecorder)
    assert recorder.retry() and recorder.retry()
    book.begin_records()
    table.act(bot_move(table))
    assert stored_events(path, table.save_id) == table.events
    assert recorder.problem is None


def test_without_a_store_a_late_record_is_told_once_and_plays_unsaved(tmp_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    told: list[str] = []
    book = RecordBook(blocker / "records.db", on_notice=told.append)
    table = new_game(book)
    table.act(bot_move(table))  # (begins it: nothing can be saved)
    assert table.recorder is not None and not table.recorder.retry()
    assert len(told) == 1 and "not being saved" in told[0]
    assert book.recorder(later=True) is None  # known now: the next game has none
