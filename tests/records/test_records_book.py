"""The records as the app uses them: opened when first needed, old JSON saves imported (and
moved away only once imported), saves that cannot be read reported and left byte for byte,
and play without saving when the store cannot be used."""

from __future__ import annotations

import contextlib
import sqlite3

import pytest
from recordhelpers import bot_move, new_table, play

from app import saves
from app.dice import RandomDice
from app.records.book import RecordBook
from app.records.importer import IMPORTED
from app.records.sqlite import SQLiteStore
from app.records.store import StoreError


@pytest.fixture
def folders(tmp_path):
    saved = tmp_path / "saves"
    saved.mkdir()
    return tmp_path / "records.db", saved


def saved_game(folder, game_id="generala", moves=6, seed=1):
    """A JSON save as earlier versions wrote it, of a game `moves` decisions in."""
    table = play(new_table(game_id, seed=seed), moves=moves)
    return table, saves.write(table, folder)


def test_a_new_player_costs_no_database_until_the_first_game(folders):
    path, saved = folders
    book = RecordBook(path, saved)
    assert book.unfinished() == []
    assert not path.exists()
    table = new_table("generala", seed=1)
    table.recorder = book.recorder()
    play(table, moves=1)
    assert path.exists()
    assert [g.record_id for g in book.unfinished()] == [table.save_id]


def test_old_saves_are_imported_once_and_moved_aside_only_then(folders):
    path, saved = folders
    old, old_file = saved_game(saved, "generala", seed=1)
    done, done_file = saved_game(saved, "multiplicacion", moves=500, seed=2)
    assert done.over
    book = RecordBook(path, saved)
    listed = book.unfinished()
    assert [g.record_id for g in listed] == [old.save_id]
    assert not old_file.exists() and not done_file.exists()
    assert sorted(p.name for p in (saved / IMPORTED).iterdir()) == sorted(
        [old_file.name, done_file.name]
    )
    record = book.store.load(old.save_id)
    assert record.events == () and record.header.start == old.state.model_dump(mode="json")
    finished = book.store.load(done.save_id).header
    assert finished.status == "over" and finished.outcome.scores == tuple(
        done.game.scores(done.state)
    )
    # the imported game goes on from its snapshot, and its new events are recorded
    table = book.resume(old.save_id, RandomDice(3))
    assert table.state == old.state
    table.act(bot_move(table))
    again = book.store.load(old.save_id)
    assert len(again.events) == len(table.events) >= 1
    assert book.resume(old.save_id).state == table.state
    book.close()
    assert RecordBook(path, saved).unfinished()[0].events == len(table.events)  # not imported twice


def test_a_save_that_cannot_be_read_is_reported_and_left_byte_for_byte(folders):
    path, saved = folders
    broken = saved / "game-broken.json"
    content = b'{"format": 1, "game": "generala", "state": {"round": "thirteen"'
    broken.write_bytes(content)
    book = RecordBook(path, saved)
    assert book.unfinished() == []
    assert [error.path for error in book.unreadable] == [broken]
    assert broken.read_bytes() == content
    assert not (saved / IMPORTED).exists()


def test_a_save_imported_before_a_crash_is_only_moved_the_next_time(folders):
    path, saved = folders
    table, file = saved_game(saved)
    book = RecordBook(path, saved)
    book.unfinished()
    book.close()
    (saved / IMPORTED / file.name).rename(file)  # as if the app died between commit and move
    book = RecordBook(path, saved)
    assert [g.record_id for g in book.unfinished()] == [table.save_id]
    assert not file.exists()


def test_a_save_the_store_cannot_take_now_stays_where_it_is(folders):
    path, saved = folders
    SQLiteStore(path).close()
    _table, file = saved_game(saved)
    before = file.read_bytes()
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")  # another program holds the database
        book = RecordBook(path, saved, busy_timeout=0.1)
        assert book.unfinished() == []
        other.execute("ROLLBACK")
    assert file.read_bytes() == before
    (failed, error) = book.not_imported[0]
    assert failed == file and "locked by another program" in str(error)
    assert any("Could not import save" in line for line in book.notices())
    book.close()
    assert len(RecordBook(path, saved).unfinished()) == 1  # the next start imports it


