"""Navio, Capitão & Tripulação: the parts of the game (see `kits/__init__.py`)."""

from .kit import GameKit

KIT = GameKit(
    id="navio",
    name="Navio, Capitão & Tripulação",
    rules="rules.navio:Navio",
    coach="bots.navio:NavioCoach",
    medium="bots.navio:NavioMedium",
    screen="app.screens.navio:NavioScreen",
    card="navio",
)
