"""SIGKILL at random moments of play, 200 times: every record opens and resumes, and at most
the action being written is lost.

The players are real processes forked from one driver (`record_driver.py zygote`, so that the
imports are paid once): each plays through the real Table, StoreRecorder and SQLiteStore and
says after every action the store took. A few more runs kill the real `cubilete` in a pty.
"""

from __future__ import annotations

import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from recordhelpers import F2, F3, AppInPty, unfinished_in
from waiting import wait_until

from app.i18n import render
from app.records.sqlite import SQLiteStore
from app.table import Table

ROOT = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).with_name("record_driver.py")
KILLS = 200


class Lines:
    """A process's stdout, line by line, with a deadline on every read."""

    def __init__(self, stream) -> None:
        self.queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream) -> None:
        for line in stream:
            self.queue.put(line.rstrip("\n"))
        self.queue.put(None)

    def next(self, timeout: float = 30) -> str:
        line = self.queue.get(timeout=timeout)
        if line is None:
            raise AssertionError("the driver ended")
        return line


def check_record(
    store: SQLiteStore, record_id: str, promised: int, upto: int | None = None
) -> None:
    """The record opens and replays; it has every event the store had promised, and beyond
    them (up to event `upto`) at most the one action that was being written (a decision and
    its throws, or an undo)."""
    record = store.load(record_id)
    assert len(record.events) >= promised, (record_id, len(record.events), promised)
    unreported = record.events[promised:upto]
    assert sum(event.kind != "chance" for event in unreported) <= 1, unreported
    table = Table.from_record(record)
    assert table.events == list(record.events)
    assert table.over or table.game.pending_throw(table.state) is None  # never a throw half-made


def test_sigkill_at_random_moments_loses_at_most_the_action_being_written(tmp_path):
    db = tmp_path / "records.db"
    rng = random.Random(20261201)
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    driver = subprocess.Popen(
        [sys.executable, str(DRIVER), "zygote", str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    lines = Lines(driver.stdout)
    promised: dict[str, int] = {}
    """What the store had acknowledged of each record: every child's last report of it."""
    killed_mid_game = 0

    def heard(line: str) -> str:
        """Take in a child's report; the record it is about."""
        word, record_id, seq = line.split()
        assert word in ("committed", "resumed"), line
        if word == "resumed":  # with, maybe, the last action of a child killed before
            store = SQLiteStore(db, check=False)
            try:
                check_record(store, record_id, promised.get(record_id, 0), int(seq))
            finally:
                store.close()
        promised[record_id] = int(seq)
        return record_id

    try:
        assert lines.next(timeout=60) == "ready"
        for kill in range(KILLS):
            assert driver.stdin is not None
            driver.stdin.write(f"{kill}\n")
            driver.stdin.flush()
            first = lines.next()
            assert first.startswith("child "), first
            pid = int(first.split()[1])
            playing = None
            for _ in range(rng.randint(0, 40)):
                playing = heard(lines.next())
            time.sleep(rng.random() * 0.02)  # land anywhere: in a commit, in a bot's thought
            os.kill(pid, signal.SIGKILL)
            while (line := lines.next()) != f"reaped {pid}":
                playing = heard(line)
            killed_mid_game += playing is not None
            store = SQLiteStore(db)  # integrity_check on every open: StoreDamaged would fail
            try:
                touched = {r.record_id for r in store.unfinished(limit=3)} | {playing} - {None}
                for record_id in touched:
                    assert record_id is not None
                    check_record(store, record_id, promised.get(record_id, 0))
            finally:
                store.close()
    finally:
        driver.kill()
        driver.wait(timeout=10)
    store = SQLiteStore(db)
    try:
        for record_id, seq in promised.items():
            check_record(store, record_id, seq)
        assert len(promised) >= 20 and killed_mid_game >= KILLS * 0.9
    finally:
        store.close()


# -- the real app, killed in a pty ---------------------------------------------------------------
PLAY_KEYS = [b" ", b"s", b"1", b"2", b"\r", b"k", b"a", b"t", b"c", b"\x1b[B"]
"""Keys that play in one game or another (throw, stop, pick, choose, keep, accept, move)."""


@pytest.mark.parametrize("run", range(8))
def test_the_real_app_killed_mid_game_resumes_from_its_record(tmp_path, run):
    rng = random.Random(run)
    game = ("barco", "generala", "multiplicacion", "piratas")[run % 4]
    data = tmp_path / "data"
    flags = ("--game", game, "--seed", str(run), "--no-animation", "--bot-pace", "0.05")
    with AppInPty(data, *flags) as app:
        wait_until(lambda: app.shows("Start (F2)"), 30, "the lobby")
        app.keys(F2)
        wait_until(lambda: unfinished_in(data), 30, "the game's record")
        deadline = time.monotonic() + rng.uniform(0.2, 2.5)
        while time.monotonic() < deadline:
            app.keys(rng.choice(PLAY_KEYS))
            time.sleep(rng.uniform(0.005, 0.08))
            app.read()
    store = SQLiteStore(data / "records.db")  # opens: not damaged
    try:
        (summary,) = store.unfinished() + store.history().items
        table = Table.from_record(store.load(summary.record_id))
    finally:
        store.close()
    if table.over:
        return  # (finished before the kill: in the history, nothing to resume)
    # and the app itself resumes it: F3 in the lobby, the game screen with that game
    with AppInPty(data, "--no-animation", "--seed", "1", "--bot-pace", "30") as app:
        wait_until(lambda: app.shows("Unfinished"), 30, "the lobby to offer the game")
        app.keys(F3)
        wait_until(lambda: app.shows("Table talk"), 30, "the game screen")
        last = " ".join(render(table.log[-1]).split()[:3])
        wait_until(lambda: app.shows(last), 10, f"its table talk, said afresh: {last!r}")
