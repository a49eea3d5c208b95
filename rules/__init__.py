"""Cubilete's rules: pure, deterministic game logic. No I/O, no clock, no random numbers.

Every game is reached as `get_game(game_id)` and follows the `Game` interface: create a state,
feed it chance throws and player actions, read the scores. Illegal actions raise
`IllegalAction` and leave the state as it was.
"""

from collections.abc import Iterator, Mapping
from importlib import import_module
from typing import TYPE_CHECKING, Any

from kits import KITS, UnknownGame, kit, load

from .errors import C_, N_, NP_, Forms, IllegalAction, InvalidOptions, Text

if TYPE_CHECKING:
    from .dice import PendingThrow, throw_outcomes
    from .game import Event, Game

_LAZY = {
    "PendingThrow": "dice",
    "throw_outcomes": "dice",
    "Event": "game",
    "Game": "game",
}
"""Names whose modules build pydantic models: imported on first use, so that a program that
only needs a game's name (the app's lobby, its command line) does not load pydantic."""


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Games(Mapping[str, "Game[Any, Any, Any]"]):
    """The games by id, in lobby order (`kits.KITS`). A game's module is imported the first
    time the game is asked for, so a program that plays one game does not build the models
    of all five."""

    def __init__(self) -> None:
        self._loaded: dict[str, Game[Any, Any, Any]] = {}

    def __getitem__(self, game_id: str) -> "Game[Any, Any, Any]":
        if game_id not in self._loaded:
            self._loaded[game_id] = load(KITS[game_id].rules)()
        return self._loaded[game_id]

    def __iter__(self) -> Iterator[str]:
        return iter(KITS)

    def __len__(self) -> int:
        return len(KITS)


GAMES: Mapping[str, "Game[Any, Any, Any]"] = _Games()
"""The playable games, in lobby order."""


def game_name(game_id: str) -> str:
    """A game's name in its own language, without loading its rules."""
    return kit(game_id).name


def get_game(game_id: str) -> "Game[Any, Any, Any]":
    try:
        return GAMES[game_id]
    except KeyError:
        raise UnknownGame(f"No game called {game_id!r}; the games are {', '.join(GAMES)}") from None


__all__ = [
    "C_",
    "GAMES",
    "NP_",
    "N_",
    "Event",
    "Forms",
    "Game",
    "IllegalAction",
    "InvalidOptions",
    "PendingThrow",
    "Text",
    "UnknownGame",
    "game_name",
    "get_game",
    "throw_outcomes",
]
