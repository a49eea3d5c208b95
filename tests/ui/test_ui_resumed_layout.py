"""A resumed game is laid out as a fresh one (issue 27, item 11): the same regions for the
tray, the sheet, the status line and the table talk, at 80×24, 100×34 and 120×40; and the
tray is as wide as the table talk under it, with no gap before the sheet."""

from __future__ import annotations

import pytest
from test_ui_shared_tables import click_list_button, generala, person, server, table_list
from uihelpers import settle, start_game, until

from app.main import CubileteApp
from app.screens.game import GameScreen
from app.screens.lobby import LobbyScreen
from app.screens.open_table import OpenTableScreen
from app.table import Seat
from app.widgets.generala.dice_tray import DiceTray

SIZES = [(80, 24), (100, 34), (120, 40)]
__all__ = ["server"]  # (the fixture of a running server of shared tables)
PARTS = ("#play", "#side", "#tray", "#sheet", "#status", "#log", "#dice")


def regions(screen: GameScreen) -> dict[str, object]:
    found: dict[str, object] = {part: screen.query_one(part).region for part in PARTS}
    found["big dice"] = screen.query_one(DiceTray).has_class("-big-dice")
    return found


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
async def test_a_resumed_generala_game_is_laid_out_as_a_fresh_one(size) -> None:
    app = CubileteApp(animate=False, bot_pace=0, game="generala")
    async with app.run_test(size=size) as pilot:
        screen = await start_game(pilot, "generala", ["Ana", Seat(name="Bruno", kind="easy")])
        await pilot.press("space")
        await settle(pilot)
        fresh = regions(screen)
        tray, log, side = (screen.query_one(part).region for part in ("#tray", "#log", "#side"))
        assert (tray.x, tray.width) == (log.x, log.width), (tray, log)
        assert tray.right == side.x, (tray, side)  # no gap before the sheet
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await settle(pilot)
        await pilot.press("f3")
        resumed = await until(
            pilot,
            lambda: app.screen if isinstance(app.screen, GameScreen) else None,
            "the resumed game",
        )
        await settle(pilot)
        assert resumed is not screen
        assert regions(resumed) == fresh


def across(screen: GameScreen) -> dict[str, object]:
    """What lies side by side: each part's columns, and the size of the dice."""
    found: dict[str, object] = {}
    for part in ("#play", "#side", "#tray", "#sheet", "#dice"):
        region = screen.query_one(part).region
        found[part] = (region.x, region.width)
    found["big dice"] = screen.query_one(DiceTray).has_class("-big-dice")
    tray, side = screen.query_one("#tray").region, screen.query_one("#side").region
    found["gap before the sheet"] = side.x - tray.right
    return found


async def test_a_shared_generala_table_is_laid_out_as_a_local_game(server) -> None:
    """Two people and a spectator at 100×34: each draws the table as a local game of the same
    players does (the same dice, the tray against the sheet)."""
    size = (100, 34)
    local = CubileteApp(animate=False, bot_pace=0, game="generala")
    async with local.run_test(size=size) as pilot:
        screen = await start_game(pilot, "generala", ["ana", "bruno"])
        expected = across(screen)
        assert expected["gap before the sheet"] == 0 and expected["big dice"]
    ana, bruno, carla = person(server, "ana"), person(server, "bruno"), person(server, "carla")
    async with (
        ana.run_test(size=size) as a,
        bruno.run_test(size=size) as b,
        carla.run_test(size=size) as c,
    ):
        await until(a, lambda: table_list(ana) is not None, "Ana's list of tables")
        await a.press("f7")
        await until(a, lambda: isinstance(ana.screen, OpenTableScreen), "the open sheet")
        await a.press("f2")
        await until(b, lambda: (t := table_list(bruno)) is not None and t.lines, "the table")
        await click_list_button(b, "#tables", 0, "join")
        await until(c, lambda: (t := table_list(carla)) is not None and t.lines, "the table")
        table_list(carla).focus()
        await c.press("w")
        for app, pilot in ((ana, a), (bruno, b), (carla, c)):
            shown = await until(pilot, lambda app=app: generala(app), "the game")
            await settle(pilot)
            assert across(shown) == expected, app
