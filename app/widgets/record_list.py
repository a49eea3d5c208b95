"""A list of games, one line each, with buttons on every line: the lobby's unfinished games
(Resume, Abandon), the history's finished ones (Replay).

One widget that scrolls (a `ScrollView` drawing only the lines in view). ↑ ↓ (page up, page
down, home, end) move the highlighted line, marked ▸ (▹ when another widget has the keyboard),
and enter presses the line's first button; a click on a line highlights it, and a click on
one of its buttons presses that button for that line. The screen decides what a button does
(`RecordList.Pressed`).

A line too wide for the list has its flexible column cut (…), unless that column's cells know
how to shorten themselves (`Shortens`: the history's scores shorten the names, never a score).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, NamedTuple, Protocol, runtime_checkable

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from rules import N_

from ..i18n import _
from . import sibling_css
from .plain import cells, clip, pad

CURSOR, BLURRED_CURSOR = "▸", "▹"
GAP = 2
"""Blank columns between two columns of a line."""


class ListButton(NamedTuple):
    id: str
    label: str
    """A marked message (`N_`), drawn in the player's language."""


@runtime_checkable
class Shortens(Protocol):
    """A cell that knows how to be narrower than it is without cutting what matters (a
    game's scores shorten their names, never a score: `record_lines.Results`)."""

    @property
    def least(self) -> int:
        """The fewest cells it can be shown in whole."""
        ...

    @property
    def comfortable(self) -> int:
        """The cells it takes shortened only a little (the other columns are cut first)."""
        ...

    def fit(self, width: int) -> str:
        """The cell within `width` cells (at least `least`)."""
        ...


