"""Records for the tests of the records' screens: real games played by bots through the real
table, written to the test's data dir with fixed times (snapshots show the dates)."""

from __future__ import annotations

import os
import time
import uuid
from functools import cache
from pathlib import Path

from app import strategy_tables
from app.dice import RandomDice
from app.records.events import Record
from app.records.sqlite import SQLiteStore
from app.table import Seat, Table
from bots import get_bot

START = 1_780_000_000.0
"""2026-05-28 20:26:40 UTC: the first game's end; each next one an hour later."""


def utc(monkeypatch) -> None:
    """Times are shown in local time: the tests' is UTC."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


def play(game_id: str, seats: list[Seat], seed: int, moves: int | None = None) -> Table:
    """A game played by bots (a person's seat by the easy bot, which makes mistakes), to its
    end or for `moves` decisions."""
    strategy_tables.prepare(game_id)
    table = Table.new(game_id, seats, None, RandomDice(seed))
    bots = [
        get_bot(game_id, "easy" if seat.kind == "human" else seat.kind, seed=i)
        for i, seat in enumerate(seats)
    ]
    done = 0
    while not table.over and (moves is None or done < moves):
        seat = table.current_player()
        assert seat is not None
        table.act(bots[seat].choose(table.state))
        done += 1
    return table


@cache
def finished(game_id: str, seed: int) -> Record:
    seats = [Seat(name="Ana"), Seat(name="Bruno", kind="medium")]
    return play(game_id, seats, seed).record


def write(data_dir: Path, record: Record, at: float, new_id: bool = False) -> str:
    """Write a record (a copy with its own id, if `new_id`) that ends at `at`."""
    data_dir.mkdir(parents=True, exist_ok=True)
    header = record.header._replace(created=at - 600, updated=at)
    if new_id:
        header = header._replace(record_id=uuid.uuid4().hex)
    store = SQLiteStore(data_dir / "records.db")
    try:
        table = Table.from_record(Record(header, record.events))
        store.create(header, record.events, table._outcome(table.state))
        with store._db:  # (the store stamps the time of writing: the test's is fixed)
            store._db.execute(
                "UPDATE records SET updated_ms = ? WHERE record_id = ?",
                (int(at * 1000), header.record_id),
            )
    finally:
        store.close()
    return header.record_id


def unfinished(data_dir: Path, game_id: str, seed: int, moves: int, at: float) -> str:
    table = play(game_id, [Seat(name="Ana"), Seat(name="Bruno", kind="medium")], seed, moves)
    return write(data_dir, table.record, at)


def history(data_dir: Path, count: int) -> None:
    """`count` finished games, the newest last: Generala, Barco and Multiplicación in turn
    (three real games, each written again under new ids)."""
    games = [finished("generala", 1), finished("barco", 2), finished("multiplicacion", 3)]
    for index in range(count):
        write(data_dir, games[index % 3], START + 3600 * index, new_id=True)


def stored(data_dir: Path) -> SQLiteStore:
    return SQLiteStore(data_dir / "records.db")


__all__ = ["START", "finished", "history", "os", "play", "stored", "unfinished", "utc", "write"]
