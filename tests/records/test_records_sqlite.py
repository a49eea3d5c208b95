"""The stores: records go in one transaction per action, come back whole, and are listed and
counted for the lobby, the history and the statistics, the same in SQLite and in PostgreSQL
(a test that takes `store` or `stores` runs on each: tests/records/conftest.py). The rest is
the SQLite file's own: its pragmas, a damaged file moved aside, a read-only data dir."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sqlite3
import stat
from collections import Counter

import pytest
from recordhelpers import Mount, can_mount, is_root, new_table, open_store, play

from app.records.events import Event, Header, Outcome, RecordError, SeatInfo
from app.records.schema import VERSION
from app.records.sqlite import SQLiteStore
from app.records.sqlite import open_store as open_records
from app.records.store import (
    RecordConflict,
    RecordNotFound,
    RecordStore,
    ReviewRow,
    StoreReadOnly,
    StoreTooNew,
)
from app.records.stores import open_records as open_target
from app.table import Seat, Table


@pytest.fixture
def sqlite_store(tmp_path):
    opened = open_store(tmp_path)
    yield opened
    opened.close()


def header(record_id: str = "r1", game_id: str = "generala", *names: str) -> Header:
    seats = tuple(SeatInfo(name, "human") for name in names or ("Ana", "Bruno"))
    return Header(record_id, game_id, {}, seats, 1000.0, 1000.0, "test")


def test_a_record_comes_back_as_it_was_written(store):
    table = play(new_table("barco", seed=4, store=store), moves=12)
    record = store.load(table.save_id)
    assert record.events == tuple(table.events)
    assert record.header.seats == table.header.seats
    assert record.header.options == table.header.options
    assert record.header.created == pytest.approx(table.header.created, abs=0.001)
    assert record.header.status == "playing" and record.header.outcome is None
    assert Table.from_record(record).state == table.state


def test_each_action_with_its_dice_is_one_transaction(store):
    table = new_table("generala", seed=2, store=store)
    changes = store._db.total_changes if isinstance(store, SQLiteStore) else None
    table.act({"kind": "roll", "hold": []})  # an action and the throw it causes
    written = store.load(table.save_id).events[-2:]
    assert [e.kind for e in written] == ["action", "chance"]
    # the two events and the record's new last number: one commit
    if isinstance(store, SQLiteStore):  # (autocommit is off)
        assert store._db.total_changes - changes == 3
        assert not store._db.in_transaction
    else:  # each row carries the id of the transaction that wrote it
        (key,) = store._db.execute(
            "SELECT id FROM records WHERE record_id = ?", (table.save_id,)
        ).fetchone()
        writers = store._db.execute(
            "SELECT xmin::text FROM events WHERE record = ? AND seq >= ?"
            " UNION SELECT xmin::text FROM records WHERE id = ?",
            (key, written[0].seq, key),
        ).fetchall()
        assert len(writers) == 1


def test_a_stale_writer_gets_a_conflict_and_writes_nothing(stores):
    first, second = stores(), stores()  # two windows (or two servers), one database
    table = new_table("generala", seed=1, store=first)
    stale = [Event(table.events[-1].seq + 1, "action", 0, {"kind": "roll", "hold": []})]
    play(table, moves=1)  # the first window plays on
    with pytest.raises(RecordConflict, match="has moved on elsewhere"):
        second.append(table.save_id, stale)
    assert second.load(table.save_id).events == tuple(table.events)


def test_a_gap_in_the_numbers_is_a_conflict(store):
    store.create(header(), [Event(1, "chance", 0, [3])])
    with pytest.raises(RecordConflict):
        store.append("r1", [Event(3, "chance", 1, [4])])


def test_a_record_cannot_be_created_twice(store):
    store.create(header())
    with pytest.raises(RecordConflict, match="exists already"):
        store.create(header())


def test_an_unknown_record_is_not_found(store):
    with pytest.raises(RecordNotFound):
        store.load("nope")
    with pytest.raises(RecordNotFound):
        store.append("nope", [Event(1, "chance", 0, [1])])


def test_a_finished_game_is_kept_with_its_final_scores_and_packed(store):
    table = play(new_table("multiplicacion", seed=3, store=store))
    record = store.load(table.save_id)
    assert record.header.status == "over"
    scores = tuple(table.game.scores(table.state))
    assert record.header.outcome == Outcome(scores, tuple(table.game.winners(table.state)))
    assert record.events == tuple(table.events)
    (rows,) = store._db.execute("SELECT COUNT(*) FROM events").fetchone()
    assert rows == 0  # the events now live in records.packed
    with pytest.raises(RecordConflict, match="is over"):
        store.append(table.save_id, [Event(len(table.events) + 1, "chance", 0, [1])])


def test_an_outcome_must_fit_the_seats(store):
    store.create(header())
    with pytest.raises(RecordError):
        store.append("r1", [], Outcome((1, 2, 3), (0,)))
    assert store.load("r1").header.status == "playing"  # nothing was written


def test_the_lobby_lists_unfinished_games_the_last_played_first(store):
    first = new_table("generala", seed=1, store=store)
    second = new_table("barco", seed=2, store=store)
    play(new_table("multiplicacion", seed=3, store=store))  # over: not listed
    abandoned = new_table("generala", seed=4, store=store)
    store.abandon(abandoned.save_id)
    play(first, moves=1)  # played last
    listed = store.unfinished()
    assert [g.record_id for g in listed] == [first.save_id, second.save_id]
    assert listed[0].summary() == "Generala with Ana, Bruno"
    assert listed[0].events == len(first.events)
    assert store.load(abandoned.save_id).header.status == "abandoned"


def finished(store: RecordStore, n: int) -> list[str]:
    """`n` finished games: generala and multiplicacion in turns, Ana at each, then others."""
    ids = []
    for i in range(n):
        game_id = ("generala", "multiplicacion")[i % 2]
        other = ("Bruno", "Carla")[i % 3 == 0]
        seats = [Seat(name="Ana"), Seat(name=other, kind="easy")]
        ids.append(play(new_table(game_id, seed=i, store=store, seats=seats)).save_id)
    return ids


def test_the_history_pages_through_finished_games_newest_first_with_filters(store):
    ids = finished(store, 12)
    page = store.history(limit=5)
    seen = [g.record_id for g in page.items]
    while page.next is not None:
        page = store.history(limit=5, after=page.next)
        seen += [g.record_id for g in page.items]
    assert seen == ids[::-1]
    assert store.count_finished() == 12
    generala = store.history(game_id="generala", limit=50).items
    assert [g.record_id for g in generala] == ids[::2][::-1]
    carla = store.history(player="Carla").items
    assert {g.record_id for g in carla} == {ids[i] for i in range(12) if i % 3 == 0}
    assert store.count_finished(game_id="multiplicacion", player="Carla") == 2
    assert all(g.outcome is not None and g.over for g in generala)


def test_the_statistics_count_games_wins_and_scores(store):
    finished(store, 6)
    stats = {(s.name, s.game_id): s for s in store.player_stats()}
    ana = stats["Ana", "generala"]
    assert ana.games == 3 and ana.kind == "human"
    rows = store._db.execute(
        "SELECT s.score, s.won FROM seats s JOIN records r ON r.id = s.record"
        " WHERE s.name = 'Ana' AND r.game_id = 'generala'"
    ).fetchall()
    assert ana.wins == sum(won for _s, won in rows)
    assert ana.average_score == pytest.approx(sum(s for s, _w in rows) / 3)
    assert ana.win_rate == ana.wins / 3
    spread = store.score_distribution(game_id="generala", player="Ana")
    assert spread == sorted(Counter(score for score, _won in rows).items())
    assert store.players() == [("Ana", "human", 6), ("Bruno", "easy", 4), ("Carla", "easy", 2)]
    assert store.player_stats(game_id="multiplicacion", player="Carla")[0].games == 1


def test_cached_reviews_answer_losses_over_time_and_the_costliest_mistakes(store):
    ids = finished(store, 3)
    assert store.unreviewed(1) == ids[::-1]
    store.save_reviews(ids[0], 1, [ReviewRow(0, "u", "fill:ones", 2, 3.0, 1, 2.5, 9)])
    store.save_reviews(ids[1], 1, [ReviewRow(0, "u", "fill:ones", 1, 1.0, 0, 1.0, 4)])
    store.save_reviews(
        ids[1], 1, [ReviewRow(0, "u", "keep", 4, 2.0, 0, 1.0, 4)]
    )  # replaces the first rows of that record
    assert store.unreviewed(1) == [ids[2]]
    assert store.unreviewed(2) == ids[::-1]  # a newer coach: all again
    points = store.loss_over_time(player="Ana")
    assert [(p.record_id, p.decisions, p.average_loss) for p in points] == [
        (ids[0], 2, 1.5),
        (ids[1], 4, 0.5),
    ]
    kinds = store.costliest_mistakes(player="Ana")
    assert [(k.kind, k.decisions, k.total_loss, k.mistakes) for k in kinds] == [
        ("fill:ones", 2, 3.0, 1),
        ("keep", 4, 2.0, 0),
    ]
    assert store.costliest_mistakes(player="Bruno") == []


def test_the_database_is_private_in_wal_mode_with_normal_sync_and_foreign_keys(
    sqlite_store, tmp_path
):
    store = sqlite_store
    new_table("generala", store=store)
    for name in ("records.db", "records.db-wal", "records.db-shm"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name
    pragma = lambda name: store._db.execute(f"PRAGMA {name}").fetchone()[0]  # noqa: E731
    assert pragma("journal_mode") == "wal"
    assert pragma("synchronous") == 1  # NORMAL (docs/architecture.md says why not FULL)
    assert pragma("foreign_keys") == 1
    assert pragma("busy_timeout") == 2000
    assert store.version() == VERSION


def test_garbage_instead_of_a_database_is_moved_aside_and_a_new_one_begins(tmp_path):
    path = tmp_path / "records.db"
    garbage = b"this is not a database" * 100
    path.write_bytes(garbage)
    opened = open_records(path)
    assert opened.store is not None and opened.moved_to is not None
    assert opened.moved_to.read_bytes() == garbage
    assert opened.moved_to.name.startswith("records-damaged-")
    assert "is damaged" in str(opened.problem)
    assert opened.store.unfinished() == []
    opened.store.close()


def test_a_database_that_reads_but_fails_its_integrity_check_is_moved_aside(tmp_path):
    path = tmp_path / "records.db"
    first = SQLiteStore(path)
    finished(first, 4)
    first.close()
    with contextlib.closing(sqlite3.connect(path)) as db, db:  # an index that no longer fits
        db.execute("PRAGMA writable_schema = ON")
        db.execute(
            "UPDATE sqlite_master SET sql = 'CREATE INDEX seats_by_name ON seats (kind, record)'"
            " WHERE name = 'seats_by_name'"
        )
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("SELECT COUNT(*) FROM records").fetchone() == (4,)  # it still reads
    before = path.read_bytes()
    opened = open_records(path)
    assert opened.moved_to is not None and opened.moved_to.read_bytes() == before
    reason = str(opened.problem)
    assert "row 1 missing from index seats_by_name" in reason and "more problems" in reason
    assert "\n" not in reason
    assert opened.store is not None and opened.store.count_finished() == 0
    opened.store.close()


def test_a_database_with_a_damaged_page_is_moved_aside(tmp_path):
    path = tmp_path / "records.db"
    first = SQLiteStore(path)
    finished(first, 4)
    first._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    (root,) = first._db.execute(
        "SELECT rootpage FROM sqlite_master WHERE name = 'seats_by_name'"
    ).fetchone()
    first.close()
    data = bytearray(path.read_bytes())
    data[(root - 1) * 4096 + 8 : (root - 1) * 4096 + 40] = b"\xff" * 32  # an index page's cells
    path.write_bytes(bytes(data))
    opened = open_records(path)
    assert opened.moved_to is not None and opened.moved_to.read_bytes() == bytes(data)
    assert "is damaged" in str(opened.problem) and "\n" not in str(opened.problem)
    assert opened.store is not None and opened.store.count_finished() == 0
    opened.store.close()


def test_a_database_of_a_newer_version_is_left_alone_and_nothing_is_saved(tmp_path):
    path = tmp_path / "records.db"
    SQLiteStore(path).close()
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    before = path.read_bytes()
    opened = open_records(path)
    assert opened.store is None and opened.moved_to is None
    assert isinstance(opened.problem, StoreTooNew)
    assert "newer Cubilete" in str(opened.problem)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["records.db"]


@pytest.mark.parametrize("existing", [False, True], ids=["no database yet", "a database"])
def test_a_read_only_data_dir_gives_no_store_and_says_why(tmp_path, existing):
    data = tmp_path / "data"
    if is_root():
        if (why := can_mount(tmp_path)) is not None:
            pytest.skip(why)
        mount = Mount(data, "1m").__enter__()
    else:
        data.mkdir()
    try:
        if existing:
            writer = SQLiteStore(data / "records.db")
            play(new_table("generala", store=writer), moves=2)
            writer.close()
        if is_root():
            mount.read_only()
        else:
            data.chmod(0o500)
        opened = open_records(data / "records.db")
        assert opened.store is None and opened.moved_to is None
        assert isinstance(opened.problem, StoreReadOnly)
        assert "cannot be written" in str(opened.problem)
    finally:
        if is_root():
            mount.__exit__()
        else:
            data.chmod(0o700)


def test_the_events_table_refuses_two_events_with_one_number(store):
    """The (record, seq) key: the last guard against two writers appending the same move."""
    store.create(header(), [Event(1, "chance", 0, [3])])
    with pytest.raises(store.IntegrityError):
        store._db.execute(
            "INSERT INTO events (record, seq, kind, seat, data) VALUES (1, 1, 'chance', 0, '[4]')"
        )


def test_the_database_file_is_made_private_even_with_a_permissive_umask(tmp_path):
    old = os.umask(0)
    try:
        SQLiteStore(tmp_path / "records.db").close()
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "records.db").stat().st_mode) == 0o600


def append_events(target: str, record_id: str, last: int, barrier, results) -> None:
    """(In a process of its own.) For n = 1 to `last`: when both racers are ready, append
    event n, and report whether it was written or refused."""
    store = open_target(target)
    try:
        for seq in range(1, last + 1):
            barrier.wait(60)
            try:
                store.append(record_id, [Event(seq, "chance", 0, [seq % 6 + 1])])
                results.put((seq, "appended"))
            except RecordConflict:
                results.put((seq, "conflict"))
            except Exception as error:  # (reported, so that the test fails at once)
                results.put((seq, repr(error)))
    finally:
        store.close()


def test_of_two_processes_appending_the_same_event_exactly_one_wins(store, store_target):
    """Two tables (two windows, or two servers) append event n to one record at the same
    moment, for n = 1 to 20: each time one writes it and the other is told the game moved
    on."""
    store.create(header())
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(2), context.Queue()
    racers = [
        context.Process(target=append_events, args=(store_target, "r1", 20, barrier, results))
        for _ in range(2)
    ]
    for racer in racers:
        racer.start()
    try:
        outcomes = sorted(results.get(timeout=120) for _ in range(40))
    finally:
        for racer in racers:
            racer.join(30)
            if racer.is_alive():
                racer.kill()
    assert outcomes == sorted(
        (n, outcome) for n in range(1, 21) for outcome in ("appended", "conflict")
    )
    events = store.load("r1").events
    assert [e.seq for e in events] == list(range(1, 21))
