"""The Batalla de Piratas board: sixteen squares in a ring, the two dice in the middle.

The squares run round the edge of a 6 × 4 rectangle of cells that share their borders; 0 and 15
sit side by side at the top, each marked ⌂ (a safe harbour) beside its number. Each square
shows its number, the pieces on it (letter and lives: blue in capitals, red in small letters,
and each in its side's colour) and, after a throw, a mark for every piece of the side to move
that would land there: ◇ a plain landing, ⚔ a strike, ☠ an elimination. The highlighted
piece's landing square gets a heavy border. With no throw on the table the last move's square
keeps the heavy border, and a strike or an elimination there keeps its mark.

The board only draws a `BoardView`, which the screen builds from the rules' state. A click on
a piece or on a landing mark posts `PieceClicked`; a click on a die or on the Throw button posts
`ThrowRequested`. The screen decides what they mean.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events

# Textual is pinned exactly (pyproject): its table of box-drawing junctions is safe to reuse.
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.geometry import Offset, Size
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Static

from rules import C_
from rules.piratas import BLUE, RED, Piece

from ...i18n import current_language
from .. import sibling_css, words
from ..die import Die
from ..plain import plain, visible
from ..tumble import Tumble
from .box_drawing import BOX_CHARACTERS

COLUMNS, ROWS = 6, 4
PLACES: tuple[tuple[int, int], ...] = (
    (3, 0), (4, 0), (5, 0), (5, 1), (5, 2), (5, 3), (4, 3), (3, 3),
    (2, 3), (1, 3), (0, 3), (0, 2), (0, 1), (0, 0), (1, 0), (2, 0),
)  # fmt: skip
"""(column, row) of squares 0..15: clockwise from 0 at the top, so 15 sits left of 0."""
HARBOURS = (15, 0)
HARBOUR_MARK = "⌂"
"""Beside a harbour's number (the crews' key says what it means)."""
MIN_CELL, MAX_CELL = Size(5, 3), Size(12, 5)
RESERVED_ROWS = 7
"""Rows of the screen that are not the board's: header, status line, event log (4), footer."""
FORMULA_WIDTH = 10
"""A legend line without the move: letter, space, the longest formula."""
SHIFT_WIDTH = 3
DICE_WIDTH = 2 * 10
THROW_WIDTH = 9 + 1
"""The Throw button beside the hint: its min-width and right margin (board.tcss)."""

PIECE_LETTERS: dict[str, dict[Piece, str]] = {
    "en": {
        Piece.CAPTAIN: "c",
        Piece.EXPLORER: "e",
        Piece.PARROT: "p",
        Piece.SAILOR: "s",
        Piece.MONKEY: "m",
    },
    "es": {  # capitán, explorador, loro, mArinero, mono
        Piece.CAPTAIN: "c",
        Piece.EXPLORER: "e",
        Piece.PARROT: "l",
        Piece.SAILOR: "a",
        Piece.MONKEY: "m",
    },
    "pt": {  # capitão, explorador, papagaio, mArinheiro, macaco
        Piece.CAPTAIN: "c",
        Piece.EXPLORER: "e",
        Piece.PARROT: "p",
        Piece.SAILOR: "a",
        Piece.MONKEY: "m",
    },
}
"""Each piece's letter and key, in each language: the initial of its name, and where two
names share one (marinero and mono, marinheiro and macaco) the monkey keeps m, as in English,
and the sailor takes the a of mArinero (not o, i or n: O and I read as 0 and 1 beside the
lives, and n answers no). Blue pieces are drawn in capitals, red in small letters."""


def letters() -> dict[Piece, str]:
    """The pieces' letters in the language in use (English ones for a language without its
    own)."""
    return PIECE_LETTERS.get(current_language(), PIECE_LETTERS["en"])


LANDS, STRIKES, ELIMINATES = "◇", "⚔", "☠"

Key = tuple[int, Piece]
"""A piece on the board: (side, piece)."""