def test_a_damaged_database_is_reported_with_the_name_it_was_moved_to(folders):
    path, saved = folders
    path.write_bytes(b"not a database at all" * 50)
    book = RecordBook(path, saved)
    assert book.unfinished() == []
    assert book.moved_to is not None and book.moved_to.exists()
    (line,) = book.notices()
    assert str(book.moved_to) in line and "moved aside" in line
    assert book.recorder() is not None  # a new database began


def test_without_a_store_play_goes_on_unsaved_and_the_lobby_says_so(folders, tmp_path):
    _path, saved = folders
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    book = RecordBook(blocker / "records.db", saved)  # its folder cannot even exist
    assert book.store is None and book.recorder() is None
    (line,) = book.notices()
    assert line.startswith("⚠ Games are not being saved")
    table = new_table("generala", seed=1)
    table.recorder = book.recorder()
    play(table, moves=3)  # plays on
    assert len(table.events) > 3


def test_a_database_that_fails_its_check_is_moved_aside_before_anything_is_written(folders):
    path, saved = folders
    first = SQLiteStore(path)
    play(new_table("generala", seed=1, store=first), moves=3)
    first.close()
    with contextlib.closing(sqlite3.connect(path)) as db, db:  # an index that no longer fits
        db.execute("PRAGMA writable_schema = ON")
        db.execute(
            "UPDATE sqlite_master SET sql = 'CREATE INDEX seats_by_name ON seats (kind, record)'"
            " WHERE name = 'seats_by_name'"
        )
    before = path.read_bytes()
    told: list[str] = []
    book = RecordBook(path, saved, on_notice=told.append)
    assert len(book.unfinished()) == 1  # the lobby lists what it can while the check runs
    recorder = book.recorder()  # the first write waits for the check
    assert recorder is not None
    assert book.moved_to is not None and book.moved_to.read_bytes() == before
    assert len(told) == 1 and "moved aside" in told[0] and str(book.moved_to) in told[0]
    table = new_table("barco", seed=2)
    table.recorder = recorder
    play(table, moves=2)
    assert [g.record_id for g in book.unfinished()] == [table.save_id]  # a new database


def test_the_book_abandons_a_game_and_answers_the_history_and_the_statistics(folders):
    path, saved = folders
    book = RecordBook(path, saved)
    finished, unfinished = new_table("generala", seed=1), new_table("barco", seed=2)
    for table in (finished, unfinished):
        table.recorder = book.recorder()
    play(finished)
    play(unfinished, moves=4)
    assert [g.record_id for g in book.unfinished()] == [unfinished.save_id]
    book.abandon(unfinished.save_id)
    assert book.unfinished() == []
    assert book.load(unfinished.save_id).header.status == "abandoned"  # kept, listed no more
    with pytest.raises(StoreError):
        book.abandon(finished.save_id)  # over already
    page = book.history()
    assert [g.record_id for g in page.items] == [finished.save_id] and page.next is None
    assert book.count_finished(game_id="generala") == 1
    assert book.count_finished(game_id="barco") == 0
    assert {name for name, _kind, _games in book.players()} == {"Ana", "Bruno"}
    (ana,) = book.player_stats(player="Ana")
    assert ana.games == 1 and ana.game_id == "generala"
    score = finished.game.scores(finished.state)[0]
    assert book.score_distribution(game_id="generala", player="Ana") == [(score, 1)]
    assert book.review_pending() == 1
    assert len(book.loss_over_time(player="Ana")) >= 1
    assert book.costliest_mistakes(player="Ana")
    assert book.problem is None


def test_without_a_store_the_history_and_statistics_answer_nothing_and_say_why(tmp_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    book = RecordBook(blocker / "records.db")
    assert book.history().items == [] and book.count_finished() == 0
    assert book.player_stats() == [] and book.loss_over_time(player="Ana") == []
    assert book.problem is not None
    with pytest.raises(StoreError):
        book.load("anything")
