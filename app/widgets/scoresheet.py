"""The scoresheet grid: one column per player, one row per box (or round), and a total.

It renders a `SheetView` built by the game screen, so every game can use it. A click on a
row, or the arrow keys and enter, post `Scoresheet.BoxChosen` for a selectable row.
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
from textual.widget import Widget

from ..i18n import _
from . import sibling_css
from .runs import one_run_per_style

CellKind = Literal["value", "potential", "empty"]


@dataclass(frozen=True)
class Cell:
    text: str
    kind: CellKind = "value"


@dataclass(frozen=True)
class SheetRow:
    key: str
    label: str
    cells: tuple[Cell, ...]
    selectable: bool = False
    total: bool = False


@dataclass(frozen=True)
class SheetView:
    players: tuple[str, ...]
    current: int | None
    rows: tuple[SheetRow, ...]
    label_title: str = ""


def _fit(text: str, width: int) -> str:
    while cell_len(text) > width:
        text = text[:-1]
    return text


def changed_regions(
    old: SheetView, new: SheetView, label_width: int, column_width: int
) -> list[Region] | None:
    """The content regions that differ between two views of the same shape (same players,
    current player and rows, in a sheet laid out with these widths), or None if the shape
    differs."""
    if (
        old.players != new.players
        or old.current != new.current
        or old.label_title != new.label_title
        or len(old.rows) != len(new.rows)
    ):
        return None
    regions = []
    first_cell = 2 + label_width
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
                regions.append(Region(first_cell + seat * column_width, 1 + index, column_width, 1))
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
        Binding("up", "cursor(-1)", _("Up"), show=False),
        Binding("down", "cursor(1)", _("Down"), show=False),
        Binding("enter", "choose", _("Choose box"), id="choose-box"),
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

    # -- data -----------------------------------------------------------------------------
    def show(self, view: SheetView) -> None:
        if view == self.view:
            return  # nothing to repaint: a hold toggle must not redraw the sheet
        old_view, old_size = self.view, self._content_size()
        old_keys = [row.key for row in old_view.rows]
        old_key = old_keys[self.cursor] if self.cursor < len(old_keys) else None
        self.view = view
        keys = [row.key for row in view.rows]
        index = keys.index(old_key) if old_key in keys else 0
        changed = changed_regions(old_view, view, self.label_width, self.column_width)
        if changed is None or self._content_size() != old_size:
            self.refresh(layout=True)  # a new shape: repaint it all
        else:
            # Only what changed: after a throw, the potential scores of one column; every
            # repainted cell costs its row up to the cell (Textual paints a widget's row from
            # its left edge), so a whole-sheet repaint would be several times that.
            self.refresh(*changed)
        self.cursor = self._nearest_selectable(index)
        self.call_after_refresh(self.reveal_current)

    def _content_size(self) -> tuple[int, int]:
        return (
            2 + self.label_width + self.column_width * len(self.view.players),
            1 + len(self.view.rows),
        )

    def reveal_current(self) -> None:
        """Scroll a horizontally scrolling container so the current player's column shows."""
        parent = self.parent
        if self.view.current is None or not isinstance(parent, Widget):
            return
        gutter = self.styles.gutter
        x = (
            self.virtual_region.x
            + gutter.left
            + 2
            + self.label_width
            + self.view.current * self.column_width
        )
        region = Region(x, self.virtual_region.y, self.column_width, 1)
        parent.scroll_to_region(region, animate=False)

    def _selectable(self) -> list[int]:
        return [i for i, row in enumerate(self.view.rows) if row.selectable]

    def _nearest_selectable(self, index: int) -> int:
        rows = self.view.rows
        for candidate in [*range(index, len(rows)), *range(index - 1, -1, -1)]:
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
        labels = [row.label for row in self.view.rows] + [self.view.label_title]
        return min(16, max((cell_len(label) for label in labels), default=4))

    @property
    def column_width(self) -> int:
        names = [cell_len(name) + 1 for name in self.view.players]
        return max(5, min(8, max(names, default=5))) + 1

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self._content_size()[0]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self._content_size()[1]

    def row_region(self, index: int) -> Region:
        """The content region of row `index` of the view (the header is above row 0)."""
        return Region(0, 1 + index, self._content_size()[0], 1)

    # -- drawing --------------------------------------------------------------------------
    def render(self) -> Text:
        view = self.view
        style = self.get_component_rich_style
        header_style = style("scoresheet--header")
        current_style = style("scoresheet--current")
        width = self.column_width
        lines = Text(no_wrap=True, overflow="crop")
        lines.append(
            "  " + _fit(view.label_title, self.label_width).ljust(self.label_width), header_style
        )
        for seat, name in enumerate(view.players):
            marker = "▸" if seat == view.current else " "
            heading = (marker + _fit(name, width - 2)).rjust(width)
            lines.append(
                heading, header_style + current_style if seat == view.current else header_style
            )
        for index, row in enumerate(view.rows):
            lines.append("\n")
            at_cursor = index == self.cursor and row.selectable
            pointer = "› " if at_cursor else "  "
            row_style = style("scoresheet--total") if row.total else Style()
            lines.append(
                pointer + _fit(row.label, self.label_width).ljust(self.label_width),
                row_style + (style("scoresheet--cursor") if at_cursor else Style()),
            )
            for seat, cell in enumerate(row.cells):
                cell_style = row_style
                if cell.kind == "potential":
                    cell_style += style("scoresheet--potential")
                elif cell.kind == "empty":
                    cell_style += style("scoresheet--empty")
                if seat == view.current:
                    cell_style += current_style
                    if at_cursor:
                        cell_style += style("scoresheet--cursor")
                lines.append(cell.text.rjust(width - 1) + " ", cell_style)
        return lines

    def render_lines(self, crop: Region) -> list[Strip]:
        # Border, padding, label and cells in as few styled runs as their looks allow: a row
        # repainted for one changed cell is written from the sheet's left edge.
        return [one_run_per_style(strip) for strip in super().render_lines(crop)]

    def watch_cursor(self, old: int, new: int) -> None:
        self.refresh(self.row_region(old), self.row_region(new))

    # -- input ----------------------------------------------------------------------------
    def action_cursor(self, step: int) -> None:
        selectable = self._selectable()
        if not selectable:
            return
        later = [i for i in selectable if (i - self.cursor) * step > 0]
        if later:
            self.cursor = min(later, key=lambda i: abs(i - self.cursor))
        else:
            self.cursor = selectable[0] if step > 0 else selectable[-1]

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
