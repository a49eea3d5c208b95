"""Real processes on one database: two players (two terminals) at once, and a database another
program keeps locked (no hang: a clear message after the busy timeout, and play goes on)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from recordhelpers import F2, ROOT, AppInPty, unfinished_in
from waiting import wait_until

from app.records.sqlite import SQLiteStore
from app.table import Table

DRIVER = ROOT / "tests" / "records" / "record_driver.py"

HOLD_LOCK = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
if sys.argv[2] == "exclusive-mode":  # not even readers get in
    db.execute("PRAGMA locking_mode = EXCLUSIVE")
    db.execute("BEGIN EXCLUSIVE")
    db.execute("UPDATE meta SET value = value WHERE key = 'schema_version'")
else:  # a writer that never commits: readers go on, writers wait
    db.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.read()  # until the test closes our stdin
"""


def hold_lock(db, how: str) -> subprocess.Popen:
    locker = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(db), how],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert locker.stdout is not None and locker.stdout.readline().strip() == "locked"
    return locker


def release(locker: subprocess.Popen) -> None:
    assert locker.stdin is not None
    locker.stdin.close()
    locker.wait(timeout=10)


def test_two_players_at_once_on_one_database_both_play_whole_games(tmp_path):
    db = tmp_path / "records.db"
    env = {"PYTHONPATH": str(ROOT)}
    players = [
        subprocess.Popen(
            [sys.executable, str(DRIVER), "play", str(db), str(seed), "4"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=os.environ | env,
        )
        for seed in (1, 2)
    ]
    for player in players:
        _out, errors = player.communicate(timeout=600)
        assert player.returncode == 0, errors
    store = SQLiteStore(db)
    assert store.unfinished() == [] and store.count_finished() == 8  # four whole games each
    for game in store.history().items:
        table = Table.from_record(store.load(game.record_id))
        assert table.over and game.outcome == (
            tuple(table.game.scores(table.state)),
            tuple(table.game.winners(table.state)),
        )
    store.close()


def test_two_cubilete_windows_at_once_each_record_their_own_game(tmp_path):
    data = tmp_path / "data"
    flags = ("--game", "barco", "--no-animation", "--bot-pace", "0.05")
    with (
        AppInPty(data, "--seed", "1", *flags) as one,
        AppInPty(data, "--seed", "2", *flags) as two,
    ):
        for app in (one, two):
            wait_until(lambda app=app: app.shows("Start (F2)"), 30, "the lobby")
        one.keys(F2)
        two.keys(F2)
        wait_until(lambda: len(unfinished_in(data)) == 2, 30, "both games' records")
        for _ in range(8):  # both play on at once: stop if there is a crew, then throw
            before = dict(unfinished_in(data))
            one.keys(b"s", b" ")
            two.keys(b"s", b" ")

            def both_recorded(before: dict[str, int] = before) -> bool:
                one.read(), two.read()  # (the screens drained, so neither app blocks)
                now = dict(unfinished_in(data))
                return len(now) == 2 and all(now[game] > before[game] for game in now)

            wait_until(both_recorded, 30, "both windows' throws in the records")
        assert one.shows("Cubilete — Barco") and two.shows("Cubilete — Barco")
    store = SQLiteStore(data / "records.db")
    games = store.unfinished()
    assert len(games) == 2
    for game in games:
        assert game.events >= 2 + 8  # the roll-off, then a move at least each time
        Table.from_record(store.load(game.record_id))
    store.close()


def test_a_database_another_program_keeps_locked_does_not_hang_the_game(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    SQLiteStore(data / "records.db").close()
    locker = hold_lock(data / "records.db", "writer")
    try:
        with AppInPty(data, "--game", "barco", "--seed", "3", "--no-animation") as app:
            wait_until(lambda: app.shows("Start (F2)"), 30, "the lobby (reading is not locked)")
            app.keys(F2)
            started = time.monotonic()
            wait_until(lambda: app.shows("The game is not being saved"), 15, "the message")
            assert time.monotonic() - started < 10  # the busy timeout is 2 s
            assert app.shows("locked by another")
            app.keys(b" ")  # and the game goes on
            wait_until(lambda: app.shows(" throws "), 15, "a throw")
    finally:
        release(locker)


def test_a_database_locked_even_for_readers_starts_the_lobby_unsaved_with_a_notice(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    SQLiteStore(data / "records.db").close()
    locker = hold_lock(data / "records.db", "exclusive-mode")
    try:
        with AppInPty(data, "--game", "barco", "--seed", "3", "--no-animation") as app:
            wait_until(lambda: app.shows("Start (F2)"), 30, "the lobby")
            wait_until(
                lambda: app.shows("Games are not being saved: The records are locked"),
                15,
                "the notice",
            )
            app.keys(F2)
            wait_until(lambda: app.shows("Round 1 of 10"), 15, "the game")
            app.keys(b" ")
            wait_until(lambda: app.shows(" throws "), 15, "a throw, unsaved")
    finally:
        release(locker)


OPEN_AT_ONCE = """
import sys, time
from pathlib import Path
from app.records.sqlite import SQLiteStore
start = float(sys.argv[2])
while time.time() < start:
    pass
store = SQLiteStore(Path(sys.argv[1]))
print(store.version(), flush=True)
store.close()
"""


def test_several_processes_making_the_same_new_database_at_once_all_open_it(tmp_path):

    # 15 races of 8 processes (before the store waited for the switch to WAL, 7 of 160 failed)
    for attempt in range(15):
        db = tmp_path / f"records-{attempt}.db"
        start = time.time() + 1.0
        racers = [
            subprocess.Popen(
                [sys.executable, "-c", OPEN_AT_ONCE, str(db), str(start)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=os.environ | {"PYTHONPATH": str(ROOT)},
            )
            for _ in range(8)
        ]
        for racer in racers:
            out, errors = racer.communicate(timeout=60)
            assert racer.returncode == 0, errors
            assert out.strip() == str(SQLiteStore(db).version())
