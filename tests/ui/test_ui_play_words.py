"""Words and order a new player met in a whole evening (issue 27, items 16…): one form of each
line through a game, as the players read it on screen."""

from __future__ import annotations

from uihelpers import screen_text, settle, start_game

from app.dice import RandomDice
from app.main import CubileteApp

SIZE = (80, 24)


# -- 16: Generala's tray says the round one way through the turn ----------------------------
async def test_generalas_tray_keeps_the_round_of_13_after_each_throw_as_barco_does():
    app = CubileteApp(dice=RandomDice(16), animate=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_game(pilot, "generala", ["Ana", "Bruno"])
        player = screen.table.seats[screen.table.current_player()].name
        assert f"{player} · round 1 of 13" in screen_text(app)
        for throw in (1, 2, 3):
            await pilot.press("space")
            await settle(pilot)
            assert f"{player} · round 1 of 13 · throw {throw} of 3" in screen_text(app)
