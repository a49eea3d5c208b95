"""Snapshots of Barco and Navio in progress and over, at 80×24 and 120×40 (the scripts of
test_ui_barco_game and test_ui_navio_game), and Navio with four players at 80×24."""

from __future__ import annotations

import pytest
import test_ui_barco_game as barco_script
import test_ui_navio_game as navio_script
from uihelpers import settle, start_game

from app.dice import LoadedDice
from app.main import CubileteApp
from app.screens import barco, navio
from app.screens.game_over import GameOverScreen
from app.table import Seat, Table
from rules.ship import Reroll, Roll, Stop

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
SEATS = [Seat(name="Ana"), Seat(name="Bruno")]
BARCO_OPTIONS = {"rounds": 2, "stakes": True, "settlement": "margin", "rate": 0.5}
NAVIO_OPTIONS = {"rounds": 2}
KEYS = {"throw": "space", "stop": "s"}


def snapshot_app(faces: list[int]) -> CubileteApp:
    return CubileteApp(dice=LoadedDice(faces), animate=False)


def start(game_id: str, options: dict, steps: list, seats=SEATS):
    """Seat a game straight from the lobby and press the keys of its first `steps`."""

    async def run_before(pilot):
        await start_game(pilot, game_id, seats, options)
        for step in steps:
            key = str(step.die + 1) if step.kind == "pick" else KEYS[step.kind]
            await pilot.press(key)
            await settle(pilot)  # the coach's review of the move

    return run_before


@pytest.mark.parametrize("size", SIZES)
def test_barco_with_a_crew_die_picked(snap_compare, size):
    """Round 1: Bruno scored 12; Ana has 6-5-4 and a crew of 1 + 2, and picked crew die 1."""
    steps = barco_script.STEPS[:5]
    run_before = start("barco", BARCO_OPTIONS, steps)
    app = snapshot_app(barco_script.loaded_faces())
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_barco_at_the_start_shows_the_roll_off(snap_compare, size):
    run_before = start("barco", BARCO_OPTIONS, [])
    app = snapshot_app(barco_script.loaded_faces())
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_navio_under_the_roll_limit(snap_compare, size):
    """Round 1: Bruno leads with 9 in two throws; Ana's first throw kept ship and captain."""
    steps = navio_script.STEPS[:4]
    run_before = start("navio", NAVIO_OPTIONS, steps)
    app = snapshot_app(navio_script.loaded_faces())
    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_navio_with_four_players_at_80x24(snap_compare):
    """Carla leads with 8 in one throw; Diego's 5 and 4 wait for the ship. Four columns and
    the pot fit beside the tray, the right border too: the sheet's columns close up (the ▸ or
    a space before each name is the gap) and its padding goes."""
    seats = [Seat(name=name) for name in ("Ana", "Bruno", "Carla", "Diego")]
    faces = [2, 3, 6, 1, 6, 5, 4, 3, 5, 5, 4, 3, 2, 1]
    steps = [navio_script.Step(kind) for kind in ("throw", "stop", "throw")]
    run_before = start("navio", NAVIO_OPTIONS, steps, seats=seats)
    assert snap_compare(snapshot_app(faces), terminal_size=(80, 24), run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_navio_with_three_players_after_a_round(snap_compare, size):
    """Round 1: Ana stopped with 6, Bruno won with 10 in one throw, Carla was out; the sheet
    keeps every treasure and the ✗, the pot column fits, and each last throw stays in view."""
    seats = [Seat(name=name) for name in ("Ana", "Bruno", "Carla")]
    faces = [6, 2, 3, 6, 5, 4, 3, 3, 6, 5, 4, 5, 5, 1, 2, 3, 2, 1]
    steps = [navio_script.Step(kind) for kind in ("throw", "stop", "throw", "throw")]
    run_before = start("navio", {"rounds": 3}, steps, seats=seats)
    assert snap_compare(snapshot_app(faces), terminal_size=size, run_before=run_before)


def finished(game_id: str, options: dict, script) -> Table:
    """Play a script's whole game straight on a table."""
    table = Table.new(game_id, SEATS, options, dice=LoadedDice(script.loaded_faces()))
    picked: list[int] = []
    for step in script.STEPS:
        if step.kind == "pick":
            picked.append(step.die)
        elif step.kind == "stop":
            table.act(Stop())
        elif table.state.hand.qualified:
            table.act(Reroll(dice=tuple(sorted(picked)) or (0, 1)))
            picked = []
        else:
            table.act(Roll())
    assert table.over
    return table


@pytest.mark.parametrize("size", SIZES)
def test_barco_game_over_shows_who_pays_whom(snap_compare, size):
    table = finished("barco", BARCO_OPTIONS, barco_script)
    state = table.state

    async def run_before(pilot):
        await pilot.pause()
        notes = barco.final_notes(state)
        pilot.app.open_screen(GameOverScreen(table, barco.sheet_view(state), notes))
        await pilot.pause()

    assert snap_compare(snapshot_app([]), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_navio_game_over_shows_the_bankrolls(snap_compare, size):
    table = finished("navio", NAVIO_OPTIONS, navio_script)
    state = table.state

    async def run_before(pilot):
        await pilot.pause()
        notes = navio.final_notes(state)
        pilot.app.open_screen(GameOverScreen(table, navio.sheet_view(state), notes))
        await pilot.pause()

    assert snap_compare(snapshot_app([]), terminal_size=size, run_before=run_before)


def test_a_sheet_too_wide_for_its_room_closes_up_its_columns_and_keeps_every_name():
    from app.widgets.scoresheet import CHROME, Cell, SheetRow, SheetView, layout_of

    players = ("Ana", "Bruno", "Carla", "Diego", "Pot")
    row = SheetRow("1", "1", tuple(Cell(text) for text in ("·", "·", "8", "✗", "4")))
    view = SheetView(players, 0, (row,), "Round", value_width=4)
    open_, closed = layout_of(view), layout_of(view, closed=True)
    assert open_.width + CHROME > 35  # the room beside Navio's tray at 80 columns
    assert closed.width + 2 <= 35  # the border alone, no padding
    names = [len(name) for name in players]
    assert all(width > name for width, name in zip(closed.columns, names, strict=True))
    assert all(width >= 4 + 1 for width in closed.columns)  # a space before every value