def letter(side: int, piece: Piece) -> str:
    key = letters()[piece]
    return key.upper() if side == BLUE else key


@dataclass(frozen=True)
class Landing:
    """A piece of the side to move that would end its move on this square."""

    key: Key
    mark: str
    """LANDS, STRIKES or ELIMINATES."""

    @property
    def strikes(self) -> bool:
        return self.mark != LANDS


@dataclass(frozen=True)
class SquareView:
    pieces: tuple[tuple[Key, int], ...] = ()
    """The living pieces on the square and their lives: blue first, in piece order."""
    landings: tuple[Landing, ...] = ()
    """After a throw: the pieces of the side to move that would end here."""
    struck: tuple[str, Key] | None = None
    """With no throw on the table: the last move's strike here (its mark, the piece struck)."""


@dataclass(frozen=True)
class LegendRow:
    piece: Piece
    formula: str
    """How the piece moves (`rules.piratas.FORMULAS`): d2−d1, ←d1, ..."""
    move: int | None = None
    """What that gives on the dice on the table (signed: right is positive)."""


@dataclass(frozen=True)
class BoardView:
    """Everything the board shows."""

    caption: str = ""
    short_caption: str = ""
    """The caption without the player's name, for a ring too narrow for the caption (a
    longer language)."""
    hint: str = ""
    side: int = BLUE
    """The side to move: the caption's and the legend's colour."""
    dice: tuple[int | None, int | None] = (None, None)
    can_throw: bool = False
    squares: tuple[SquareView, ...] = ()
    """Squares 0..15 (none before a game is shown)."""
    cursor: Key | None = None
    """The highlighted piece of the side to move, while it may move."""
    heavy: int | None = None
    """The square drawn with a heavy border: the highlighted move's, else the last move's."""
    legend: tuple[LegendRow, ...] = ()


def shift(move: int) -> str:
    """A signed move as an arrow and a distance: →3, ←2, ·0."""
    return ("→" if move > 0 else "←" if move < 0 else "·") + str(abs(move))


@dataclass(frozen=True)
class Chunk:
    """A run of text in a square, and the piece a click on it chooses (if any)."""

    text: str
    style: Style
    key: Key | None = None


def number_line(number: Chunk, marks: Sequence[Chunk], width: int) -> list[list[Chunk]]:
    """A square's number and its landing or strike marks, never cut: a space apart when that
    fits, else side by side, else the marks on a line of their own under the number."""
    if not marks:
        return [[number]]
    room = width - cell_len(number.text)
    need = sum(cell_len(mark.text) for mark in marks)
    if need + 1 <= room:
        return [[number, Chunk(" ", Style()), *marks]]
    if need <= room:
        return [[number, *marks]]
    return [[number], list(marks)]


def fitted_hint(hint: str, room: int) -> str:
    """The hint beside the Throw button, whole: its first part (before " · ") when all of it
    does not fit in `room` cells, or nothing when not even that does."""
    if cell_len(hint) <= room:
        return hint
    first = hint.split(" · ")[0]
    return first if cell_len(first) <= room else ""


def pack(groups: Sequence[Sequence[Chunk]], width: int, lines: int) -> list[list[Chunk]]:
    """Lay out the pieces on a square in `lines` lines of `width` cells, keeping them readable.

    One line per side when each side fits on one; else as many to a line as fit, a space
    apart; else with no space; else the letters without the lives (the roster has them).
    """
    chunks = [chunk for group in groups for chunk in group]

    def fill(items: Sequence[Chunk], sep: str) -> list[list[Chunk]]:
        rows: list[list[Chunk]] = [[]]
        used = 0
        for item in items:
            need = cell_len(item.text) + (cell_len(sep) if rows[-1] else 0)
            if rows[-1] and used + need > width:
                rows.append([])
                used, need = 0, cell_len(item.text)
            if rows[-1] and sep:
                rows[-1].append(Chunk(sep, Style()))
            rows[-1].append(item)
            used += need
        return rows

    def fits(rows: list[list[Chunk]]) -> bool:
        return len(rows) <= lines and all(
            sum(cell_len(chunk.text) for chunk in row) <= width for row in rows
        )

    by_side = [fill(group, " ") for group in groups if group]
    if len(by_side) <= lines and all(len(rows) == 1 and fits(rows) for rows in by_side):
        return [rows[0] for rows in by_side]
    letters = [Chunk(chunk.text[0], chunk.style, chunk.key) for chunk in chunks]
    for items, sep in ((chunks, " "), (chunks, ""), (letters, " ")):
        rows = fill(items, sep)
        if fits(rows):
            return rows
    return fill(letters, "")[:lines]


