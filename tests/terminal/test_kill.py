"""SIGKILL through the real terminal app: a `cubilete` in a pty, killed at random moments, many
times over, on one data dir.

Each round starts the app on the same data dir, resumes the newest unfinished game (F3, three
times in five when there is one) or starts one (F2; the lobby offers a random game with two
people at the table, and the app records it from its first throws), plays random keys
of the games, and is killed with SIGKILL at a random moment: while starting and opening the
records, while importing old JSON saves (the data dir starts with some; while any is left, the
round is killed as soon as the next one has been imported), while a game is being replayed to
be resumed, or playing (half the rounds right after a key, 0-20 ms, as that move is being
recorded). Meanwhile the test reads the records as often as it can.

After every kill:
- the database is intact: it passes `PRAGMA integrity_check` and the app never moved it aside
  as damaged;
- every record reads back and replays (`Table.from_record`), never with a throw half made;
- nothing recorded is lost: each record still begins with the events read before the kill;
- each old save is either still waiting in `saves/` or in `saves/imported/` with its record,
  never lost, never both;
- and the next round resumes the newest unfinished game in the real app (F3).
After the last kill a new start imports what is left, warns of nothing, and F3 resumes the
newest unfinished game with its table talk told afresh.

What this adds to `tests/records/test_records_kill.py`: there, players without a screen are
killed 200 times to prove the bound (at most the action being written is lost, counted
against what the store acknowledged), and the real app is killed once per data dir. Here the
real app is killed over and over on one database, also while it starts, imports and
resumes, and each round goes on from what the kills before left.

`CUBILETE_KILLS=N` sets the number of kills (40 by default, about a minute here).
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

from ptyapp import F2, F3, GAME, LOBBY, App
from waiting import wait_until

from app import saves
from app.dice import RandomDice
from app.i18n import render
from app.records.events import Event
from app.records.sqlite import SQLiteStore
from app.table import Seat, Table
from bots import get_bot

KILLS = int(os.environ.get("CUBILETE_KILLS", "40"))
SEED = int(os.environ.get("CUBILETE_KILL_SEED", "20261201"))
GAMES = ["generala", "barco", "navio", "multiplicacion", "piratas"]
OLD_SAVES = 6

KEYS = [b" ", b" ", b"r", b"s", b"1", b"2", b"3", b"k", b"t", b"a", b"p", b"\r", b"\x1b[B", b"y"]
"""Keys of the five games (throw, stop, hold or pick, keep, accept, move, a box, yes)."""

Events = tuple[Event, ...]


def write_old_saves(folder: Path, rng: random.Random) -> dict[str, str]:
    """JSON saves as earlier versions wrote them, games of two people a few moves in: each
    file's name and its id (the id its record takes)."""
    folder.mkdir(parents=True)
    names = {}
    for _ in range(OLD_SAVES):
        game = rng.choice(GAMES)
        seats = [Seat(name="Ana"), Seat(name="Bruno")]
        table = Table.new(game, seats, dice=RandomDice(rng.random()))
        for _move in range(rng.randint(0, 3)):
            seat = table.current_player()
            if table.over or seat is None:
                break
            table.act(get_bot(game, "easy", seed=seat).choose(table.state))
        names[saves.write(table, folder).name] = table.save_id
    return names


def read_records(db: Path, seen: dict[str, Events]) -> None:
    """Note what the database holds now (another process is writing it: what a read sees was
    committed)."""
    if not db.exists():
        return
    store = SQLiteStore(db, check=False)
    try:
        for summary in store.unfinished(limit=1000) + store.history(limit=1000).items:
            if summary.events != len(seen.get(summary.record_id, ())):
                seen[summary.record_id] = store.load(summary.record_id).events
    finally:
        store.close()


def check_records(db: Path, seen: dict[str, Events], replayed: dict[str, int]) -> set[str]:
    """After a kill: the database opens and passes its integrity check; every record reads,
    begins with what was read of it before, and (if it changed) replays. The ids of the
    unfinished records, the newest first, and of the finished ones."""
    assert not list(db.parent.glob("records-damaged-*")), "the database was found damaged"
    if not db.exists():
        assert not seen
        return set()
    store = SQLiteStore(db)  # integrity_check: StoreDamaged fails the test
    try:
        summaries = store.unfinished(limit=1000) + store.history(limit=1000).items
        ids = {summary.record_id for summary in summaries}
        assert set(seen) <= ids, f"records lost: {set(seen) - ids}"
        for summary in summaries:
            record = store.load(summary.record_id)
            before = seen.get(summary.record_id, ())
            assert record.events[: len(before)] == before, f"{summary.record_id} lost events"
            if replayed.get(summary.record_id) != len(record.events):
                table = Table.from_record(record)
                assert table.over or table.game.pending_throw(table.state) is None
                replayed[summary.record_id] = len(record.events)
            seen[summary.record_id] = record.events
        return ids
    finally:
        store.close()


