"""Turning the dice's tumbling off must not hide Textual's own `animate()`.

The app and the widgets that tumble dice once kept the switch in an attribute called `animate`,
which replaced Textual's `animate()` method with a bool (Textual's scrolling calls it).
"""

from __future__ import annotations

import pytest
from textual.dom import DOMNode

from app.main import CubileteApp
from app.widgets.generala.dice_tray import DiceTray
from app.widgets.multiplicacion.cup import Cup
from app.widgets.piratas.board import Board
from app.widgets.ship.ship_tray import ShipTray

MAKERS = {
    "the app": lambda: CubileteApp(animate=False),
    "the dice tray": lambda: DiceTray(5, animate=False),
    "the cup": lambda: Cup(3, animate=False),
    "the ship tray": lambda: ShipTray(("ship", "captain", "crew"), "crew", animate=False),
    "the board": lambda: Board(animate=False),
}


@pytest.mark.parametrize("name", MAKERS)
def test_the_switch_is_kept_apart_from_textuals_animate(name):
    made: DOMNode = MAKERS[name]()
    assert made.animate.__func__ is type(made).animate  # Textual's method, not a bool
    assert made.animate_dice is False
