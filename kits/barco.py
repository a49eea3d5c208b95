"""Barco, Capitán y Tripulación: the parts of the game (see `kits/__init__.py`)."""

from .kit import GameKit

KIT = GameKit(
    id="barco",
    name="Barco, Capitán y Tripulación",
    rules="rules.barco:Barco",
    coach="bots.barco:BarcoCoach",
    medium="bots.barco:BarcoMedium",
    screen="app.screens.barco:BarcoScreen",
    card="barco",
)
