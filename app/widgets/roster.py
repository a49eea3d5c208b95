"""The crews: both sides' pieces with their lives and squares, and where each would go.

One header and five rows per side. After a throw, each row of the side to move says where the
piece would land and whether it would strike (⚔) or eliminate (☠) an enemy there; the
highlighted piece's row has a `›` pointer and is drawn reversed; pieces that may not move now
(the opening moves them in order) are dimmed. A click on a piece's row posts `PieceClicked`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from rules.piratas import BLUE, PIECE_NAMES, PIECES, SIDE_NAMES, MovePreview, Piece, PiratasState

from ..i18n import _
from . import sibling_css
from .board import ELIMINATES, STRIKES, letter

ROWS_PER_SIDE = 1 + len(PIECES)


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
        self.state: PiratasState | None = None
        self.players: Sequence[str] = ()
        self.previews: Mapping[Piece, MovePreview] = {}
        self.cursor: Piece | None = None

    def show(
        self,
        state: PiratasState,
        previews: Mapping[Piece, MovePreview],
        cursor: Piece | None,
    ) -> None:
        self.state = state
        self.players = state.players
        self.previews = dict(previews)
        self.cursor = cursor
        self.refresh(layout=True)

    # -- geometry -------------------------------------------------------------------------
    @property
    def name_width(self) -> int:
        if self.compact:
            return 0
        return max(cell_len(_(PIECE_NAMES[piece])) for piece in PIECES)

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
        state = self.state
        if state is None:
            return text
        style = self.get_component_rich_style
        for side in (BLUE, 1 - BLUE):
            side_style = style("roster--blue" if side == BLUE else "roster--red")
            if side != BLUE:
                text.append("\n")
            to_move = state.winner is None and side == state.side
            pointer = "▸ " if to_move else "  "
            header = f"{pointer}{_(SIDE_NAMES[side])} · {self.players[side]}"
            text.append(header, style("roster--header") + side_style)
            for piece in PIECES:
                text.append("\n")
                text.append_text(self._row(state, side, piece, side_style))
        return text

    def _row(self, state: PiratasState, side: int, piece: Piece, side_style: Style) -> Text:
        style = self.get_component_rich_style
        token = state.token(side, piece)
        name = _(PIECE_NAMES[piece]).ljust(self.name_width) + " " if self.name_width else ""
        row = Text(no_wrap=True, overflow="crop")
        moving = side == state.side and bool(self.previews)
        at_cursor = moving and piece == self.cursor
        row_style = style("roster--cursor") if at_cursor else Style()
        if moving and piece not in self.previews:
            row_style += style("roster--idle")
        row.append("› " if at_cursor else "  ", row_style)
        if not token.alive:
            row.append(f"{letter(side, piece)} {name}", style("roster--out"))
            row.append(f"{ELIMINATES} {_('out')}", style("roster--out"))
            return row
        row.append(letter(side, piece), side_style + row_style)
        row.append(f" {name}", row_style)
        row.append(f"♥{token.lives:<2} {token.square:>2}", row_style)
        preview = self.previews.get(piece) if side == state.side else None
        if preview is None:
            return row
        if preview.offset == 0:
            row.append(" " + _("stays"), row_style)
            return row
        row.append(f" →{preview.destination:>2}", row_style)
        if preview.target is not None:
            mark = ELIMINATES if preview.eliminates else STRIKES
            row.append(" " + mark, row_style + style("roster--strike"))
            row.append(letter(1 - side, preview.target), row_style + self._enemy_style(side))
        return row

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
