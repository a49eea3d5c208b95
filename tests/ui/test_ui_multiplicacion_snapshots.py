"""Snapshots of Multiplicación at 80×24 and 120×40: a turn at the penalty offer, and the end."""

from __future__ import annotations

import pytest
from multiplicacion_script import PLAYERS, loaded_faces, moves
from uihelpers import screen_rows, screen_text, settle, until

from app.dice import LoadedDice
from app.main import CubileteApp
from app.screens.game_over import GameOverScreen
from app.screens.multiplicacion import MultiplicacionScreen, sheet_view
from app.table import Seat, Table

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]

AT_THE_PENALTY_OFFER = 9
"""Moves played: Ana scored 40; Bruno kept a 6, threw his pair again (5 4) and faces a 1."""


def snapshot_app() -> CubileteApp:
    return CubileteApp(dice=LoadedDice(loaded_faces()), animate=False)


def table_after(count: int | None) -> Table:
    """The script's game after `count` moves (all of them if None)."""
    table = Table.new(
        "multiplicacion", [Seat(name=name) for name in PLAYERS], dice=LoadedDice(loaded_faces())
    )
    for move in moves()[:count]:
        table.act(move.action)
    return table


@pytest.mark.parametrize("size", SIZES)
def test_multiplicacion_in_progress(snap_compare, size):
    """Bruno: (6 + 5) × 1 = 11 on the table; re-throw costs 4: (11 − 4) × ?"""
    table = table_after(AT_THE_PENALTY_OFFER)
    turn = table.state.turn
    assert (turn.first, turn.second, turn.multiplier) == (6, 5, 1)

    async def play(pilot):
        await pilot.pause()
        pilot.app.open_screen(MultiplicacionScreen(table))
        await pilot.pause()
        # the coach rates the moves played before the screen opened, in their places
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(snapshot_app(), terminal_size=size, run_before=play)


@pytest.mark.parametrize("size", SIZES)
def test_multiplicacion_game_over(snap_compare, size):
    table = table_after(None)
    assert table.over

    async def finish(pilot):
        await pilot.pause()
        pilot.app.open_screen(GameOverScreen(table, sheet_view(table.state)))
        await pilot.pause()

    assert snap_compare(snapshot_app(), terminal_size=size, run_before=finish)


@pytest.mark.parametrize("size", SIZES)
async def test_the_final_sheets_columns_keep_a_gap_between_them(size):
    """The terminal gets "Round  Ana  Bruno" and "Total  372    292": each column two cells
    from the one before. (The snapshot's SVG writes the bold header and total one text run per
    column, "  Ana" after "Round"; librsvg drops the spaces that open a run, so a PNG made with
    rsvg-convert shows "RoundAna", "Total372": Chromium draws the same SVG with the gap.)"""
    table = table_after(None)
    app = snapshot_app()
    async with app.run_test(size=size) as pilot:
        app.open_screen(GameOverScreen(table, sheet_view(table.state)))
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen), "the game-over screen")
        await settle(pilot)
        sheet = [row.split("│")[-2].strip() for row in screen_rows(app) if "Total" in row]
        text = screen_text(app)
    assert sheet == ["Total  372    292"], sheet
    assert "Round  Ana  Bruno" in text and "RoundAna" not in text and "Total372" not in text
