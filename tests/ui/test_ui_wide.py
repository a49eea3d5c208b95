"""A wide terminal is used, not left blank: the game names on one line each, large dice where
there is room for them, and a game-over screen with the final board (or sheet) and the
game's table talk."""

from __future__ import annotations

import re

import pytest
from uihelpers import click, screen_text, start_game, until

from app.dice import LoadedDice, RandomDice
from app.i18n import render
from app.main import CubileteApp
from app.quiet.game_list import GameList
from app.quiet.setup_sheet import SetupSheet
from app.quiet.table_talk import TableTalk
from app.screens.game_over import GameOverScreen
from app.screens.lobby import LobbyScreen
from app.widgets.die import Die
from app.widgets.piratas.board import Board

WIDE = (120, 40)
NAMES = (
    "Barco, Capitán y Tripulación",
    "Navio, Capitão & Tripulação",
    "Multiplicación",
    "Batalla de Piratas",
    "Generala",
)


async def test_at_120_columns_every_game_name_is_on_one_line() -> None:
    app = CubileteApp()
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        games = app.screen.query_one(GameList)
        assert games.size.height == len(NAMES)
        rows = screen_text(app).splitlines()
        for name in NAMES:
            assert any(name in row for row in rows), name


def die_sizes(app: CubileteApp) -> set[tuple[int, int]]:
    return {tuple(die.outer_size) for die in app.screen.query(Die) if die.display}




@pytest.mark.parametrize("game", ["generala", "barco", "navio", "multiplicacion"])
async def test_on_a_wide_terminal_the_dice_are_large(game: str) -> None:
    app = CubileteApp(dice=RandomDice(5), animate=False, game=game)
    async with app.run_test(size=WIDE) as pilot:
        await start_game(pilot, game)
        await pilot.press("space")
        await pilot.pause()
        await pilot.pause()
        assert die_sizes(app) == {(11, 7)}
        faces = [die.face(die.value) for die in app.screen.query(Die) if die.value]
        assert faces and all(len(face) == 5 and len(face[0]) == 9 for face in faces)


async def test_the_dice_follow_the_window_by_keyboard() -> None:
    faces = [6, 2, 5, 5, 5, 5, 5, *[1] * 40]
    app = CubileteApp(dice=LoadedDice(faces), animate=False, game="generala")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, "generala")
        await pilot.press("space")  # five 5s
        await pilot.pause()
        assert die_sizes(app) == {(7, 5)}
        assert "│●   ●│" in screen_text(app)
        await pilot.resize_terminal(*WIDE)
        await pilot.pause()
        await pilot.pause()
        assert die_sizes(app) == {(11, 7)}
        assert "│ ●     ● │" in screen_text(app)
        await pilot.press("1")  # hold the first: its mark is under the large die
        await pilot.pause()
        rows = screen_text(app).splitlines()
        die = app.screen.query_one("#die-1", Die).region
        assert "held" in rows[die.bottom][die.x : die.right]
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert die_sizes(app) == {(7, 5)}
        assert "│●   ●│" in screen_text(app)


async def test_no_large_dice_where_the_sheet_leaves_no_room_for_them() -> None:
    """Eight players' sheet takes most of a 120-column screen: the dice keep their size and
    every one of them stays whole inside the tray."""
    app = CubileteApp(dice=RandomDice(2), animate=False, game="generala")
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        app.screen.query_one(SetupSheet).model.count = 8
        await start_game(pilot, "generala")
        assert die_sizes(app) == {(7, 5)}
        tray = app.screen.query_one("#tray").region
        for die in app.screen.query(Die):
            assert tray.contains_region(die.region)


async def play_out(pilot, game: str, **options: str) -> GameOverScreen:  # type: ignore[no-untyped-def]
    """Two easy bots play `game` to its end."""
    lobby = pilot.app.screen
    assert isinstance(lobby, LobbyScreen)
    lobby.sheet.kinds[:2] = ["easy", "easy"]
    lobby.sheet.raw.update(options)
    await pilot.press("f2")
    screen = await until(
        pilot,
        lambda: pilot.app.screen if isinstance(pilot.app.screen, GameOverScreen) else None,
        "the end of the game",
        timeout=240,
    )
    await pilot.pause()
    assert isinstance(screen, GameOverScreen)
    return screen


async def test_piratas_over_shows_its_final_board_and_the_table_talk() -> None:
    app = CubileteApp(dice=RandomDice(3), animate=False, game="piratas", bot_pace=0.01)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        over = await play_out(pilot, "piratas", lives="1")
        board = over.query_one(Board)
        from app.screens.piratas import board_view

        assert board.view.squares == board_view(over.table.state, {}, None, "", "").squares
        assert "wins" in screen_text(app) and re.search(r"15 ?⌂", screen_text(app))
        assert board.region.height >= 20  # the screen's height is used
        log = over.query_one("#over-log", TableTalk)
        assert log.region.height >= 20
        last = " ".join(strip.text.strip() for strip in log.lines[-3:])
        assert render(over.table.log[-1]) in last
        await click(pilot, "#lobby")  # by mouse, back to the lobby: the game list has the keys
        assert isinstance(app.screen, LobbyScreen)
        assert isinstance(app.focused, GameList)


async def test_at_80x24_the_game_over_keeps_the_sheet_and_a_few_lines_of_talk() -> None:
    app = CubileteApp(dice=RandomDice(4), animate=False, game="barco", bot_pace=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        over = await play_out(pilot, "barco", rounds="2")
        text = screen_text(app)
        assert "Final sheet" in text and "Table talk" in text
        assert render(over.table.log[-1]) in text
        await pilot.press("l")  # by keyboard, back to the lobby
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
