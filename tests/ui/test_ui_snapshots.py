"""Snapshots of the lobby, a game in progress and the game-over screen, at 80×24 and 120×40."""

from __future__ import annotations

import pytest
from generala_script import TURNS, loaded_faces
from uihelpers import settle, sheet_to, start_game

from app.dice import LoadedDice
from app.main import CubileteApp
from app.screens.game_over import GameOverScreen
from app.screens.generala import sheet_view
from app.table import Seat, Table
from rules.generala import Fill, Roll

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


def snapshot_app() -> CubileteApp:
    return CubileteApp(dice=LoadedDice(loaded_faces()), animate=False, game="generala")


@pytest.mark.parametrize("size", SIZES)
def test_lobby(snap_compare, size):
    async def settle(pilot):
        await pilot.pause()

    assert snap_compare(snapshot_app(), terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES)
def test_lobby_with_an_options_form_and_a_bot(snap_compare, size):
    """Barco's seven options (choices, numbers, a checkbox), a bot in the second seat, and
    the keyboard on the settlement choice."""

    async def settle(pilot):
        await pilot.pause()
        await sheet_to(pilot, "seat-2")
        await pilot.press("left")  # Human → Expert bot
        await sheet_to(pilot, "settlement")
        await pilot.pause()

    app = CubileteApp(dice=LoadedDice(loaded_faces()), animate=False, game="barco")
    assert snap_compare(app, terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES)
def test_game_in_progress(snap_compare, size):
    """Round 2: both have filled Ones; Ana holds 2 2 3 after her first throw of the round."""

    async def play(pilot):
        await pilot.pause()
        # Ana and Bruno fill Ones; Ana throws 2 2 3 4 6 and holds 2 2 3
        for key in ("f2", "space", "enter", "space", "enter", "space", "1", "2", "3"):
            await pilot.press(key)
            await pilot.app.workers.wait_for_complete()  # the coach's review of the move
        await pilot.pause()

    assert snap_compare(snapshot_app(), terminal_size=size, run_before=play)


@pytest.mark.parametrize("size", SIZES)
def test_game_with_the_coach_open(snap_compare, size):
    """The same moment with the coach open under the dice: the status line and the last
    lines of the log stay in view; the sheet's previews are in brackets."""

    async def play(pilot):
        await pilot.pause()
        for key in ("f2", "space", "enter", "space", "enter", "space", "1", "2", "3", "h"):
            await pilot.press(key)
            await pilot.app.workers.wait_for_complete()  # a review, or the coach's hint
        await pilot.pause()

    assert snap_compare(snapshot_app(), terminal_size=size, run_before=play)


@pytest.mark.parametrize("size", SIZES)
def test_game_in_a_bots_turn(snap_compare, size):
    """Ana has written 3 in Ones; Bruno, a bot, is to throw: the status says so, the play
    keys are gone from the key bar and the hurry is offered."""

    async def play(pilot):
        pilot.app.bot_pace = 600  # the bot waits: the screen stays on its turn
        await start_game(pilot, "generala", ["Ana", Seat(name="Bruno", kind="medium")])
        for key in ("space", "enter"):
            await pilot.press(key)
            await settle(pilot)  # the coach's rating, and the narration waiting behind it

    assert snap_compare(snapshot_app(), terminal_size=size, run_before=play)


def finished_table() -> Table:
    table = Table.new(
        "generala", [Seat(name="Ana"), Seat(name="Bruno")], dice=LoadedDice(loaded_faces())
    )
    for turn in TURNS:
        table.act(Roll())
        if turn.hold:
            table.act(Roll(hold=turn.hold))
        table.act(Fill(box=turn.box))
    assert table.over
    return table


@pytest.mark.parametrize("size", SIZES)
def test_game_over(snap_compare, size):
    table = finished_table()

    async def finish(pilot):
        await pilot.pause()
        pilot.app.open_screen(GameOverScreen(table, sheet_view(table.state)))
        await pilot.pause()

    assert snap_compare(snapshot_app(), terminal_size=size, run_before=finish)
