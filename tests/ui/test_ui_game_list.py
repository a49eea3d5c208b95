"""The lobby's game list: arrows, home and end, enter, and the mouse."""

from __future__ import annotations

from uihelpers import click, screen_strips, screen_text

from app.main import CubileteApp
from app.quiet.game_list import GameList
from app.quiet.setup_sheet import SetupSheet
from app.screens.lobby import LobbyScreen


async def test_arrows_home_and_end_move_through_the_games_and_stop_at_the_ends() -> None:
    app = CubileteApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen) and isinstance(app.focused, GameList)
        assert lobby.game_id == "barco"
        await pilot.press("up")
        assert lobby.game_id == "barco"
        await pilot.press("down", "down")
        await pilot.pause()
        assert lobby.game_id == "multiplicacion" == lobby.shown_game
        assert "This game has no options." in screen_text(app)
        await pilot.press("end")
        await pilot.pause()
        assert lobby.game_id == "generala" == lobby.shown_game
        await pilot.press("down")
        assert lobby.game_id == "generala"
        await pilot.press("home")
        await pilot.pause()
        assert lobby.shown_game == "barco"
        assert "Game end" in screen_text(app)


async def test_a_click_on_either_line_of_a_long_name_picks_that_game() -> None:
    app = CubileteApp(game="generala")
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await click(pilot, "#game-list", (3, 4))  # "Tripulação", Navio's second line
        assert lobby.game_id == "navio" == lobby.shown_game
        assert isinstance(app.focused, SetupSheet)  # on to the players
        await click(pilot, "#game-list", (3, 1))  # border, then Barco's first line
        assert lobby.game_id == "barco"


async def test_the_names_wrap_inside_the_list_and_the_chosen_one_is_marked() -> None:
    app = CubileteApp(game="navio")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        rows = screen_text(app).splitlines()
        assert "╭─ Game ───" in rows[1]
        assert "│ Barco, Capitán y         │" in rows[2]
        assert "│▸Navio, Capitão &         │" in rows[4]
        assert "│ Tripulación              │" in rows[3]
        game_list = app.screen.query_one(GameList)
        highlight = game_list.get_component_rich_style("game-list--highlight")
        strips = screen_strips(app)
        navio = [seg for seg in strips[4] if "Navio" in seg.text]
        assert navio and navio[0].style is not None
        assert navio[0].style.bgcolor == highlight.bgcolor
