"""Which lobby panel has the keyboard: only its cursor stands out (▸), the other waits hollow
(▹), with or without colour; and back from a game the keyboard is on the game list, where
enter picks a game rather than starting another at once."""

from __future__ import annotations

from uihelpers import click, click_button, screen_strips, screen_text

from app.dice import LoadedDice
from app.main import CubileteApp
from app.quiet.game_list import GameList
from app.quiet.setup_sheet import SetupSheet
from app.screens.game import GameScreen
from app.screens.lobby import LobbyScreen


def marks(app: CubileteApp) -> tuple[str, str]:
    """The mark before the highlighted game (Generala), and the one on the sheet's row
    under its cursor, as the screen shows them."""
    rows = screen_text(app).splitlines()
    game = next(row for row in rows if "Generala" in row)
    sheet = app.screen.query_one(SetupSheet)
    cursor_row = rows[sheet.region.y + sheet.line_of(sheet.row)]
    return game[game.index("Generala") - 1], cursor_row[sheet.region.x]


def new_app() -> CubileteApp:
    return CubileteApp(dice=LoadedDice([6, 2, *[3] * 40]), animate=False, game="generala")


async def test_only_the_focused_panel_shows_a_solid_cursor() -> None:
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.focused, GameList)
        assert marks(app) == ("▸", "▹")
        await pilot.press("tab")
        assert isinstance(app.focused, SetupSheet)
        assert marks(app) == ("▹", "▸")
        await pilot.press("tab")  # on to the buttons: neither panel has the keys
        assert marks(app) == ("▹", "▹")
        await pilot.press("shift+tab", "shift+tab")
        assert marks(app) == ("▸", "▹")


def colour_of(app: CubileteApp, row_text: str, char: str) -> object:
    strips = screen_strips(app)
    row = next(strip for strip in strips if row_text in strip.text)
    segment = next(segment for segment in row if char in segment.text)
    assert segment.style is not None
    return segment.style.color


async def test_the_hollow_cursor_is_dimmer_than_the_text_beside_it() -> None:
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert colour_of(app, "How many", "▹") != colour_of(app, "How many", "How many")
        await pilot.press("tab")
        assert colour_of(app, "Generala", "▹") != colour_of(app, "Generala", "Generala")


async def test_back_from_a_game_by_keyboard_the_game_list_has_the_keys() -> None:
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lobby = app.screen
        await pilot.press("enter")  # on to the players
        assert isinstance(app.focused, SetupSheet)
        await pilot.press("enter")  # enter on the sheet starts the game
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is lobby
        assert isinstance(app.focused, GameList)
        assert marks(app) == ("▸", "▹")
        await pilot.press("enter")  # picks the game again: on to its players, no new game
        await pilot.pause()
        assert app.screen is lobby
        assert isinstance(app.focused, SetupSheet)


async def test_back_from_a_game_by_mouse_the_game_list_has_the_keys() -> None:
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lobby = app.screen
        await click(pilot, "#sheet", (3, 1))
        assert isinstance(app.focused, SetupSheet)
        await click_button(pilot, "start")
        assert isinstance(app.screen, GameScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is lobby
        assert isinstance(app.focused, GameList)
        await click(pilot, "#sheet", (3, 1))
        assert marks(app) == ("▹", "▸")


async def test_the_rules_over_the_lobby_leave_the_keys_where_they_were() -> None:
    app = new_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("tab")
        assert isinstance(app.focused, SetupSheet)
        await pilot.press("f1")
        await pilot.pause()
        assert not isinstance(app.screen, LobbyScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert isinstance(app.focused, SetupSheet)
