"""Widgets render state and post messages; they never change a game state."""

from pathlib import Path

from textual.binding import Binding

from ..i18n import _


def sibling_css(module_file: str) -> str:
    """The `.tcss` file beside a widget module, used as the widget's DEFAULT_CSS."""
    return Path(module_file).with_suffix(".tcss").read_text(encoding="utf-8")


def row_moves() -> list[Binding]:
    """↑ ↓ a row, home and end the first and last, for a widget with `action_move(step)`
    (the lobby's game list and setup sheet)."""
    return [
        Binding("up", "move(-1)", _("Up"), show=False),
        Binding("down", "move(1)", _("Down"), show=False),
        Binding("home", "move(-99)", _("First"), show=False),
        Binding("end", "move(99)", _("Last"), show=False),
    ]
