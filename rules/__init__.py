"""Cubilete's rules: pure, deterministic game logic. No I/O, no clock, no random numbers.

Every game is reached as `get_game(game_id)` and follows the `Game` interface: create a state,
feed it chance throws and player actions, read the scores. Illegal actions raise
`IllegalAction` and leave the state as it was.
"""

from typing import Any

from .barco import Barco
from .dice import PendingThrow, throw_outcomes
from .errors import N_, IllegalAction, InvalidOptions, Text
from .game import Event, Game
from .generala import Generala
from .multiplicacion import Multiplicacion
from .navio import Navio
from .piratas import Piratas

GAMES: dict[str, Game[Any, Any, Any]] = {
    game.id: game for game in (Barco(), Navio(), Multiplicacion(), Piratas(), Generala())
}
"""The playable games, in lobby order."""


class UnknownGame(KeyError):
    pass


def get_game(game_id: str) -> Game[Any, Any, Any]:
    try:
        return GAMES[game_id]
    except KeyError:
        raise UnknownGame(f"No game called {game_id!r}; the games are {', '.join(GAMES)}") from None


__all__ = [
    "GAMES",
    "N_",
    "Event",
    "Game",
    "IllegalAction",
    "InvalidOptions",
    "PendingThrow",
    "Text",
    "UnknownGame",
    "get_game",
    "throw_outcomes",
]
