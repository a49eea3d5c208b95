"""A full disk (a tiny tmpfs as the data dir): a clear message, play goes on, nothing is
corrupted, and the record resumes from the last event written (and catches up once there is
room again)."""

from __future__ import annotations

import errno
import os

import pytest
from recordhelpers import Mount, can_mount

from app.dice import RandomDice
from app.main import CubileteApp
from app.records.sqlite import SQLiteStore
from app.records.store import StoreFull
from app.table import Table


def fill(folder) -> None:
    """Take every byte the file system has left."""
    with open(folder / "filler", "wb") as filler:
        try:
            while True:
                filler.write(b"\0" * 65536)
                filler.flush()
        except OSError as error:
            assert error.errno == errno.ENOSPC
        try:
            while True:
                os.write(filler.fileno(), b"\0" * 512)
        except OSError as error:
            assert error.errno == errno.ENOSPC


def shown(app) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


@pytest.fixture
def tiny_data_dir(tmp_path, monkeypatch):
    if (why := can_mount(tmp_path)) is not None:
        pytest.skip(why)
    data = tmp_path / "data"
    with Mount(data, "2m"):
        monkeypatch.setenv("CUBILETE_DATA_DIR", str(data))
        yield data


async def test_a_full_disk_is_told_once_and_play_goes_on_and_nothing_is_corrupted(tiny_data_dir):
    app = CubileteApp(dice=RandomDice(4), animate=False, game="generala", bot_pace=0.01)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        table = app.screen.table
        for _ in range(2):  # two turns each, recorded
            await pilot.press("space", "enter")
            await pilot.pause(0.3)
        written = len(table.events)
        assert table.recorder.problem is None
        fill(tiny_data_dir)
        for _ in range(6):
            await pilot.press("space", "enter")
            await pilot.pause(0.3)
        assert len(table.events) > written + 6  # play went on
        assert isinstance(table.recorder.problem, StoreFull)
        assert "not being saved: The disk is full" in shown(app)
        assert len(app._notifications) == 1  # told once
    store = SQLiteStore(tiny_data_dir / "records.db")  # the integrity check passes
    record = store.load(table.save_id)
    assert written <= len(record.events) < len(table.events)
    assert list(record.events) == table.events[: len(record.events)]
    resumed = Table.from_record(record)  # resumes from the last event written
    assert resumed.events == table.events[: len(record.events)]
    store.close()
    (tiny_data_dir / "filler").unlink()  # room again: the record catches up
    assert table.recorder.retry()
    store = SQLiteStore(tiny_data_dir / "records.db")
    assert list(store.load(table.save_id).events) == table.events
    store.close()


async def test_a_read_only_data_dir_plays_unsaved_and_the_lobby_says_so(tmp_path, monkeypatch):
    if (why := can_mount(tmp_path)) is not None:
        pytest.skip(why)
    data = tmp_path / "data"
    with Mount(data, "1m") as mount:
        (data / "saves").mkdir()
        mount.read_only()
        monkeypatch.setenv("CUBILETE_DATA_DIR", str(data))
        app = CubileteApp(dice=RandomDice(4), animate=False, game="generala", bot_pace=0.01)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            said = " ".join(shown(app).split())
            assert "Games will not be saved" in said and "read-only file system" in said
            await pilot.press("f2")
            await pilot.pause()
            await pilot.press("space", "enter")
            await pilot.pause(0.3)
            table = app.screen.table
            assert table.recorder is None and len(table.events) >= 4  # played, unsaved
        assert sorted(p.name for p in data.iterdir()) == ["saves"]


async def test_without_a_store_the_game_says_once_that_it_is_not_saved(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    monkeypatch.setenv("CUBILETE_DATA_DIR", str(tmp_path / "data"))
    app = CubileteApp(dice=RandomDice(4), animate=False, game="generala", bot_pace=0.01)
    from app.records.book import RecordBook

    app._records = RecordBook(blocker / "records.db", on_notice=app.records_notice)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        for _ in range(2):  # two games: told at the first
            await pilot.press("f2")
            await pilot.pause()
            await pilot.press("space")
            await pilot.pause(0.2)
            recorder = app.screen.table.recorder  # (the first game's begins once painted)
            assert recorder is None or not recorder.retry()  # nothing can be saved
            await pilot.press("escape")
            await pilot.pause()
        assert len(app._notifications) == 1
        assert "Games are not being saved" in " ".join(shown(app).split())
