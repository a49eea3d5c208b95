"""Which games the app can seat, and the screen each is played on."""

from __future__ import annotations

from rules import GAMES

from .screens.game import GameScreen
from .screens.generala import GeneralaScreen

SCREENS: dict[str, type[GameScreen]] = {"generala": GeneralaScreen}


def playable() -> list[str]:
    """Game ids with both rules and a screen, in the rules' lobby order."""
    return [game_id for game_id in GAMES if game_id in SCREENS]
