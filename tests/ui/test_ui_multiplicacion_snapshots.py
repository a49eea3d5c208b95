"""Snapshots of Multiplicación at 80×24 and 120×40: a turn at the penalty offer, and the end."""

from __future__ import annotations

import pytest
from multiplicacion_script import PLAYERS, loaded_faces, moves

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
