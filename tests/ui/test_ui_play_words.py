"""Words and order a new player met in a whole evening (issue 27, items 16, 20): one form of each
line through a game, as the players read it on screen."""

from __future__ import annotations

import pytest
from records_fixtures import play
from uihelpers import screen_text, settle, start_game

from app.dice import RandomDice
from app.i18n import render
from app.main import CubileteApp
from app.table import Seat

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


# -- 20: the game's last line names the winner with the score -------------------------------
@pytest.mark.parametrize("game", ["generala", "multiplicacion", "barco"])
def test_the_last_line_of_a_game_in_points_names_the_winner_with_the_score(game):
    table = play(game, [Seat(name="Ana"), Seat(name="Bruno", kind="medium")], seed=20)
    state = table.state
    winner = table.game.winners(state)[0] if game != "barco" else state.winner
    total = state.total(winner)
    said = [render(line) for line in table.log if render(line).startswith("Game over")]
    assert said == [f"Game over: {state.players[winner]} wins with {total} points"]
