"""The scoresheet grid: one column per player, one row per box (or round), and a total.

It renders a `SheetView` built by the game screen, so every game can use it. A click on a
row, or the arrow keys and enter, post `Scoresheet.BoxChosen` for a selectable row; the
arrows reach every selectable row, filled or not, and the screen refuses a filled one.

A preview (what the dice on the table would score, not yet written) is drawn in brackets,
`(25)`, so that it never looks like a written score, with or without colour. Each column is
as wide as its name or its widest value needs, so several players fit beside the play area.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widget import Widget

from rules import N_

from . import sibling_css
from .plain import cells, clip, pad
from .runs import one_run_per_style

CellKind = Literal["value", "potential", "empty"]
NAME_WIDTH = 8
CHROME = 2 + 2
"""The sheet's border and horizontal padding (scoresheet.tcss); a closed-up sheet has no
padding."""
"""Names longer than this are cut in a column's header."""
LOOKS_KEPT = 8
"""The looks of a line `Scoresheet.render_line` keeps (one per player to begin a turn, and
the cursor on it or not: a table of up to four players finds its rows again)."""
RUNS_KEPT = 256
"""At most this many lines are kept written in runs by `Scoresheet.render_lines` (a sheet
has ≈ 20; the crops of a partial repaint are lines of their own)."""


@dataclass(frozen=True)
class Cell:
    text: str
    kind: CellKind = "value"
    """"value": written; "potential": a preview, drawn in brackets; "empty": a placeholder."""

    @property
    def shown(self) -> str:
        """The text as drawn: a preview in brackets."""
        return f"({self.text})" if self.kind == "potential" else self.text


@dataclass(frozen=True)
class SheetRow:
    key: str
    label: str
    cells: tuple[Cell, ...]
    selectable: bool = False
    """The cursor reaches the row and a click on it posts `BoxChosen`."""
    total: bool = False
    open: bool = True
    """A selectable row that can be chosen now (an empty box): the cursor starts on one."""


@dataclass(frozen=True)
class SheetView:
    players: tuple[str, ...]
    current: int | None
    rows: tuple[SheetRow, ...]
    label_title: str = ""
    choosing: bool = False
    """A box can be chosen now: enter chooses (and shows in the key bar)."""
    value_width: int = 3
    """The widest value a column keeps room for, brackets of a preview included: a preview
    coming and going then never moves the columns."""


def _fit(text: str, width: int) -> str:
    while cell_len(text) > width:
        text = text[:-1]
    return text


@dataclass(frozen=True)
class SheetLayout:
    """Where a view's parts go: the pointer gutter, the label column and each column."""

    pointer: int
    label: int
    columns: tuple[int, ...]

    @property
    def width(self) -> int:
        return self.pointer + self.label + sum(self.columns)

    def column_x(self, seat: int) -> int:
        return self.pointer + self.label + sum(self.columns[:seat])


def layout_of(view: SheetView, closed: bool = False) -> SheetLayout:
    """The pointer gutter ("› ") only when a row can be selected; each column as wide as its
    header (a space, the ▸ of the player to move, the name) or a space and its widest value,
    both flush right. `closed` columns lose the header's leading space (the ▸ of the player to
    move, or a space, is the gap before a name)."""
    labels = [row.label for row in view.rows] + [view.label_title]
    label = min(16, max((cell_len(text) for text in labels), default=4))
    pointer = 2 if any(row.selectable for row in view.rows) else 0
    gap = 1 if closed else 2
    columns = []
    for seat, name in enumerate(view.players):
        values = [cell_len(row.cells[seat].shown) for row in view.rows if seat < len(row.cells)]
        widest = max([view.value_width, *values])
        columns.append(max(min(cells(name), NAME_WIDTH) + gap, widest + 1))
    return SheetLayout(pointer, label, tuple(columns))


