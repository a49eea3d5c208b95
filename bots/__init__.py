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
from typing import Any, Literal, cast

import kits

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


def _part(game_id: str, part: Literal["coach", "medium"]) -> Callable[[], Any]:
    """The class the game's kit names for `part`; its module is imported now, the first time
    the game asks for a bot, not the other games' modules."""
    try:
        kit = kits.KITS[game_id]
    except KeyError:
        raise UnknownBot(f"No bot for {game_id!r}") from None
    return cast("Callable[[], Any]", kits.load(kit.coach if part == "coach" else kit.medium))


@cache
def coach(game_id: str) -> Coach:
    """The coach of a game (one per process: its tables are shared)."""
    return cast(Coach, _part(game_id, "coach")())


def get_bot(game_id: str, level: str, seed: int = 0) -> Bot:
    """A bot of `level` for the game. `seed` varies the easy bot's picks."""
    if level == "easy":
        coach(game_id)  # the game must exist
        return EasyBot(game_id=game_id, seed=seed)
    if level == "medium":
        return cast(Bot, _part(game_id, "medium")())
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