def check_old_saves(folder: Path, names: dict[str, str], records: set[str]) -> tuple[int, int]:
    """Each old save waits in `folder` or was imported (moved, its record made); never both,
    never lost. How many were imported, and how many wait with their record already made (a
    kill between the two steps)."""
    imported = halfway = 0
    for name, record_id in names.items():
        waiting, moved = (folder / name).exists(), (folder / "imported" / name).exists()
        assert waiting != moved, f"{name}: waiting {waiting}, imported {moved}"
        if moved:
            assert record_id in records, f"{name} was moved, but its record is not there"
            imported += 1
        halfway += waiting and record_id in records
    return imported, halfway


def finished_games(db: Path) -> int:
    store = SQLiteStore(db, check=False)
    try:
        return store.count_finished()
    finally:
        store.close()


def newest_unfinished(db: Path) -> str | None:
    if not db.exists():
        return None
    store = SQLiteStore(db, check=False)
    try:
        unfinished = store.unfinished(limit=1)
        return unfinished[0].record_id if unfinished else None
    finally:
        store.close()


def test_sigkill_at_random_moments_through_the_terminal_app(tmp_path):
    rng = random.Random(SEED)
    data = tmp_path / "data"
    db, folder = data / "records.db", data / "saves"
    old = write_old_saves(folder, rng)
    seen: dict[str, Events] = {}
    replayed: dict[str, int] = {}
    moments = dict.fromkeys(("starting", "importing", "opening a game", "playing", "a move"), 0)
    resumed = started = halfway = 0
    start = time.monotonic()
    for _kill in range(KILLS):
        imported, _halfway = check_old_saves(folder, old, set(seen))
        can_resume = newest_unfinished(db) is not None or imported < len(old)
        resume = can_resume and rng.random() < 0.6
        app = App(data, rng.choice(GAMES), rng.randrange(1 << 30))
        deadline = time.monotonic() + rng.uniform(0.05, 2.5)
        snipe_move = rng.random() < 0.5  # this round, kill right after a key of the game
        moment = "starting"
        try:
            while time.monotonic() < deadline:
                app.read(0.002 if imported < len(old) else 0.02)
                if imported < len(old):
                    if len(list((folder / "imported").glob("*.json"))) > imported:
                        moment = "importing"
                        break
                    continue  # (reading the records now would slow the import down)
                read_records(db, seen)
                if moment == "starting" and app.shows(LOBBY):
                    app.press(F3 if resume else F2)
                    resumed += resume
                    started += not resume
                    moment = "opening a game"
                elif moment != "starting" and app.shows(GAME):
                    moment = "playing"
                    app.press(rng.choice(KEYS))
                    if snipe_move:
                        time.sleep(rng.uniform(0, 0.02))
                        moment = "a move"
                        break
                assert app.process.poll() is None, app.output[-2000:].decode(errors="replace")
        finally:
            app.kill()
        moments[moment] += 1
        records = check_records(db, seen, replayed)
        halfway += check_old_saves(folder, old, records)[1]
    elapsed = time.monotonic() - start
    print(
        f"{KILLS} kills in {elapsed:.0f} s, killed while {moments}; {resumed} resumes and "
        f"{started} new games asked for; {len(seen)} records ({len(old)} from old saves, "
        f"{finished_games(db)} finished); {halfway} times an old save's record was made but "
        "the file not moved yet"
    )
    assert moments["playing"] + moments["a move"] >= KILLS // 4, "too few kills in play"

    # the last word: a new start warns of nothing, and resumes the newest unfinished game
    app = App(data, "generala", 1)
    try:
        assert app.wait_for(LOBBY), app.output[-3000:].decode(errors="replace")
        records = check_records(db, seen, replayed)
        assert check_old_saves(folder, old, records)[0] == len(old)
        text = app.screen()
        for warning in ("⚠", "Cannot read", "damaged", "not being saved", "Could not"):
            assert warning not in text, text
        newest = newest_unfinished(db)
        if newest is not None:
            store = SQLiteStore(db)
            try:
                table = Table.from_record(store.load(newest))
            finally:
                store.close()
            app.press(F3)
            assert app.wait_for(GAME), app.output[-3000:].decode(errors="replace")
            last = " ".join(render(table.log[-1]).split()[:3])
            wait_until(lambda: last in " ".join(app.screen().split()), 10, f"{last!r} shown")
    finally:
        app.kill()