def changed_regions(old: SheetView, new: SheetView, closed: bool = False) -> list[Region] | None:
    """The content regions that differ between two views of the same shape (same players,
    current player, rows and column widths), or None if the shape differs."""
    layout = layout_of(new, closed)
    if (
        old.players != new.players
        or old.current != new.current
        or old.label_title != new.label_title
        or len(old.rows) != len(new.rows)
        or layout_of(old, closed) != layout
    ):
        return None
    regions = []
    for index, (before, after) in enumerate(zip(old.rows, new.rows, strict=True)):
        if (before.key, before.label, before.selectable, before.total) != (
            after.key,
            after.label,
            after.selectable,
            after.total,
        ) or len(before.cells) != len(after.cells):
            return None
        for seat, (was, now) in enumerate(zip(before.cells, after.cells, strict=True)):
            if was != now:
                x = layout.column_x(seat)
                regions.append(Region(x, 1 + index, layout.columns[seat], 1))
    return regions


class Scoresheet(Widget, can_focus=True):
    DEFAULT_CSS = sibling_css(__file__)
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "scoresheet--header",
        "scoresheet--current",
        "scoresheet--potential",
        "scoresheet--empty",
        "scoresheet--cursor",
        "scoresheet--total",
    }
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(-1)", N_("Up"), show=False),
        Binding("down", "cursor(1)", N_("Down"), show=False),
        Binding("enter", "choose", N_("Choose box"), id="choose-box"),
    ]

    cursor: reactive[int] = reactive(0, repaint=False)
    """The row the arrow keys are on; a move repaints the two rows (see `watch_cursor`)."""

    class BoxChosen(Message):
        def __init__(self, key: str) -> None:
            self.key = key
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.view = SheetView(players=(), current=None, rows=())
        self.room: int | None = None
        """The columns the sheet may take, border included (see `fit`); None: what it needs."""
        self.grid = layout_of(self.view)
        self._lines: dict[int, dict[tuple[object, ...], Strip]] = {}
        """The looks of each line drawn (`render_line`), by what they show."""
        self._styles_kept: dict[tuple[str, bool], Style] = {}
        self._runs: dict[int, tuple[Strip, Strip]] = {}
        """Each line as Textual gave it to `render_lines` (by id), and as written."""

    def fit(self, room: int | None) -> None:
        """Stay within `room` columns where closing up can do it: when the sheet with its
        padding is wider than that, the columns close up and the padding goes (`-closed`)."""
        if room != self.room:
            self.room = room
            if self._close_up():
                self.refresh(layout=True)

    @property
    def closed(self) -> bool:
        return self.has_class("-closed")

    def _close_up(self) -> bool:
        """Choose open or closed columns for the view and the room; True if that changed."""
        closed = self.room is not None and layout_of(self.view).width + CHROME > self.room
        grid = layout_of(self.view, closed)
        changed = grid != self.grid or closed != self.closed
        self.set_class(closed, "-closed")
        self.grid = grid
        return changed

    # -- data -----------------------------------------------------------------------------
    def show(self, view: SheetView) -> None:
        if view == self.view:
            return  # nothing to repaint: a hold toggle must not redraw the sheet
        old_view, old_size, was_closed = self.view, self._content_size(), self.closed
        old_keys = [row.key for row in old_view.rows]
        old_key = old_keys[self.cursor] if self.cursor < len(old_keys) else None
        self.view = view
        self._close_up()
        keys = [row.key for row in view.rows]
        index = keys.index(old_key) if old_key in keys else 0
        changed = changed_regions(old_view, view, self.closed)
        if self._content_size() != old_size or self.closed != was_closed:
            self.refresh(layout=True)  # a new size: the screen is laid out again
        elif changed is None:
            # A new turn (another column is the current one) or other rows: the sheet is
            # repainted in full, but its size is the same, so nothing else moves (a layout of
            # the screen cost 8-10 ms of CPU before a box filled could be painted).
            self.refresh()
        else:
            # Only what changed: after a throw, the potential scores of one column; every
            # repainted cell costs its row up to the cell (Textual paints a widget's row from
            # its left edge), so a whole-sheet repaint would be several times that.
            self.refresh(*changed)
        if old_view.current != view.current or not old_view.rows:
            # a new turn: the cursor goes to the nearest box that can be chosen
            self.cursor = self._nearest(index, open_only=True)
        else:
            self.cursor = self._nearest(index)
        if old_view.choosing != view.choosing:
            self.refresh_bindings()
        self.call_after_refresh(self.reveal_current)

    def _content_size(self) -> tuple[int, int]:
        return (self.grid.width, 1 + len(self.view.rows))

    def reveal_current(self) -> None:
        """Scroll a horizontally scrolling container so the current player's column shows."""
        parent = self.parent
        if self.view.current is None or not isinstance(parent, Widget):
            return
        gutter = self.styles.gutter
        current = self.view.current
        if current >= len(self.grid.columns):
            return
        x = self.virtual_region.x + gutter.left + self.grid.column_x(current)
        region = Region(x, self.virtual_region.y, self.grid.columns[current], 1)
        parent.scroll_to_region(region, animate=False)

    def _selectable(self) -> list[int]:
        return [i for i, row in enumerate(self.view.rows) if row.selectable]

    def _nearest(self, index: int, open_only: bool = False) -> int:
        """The selectable row nearest `index` (at or below it first); with `open_only`, the
        nearest that can be chosen now, if there is one."""
        rows = self.view.rows
        order = [*range(index, len(rows)), *range(index - 1, -1, -1)]
        if open_only:
            for candidate in order:
                if rows[candidate].selectable and rows[candidate].open:
                    return candidate
        for candidate in order:
            if rows[candidate].selectable:
                return candidate
        return index

    @property
    def cursor_key(self) -> str | None:
        rows = self.view.rows
        return rows[self.cursor].key if 0 <= self.cursor < len(rows) else None

    # -- geometry -------------------------------------------------------------------------
    @property
    def label_width(self) -> int:
        return self.grid.label

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self._content_size()[0]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self._content_size()[1]

    def row_region(self, index: int) -> Region:
        """The content region of row `index` of the view (the header is above row 0)."""
        return Region(0, 1 + index, self._content_size()[0], 1)

    def column_region(self, seat: int) -> Region:
        """The content region of a column's cell in the first row (for a test or a click)."""
        return Region(self.grid.column_x(seat), 1, self.grid.columns[seat], 1)

    # -- drawing --------------------------------------------------------------------------
    def render(self) -> Text:
        """The whole sheet as text: its lines (`render_line` draws them one by one)."""
        lines = Text(no_wrap=True, overflow="crop")
        for y in range(1 + len(self.view.rows)):
            if y:
                lines.append("\n")
            lines.append_text(self._line_text(y))
        return lines

    def _line_key(self, y: int) -> tuple[object, ...] | None:
        """What line `y` (0: the header, then a row each) shows; None below the last row."""
        view = self.view
        if y == 0:
            return ("header", view.players, view.current, view.label_title, self.grid)
        if y > len(view.rows):
            return None
        row = view.rows[y - 1]
        at_cursor = y - 1 == self.cursor and row.selectable
        return ("row", row, at_cursor, view.current, self.grid)

    def _line_text(self, y: int) -> Text:
        """Line `y` of the sheet: the header (0), or row `y - 1` of the view."""
        view = self.view
        style = self._component_style
        header_style = style("scoresheet--header")
        current_style = style("scoresheet--current")
        layout = self.grid
        line = Text(no_wrap=True, overflow="crop")
        if y == 0:
            line.append(
                " " * layout.pointer + _fit(view.label_title, layout.label).ljust(layout.label),
                header_style,
            )
            for seat, name in enumerate(view.players):
                width = layout.columns[seat]
                marker = "▸" if seat == view.current else " "
                heading = pad(marker + clip(name, NAME_WIDTH), width, "right")  # (in cells)
                line.append(
                    heading,
                    header_style + current_style if seat == view.current else header_style,
                )
            return line
        index = y - 1
        row = view.rows[index]
        at_cursor = index == self.cursor and row.selectable
        pointer = ("› " if at_cursor else "  ")[: layout.pointer]
        row_style = style("scoresheet--total") if row.total else Style()
        line.append(
            pointer + _fit(row.label, layout.label).ljust(layout.label),
            row_style + (style("scoresheet--cursor") if at_cursor else Style()),
        )
        for seat, cell in enumerate(row.cells):
            cell_style = row_style
            if seat == view.current:
                cell_style += current_style
                if at_cursor:
                    cell_style += style("scoresheet--cursor")
            # (partial: the look of a preview or a placeholder over the column's own)
            if cell.kind == "potential":
                cell_style += style("scoresheet--potential", partial=True)
            elif cell.kind == "empty":
                cell_style += style("scoresheet--empty", partial=True)
            width = layout.columns[seat] if seat < len(layout.columns) else 0
            line.append(cell.shown.rjust(width), cell_style)
        return line

    def render_line(self, y: int) -> Strip:
        """Line `y` of the content, drawn as Textual draws `render()`'s text, but alone: a
        repaint of a widget makes Textual render all its text again, for two rows of a cursor
        move as for the whole sheet (≈ 2.5 ms of CPU a key). The last few looks of each line
        are kept, by what they show (`_line_key`), the width and the styles (dropped at
        `notify_style_update`): a new turn moves the current column and so changes every row,
        but each row looks as it did when that player last began a turn, bar the boxes
        filled since."""
        width = self.size.width
        key = (self._line_key(y), width, self.visual_style)
        kept = self._lines.setdefault(y, {})
        strip = kept.get(key)
        if strip is not None:
            return strip
        strips: list[Strip] = []
        if key[0] is not None and width > 0:
            visual = visualize(self, self._line_text(y), markup=False)
            # (drawn alone, the line is line 0 of its text: its offsets, which Textual keeps
            # for selecting text with the mouse, are put back on line y)
            strips = [
                strip.apply_offsets(0, y)
                for strip in Visual.to_strips(self, visual, width, 1, self.visual_style)
            ]
        strip = strips[0] if strips else Strip.blank(width, self.visual_style.rich_style)
        if len(kept) >= LOOKS_KEPT:
            kept.clear()
        kept[key] = strip
        return strip

    def _component_style(self, name: str, partial: bool = False) -> Style:
        """`get_component_rich_style`, kept until the styles change (Textual forgets it at
        every repaint of the widget)."""
        key = (name, partial)
        style = self._styles_kept.get(key)
        if style is None:
            style = self._styles_kept[key] = self.get_component_rich_style(name, partial=partial)
        return style

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._lines.clear()
        self._styles_kept.clear()

    def render_lines(self, crop: Region) -> list[Strip]:
        # Border, padding, label and cells in as few styled runs as their looks allow: a row
        # repainted for one changed cell is written from the sheet's left edge.
        # Textual keeps the lines it has not repainted, and gives the same objects again.
        runs = self._runs
        if len(runs) > RUNS_KEPT:
            runs.clear()
        lines = []
        for strip in super().render_lines(crop):
            kept = runs.get(id(strip))
            if kept is None or kept[0] is not strip:
                kept = runs[id(strip)] = (strip, one_run_per_style(strip))
            lines.append(kept[1])
        return lines

    def watch_cursor(self, old: int, new: int) -> None:
        self.refresh(self.row_region(old), self.row_region(new))

    # -- input ----------------------------------------------------------------------------
    def action_cursor(self, step: int) -> None:
        """One row up or down, filled or not (from the last row round to the first)."""
        selectable = self._selectable()
        if not selectable:
            return
        later = [i for i in selectable if (i - self.cursor) * step > 0]
        if later:
            self.cursor = min(later, key=lambda i: abs(i - self.cursor))
        else:
            self.cursor = selectable[0] if step > 0 else selectable[-1]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter (and its key in the key bar) only while a box can be chosen."""
        if action == "choose":
            return self.view.choosing
        return True

    def action_choose(self) -> None:
        rows = self.view.rows
        if 0 <= self.cursor < len(rows) and rows[self.cursor].selectable:
            self.post_message(self.BoxChosen(rows[self.cursor].key))

    def row_at(self, y: int) -> int | None:
        index = y - 1
        return index if 0 <= index < len(self.view.rows) else None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = self.row_at(offset.y)
        if index is None or not self.view.rows[index].selectable:
            return
        self.cursor = index
        self.post_message(self.BoxChosen(self.view.rows[index].key))