class RecordList(ScrollView, can_focus=True, inherit_bindings=False):
    DEFAULT_CSS = sibling_css(__file__)
    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "record-list--highlight",
        "record-list--button",
        "record-list--dim",
    }
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1)", N_("Up"), show=False),
        Binding("down", "move(1)", N_("Down"), show=False),
        Binding("pageup", "page(-1)", N_("Page up"), show=False),
        Binding("pagedown", "page(1)", N_("Page down"), show=False),
        Binding("home", "move(-1000000)", N_("First"), show=False),
        Binding("end", "move(1000000)", N_("Last"), show=False),
        Binding("enter", "press_first", N_("Open"), show=False),
    ]

    class Pressed(Message):
        """A line's button was pressed (enter presses the first)."""

        def __init__(self, records: RecordList, index: int, button_id: str) -> None:
            super().__init__()
            self.records = records
            self.index = index
            self.button_id = button_id

        @property
        def control(self) -> RecordList:
            return self.records

    class Highlighted(Message):
        def __init__(self, records: RecordList, index: int) -> None:
            super().__init__()
            self.records = records
            self.index = index

        @property
        def control(self) -> RecordList:
            return self.records

    def __init__(
        self,
        buttons: Sequence[ListButton],
        *,
        flexible: int = -1,
        keep: tuple[int, ...] = (),
        empty: str = "",
        blurred_cursor: bool = True,
        id: str | None = None,
    ) -> None:
        """`buttons`: drawn at the end of every line; `flexible`: the column cut short (…)
        when a line is wider than the list; `keep`: columns never cut (a date); `empty`: a
        marked message shown when there is no line; `blurred_cursor`: whether the line the
        cursor is on stays marked (▹) while another widget has the keyboard (else: a list that
        shows its cursor only while it has the keyboard)."""
        super().__init__(id=id)
        self.buttons = tuple(buttons)
        self.flexible = flexible
        self.keep = keep
        self.empty = empty
        self.blurred_cursor = blurred_cursor
        self.lines: list[tuple[str, ...]] = []
        self.cursor = 0

    # -- what is shown ----------------------------------------------------------------------
    def show(self, lines: Sequence[Sequence[str]], cursor: int | None = None) -> None:
        """Show these lines (a tuple of columns each); the cursor stays where it was unless
        told (and within the lines)."""
        self.lines = [tuple(line) for line in lines]
        if cursor is not None:
            self.cursor = cursor
        self.cursor = max(0, min(self.cursor, len(self.lines) - 1))
        self.virtual_size = Size(0, len(self.lines))
        self.refresh(layout=True)
        self.call_after_refresh(self.scroll_to_cursor)

    def set_line(self, index: int, line: Sequence[str]) -> None:
        if 0 <= index < len(self.lines):
            self.lines[index] = tuple(line)
            self.refresh()

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return max(1, len(self.lines))

    # -- moving -----------------------------------------------------------------------------
    def move_to(self, index: int) -> None:
        if not self.lines:
            return
        index = max(0, min(index, len(self.lines) - 1))
        if index != self.cursor:
            self.cursor = index
            self.refresh()
            self.post_message(self.Highlighted(self, index))
        self.scroll_to_cursor()

    def scroll_to_cursor(self) -> None:
        if self.lines:
            self.scroll_to_region(Region(0, self.cursor, 1, 1), animate=False, immediate=True)

    def action_move(self, step: int) -> None:
        self.move_to(self.cursor + step)

    def action_page(self, step: int) -> None:
        self.move_to(self.cursor + step * max(1, self.scrollable_content_region.height - 1))

    def action_press_first(self) -> None:
        if self.lines and self.buttons:
            self.post_message(self.Pressed(self, self.cursor, self.buttons[0].id))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = offset.y + round(self.scroll_offset.y)
        if not 0 <= index < len(self.lines):
            return
        event.stop()
        self.move_to(index)
        width = self.scrollable_content_region.width
        for button_id, start, end in self._button_spans(width):
            if start <= offset.x < end:
                self.post_message(self.Pressed(self, index, button_id))
                return

    # -- drawing ----------------------------------------------------------------------------
    def _button_spans(self, width: int) -> list[tuple[str, int, int]]:
        """Where each line's buttons are: (id, first column, end), at the line's right end."""
        spans = []
        x = width
        for button in reversed(self.buttons):
            size = len(_(button.label)) + 2
            spans.append((button.id, x - size, x))
            x -= size + 1
        return spans[::-1]

    def _columns(self, width: int) -> list[int]:
        """Each column's width: its widest cell, the flexible column cut to fit."""
        if not self.lines:
            return []
        count = max(len(line) for line in self.lines)
        widths = [max((cells(line[i]) for line in self.lines if i < len(line)), default=0)
                  for i in range(count)]
        spans = self._button_spans(width)
        first = spans[0][1] if spans else width
        room = first - 2 - GAP * (count - 1)  # (the cursor's column, a blank before buttons)
        flexible = self.flexible % count
        # (cells that shorten themselves: how narrow before the other columns are cut, and
        # how narrow at all)
        shortens: list[Shortens] = [
            cell
            for cell in (line[flexible] for line in self.lines if flexible < len(line))
            if isinstance(cell, Shortens)
        ]
        comfortable = max((cell.comfortable for cell in shortens), default=12)
        whole = max((cell.least for cell in shortens), default=4)
        # too wide: the flexible column down to 12 (or what its cells take shortened a little),
        # then the widest other one down to 10 a column at a time, then the flexible one down
        # to 4 (or what its cells must show whole; a cut cell ends with …), then the other
        # ones down to 5 (a long button in another language: "Repetición")
        for column, least in ((flexible, comfortable), (None, 10), (flexible, whole), (None, 5)):
            while sum(widths) > room:
                if column is None:
                    others = [
                        i
                        for i in range(count)
                        if i != flexible and i not in self.keep and widths[i] > least
                    ]
                    if not others:
                        break
                    widest = max(others, key=lambda i: widths[i])
                    widths[widest] -= 1
                elif widths[column] > least:
                    widths[column] -= 1
                else:
                    break
        return widths

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        index = y + round(self.scroll_offset.y)
        style = self.rich_style
        if not self.lines:
            text = Text(" " + _(self.empty) if y == 0 and self.empty else "", style="")
            text.stylize(self.get_component_rich_style("record-list--dim"))
            return self._strip(text, width, style)
        if index >= len(self.lines):
            return Strip.blank(width, style)
        here = index == self.cursor and (self.blurred_cursor or self.has_focus)
        line_style = self.get_component_rich_style("record-list--highlight") if here else Style()
        marker = " "
        if here:
            marker = CURSOR if self.has_focus else BLURRED_CURSOR
        text = Text(marker, no_wrap=True, end="")
        columns = self._columns(width)
        for column, (cell, size) in enumerate(zip(self.lines[index], columns, strict=False)):
            if column:
                text.append(" " * GAP)
            # (player names are shown literally, in cells: see widgets/plain.py)
            if isinstance(cell, Shortens):
                cell = cell.fit(size)
            text.append(pad(clip(cell, size, "…"), size))
        spans = self._button_spans(width)
        first = spans[0][1] if spans else width
        if text.cell_len > first - 1:
            text.truncate(max(0, first - 1))
        text.append(" " * (first - text.cell_len))
        text.stylize(line_style)
        button_style = self.get_component_rich_style("record-list--button")
        for number, (button_id, _start, _end) in enumerate(spans):
            if number:
                text.append(" ", line_style)
            label = next(b.label for b in self.buttons if b.id == button_id)
            text.append(f" {_(label)} ", button_style)
        return self._strip(text, width, style)

    def _strip(self, text: Text, width: int, style: Style) -> Strip:
        segments = list(text.render(self.app.console, end=""))
        return Strip(segments).crop_extend(0, width, style).apply_style(style)
