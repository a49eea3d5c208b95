"""Starting the app when things are not as they should be (issue 16: items 4, 6, 9, 17, 18).

The app starts on whatever it finds: a data dir that cannot be used is one line in the lobby
and games are played without saving; loaded dice that run out before the game could start are
one line too, and the lobby stays as it was.
"""

from __future__ import annotations

from pathlib import Path

from textual.command import CommandPalette
from textual.widgets import Input
from uihelpers import notifications, run_command, screen_text, until

from app.dice import LoadedDice
from app.main import CubileteApp
from app.quiet.game_list import GameList
from app.screens.generala import GeneralaScreen
from app.screens.lobby import LobbyScreen


def notices(app: CubileteApp) -> str:
    return " ".join(str(app.screen.query_one("#notices").render()).split())


async def test_a_data_dir_that_is_a_file_is_said_once_and_the_game_is_played_unsaved(
    private_data_dir,
):
    private_data_dir.write_text("my notes")
    app = CubileteApp(dice=LoadedDice([6, 1, 1, 2, 3, 4, 5]), animate=False, game="generala")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        assert notices(app) == (
            f"⚠ Games will not be saved: {private_data_dir} is not a folder. "
            "Set CUBILETE_DATA_DIR to a folder you can write in."
        )
        assert app.screen.query_one("#notices").has_class("-error")
        await pilot.press("f2")
        await pilot.pause()
        await pilot.press("space")
        await pilot.pause()
        assert isinstance(app.screen, GeneralaScreen)
        assert "Ana throws 1 2 3 4 5" in screen_text(app)
        assert notifications(app) == [], "no 'could not save' after every action: said once"
    assert private_data_dir.read_text() == "my notes"


async def test_a_path_with_markup_in_it_is_shown_as_it_is(tmp_path, monkeypatch):
    odd = tmp_path / "x[" / "]data"  # "…/x[/]data": a closing tag, to markup
    odd.parent.mkdir()
    odd.write_text("a file where the data dir should be")
    monkeypatch.setenv("CUBILETE_DATA_DIR", str(odd))
    app = CubileteApp(animate=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert f"{odd} is not a folder" in notices(app)


async def test_loaded_dice_that_run_out_in_the_roll_off_leave_the_lobby_as_it_was():
    """`cubilete --dice 3 --game generala`, then F2: the roll-off needs a die per player."""
    app = CubileteApp(dice=LoadedDice([3]), animate=False, game="generala")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert notifications(app) == [
            "The game cannot start: The loaded dice ran out: 1 dice asked for, 0 of 1 left"
        ]
        assert list(Path(app_saves()).glob("game-*.json")) == []
        await pilot.press("up")  # the lobby still answers
        await pilot.pause()
        assert app.screen.query_one(GameList).game_id == "piratas"
        await pilot.press("f2")  # and says it again, still in one line
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert len(notifications(app)) == 2


def app_saves() -> Path:
    from app.locations import saves_dir

    return saves_dir()


async def test_the_palettes_screenshot_goes_to_the_data_dir_when_there_is_no_downloads_folder(
    tmp_path, monkeypatch, private_data_dir
):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    app = CubileteApp(animate=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await run_command(pilot, "Screenshot")
        shots = private_data_dir / "screenshots"
        await until(pilot, lambda: notifications(app), "the toast (after the palette closes)")
        (shot,) = shots.iterdir()
        assert shot.suffix == ".svg"
        assert "Start (F2)" in shot.read_text().replace("&#160;", " ")
        assert notifications(app) == [f"Saved to {shot}"]
    assert not (home / "Downloads").exists()


async def test_the_palettes_screenshot_goes_to_downloads_when_there_is_one(tmp_path, monkeypatch):
    home = tmp_path / "home"
    (home / "Downloads").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    app = CubileteApp(animate=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        app.screenshot()
        await pilot.pause()
        (shot,) = (home / "Downloads").iterdir()
        assert notifications(app) == [f"Saved to {shot}"]


async def test_the_palettes_text_cursor_does_not_blink():
    app = CubileteApp(animate=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        field = app.screen.query_one(Input)
        assert field.has_focus
        assert field.cursor_blink is False
