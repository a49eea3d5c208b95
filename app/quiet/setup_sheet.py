"""The lobby's setup sheet: who sits at the table and the game's options, a row each.

    Players
    ▸ How many          ‹ 2 ›
      1  Ana              ‹ Human      ›
      2  Bruno            ‹ Easy bot   ›
    Options
      Game end          ‹ rounds ›
      Play for chips    [ ] no
    How many players sit at the table (1 to 8).

One widget draws the whole sheet (a form of Textual widgets, a label, an input and a note per
field, took ≈ 30 widgets and most of the lobby's start-up time). ↑ ↓ move between rows; ← → or
space change the value under the cursor (a count, who plays a seat, a choice, a number, yes or
no); typing writes a seat's name or a number (the first key replaces the old one, backspace
erases); a letter jumps to a choice starting with it; enter asks to start. A click on a row
moves there, on ‹ steps back, on the rest of a value steps on. The line under the rows explains
the row under the cursor, or says what is wrong with it. The cursor is ▸ while the sheet has the
keyboard, ▹ (hollow, dim) while another panel has it.

Fields come from the catalogue (`app.catalog`, generated from each game's pydantic options
model), so no game needs form code. `values()` gives the raw values for the game to validate.

What the sheet holds and how a key changes it is `setup_model.SetupModel` (no Textual, tested
without it); this widget draws the model and turns keys and clicks into its calls, repainting
the rows each call says changed.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from rules import N_
from rules import Text as Words

from ..catalog import OptionField, choice_label
from ..games import SEAT_KINDS, SeatKind
from ..i18n import _, decimal, render
from ..settings import MAX_SEATS, NAME_WIDTH, TableSetup
from ..widgets import row_moves, sibling_css
from ..widgets.plain import clip, pad, visible
from ..widgets.runs import one_run_per_style
from .game_list import BLURRED_CURSOR, CURSOR
from .setup_model import KIND_LABELS, Change, Row, SetupModel

LABEL_WIDTH = 18
NOTE_LINES = 2
NUMBER_WIDTH = 6
__all__ = ["KIND_LABELS", "MAX_SEATS", "NOTE_LINES", "Row", "SetupSheet"]


class SetupSheet(Widget, can_focus=True):
    DEFAULT_CSS = sibling_css(__file__)
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "setup-sheet--section",
        "setup-sheet--field",
        "setup-sheet--cursor",
        "setup-sheet--note",
        "setup-sheet--error",
        "setup-sheet--unused",
    }
    BINDINGS: ClassVar[list[BindingType]] = [
        *row_moves(),
        Binding("left", "step(-1)", N_("Previous"), show=False),
        Binding("right", "step(1)", N_("Next"), show=False),
        Binding("backspace", "erase", N_("Erase"), show=False),
        Binding("enter", "submit", N_("Start"), show=False),
    ]

    class Submitted(Message):
        """Enter: the player asks to start with what the sheet shows."""

    def __init__(
        self,
        counts: Sequence[int],
        fields: Sequence[OptionField],
        *,
        count: int = 2,
        setup: TableSetup | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.model = SetupModel(counts, fields, count=count, setup=setup)

    # -- what the sheet holds (the model's) -------------------------------------------------
    @property
    def names(self) -> list[str]:
        return self.model.names

    @property
    def kinds(self) -> list[SeatKind]:
        return self.model.kinds

    @property
    def counts(self) -> list[int]:
        return self.model.counts

    @property
    def count(self) -> int:
        return self.model.count

    @property
    def fields(self) -> tuple[OptionField, ...]:
        return self.model.fields

    @property
    def raw(self) -> dict[str, Any]:
        return self.model.raw

    @property
    def errors(self) -> dict[str, list[Words | str]]:
        return self.model.errors

    @property
    def cursor(self) -> int:
        return self.model.cursor

    @property
    def row(self) -> Row:
        return self.model.row

    def rows(self) -> list[Row]:
        return self.model.rows()

    def row_named(self, name: str) -> Row:
        """ "count", "seat-N" (from 1), or an option field's name."""
        return self.model.row_named(name)

    def line_of(self, row: Row) -> int:
        """The line of the sheet that shows the row."""
        return self.model.line_of(row)

    def seats(self) -> list[tuple[str, SeatKind]]:
        return self.model.seats()

    def values(self) -> dict[str, Any]:
        return self.model.values()

    def setup(self) -> TableSetup:
        return self.model.setup()

    def show_game(
        self,
        counts: Sequence[int],
        fields: Sequence[OptionField],
        setup: TableSetup | None = None,
    ) -> None:
        """Another game: its player counts and its options, as `setup` had them (the game's
        table as last set up), else at their defaults with the names, who plays each seat
        and the count (if the game allows it) as they are."""
        self.model.set_game(counts, fields, self.model.count, setup)
        self.refresh(layout=True)

    def show_problems(self, problems: Sequence[tuple[str, Words | str]]) -> None:
        """What the game said is wrong (field name, why; "players" for the seats): each shows
        on its row, and the cursor goes to the first of them."""
        self.model.show_problems(problems)
        self.refresh()
        self._scroll_to_cursor()

    # -- changing it ----------------------------------------------------------------------
    def draw(self, change: Change | None) -> bool:
        """Repaint what a change of the model changed; False if there was no change."""
        if change is None:
            return False
        if change.layout:
            self.refresh(layout=True)
        elif change.rows:
            self.repaint(*change.rows)
        return True

    def action_move(self, step: int) -> None:
        self.draw(self.model.move(step))
        self._scroll_to_cursor()

    def move_to(self, cursor: int) -> None:
        """The cursor to another row (repainting that row, the one it leaves, the note)."""
        self.draw(self.model.move_to(cursor))

    def action_step(self, step: int) -> None:
        self.draw(self.model.step(step))

    def action_erase(self) -> None:
        self.draw(self.model.erase())

    def action_submit(self) -> None:
        self.post_message(self.Submitted())

    def type_text(self, text: str) -> bool:
        """Write what was typed into the name or number under the cursor; False if this row
        takes no text (or none of these characters)."""
        return self.draw(self.model.type_text(text))

    def on_key(self, event: events.Key) -> None:
        char = event.character
        if char is None or not char.isprintable():
            return
        if self.draw(self.model.key(char)):
            event.stop()
            event.prevent_default()

    def on_paste(self, event: events.Paste) -> None:
        if self.type_text(" ".join(event.text.split())):
            event.stop()

    # -- the mouse ------------------------------------------------------------------------
    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        event.stop()
        self.focus()
        lines = self.model.line_rows()
        row = lines[offset.y] if 0 <= offset.y < len(lines) else None
        if row is None:
            return
        self.move_to(self.rows().index(row))
        start = self.value_x(row)
        if offset.x >= start:
            self.action_step(-1 if offset.x < start + 2 else 1)

    def name_width(self) -> int:
        """The names' field: 16 columns, fewer if the sheet is narrow (who plays the seat,
        and a ⚠ after it, stay whole)."""
        kinds = max(len(_(label)) for label in KIND_LABELS.values()) + 4  # ‹ Medium bot ›
        room = self.size.width - len("▸  1  ") - 1 - kinds - len("  ⚠")
        return max(6, min(NAME_WIDTH, room))

    def value_x(self, row: Row) -> int:
        """The column where the row's value (its ‹ arrow, or a yes/no box) starts."""
        if row.kind == "seat":
            return len("▸  1  ") + self.name_width() + 1
        return 2 + LABEL_WIDTH

    # -- drawing --------------------------------------------------------------------------
    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return len(self.model.line_rows()) + 1 + NOTE_LINES  # a blank line, then the note

    def _on_focus(self, event: events.Focus) -> None:
        # Textual's own handler repaints the whole widget; only the cursor's row looks
        # different with the focus (≈ 0.2 KB to the terminal instead of ≈ 5 KB)
        event.prevent_default()  # (Textual's handler of its base classes is not called)
        self.has_focus = True
        self.repaint(self.row, note=False)
        if self.parent is not None:
            self.parent.post_message(events.DescendantFocus(self))
        self._scroll_to_cursor()

    def _on_blur(self, event: events.Blur) -> None:
        event.prevent_default()
        self.has_focus = False
        self.repaint(self.row, note=False)
        if self.parent is not None:
            self.parent.post_message(events.DescendantBlur(self))

    def repaint(self, *rows: Row, note: bool = True) -> None:
        """Repaint only these rows (and the note): a key in the lobby writes a line or
        three to the terminal, not the sheet. With a problem on show, a change can move
        its ⚠ marks (two seats' names, say): then the whole sheet."""
        if self.model.marks_shown:
            self.model.marks_shown = bool(self.errors)
            self.refresh()
            return
        lines = self.model.line_rows()
        width = self.size.width
        regions = [Region(0, self.line_of(row), width, 1) for row in rows]
        if note:
            regions.append(Region(0, len(lines) + 1, width, NOTE_LINES))
        self.refresh(*regions)

    def render_lines(self, crop: Region) -> list[Strip]:
        return [one_run_per_style(strip) for strip in super().render_lines(crop)]

    def _scroll_to_cursor(self) -> None:
        """Keep the cursor's row (and the note under the rows) in view of the scrolling
        column the sheet sits in."""
        parent = self.parent
        if not isinstance(parent, Widget) or not self.is_mounted:
            return
        lines = self.model.line_rows()
        line = self.line_of(self.row)
        top = self.virtual_region.y
        parent.scroll_to_region(
            Region(0, top + line, 1, len(lines) - line + 1 + NOTE_LINES), animate=False, top=False
        )
        parent.scroll_to_region(Region(0, top + max(line - 1, 0), 1, 2), animate=False)

    def render(self) -> Text:
        width = max(self.size.width, 20)
        section = self.get_component_rich_style("setup-sheet--section")
        lines = [Text(_("Players"), style=section)]
        rows = self.rows()
        for index, row in enumerate(rows):
            if row.kind == "option" and rows[index - 1].kind != "option":
                lines.append(Text(_("Options"), style=section))
            lines.append(self._row_line(index, row))
        if not self.model.fields:
            note = self.get_component_rich_style("setup-sheet--note")
            lines.append(Text(_("Options"), style=section))
            lines.append(Text("  " + _("This game has no options."), style=note))
        lines.extend(self._note(width))
        return Text("\n", no_wrap=True).join(lines)

    def _row_line(self, index: int, row: Row) -> Text:
        model = self.model
        here = index == model.cursor
        line = Text(no_wrap=True, end="")
        if here and self.has_focus:
            line.append(CURSOR + " ")
        elif here:  # the cursor waits where it was, hollow and dim: another panel has the keys
            line.append(BLURRED_CURSOR + " ", Style(dim=True))
        else:
            line.append("  ")
        if row.kind == "count":
            line.append(_("How many").ljust(LABEL_WIDTH))
            line.append_text(self._arrows([str(n) for n in model.counts], str(model.count), here))
        elif row.kind == "seat":
            line.append(f"{row.number + 1:>2}  ")
            name = visible(model.names[row.number])
            field_style = self.get_component_rich_style("setup-sheet--field")
            width = self.name_width()
            editing = here and self.has_focus and not model.replace
            if editing:  # its end, where the next letter goes
                shown = name + "▏"
                while cell_len(shown) > width:  # (in cells: a Chinese character takes two)
                    shown = shown[1:]
            else:
                shown = clip(name, width, "…")
            if here and self.has_focus and model.replace:  # selected: a key types over it
                line.append(shown, self.get_component_rich_style("setup-sheet--cursor"))
                line.append(" " * (width - cell_len(shown)), field_style)
            else:
                line.append(pad(shown, width), field_style)
            line.append(" ")
            labels = [_(KIND_LABELS[kind]) for kind in SEAT_KINDS]
            line.append_text(self._arrows(labels, _(KIND_LABELS[model.kinds[row.number]]), here))
        else:
            field = model.fields[row.number]
            start = len(line)
            line.append(_(field.title)[: LABEL_WIDTH - 1].ljust(LABEL_WIDTH))
            value = model.raw[field.name]
            if field.kind == "bool":
                box = Text("[x] " + _("yes") if value else "[ ] " + _("no"))
                box.stylize(self.get_component_rich_style(self._value_class(here)))
                line.append_text(box)
            elif field.kind == "choice":
                labels = [_(choice_label(choice)) for choice in field.choices]
                line.append_text(self._arrows(labels, _(choice_label(value)), here))
            else:
                shown = decimal(str(value)) if field.kind == "float" else str(value)
                text = shown + ("▏" if here and self.has_focus and not model.replace else "")
                line.append_text(self._arrows([text.ljust(NUMBER_WIDTH)], text, here))
            if not model.applies(field):  # dimmed and marked (no colour needed): the note says why
                unused = self.get_component_rich_style("setup-sheet--unused")
                line.stylize(unused, start, start + LABEL_WIDTH)
                if not (here and self.has_focus):
                    line.stylize(unused, start + LABEL_WIDTH)
                line.append("  " + _("(not used)"), unused)
        if model.marked(row):
            line.append("  ⚠", self.get_component_rich_style("setup-sheet--error"))
        return line

    def _arrows(self, labels: Sequence[str], label: str, here: bool) -> Text:
        """‹ value › as wide as the longest value, highlighted under a focused cursor."""
        width = max(len(text) for text in (*labels, label))
        text = Text.assemble("‹ ", label.ljust(width), " ›")
        text.stylize(self.get_component_rich_style(self._value_class(here)))
        if not (here and self.has_focus):
            text.stylize(Style(dim=True), 0, 2)
            text.stylize(Style(dim=True), len(text) - 2)
        return text

    def _value_class(self, here: bool) -> str:
        return "setup-sheet--cursor" if here and self.has_focus else "setup-sheet--field"

    def _note(self, width: int) -> list[Text]:
        """The row under the cursor explained, or what is wrong with it: NOTE_LINES lines."""
        row = self.row
        problems = self.model.problems_of(row)
        if problems is not None:
            text, style = "⚠ " + "; ".join(render(why) for why in problems), "setup-sheet--error"
        else:
            text, style = self.model.help(row), "setup-sheet--note"
        wrapped = textwrap.wrap(text, width - 2) or [""]
        if len(wrapped) > NOTE_LINES:
            wrapped = [*wrapped[: NOTE_LINES - 1], wrapped[NOTE_LINES - 1][: width - 3] + "…"]
        rich_style = self.get_component_rich_style(style)
        padded = ["", *wrapped, *[""] * (NOTE_LINES - len(wrapped))]
        return [Text("  " + line, style=rich_style) for line in padded]
