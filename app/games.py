"""Which games the app can seat, and the screen each is played on."""

from __future__ import annotations

from rules import GAMES

from .screens.barco import BarcoScreen
from .screens.game import GameScreen
from .screens.generala import GeneralaScreen
from .screens.navio import NavioScreen

SCREENS: dict[str, type[GameScreen]] = {
    "barco": BarcoScreen,
    "navio": NavioScreen,
    "generala": GeneralaScreen,
}


def playable() -> list[str]:
    """Game ids with both rules and a screen, in the rules' lobby order."""
    return [game_id for game_id in GAMES if game_id in SCREENS]