class Board(Widget):
    """The ring and the dice. `show()` draws a `BoardView`; the board never changes a state."""

    DEFAULT_CSS = sibling_css(__file__)
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "board--border",
        "board--heavy",
        "board--number",
        "board--harbour",
        "board--harbour-label",
        "board--blue",
        "board--red",
        "board--ghost",
        "board--cursor",
        "board--mark",
    }

    class PieceClicked(Message):
        """A piece (or its landing mark) was clicked."""

        def __init__(self, side: int, piece: Piece) -> None:
            self.side = side
            self.piece = piece
            super().__init__()

    class ThrowRequested(Message):
        pass

    def __init__(self, *, animate: bool = True, id: str | None = None) -> None:
        super().__init__(id=id)
        self.animate_dice = animate
        self.view = BoardView()
        self._hits: list[tuple[int, int, int, Key, bool]] = []
        """Clickable spans drawn last: (y, x from, x to, piece, is a landing mark)."""
        self.tumble = Tumble(self)
        self._legend_shifts = False

    def compose(self) -> ComposeResult:
        with Vertical(id="ring-center"):
            yield Static(id="ring-caption", markup=False)
            with Horizontal(id="ring-dice"):
                for index in range(2):
                    die = Die(index, id=f"d{index + 1}")
                    die.border_title = f"d{index + 1}"
                    yield die
                yield Static(id="ring-legend", markup=False)
            with Horizontal(id="ring-actions"):
                button = words(Button("", id="throw", compact=True), C_("verb", "Throw"), "label")
                button.can_focus = False
                yield button
                yield Static(id="ring-hint", markup=False)

    # -- geometry -------------------------------------------------------------------------
    @staticmethod
    def cell_for(width: int, screen_height: int) -> Size:
        """The size of a square's inside: the board fits the width it is given (it takes what
        its neighbours leave) and the screen's height, less the rows other widgets need."""
        cell_width = (width - (COLUMNS + 1)) // COLUMNS
        cell_height = (screen_height - RESERVED_ROWS - (ROWS + 1)) // ROWS
        return Size(
            max(MIN_CELL.width, min(MAX_CELL.width, cell_width)),
            max(MIN_CELL.height, min(MAX_CELL.height, cell_height)),
        )

    @property
    def cell(self) -> Size:
        return self.cell_for(self.size.width, self.screen.size.height)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return ROWS * (self.cell_for(width, viewport.height).height + 1) + 1

    def square_origin(self, square: int) -> Offset:
        """Where the inside of `square` starts, in the board's own coordinates."""
        column, row = PLACES[square]
        cell = self.cell
        return Offset(column * (cell.width + 1) + 1, row * (cell.height + 1) + 1)

    def on_resize(self) -> None:
        cell = self.cell
        center = self.query_one("#ring-center")
        center.styles.offset = (cell.width + 2, cell.height + 2)
        center.styles.width = 4 * cell.width + 3
        center.styles.height = 2 * cell.height + 1
        room = 4 * cell.width + 3 - DICE_WIDTH - 1
        self.query_one("#ring-legend").display = room >= FORMULA_WIDTH
        self._legend_shifts = room >= FORMULA_WIDTH + SHIFT_WIDTH
        if self.view.squares:
            self.query_one("#ring-legend", Static).update(self.legend())
            self.show_caption()
            self.show_hint()

    # -- data -----------------------------------------------------------------------------
    def show(self, view: BoardView, rolled: bool = False) -> None:
        """Draw `view`; with `rolled`, the dice were just thrown and tumble briefly."""
        self.view = view
        self.show_caption()
        self.show_hint()
        self.query_one("#throw", Button).disabled = not view.can_throw
        self.query_one("#ring-legend", Static).update(self.legend())
        dice = list(self.query(Die))
        self.tumble.show(dice, view.dice, (0, 1) if rolled else (), self.animate_dice)
        self.refresh()

    def show_hint(self) -> None:
        """The keys' hint beside the Throw button, shortened rather than cut on a narrow ring."""
        room = 4 * self.cell.width + 3 - THROW_WIDTH
        self.query_one("#ring-hint", Static).update(plain(fitted_hint(self.view.hint, room)))

    def show_caption(self) -> None:
        """The caption over the dice, or its short form when the ring is too narrow for it."""
        view = self.view
        caption = self.query_one("#ring-caption", Static)
        room = 4 * self.cell.width + 3
        fits = cell_len(visible(view.caption)) <= room or not view.short_caption
        text = plain(view.caption if fits else view.short_caption)  # (it names the player)
        if caption.content != text:
            caption.update(text)
        caption.set_class(view.side == BLUE, "-blue")
        caption.set_class(view.side == RED, "-red")

    def legend(self) -> Text:
        """Each piece's formula and, after a throw, the move it gives."""
        text = Text(no_wrap=True, overflow="crop")
        view = self.view
        style = self.side_style(view.side)
        for index, row in enumerate(view.legend):
            if index:
                text.append("\n")
            text.append(letter(view.side, row.piece), style)
            text.append(f" {row.formula:<8}")
            if row.move is not None and self._legend_shifts:
                text.append(" " + shift(row.move), style)
        return text

    def finish_animation(self) -> None:
        self.tumble.finish()

    # -- drawing --------------------------------------------------------------------------
    def side_style(self, side: int) -> Style:
        return self._style("board--blue" if side == BLUE else "board--red")

    def render(self) -> Text:
        width, height = self.size
        cell = self.cell
        # Squares are drawn whole, then cut to the widget: under the minimum size the board
        # can be given less room than its smallest squares need.
        canvas_width = max(width, COLUMNS * (cell.width + 1) + 1)
        canvas_height = max(height, ROWS * (cell.height + 1) + 1)
        chars = [[" "] * canvas_width for _ in range(canvas_height)]
        styles = [[Style()] * canvas_width for _ in range(canvas_height)]
        self._hits = []
        self._draw_borders(chars, styles, cell)
        for square, contents in enumerate(self.view.squares):
            self._draw_square(chars, styles, cell, square, contents)
        text = Text(no_wrap=True, overflow="crop")
        for y in range(height):
            if y:
                text.append("\n")
            start = 0
            for x in range(1, width + 1):
                if x == width or styles[y][x] != styles[y][start]:
                    text.append("".join(chars[y][start:x]), styles[y][start])
                    start = x
        return text

    def _draw_borders(self, chars: list[list[str]], styles: list[list[Style]], cell: Size) -> None:
        height, width = len(chars), len(chars[0]) if chars else 0
        arms = [[[0, 0, 0, 0] for _ in range(width)] for _ in range(height)]
        target = self.view.heavy

        def mark(x: int, y: int, arm: int, weight: int) -> None:
            if 0 <= y < height and 0 <= x < width:
                arms[y][x][arm] = max(arms[y][x][arm], weight)

        order = sorted(range(len(PLACES)), key=lambda square: square == target)
        for square in order:
            weight = 2 if square == target else 1
            column, row = PLACES[square]
            x0, y0 = column * (cell.width + 1), row * (cell.height + 1)
            x1, y1 = x0 + cell.width + 1, y0 + cell.height + 1
            for x in range(x0, x1 + 1):
                for y in (y0, y1):
                    if x > x0:
                        mark(x, y, 3, weight)
                    if x < x1:
                        mark(x, y, 1, weight)
            for y in range(y0, y1 + 1):
                for x in (x0, x1):
                    if y > y0:
                        mark(x, y, 0, weight)
                    if y < y1:
                        mark(x, y, 2, weight)
        thin = self.get_component_rich_style("board--border")
        heavy = self.get_component_rich_style("board--heavy")
        for y in range(height):
            for x in range(width):
                up, right, down, left = arms[y][x]
                quad = (up, right, down, left)
                if any(quad):
                    chars[y][x] = BOX_CHARACTERS.get(quad, "+")
                    styles[y][x] = heavy if 2 in quad else thin

    def _draw_square(
        self,
        chars: list[list[str]],
        styles: list[list[Style]],
        cell: Size,
        square: int,
        contents: SquareView,
    ) -> None:
        origin = self.square_origin(square)
        base = self.get_component_rich_style("board--harbour") if square in HARBOURS else Style()
        for y in range(cell.height):
            for x in range(cell.width):
                styles[origin.y + y][origin.x + x] = base
        marks = self._marks(contents)
        if square in HARBOURS:  # (in the square, not over its border: a highlight keeps its top)
            marks = [Chunk(HARBOUR_MARK, self._style("board--harbour-label")), *marks]
        lines = number_line(Chunk(str(square), self._style("board--number")), marks, cell.width)
        groups: list[list[Chunk]] = [[], []]
        for key, lives in contents.pieces:
            style = self.side_style(key[0])
            if key == self.view.cursor:
                style += self._style("board--cursor")
            groups[key[0]].append(Chunk(f"{letter(*key)}{lives}", style, key))
        lines += pack(groups, cell.width, cell.height - len(lines))
        for row, line in enumerate(lines[: cell.height]):
            x = 0
            for chunk in line:
                hit_start = x
                for char in chunk.text:
                    if x >= cell.width:
                        break
                    chars[origin.y + row][origin.x + x] = char
                    styles[origin.y + row][origin.x + x] = base + chunk.style
                    x += 1
                if chunk.key is not None and x > hit_start:
                    span = (origin.y + row, origin.x + hit_start, origin.x + x)
                    self._hits.append((*span, chunk.key, row == 0))

    def _style(self, name: str) -> Style:
        """A component's own style, to lay over a square's background."""
        return self.get_component_rich_style(name, partial=True)

    def _marks(self, contents: SquareView) -> list[Chunk]:
        """Landing marks of the throw on the table, or the last move's strike."""
        chunks = []
        for landing in contents.landings:
            key = landing.key
            style = self.side_style(key[0]) + self._style("board--ghost")
            mark = self._style("board--mark") if landing.strikes else style
            if key == self.view.cursor:
                style += self._style("board--cursor")
                mark += self._style("board--cursor")
            chunks.append(Chunk(landing.mark, mark, key))
            chunks.append(Chunk(letter(*key), style, key))
        if contents.struck is not None:
            sign, (side, piece) = contents.struck
            chunks.append(Chunk(sign, self._style("board--mark")))
            chunks.append(Chunk(letter(side, piece), self.side_style(side)))
        return chunks

    # -- input ----------------------------------------------------------------------------
    def offset_of(self, side: int, piece: Piece, landing: bool = False) -> Offset | None:
        """Where a piece (or, with `landing`, its landing mark) is drawn: for clicks in tests."""
        self.render()
        for y, x0, _x1, key, is_mark in self._hits:
            if key == (side, piece) and is_mark == landing:
                return Offset(x0, y)
        return None

    def key_at(self, offset: Offset) -> Key | None:
        for y, x0, x1, key, _is_mark in self._hits:
            if y == offset.y and x0 <= offset.x < x1:
                return key
        return None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        key = self.key_at(offset)
        if key is not None:
            self.post_message(self.PieceClicked(*key))

    def on_die_clicked(self, event: Die.Clicked) -> None:
        event.stop()
        self.post_message(self.ThrowRequested())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.ThrowRequested())
