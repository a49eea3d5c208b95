"""Which games the app can seat, and the screen each is played on.

Screens are imported when a game starts, not when the app starts: a player who opens the
lobby pays for the lobby only.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Literal, cast

from rules import GAME_CLASSES

if TYPE_CHECKING:
    from .screens.game import GameScreen

SCREENS: dict[str, str] = {
    "barco": "barco:BarcoScreen",
    "navio": "navio:NavioScreen",
    "multiplicacion": "multiplicacion:MultiplicacionScreen",
    "piratas": "piratas:PiratasScreen",
    "generala": "generala:GeneralaScreen",
}
"""Game id -> `module:class` of its screen under `app.screens`."""


def screen_class(game_id: str) -> type[GameScreen]:
    module, cls = SCREENS[game_id].split(":")
    return cast("type[GameScreen]", getattr(import_module(f"app.screens.{module}"), cls))


def playable() -> list[str]:
    """Game ids with both rules and a screen, in the rules' lobby order."""
    return [game_id for game_id in GAME_CLASSES if game_id in SCREENS]


SeatKind = Literal["human", "easy", "medium", "expert"]
SEAT_KINDS: tuple[SeatKind, ...] = ("human", "easy", "medium", "expert")
"""Who plays a seat: a person, or a bot of one of three strengths."""
