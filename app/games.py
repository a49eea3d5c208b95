"""Which games the app can seat, and the screen each is played on.

Both come from the games' kits (`kits.KITS`). A screen is imported when its game starts, not
when the app starts: a player who opens the lobby pays for the lobby only. This module is the
one place a kit's screen is resolved; the app's Textual-free modules read the kits directly
and never come here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, cast

from kits import KITS, kit, load

if TYPE_CHECKING:
    from .screens.game import GameScreen


def screen_class(game_id: str) -> type[GameScreen]:
    """The game's screen class (its module imported now)."""
    return cast("type[GameScreen]", load(kit(game_id).screen))


def playable() -> list[str]:
    """Every game's id, in lobby order."""
    return list(KITS)


SeatKind = Literal["human", "easy", "medium", "expert"]
SEAT_KINDS: tuple[SeatKind, ...] = ("human", "easy", "medium", "expert")
"""Who plays a seat: a person, or a bot of one of three strengths."""
