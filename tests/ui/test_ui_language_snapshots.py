"""Snapshots in Spanish and Portuguese at 80×24: the lobby and each game's screen, the coach
open. The longer languages must fit: no word cut, no key left off that English shows."""

from __future__ import annotations

import pytest
from uihelpers import settle, start_game

from app import i18n
from app.dice import RandomDice
from app.main import CubileteApp
from app.table import Seat

LANGUAGES = [pytest.param("es", id="es"), pytest.param("pt", id="pt")]
SIZE = (80, 24)
SEATS = [Seat(name="Ana"), Seat(name="Bruno")]
PLAYS = {
    "generala": ["space", "enter", "space", "enter", "space", "1", "2"],
    "barco": ["space", "space", "space"],
    "navio": ["space", "space", "space"],
    "multiplicacion": ["space", "space"],
    "piratas": ["space", "enter", "space", "enter", "space"],
}
OPTIONS = {"barco": {"stakes": True}}


@pytest.fixture(params=LANGUAGES)
def language(request):
    i18n.use_language(request.param)
    yield request.param
    i18n.use_language("en")


def test_the_lobby_with_an_options_form(snap_compare, language):
    async def settle(pilot):
        await pilot.pause()
        await pilot.press("tab", "down", "down", "left")  # Bruno: an expert bot
        await pilot.pause()

    app = CubileteApp(dice=RandomDice(1), animate=False, game="barco")
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


@pytest.mark.parametrize("game", list(PLAYS))
def test_a_game_with_the_coach_open(snap_compare, language, game):
    async def play(pilot):
        await start_game(pilot, game, SEATS, OPTIONS.get(game, {}))
        for key in [*PLAYS[game], "h"]:
            await pilot.press(key)
            await settle(pilot)

    app = CubileteApp(dice=RandomDice(4), animate=False)
    assert snap_compare(app, terminal_size=SIZE, run_before=play)
