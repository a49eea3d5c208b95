"""A new player's first game is painted before the records are made (the database, its
schema: ≈ 10 ms of CPU at F2 that the first frame waited for, docs/performance.md "Sixth
pass"), and its record is complete however soon the game is left or the app quit."""

from __future__ import annotations

from emulated import Terminal
from generala_script import loaded_faces
from test_ui_paint_once import after_loading_line, settled

from app.dice import LoadedDice
from app.main import CubileteApp
from app.records import sqlite
from app.records.sqlite import SQLiteStore
from app.screens.generala import GeneralaScreen
from app.screens.lobby import LobbyScreen


def new_app() -> CubileteApp:
    return CubileteApp(dice=LoadedDice(loaded_faces()), animate=False, game="generala")


def stored(data_dir):
    """The unfinished games in the data dir's records: (record id, events) each."""
    store = SQLiteStore(data_dir / "records.db")
    try:
        return [(game.record_id, list(store.load(game.record_id).events))
                for game in store.unfinished()]
    finally:
        store.close()


async def test_the_first_game_is_painted_before_the_records_are_made(private_data_dir, monkeypatch):
    opened_at: list[int] = []
    open_store = sqlite.open_store

    def spy(path, **options):
        opened_at.append(len(terminal.updates))
        return open_store(path, **options)

    monkeypatch.setattr(sqlite, "open_store", spy)
    app = new_app()
    terminal = Terminal(app)
    async with app.run_test(size=terminal.size) as pilot:
        await settled(pilot)
        assert not (private_data_dir / "records.db").exists()  # a new player: none yet
        mark = terminal.mark()
        await pilot.press("f2")
        await settled(pilot)
        assert isinstance(app.screen, GeneralaScreen)
        assert after_loading_line(terminal, mark) == ["full"]
        assert opened_at == [mark + 2]  # after the game's one paint, not before
        table = app.screen.table
    assert stored(private_data_dir) == [(table.save_id, table.events)]


async def test_a_game_quit_before_its_first_paint_is_recorded_complete(private_data_dir):
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        lobby.action_start()  # F2's action, and the app quits before anything is painted
        game = app.screen
        assert isinstance(game, GeneralaScreen) and not game._shown
        table = game.table
        assert table.events  # the roll-off
        app.exit()
    assert stored(private_data_dir) == [(table.save_id, table.events)]

