"""What a game brings, named by where it lives (see `kits/__init__.py`)."""

from __future__ import annotations

from typing import NamedTuple


class StrategyTable(NamedTuple):
    """A table the bots would otherwise solve at run time, shipped in `assets/`.

    `assets/<asset>.json` holds the values and `assets/<asset>.sha256` their checksum
    (both written by `python -m app.strategy_tables`); `holder` is the bots' object that takes
    them: its `load(values)` installs a shipped table, its `values()` solves one from scratch."""

    asset: str
    holder: str


class GameKit(NamedTuple):
    """One game's declaration: its id and name, and the path of each of its parts."""

    id: str
    """The game's id: in saves, settings, the catalogue, `--game`, and its modules' names."""
    name: str
    """The game's name in its own language, the same in every language of the app."""
    rules: str
    """The `rules.Game` subclass: "rules.<id>:<Class>"."""
    coach: str
    """The coach (`bots.Coach`), from which the easy and expert bots are made too."""
    medium: str
    """The medium bot (`bots.Bot`): a casual player's greedy rule."""
    screen: str
    """The `app.screens.game.GameScreen` subclass; resolved only by the app's UI."""
    card: str
    """The rule card's name in `seeds/`: `<card>.md` in English, `<card>.<lang>.md` in the
    app's other languages."""
    tables: tuple[StrategyTable, ...] = ()
    """The strategy tables shipped for its bots, if any."""
