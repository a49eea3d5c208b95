"""Multiplicación: the parts of the game (see `kits/__init__.py`)."""

from .kit import GameKit

KIT = GameKit(
    id="multiplicacion",
    name="Multiplicación",
    rules="rules.multiplicacion:Multiplicacion",
    coach="bots.multiplicacion:MultiplicacionCoach",
    medium="bots.multiplicacion:MultiplicacionMedium",
    screen="app.screens.multiplicacion:MultiplicacionScreen",
    card="multiplicacion",
)
