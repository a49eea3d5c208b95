"""The crews: both sides' pieces with their lives and squares, and where each would go.

One header and five rows per side. After a throw, each row of the side to move says where the
piece would land and whether it would strike (⚔) or eliminate (☠) an enemy there; the
highlighted piece's row has a `›` pointer and is drawn reversed; pieces that may not move now
(the opening moves them in order) are dimmed. The roster only draws a `RosterView`, which the
screen builds from the rules' state. A click on a piece's row posts `PieceClicked`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from rules.piratas import BLUE, PIECES, Piece

from ...i18n import _
from .. import sibling_css
from ..plain import visible
from .board import ELIMINATES, Key, letter

ROWS_PER_SIDE = 1 + len(PIECES)


@dataclass(frozen=True)
class RosterMove:
    """Where a piece of the side to move would go on the throw on the table."""

    destination: int | None
    """None: the piece stays where it is."""
    strike: tuple[str, Key] | None = None
    """The mark (⚔ or ☠) and the enemy piece, when the move would strike one."""


@dataclass(frozen=True)
class RosterRow:
    piece: Piece
    name: str
    lives: int
    square: int | None
    """None: the piece is out of the game."""
    move: RosterMove | None = None
    idle: bool = False
    """Its side moves, but this piece may not (the opening moves the pieces in order)."""
    highlighted: bool = False


@dataclass(frozen=True)
class RosterSide:
    title: str
    """The side and its player: "Blue · Ana"."""
    to_move: bool
    rows: tuple[RosterRow, ...]
    """The five pieces, in piece order."""


@dataclass(frozen=True)
class RosterView:
    sides: tuple[RosterSide, ...] = ()
    """Blue, then red (none before a game is shown)."""


class Roster(Widget, can_focus=True):
    DEFAULT_CSS = sibling_css(__file__)
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "roster--blue",
        "roster--red",
        "roster--header",
        "roster--cursor",
        "roster--idle",
        "roster--out",
        "roster--strike",
    }

    compact: reactive[bool] = reactive(False, layout=True)
    """Leave out the pieces' names (narrow screens): the letters say which piece it is."""

    class PieceClicked(Message):
        def __init__(self, side: int, piece: Piece) -> None:
            self.side = side
            self.piece = piece
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.view = RosterView()

    def show(self, view: RosterView) -> None:
        self.view = view
        self.refresh(layout=True)

    # -- geometry -------------------------------------------------------------------------
    @property
    def name_width(self) -> int:
        if self.compact:
            return 0
        return max((cell_len(row.name) for side in self.view.sides for row in side.rows), default=0)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        # pointer, letter, name, lives, square, arrow and landing, strike mark and target
        name = self.name_width + 1 if self.name_width else 0
        return 2 + 1 + name + 1 + 3 + 3 + 4 + 3

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 2 * ROWS_PER_SIDE

    def row_at(self, y: int) -> tuple[int, Piece] | None:
        """The (side, piece) drawn on content line `y`, or None for a header."""
        side, index = divmod(y, ROWS_PER_SIDE)
        if not 0 <= side < 2 or index == 0:
            return None
        return side, PIECES[index - 1]

    # -- drawing --------------------------------------------------------------------------
    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="crop")
        style = self.get_component_rich_style
        for side, contents in enumerate(self.view.sides):
            side_style = style("roster--blue" if side == BLUE else "roster--red")
            if side != BLUE:
                text.append("\n")
            pointer = "▸ " if contents.to_move else "  "
            title = visible(contents.title)  # (it names the player)
            text.append(f"{pointer}{title}", style("roster--header") + side_style)
            for row in contents.rows:
                text.append("\n")
                text.append_text(self._row(side, row, side_style))
        return text

    def _row(self, side: int, row: RosterRow, side_style: Style) -> Text:
        style = self.get_component_rich_style
        name = row.name.ljust(self.name_width) + " " if self.name_width else ""
        line = Text(no_wrap=True, overflow="crop")
        row_style = style("roster--cursor") if row.highlighted else Style()
        if row.idle:
            row_style += style("roster--idle")
        line.append("› " if row.highlighted else "  ", row_style)
        if row.square is None:
            line.append(f"{letter(side, row.piece)} {name}", style("roster--out"))
            line.append(f"{ELIMINATES} {_('out')}", style("roster--out"))
            return line
        line.append(letter(side, row.piece), side_style + row_style)
        line.append(f" {name}", row_style)
        line.append(f"♥{row.lives:<2} {row.square:>2}", row_style)
        move = row.move
        if move is None:
            return line
        if move.destination is None:
            line.append(" " + _("stays"), row_style)
            return line
        line.append(f" →{move.destination:>2}", row_style)
        if move.strike is not None:
            mark, (enemy, target) = move.strike
            line.append(" " + mark, row_style + style("roster--strike"))
            line.append(letter(enemy, target), row_style + self._enemy_style(side))
        return line

    def _enemy_style(self, side: int) -> Style:
        return self.get_component_rich_style("roster--red" if side == BLUE else "roster--blue")

    # -- input ----------------------------------------------------------------------------
    def offset_of(self, side: int, piece: Piece) -> tuple[int, int]:
        """Where a piece's row is inside the widget (border and padding included)."""
        gutter = self.styles.gutter
        return gutter.left + 2, gutter.top + side * ROWS_PER_SIDE + 1 + PIECES.index(piece)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        found = self.row_at(offset.y)
        if found is not None:
            self.post_message(self.PieceClicked(*found))
