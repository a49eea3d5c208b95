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
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any, ClassVar, Literal, NamedTuple

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from rules import N_, NP_
from rules import Text as Words

from ..catalog import OptionField, choice_label
from ..games import SEAT_KINDS, SeatKind
from ..i18n import _, decimal, ntr, render, tr
from ..settings import MAX_SEATS, NAME_WIDTH, NUMBER_CHARS, TableSetup
from ..widgets import row_moves, sibling_css
from ..widgets.runs import one_run_per_style
from .game_list import BLURRED_CURSOR, CURSOR

DEFAULT_NAMES = ("Ana", "Bruno", "Carla", "Diego", "Elena", "Facundo", "Gabriela", "Hugo")
LABEL_WIDTH = 18
NOTE_LINES = 2
KIND_LABELS: dict[str, str] = {
    "human": N_("Human"),
    "easy": N_("Easy bot"),
    "medium": N_("Medium bot"),
    "expert": N_("Expert bot"),
}
DECIMAL_MARKS = ",."
"""A decimal number may be typed with a comma or a point, as the player writes it."""
NUMBER_WIDTH = 6


class Row(NamedTuple):
    """A row that the cursor can stand on: the player count, a seat, or an option field."""

    kind: Literal["count", "seat", "option"]
    number: int = 0
    """Which seat or which option field (from 0); not `index`, which is a tuple's method."""


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
        self.names = list(DEFAULT_NAMES)
        self.kinds: list[SeatKind] = ["human"] * MAX_SEATS
        self.counts: list[int] = [2]
        self.count = 2
        self.fields: tuple[OptionField, ...] = ()
        self.raw: dict[str, Any] = {}
        self.errors: dict[str, list[Words | str]] = {}
        """What the game said is wrong, by field ("players" for the seats), drawn in the
        player's language when shown."""
        self.cursor = 0
        self.replace = True
        """The next character typed replaces the name or number under the cursor."""
        self.marks_shown = False
        """Problems are marked on the sheet (a change may move or clear marks elsewhere)."""
        self._set_game(counts, fields, count, setup)

    # -- what the sheet holds -------------------------------------------------------------
    def show_game(
        self,
        counts: Sequence[int],
        fields: Sequence[OptionField],
        setup: TableSetup | None = None,
    ) -> None:
        """Another game: its player counts and its options, as `setup` had them (the game's
        table as last set up), else at their defaults with the names, who plays each seat
        and the count (if the game allows it) as they are."""
        self._set_game(counts, fields, self.count, setup)
        self.refresh(layout=True)

    def _set_game(
        self,
        counts: Sequence[int],
        fields: Sequence[OptionField],
        count: int,
        setup: TableSetup | None = None,
    ) -> None:
        if setup is not None:
            count = setup.players
            for seat, (name, kind) in enumerate(setup.seats[:MAX_SEATS]):
                self.names[seat], self.kinds[seat] = name, kind
        self.counts = list(counts) or [1]
        self.count = min(max(count, self.counts[0]), self.counts[-1])
        self.fields = tuple(fields)
        kept = setup.options if setup is not None else {}
        self.raw = {field.name: kept.get(field.name, self._default(field)) for field in self.fields}
        self.errors = {}
        self.marks_shown = False
        self.cursor = min(self.cursor, len(self.rows()) - 1)
        self.replace = True

    @staticmethod
    def _default(field: OptionField) -> Any:
        return field.default if field.kind in ("bool", "choice") else str(field.default)

    def setup(self) -> TableSetup:
        """The table as the sheet shows it now, to be remembered (`app.settings`)."""
        seats = tuple(zip(self.names[: self.count], self.kinds[: self.count], strict=True))
        return TableSetup(self.count, seats, dict(self.raw))

    def rows(self) -> list[Row]:
        return [
            Row("count"),
            *(Row("seat", seat) for seat in range(self.count)),
            *(Row("option", index) for index in range(len(self.fields))),
        ]

    @property
    def row(self) -> Row:
        return self.rows()[self.cursor]

    def row_named(self, name: str) -> Row:
        """ "count", "seat-N" (from 1), or an option field's name."""
        if name == "count":
            return Row("count")
        if name.startswith("seat-"):
            return Row("seat", int(name.removeprefix("seat-")) - 1)
        return Row("option", [field.name for field in self.fields].index(name))

    def line_of(self, row: Row) -> int:
        """The line of the sheet that shows the row."""
        return self._line_rows().index(row)

    def seats(self) -> list[tuple[str, SeatKind]]:
        """Each seated player's name (trimmed) and who plays the seat."""
        return [(self.names[seat].strip(), self.kinds[seat]) for seat in range(self.count)]

    def values(self) -> dict[str, Any]:
        """The options as typed: bools and choices as they are, numbers as text (None if
        empty); the game's options model validates and converts them. An option that does
        not apply with the others as they are is left out (the game takes its default), so
        that what is typed there cannot stop the game from starting."""
        result: dict[str, Any] = {}
        for field in self.fields:
            if not self.applies(field):
                continue
            value = self.raw[field.name]
            if field.kind in ("int", "float"):
                value = str(value).strip() or None
            result[field.name] = value
        return result

    def applies(self, field: OptionField) -> bool:
        """Whether the option matters with the other options as they are now."""
        return field.applies(self.raw)

    def show_problems(self, problems: Sequence[tuple[str, Words | str]]) -> None:
        """What the game said is wrong (field name, why; "players" for the seats): each shows
        on its row, and the cursor goes to the first of them."""
        self.errors = {}
        for name, why in problems:
            key = name.split(".")[0]
            self.errors.setdefault(key, []).append(why)
        for index, row in enumerate(self.rows()):
            if self._marked(row):
                self.cursor = index
                break
        self.replace = True
        self.marks_shown = bool(self.errors)
        self.refresh()
        self._scroll_to_cursor()

    def _error_key(self, row: Row) -> str:
        return self.fields[row.number].name if row.kind == "option" else "players"

    def _marked(self, row: Row) -> bool:
        """Whether the row gets a ⚠: a field the game refused; for a problem with the players,
        each seat without a name or with an earlier seat's name (or, if none, the count)."""
        if self._error_key(row) not in self.errors:
            return False
        bad = self._bad_seats()
        if row.kind == "seat":
            return row.number in bad
        return row.kind == "option" or not bad

    def _bad_seats(self) -> set[int]:
        names = [name for name, _kind in self.seats()]
        return {seat for seat, name in enumerate(names) if not name or name in names[:seat]}

    # -- changing it ----------------------------------------------------------------------
    def action_move(self, step: int) -> None:
        self.move_to(min(max(self.cursor + step, 0), len(self.rows()) - 1))
        self._scroll_to_cursor()

    def move_to(self, cursor: int) -> None:
        """The cursor to another row (repainting that row, the one it leaves, the note)."""
        if cursor != self.cursor:
            old = self.row
            self.cursor = cursor
            self.repaint(old, self.row)
        self.replace = True

    def action_step(self, step: int) -> None:
        row = self.row
        if row.kind == "count":
            index = self.counts.index(self.count) + step
            count = self.counts[min(max(index, 0), len(self.counts) - 1)]
            if count != self.count:
                self.count = count
                self.errors.pop("players", None)
                self.refresh(layout=True)
            return
        if row.kind == "seat":
            kind = SEAT_KINDS[(SEAT_KINDS.index(self.kinds[row.number]) + step) % len(SEAT_KINDS)]
            self.kinds[row.number] = kind
        else:
            field = self.fields[row.number]
            self.raw[field.name] = self._stepped(field, self.raw[field.name], step)
            self.errors.pop(field.name, None)
            self.replace = True
        self.repaint(row, *self._dependents(row))

    @staticmethod
    def _stepped(field: OptionField, value: Any, step: int) -> Any:
        if field.kind == "bool":
            return not value
        if field.kind == "choice":
            choices = list(field.choices)
            index = choices.index(value) if value in choices else 0
            return choices[(index + step) % len(choices)]
        if field.kind == "int":
            try:
                return str(int(str(value).strip()) + step)
            except ValueError:
                return str(field.default)
        if field.kind == "float":
            try:
                return f"{round(float(str(value).strip()) + step / 10, 6):g}"
            except ValueError:
                return str(field.default)
        return value

    def _dependents(self, row: Row) -> list[Row]:
        """The option rows whose use depends on the option on `row` (dimmed or not by it)."""
        if row.kind != "option":
            return []
        name = self.fields[row.number].name
        return [
            Row("option", index)
            for index, field in enumerate(self.fields)
            if any(other == name for other, _value in field.applies_when)
        ]

    def _text(self, row: Row) -> str | None:
        """What is typed on the row: a seat's name, a number or text option; None if the
        row is not typed into."""
        if row.kind == "seat":
            return self.names[row.number]
        if row.kind == "option" and self.fields[row.number].kind in ("int", "float", "text"):
            return str(self.raw[self.fields[row.number].name])
        return None

    def _set_text(self, row: Row, text: str) -> None:
        text = text[:NAME_WIDTH]
        if row.kind == "seat":
            self.names[row.number] = text
        else:
            self.raw[self.fields[row.number].name] = text
        self.errors.pop(self._error_key(row), None)
        self.replace = False
        self.repaint(row)

    def action_erase(self) -> None:
        row = self.row
        old = self._text(row)
        if old is not None:
            self._set_text(row, "" if self.replace else old[:-1])

    def action_submit(self) -> None:
        self.post_message(self.Submitted())

    def type_text(self, text: str) -> bool:
        """Write what was typed into the name or number under the cursor; False if this row
        takes no text (or none of these characters)."""
        row = self.row
        old = self._text(row)
        if old is None:
            return False
        kind = self.fields[row.number].kind if row.kind == "option" else None
        allowed = NUMBER_CHARS.get(kind) if kind else None
        if kind == "float" and allowed is not None:
            allowed += DECIMAL_MARKS
        text = "".join(c for c in text if c.isprintable() and (allowed is None or c in allowed))
        if allowed is not None:
            text = text.replace(",", ".")  # kept as Python writes it; shown the player's way
        if not text:
            return False
        self._set_text(row, ("" if self.replace else old) + text)
        return True

    def _jump(self, char: str) -> bool:
        """A letter on a choice: the next value starting with it."""
        row = self.row
        if row.kind != "option" or self.fields[row.number].kind != "choice":
            return False
        field = self.fields[row.number]
        choices = list(field.choices)
        start = choices.index(self.raw[field.name]) if self.raw[field.name] in choices else 0
        for offset in range(1, len(choices) + 1):
            choice = choices[(start + offset) % len(choices)]
            if _(choice_label(choice)).casefold().startswith(char.casefold()):
                self.raw[field.name] = choice
                self.errors.pop(field.name, None)
                self.repaint(row, *self._dependents(row))
                return True
        return False

    def on_key(self, event: events.Key) -> None:
        char = event.character
        if char is None or not char.isprintable():
            return
        if char == " " and self.row.kind != "seat":
            handled = True
            self.action_step(1)
        else:
            handled = self.type_text(char) or self._jump(char)
        if handled:
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
        lines = self._line_rows()
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
    def _line_rows(self) -> list[Row | None]:
        """Which row each drawn line shows (None: a heading, a blank or the note)."""
        rows = self.rows()
        seats = 1 + self.count
        options: list[Row | None] = [*rows[seats:]] or [None]
        return [None, *rows[:seats], None, *options]  # headings: None

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return len(self._line_rows()) + 1 + NOTE_LINES  # a blank line, then the note

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
        if self.marks_shown:
            self.marks_shown = bool(self.errors)
            self.refresh()
            return
        lines = self._line_rows()
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
        lines = self._line_rows()
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
        if not self.fields:
            note = self.get_component_rich_style("setup-sheet--note")
            lines.append(Text(_("Options"), style=section))
            lines.append(Text("  " + _("This game has no options."), style=note))
        lines.extend(self._note(width))
        return Text("\n", no_wrap=True).join(lines)

    def _row_line(self, index: int, row: Row) -> Text:
        here = index == self.cursor
        line = Text(no_wrap=True, end="")
        if here and self.has_focus:
            line.append(CURSOR + " ")
        elif here:  # the cursor waits where it was, hollow and dim: another panel has the keys
            line.append(BLURRED_CURSOR + " ", Style(dim=True))
        else:
            line.append("  ")
        if row.kind == "count":
            line.append(_("How many").ljust(LABEL_WIDTH))
            line.append_text(self._arrows([str(n) for n in self.counts], str(self.count), here))
        elif row.kind == "seat":
            line.append(f"{row.number + 1:>2}  ")
            name = self.names[row.number]
            field_style = self.get_component_rich_style("setup-sheet--field")
            width = self.name_width()
            editing = here and self.has_focus and not self.replace
            if editing:  # its end, where the next letter goes
                shown = (name + "▏")[-width:]
            else:
                shown = name if len(name) <= width else name[: width - 1] + "…"
            if here and self.has_focus and self.replace:  # selected: a key types over it
                line.append(shown, self.get_component_rich_style("setup-sheet--cursor"))
                line.append(" " * (width - len(shown)), field_style)
            else:
                line.append(shown.ljust(width), field_style)
            line.append(" ")
            labels = [_(KIND_LABELS[kind]) for kind in SEAT_KINDS]
            line.append_text(self._arrows(labels, _(KIND_LABELS[self.kinds[row.number]]), here))
        else:
            field = self.fields[row.number]
            start = len(line)
            line.append(_(field.title)[: LABEL_WIDTH - 1].ljust(LABEL_WIDTH))
            value = self.raw[field.name]
            if field.kind == "bool":
                box = Text("[x] " + _("yes") if value else "[ ] " + _("no"))
                box.stylize(self.get_component_rich_style(self._value_class(here)))
                line.append_text(box)
            elif field.kind == "choice":
                labels = [_(choice_label(choice)) for choice in field.choices]
                line.append_text(self._arrows(labels, _(choice_label(value)), here))
            else:
                shown = decimal(str(value)) if field.kind == "float" else str(value)
                text = shown + ("▏" if here and self.has_focus and not self.replace else "")
                line.append_text(self._arrows([text.ljust(NUMBER_WIDTH)], text, here))
            if not self.applies(field):  # dimmed and marked (no colour needed); the note says why
                unused = self.get_component_rich_style("setup-sheet--unused")
                line.stylize(unused, start, start + LABEL_WIDTH)
                if not (here and self.has_focus):
                    line.stylize(unused, start + LABEL_WIDTH)
                line.append("  " + _("(not used)"), unused)
        if self._marked(row):
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
        problems = self.errors.get(self._error_key(row))
        if problems is not None:
            text, style = "⚠ " + "; ".join(render(why) for why in problems), "setup-sheet--error"
        else:
            text, style = self._help(row), "setup-sheet--note"
        wrapped = textwrap.wrap(text, width - 2) or [""]
        if len(wrapped) > NOTE_LINES:
            wrapped = [*wrapped[: NOTE_LINES - 1], wrapped[NOTE_LINES - 1][: width - 3] + "…"]
        rich_style = self.get_component_rich_style(style)
        padded = ["", *wrapped, *[""] * (NOTE_LINES - len(wrapped))]
        return [Text("  " + line, style=rich_style) for line in padded]

    def _help(self, row: Row) -> str:
        if row.kind == "count":
            low, high = self.counts[0], self.counts[-1]
            if low == high:
                return ntr(
                    NP_("This game is for {n} player.", "This game is for {n} players."), low
                )
            return tr(N_("How many sit at the table: {low} to {high} (← →)."), low=low, high=high)
        if row.kind == "seat":
            return _("Type a name. ← → who plays: a person or a bot.")
        field = self.fields[row.number]
        description = _(field.description) if field.description else ""
        if not self.applies(field):
            return ". ".join(part for part in (self._unused_reason(field), description) if part)
        hint = {
            "bool": _("space: yes or no"),
            "choice": _("← → to choose"),
            "int": _("type a number, or ← →"),
            "float": _("type a number, or ← →"),
        }.get(field.kind, "")
        return ". ".join(part for part in (description, hint) if part)

    def _unused_reason(self, field: OptionField) -> str:
        """Why an option is dimmed: "Not used unless Game end is race"."""
        titles = {other.name: other for other in self.fields}
        needs = []
        for name, value in field.applies_when:
            other = titles.get(name)
            title = _(other.title) if other is not None else name
            shown = self._value_label(value)
            needs.append(_("{option} is {value}").format(option=title, value=shown))
        return _("Not used unless {conditions}").format(conditions=_(" and ").join(needs))

    @staticmethod
    def _value_label(value: Any) -> str:
        """An option's value as the sheet shows it: yes or no, or the choice."""
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        return _(choice_label(value))
