"""The games Cubilete seats, and where each one's parts live: one declaration per game
(`kits/<game>.py`, a `GameKit`) and one line per game in `LOBBY` below.

A kit names its parts by import path ("package.module:Name"), and this package imports none
of them: it sits under the rules, the bots and the app alike (`lint-imports` keeps it from
importing any of them, pydantic or Textual), so each layer can read it and resolves only its
own parts — the rules their game (`rules.get_game`), the bots their coach and medium bot
(`bots.coach`, `bots.get_bot`), the app's UI the screen (`app.games.screen_class`), and the
app's Textual-free modules the rule card, the catalogue entry and the strategy tables. A
program that only needs the list of games (the lobby, the command line) loads no game.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .kit import GameKit, StrategyTable

LOBBY: tuple[str, ...] = (
    "barco",
    "navio",
    "multiplicacion",
    "piratas",
    "generala",
)
"""The registry: one line per game, in lobby order, naming its declaration `kits/<id>.py`."""


def declaration(game_id: str) -> GameKit:
    """The `KIT` that `kits/<game_id>.py` declares, checked to be a kit of that id."""
    found = getattr(import_module(f"{__name__}.{game_id}"), "KIT", None)
    if not isinstance(found, GameKit) or found.id != game_id:
        raise TypeError(f"kits/{game_id}.py must declare KIT = GameKit(id={game_id!r}, ...)")
    return found


KITS: dict[str, GameKit] = {game_id: declaration(game_id) for game_id in LOBBY}
"""Every game's kit, by id, in lobby order."""


class UnknownGame(KeyError):
    pass


def kit(game_id: str) -> GameKit:
    """The kit of a game; UnknownGame (a KeyError) if no game has that id."""
    try:
        return KITS[game_id]
    except KeyError:
        raise UnknownGame(f"No game called {game_id!r}; the games are {', '.join(KITS)}") from None


def load(path: str) -> Any:
    """The object a kit names by "package.module:Name", its module imported on first use."""
    module, _, name = path.partition(":")
    return getattr(import_module(module), name)


__all__ = ["KITS", "LOBBY", "GameKit", "StrategyTable", "UnknownGame", "declaration", "kit", "load"]
