"""What lives as long as the app is kept out of the garbage collector's way; a game left is
freed. A full collection otherwise scanned every module, class and widget of the app again,
pausing a game for 0.1-0.2 s now and then (docs/performance.md)."""

from __future__ import annotations

import gc
import weakref

from generala_script import loaded_faces

from app.dice import LoadedDice
from app.main import CubileteApp
from app.screens.generala import GeneralaScreen
from app.screens.lobby import LobbyScreen


async def test_the_app_and_a_game_are_kept_out_of_the_collectors_way_while_it_runs(monkeypatch):
    import app.main

    kept: list[str] = []
    keep = app.main.keep_for_good

    def spy() -> None:
        kept.append(type(game.screen).__name__)
        keep()

    monkeypatch.setattr(app.main, "keep_for_good", spy)
    gc.unfreeze()
    game = CubileteApp(dice=LoadedDice(loaded_faces()), animate=False, game="generala")
    async with game.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert kept == ["LobbyScreen"]  # once the lobby is on the terminal
        assert gc.get_freeze_count() > 0
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(game.screen, GeneralaScreen)
        assert kept == ["LobbyScreen", "LobbyScreen"]  # the game's modules, before its screen
    assert gc.get_freeze_count() == 0  # the app has ended: all of it is garbage like the rest


async def test_a_game_left_is_freed():
    app = CubileteApp(dice=LoadedDice(loaded_faces()), animate=False, game="generala")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        game = weakref.ref(app.screen)
        assert isinstance(game(), GeneralaScreen)
        await pilot.press("escape")
        for _ in range(3):
            await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        await app.workers.wait_for_complete()
        gc.collect()
        assert game() is None
