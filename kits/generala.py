"""Generala: the parts of the game (see `kits/__init__.py`)."""

from .kit import GameKit, StrategyTable

KIT = GameKit(
    id="generala",
    name="Generala",
    rules="rules.generala:Generala",
    coach="bots.generala:GeneralaCoach",
    medium="bots.generala:GeneralaMedium",
    screen="app.screens.generala:GeneralaScreen",
    card="generala",
    tables=(StrategyTable(asset="generala_table", holder="bots.generala:TABLE"),),
)
