"""Opponents and the coach: pure functions of a rules state, like the rules themselves.

    bot = get_bot("generala", "expert")
    action = bot.choose(state)             # only when game.current_player(state) is not None

    hint = coach("generala").hint(state)  # every legal option, best first, with its value
    hint.unit                              # what the values measure (Unit)
    review = coach("generala").review(state, action)   # loss and rating of a decision

Levels: `easy` plays any legal move (picked by a hash of the state and the bot's seed, since
the bots draw no random numbers); `medium` follows a casual player's greedy rule; `expert`
plays the best option of the game's coach (exact solvers; a search for piratas).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib import import_module
from typing import Any, Literal, cast

from .base import (
    EPSILON,
    WIN_SCORE,
    Bot,
    Coach,
    EasyBot,
    ExpertBot,
    Hint,
    OptionValue,
    Rating,
    Review,
    Thresholds,
    Unit,
)

Level = Literal["easy", "medium", "expert"]
LEVELS: tuple[Level, ...] = ("easy", "medium", "expert")


class UnknownBot(KeyError):
    pass


_MODULES: dict[str, tuple[str, str]] = {
    "barco": ("barco", "Barco"),
    "navio": ("navio", "Navio"),
    "multiplicacion": ("multiplicacion", "Multiplicacion"),
    "piratas": ("piratas", "Piratas"),
    "generala": ("generala", "Generala"),
}
"""Game id -> (module, class-name prefix): `<prefix>Coach` and `<prefix>Medium` live there.
A game's bots are imported when that game asks for them, not the other four's."""


def _bot_class(game_id: str, suffix: str) -> Callable[[], Any]:
    try:
        module, prefix = _MODULES[game_id]
    except KeyError:
        raise UnknownBot(f"No bot for {game_id!r}") from None
    found = getattr(import_module(f"{__name__}.{module}"), prefix + suffix)
    return cast("Callable[[], Any]", found)


@cache
def coach(game_id: str) -> Coach:
    """The coach of a game (one per process: its tables are shared)."""
    return cast(Coach, _bot_class(game_id, "Coach")())


def get_bot(game_id: str, level: str, seed: int = 0) -> Bot:
    """A bot of `level` for the game. `seed` varies the easy bot's picks."""
    if level == "easy":
        coach(game_id)  # the game must exist
        return EasyBot(game_id=game_id, seed=seed)
    if level == "medium":
        return cast(Bot, _bot_class(game_id, "Medium")())
    if level == "expert":
        return ExpertBot(game_id=game_id, coach=coach(game_id))
    raise UnknownBot(f"No level {level!r}; the levels are {', '.join(LEVELS)}")


__all__ = [
    "EPSILON",
    "LEVELS",
    "WIN_SCORE",
    "Bot",
    "Coach",
    "Hint",
    "Level",
    "OptionValue",
    "Rating",
    "Review",
    "Thresholds",
    "Unit",
    "UnknownBot",
    "coach",
    "get_bot",
]
