"""Batalla de Piratas: the parts of the game (see `kits/__init__.py`)."""

from .kit import GameKit

KIT = GameKit(
    id="piratas",
    name="Batalla de Piratas",
    rules="rules.piratas:Piratas",
    coach="bots.piratas:PiratasCoach",
    medium="bots.piratas:PiratasMedium",
    screen="app.screens.piratas:PiratasScreen",
    card="piratas",
)
