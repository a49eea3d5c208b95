"""Crashes and stuck screens found by random keys, clicks and resizes (`test_ui_monkey.py`)
and by the hardening report (issue 16), each reproduced on purpose."""

from __future__ import annotations

import asyncio

from textual.widgets import Button
from uihelpers import screen_text

from app.dice import LoadedDice, RandomDice
from app.games import screen_class
from app.main import MIN_SIZE, CubileteApp
from app.screens.barco import BarcoScreen
from app.screens.game_over import GameOverScreen
from app.screens.multiplicacion import MultiplicacionScreen
from app.screens.piratas import PiratasScreen
from app.screens.too_small import TooSmallScreen
from app.table import Seat, Table
from app.widgets.piratas.board import Board
from bots import get_bot

SMALL = (MIN_SIZE[0] - 1, MIN_SIZE[1])


def stack(app: CubileteApp) -> list[str]:
    return [type(screen).__name__ for screen in app.screen_stack]


async def test_the_palette_opened_then_the_terminal_shrunk_then_ctrl_p_again():
    """Textual asks only the screen on top whether a palette is open: with the too-small note
    over it, a second palette raised DuplicateIds '--command-palette'."""
    app = CubileteApp(animate=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert stack(app)[-1] == "Palette"
        await pilot.resize_terminal(*SMALL)
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert stack(app) == ["LobbyScreen", "Palette", "TooSmallScreen"]
        await pilot.resize_terminal(80, 24)
        assert stack(app) == ["LobbyScreen", "Palette"]
        await pilot.press("escape")
        await pilot.pause()
        assert stack(app) == ["LobbyScreen"]
    assert app._exception is None


async def test_no_palette_opens_over_the_too_small_note():
    app = CubileteApp(animate=False)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert stack(app) == ["LobbyScreen", "TooSmallScreen"]


def one_move_from_the_end(app: CubileteApp) -> PiratasScreen:
    """A piratas game between two medium bots, one life each, whose next move (a bot's, at a
    pace of 100 s unless hurried) ends it; recorded, as the app records its games."""
    seats = [Seat(name="Ana", kind="medium"), Seat(name="Bruno", kind="medium")]
    recorder = app.records.recorder(app.record_problem)
    assert recorder is not None
    table = Table.new("piratas", seats, {"lives": 1}, dice=RandomDice(75), recorder=recorder)
    while True:
        seat = table.current_player()
        assert seat is not None
        action = get_bot("piratas", "medium", seed=seat).choose(table.state)
        if table.game.is_over(table.game.apply(table.state, action)):
            break
        table.act(action)
    return PiratasScreen(table)


def finished_games(app: CubileteApp) -> list[str]:
    return [game.record_id for game in app.records.history().items]


async def test_a_game_the_bots_end_under_the_too_small_note_keeps_the_note_on_top():
    """A bot's last move switched the screen on top to the game-over screen: the too-small
    note was replaced, and the game-over screen and a rematch were drawn at a size too small
    for them."""
    app = CubileteApp(animate=False, bot_pace=100)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        game = one_move_from_the_end(app)
        app.open_screen(game)
        await pilot.pause()
        await pilot.resize_terminal(*SMALL)
        assert stack(app) == ["LobbyScreen", "PiratasScreen", "TooSmallScreen"]
        game.action_hurry()  # (f, were the keys not the note's)
        for _ in range(100):
            if "GameOverScreen" in stack(app):
                break
            await pilot.pause(0.02)
        assert stack(app) == ["LobbyScreen", "GameOverScreen", "TooSmallScreen"]
        assert finished_games(app) == [game.table.save_id]  # its record closed, for the history
        await pilot.pause()
        assert "Terminal too small" in screen_text(app)
        await pilot.press("r")  # the game-over screen's rematch is out of reach
        await pilot.pause()
        assert stack(app) == ["LobbyScreen", "GameOverScreen", "TooSmallScreen"]
        await pilot.resize_terminal(100, 30)
        assert isinstance(app.screen, GameOverScreen)
        await pilot.pause()
    assert app._exception is None


async def test_a_game_that_ends_under_the_palette_closes_the_palette():
    app = CubileteApp(animate=False, bot_pace=100)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        game = one_move_from_the_end(app)
        app.open_screen(game)
        await pilot.pause()
        await pilot.press("ctrl+p")
        assert stack(app) == ["LobbyScreen", "PiratasScreen", "Palette"]
        game.action_hurry()
        for _ in range(100):
            if "GameOverScreen" in stack(app):
                break
            await pilot.pause(0.02)
        assert stack(app) == ["LobbyScreen", "GameOverScreen"]
        assert finished_games(app) == [game.table.save_id]
        await pilot.pause()
    assert app._exception is None


async def test_a_board_given_less_room_than_its_smallest_squares_draws_what_fits():
    """Under the minimum size the board can be narrower than six squares of the smallest
    size: drawing them raised IndexError."""
    app = CubileteApp(dice=RandomDice(1), animate=False, bot_pace=100)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.start_game("piratas", [Seat(name="Ana"), Seat(name="Bruno")], {})
        await pilot.pause()
        assert isinstance(app.screen, PiratasScreen)
        board = app.screen.query_one(Board)
        board.styles.width = 20
        board.styles.max_height = 6
        await pilot.pause()
        assert board.size.width == 20
        lines = board.render().plain.split("\n")
        assert len(lines) == board.size.height
        assert all(len(line) == 20 for line in lines)
    assert app._exception is None


async def test_a_screen_that_opens_as_the_app_exits_sets_nothing_up():
    """A bot's last move opens the game-over screen; ctrl+q in the same moment exits the app.
    Textual then composes nothing for the new screen, and its on_mount raised NoMatches."""
    for opening in (GameOverScreen, BarcoScreen):
        app = CubileteApp(animate=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            table = Table.new("barco", [Seat(name="Ana"), Seat(name="Bruno")])
            app.push_screen(opening(table))
            app.exit()
        assert app._exception is None, opening


async def test_a_screen_that_opens_as_the_app_shuts_down_sets_nothing_up():
    """The same when the app is shut down without `exit` (a test's end, the terminal gone):
    Textual had mounted part of the screen, and its on_mount raised NoMatches on what was
    not there yet."""
    games = ("generala", "barco", "navio", "multiplicacion", "piratas")
    openings = [(GameOverScreen, "barco"), *((screen_class(game), game) for game in games)]
    for opening, game in openings:
        for turns in range(4):  # (the moment the shutdown comes, a turn of the loop later)
            app = CubileteApp(animate=False)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                table = Table.new(game, [Seat(name="Ana"), Seat(name="Bruno")])
                app.push_screen(opening(table))
                for _ in range(turns):
                    await asyncio.sleep(0)
            assert app._exception is None, (opening, turns)


async def test_a_decision_button_squeezed_to_its_narrowest_still_draws():
    """Multiplicación's compact buttons had `min-width: 0`: at 2 cells wide (its empty label's
    width, as composed) the label got 0 cells between the button's one-cell pads, and drawing
    it raised `ValueError: range() arg 3 must not be zero`."""
    app = CubileteApp(dice=LoadedDice([6, 6, 5, 1, 2, 3, 6, 6, 6]), animate=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_game("multiplicacion", [Seat(name="Ana"), Seat(name="Bruno")], {})
        await pilot.pause()
        assert isinstance(app.screen, MultiplicacionScreen)
        decisions = list(app.screen.query("#decisions Button").results(Button))
        assert [button.id for button in decisions if button.display] == ["throw"]
        await pilot.press("space")  # a triple: keep or throw again
        await pilot.pause()
        keep = app.screen.query_one("#keep", Button)
        assert keep.display and str(keep.label) == "Keep a 6 (k)"
        keep.styles.width = 2  # as narrow as anything may make it
        await pilot.pause()
        assert keep.size.width >= 3
        assert "K" in keep.render_line(0).text
    assert app._exception is None

