"""What the lobby's setup sheet holds and how keys change it, without Textual.

`SetupModel` is the sheet's state: the player count, each seat's name and who plays it, the
game's option fields (from the catalogue) and their raw values, the problems the game reported,
and the cursor. Its changes (a move, a step, typing, a letter that jumps to a choice, erasing)
answer with a `Change`: the rows that look different afterwards, or that the sheet's lines
moved, which is all the widget (`app.quiet.setup_sheet.SetupSheet`) needs to repaint only
those. The words it gives (the note under the rows, an option's reason for being unused) are in
the player's language (`app.i18n`), which has no Textual either.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, NamedTuple

from rules import N_, NP_
from rules import Text as Words

from ..catalog import OptionField, choice_label
from ..games import SEAT_KINDS, SeatKind
from ..i18n import _, ntr, tr
from ..settings import MAX_SEATS, NAME_WIDTH, NUMBER_CHARS, TableSetup

DEFAULT_NAMES = ("Ana", "Bruno", "Carla", "Diego", "Elena", "Facundo", "Gabriela", "Hugo")
KIND_LABELS: dict[str, str] = {
    "human": N_("Human"),
    "easy": N_("Easy bot"),
    "medium": N_("Medium bot"),
    "expert": N_("Expert bot"),
}
DECIMAL_MARKS = ",."
"""A decimal number may be typed with a comma or a point, as the player writes it."""


class Row(NamedTuple):
    """A row that the cursor can stand on: the player count, a seat, or an option field."""

    kind: Literal["count", "seat", "option"]
    number: int = 0
    """Which seat or which option field (from 0); not `index`, which is a tuple's method."""


class Change(NamedTuple):
    """What a change did to the sheet: the rows to draw again (and the note under them), or
    `layout` when rows came or went (the player count)."""

    rows: tuple[Row, ...] = ()
    layout: bool = False


class SetupModel:
    """The sheet's rows, cursor, typing, option values and the game's problems with them."""

    def __init__(
        self,
        counts: Sequence[int],
        fields: Sequence[OptionField],
        *,
        count: int = 2,
        setup: TableSetup | None = None,
    ) -> None:
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
        self.set_game(counts, fields, count, setup)

    # -- what the sheet holds -------------------------------------------------------------
    def set_game(
        self,
        counts: Sequence[int],
        fields: Sequence[OptionField],
        count: int,
        setup: TableSetup | None = None,
    ) -> None:
        """Another game: its player counts and its options, as `setup` had them, else at their
        defaults with the names, who plays each seat and `count` (if the game allows it)."""
        if setup is not None:
            count = setup.players
            for seat, (name, kind) in enumerate(setup.seats[:MAX_SEATS]):
                self.names[seat], self.kinds[seat] = name, kind
        self.counts = list(counts) or [1]
        self.count = min(max(count, self.counts[0]), self.counts[-1])
        self.fields = tuple(fields)
        kept = setup.options if setup is not None else {}
        self.raw = {field.name: kept.get(field.name, _default(field)) for field in self.fields}
        self.errors = {}
        self.marks_shown = False
        self.cursor = min(self.cursor, len(self.rows()) - 1)
        self.replace = True

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

    def line_rows(self) -> list[Row | None]:
        """Which row each line of the sheet shows (None: a heading or a blank)."""
        rows = self.rows()
        seats = 1 + self.count
        options: list[Row | None] = [*rows[seats:]] or [None]
        return [None, *rows[:seats], None, *options]  # headings: None

    def line_of(self, row: Row) -> int:
        """The line of the sheet that shows the row."""
        return self.line_rows().index(row)

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

    def text(self, row: Row) -> str | None:
        """What is typed on the row: a seat's name, a number or text option; None if the
        row is not typed into."""
        if row.kind == "seat":
            return self.names[row.number]
        if row.kind == "option" and self.fields[row.number].kind in ("int", "float", "text"):
            return str(self.raw[self.fields[row.number].name])
        return None

    # -- the game's problems --------------------------------------------------------------
    def show_problems(self, problems: Sequence[tuple[str, Words | str]]) -> None:
        """What the game said is wrong (field name, why; "players" for the seats): each goes
        to its row, and the cursor to the first of them."""
        self.errors = {}
        for name, why in problems:
            key = name.split(".")[0]
            self.errors.setdefault(key, []).append(why)
        for index, row in enumerate(self.rows()):
            if self.marked(row):
                self.cursor = index
                break
        self.replace = True
        self.marks_shown = bool(self.errors)

    def error_key(self, row: Row) -> str:
        return self.fields[row.number].name if row.kind == "option" else "players"

    def problems_of(self, row: Row) -> list[Words | str] | None:
        """What the game said is wrong with the row, if anything."""
        return self.errors.get(self.error_key(row))

    def marked(self, row: Row) -> bool:
        """Whether the row gets a ⚠: a field the game refused; for a problem with the players,
        each seat without a name or with an earlier seat's name (or, if none, the count)."""
        if self.error_key(row) not in self.errors:
            return False
        bad = self._bad_seats()
        if row.kind == "seat":
            return row.number in bad
        return row.kind == "option" or not bad

    def _bad_seats(self) -> set[int]:
        names = [name for name, _kind in self.seats()]
        return {seat for seat, name in enumerate(names) if not name or name in names[:seat]}

    # -- changing it ----------------------------------------------------------------------
    def move(self, step: int) -> Change:
        """The cursor `step` rows on (held at the first and last)."""
        return self.move_to(min(max(self.cursor + step, 0), len(self.rows()) - 1))

    def move_to(self, cursor: int) -> Change:
        """The cursor to another row: that row and the one it leaves look different."""
        change = Change()
        if cursor != self.cursor:
            old = self.row
            self.cursor = cursor
            change = Change((old, self.row))
        self.replace = True
        return change

    def step(self, step: int) -> Change:
        """The value under the cursor `step` on: the count, who plays a seat, a choice, a
        number (± 1, or ± 0.1), yes or no."""
        row = self.row
        if row.kind == "count":
            index = self.counts.index(self.count) + step
            count = self.counts[min(max(index, 0), len(self.counts) - 1)]
            if count == self.count:
                return Change()
            self.count = count
            self.errors.pop("players", None)
            return Change(layout=True)
        if row.kind == "seat":
            kind = SEAT_KINDS[(SEAT_KINDS.index(self.kinds[row.number]) + step) % len(SEAT_KINDS)]
            self.kinds[row.number] = kind
        else:
            field = self.fields[row.number]
            self.raw[field.name] = _stepped(field, self.raw[field.name], step)
            self.errors.pop(field.name, None)
            self.replace = True
        return Change((row, *self.dependents(row)))

    def dependents(self, row: Row) -> list[Row]:
        """The option rows whose use depends on the option on `row` (dimmed or not by it)."""
        if row.kind != "option":
            return []
        name = self.fields[row.number].name
        return [
            Row("option", index)
            for index, field in enumerate(self.fields)
            if any(other == name for other, _value in field.applies_when)
        ]

    def _set_text(self, row: Row, text: str) -> Change:
        text = text[:NAME_WIDTH]
        if row.kind == "seat":
            self.names[row.number] = text
        else:
            self.raw[self.fields[row.number].name] = text
        self.errors.pop(self.error_key(row), None)
        self.replace = False
        return Change((row,))

    def erase(self) -> Change | None:
        """Backspace: the name or number under the cursor loses its last character (all of it
        if the next key would replace it); None if the row takes no text."""
        row = self.row
        old = self.text(row)
        if old is None:
            return None
        return self._set_text(row, "" if self.replace else old[:-1])

    def type_text(self, text: str) -> Change | None:
        """Write what was typed into the name or number under the cursor; None if this row
        takes no text (or none of these characters)."""
        row = self.row
        old = self.text(row)
        if old is None:
            return None
        kind = self.fields[row.number].kind if row.kind == "option" else None
        allowed = NUMBER_CHARS.get(kind) if kind else None
        if kind == "float" and allowed is not None:
            allowed += DECIMAL_MARKS
        text = "".join(c for c in text if c.isprintable() and (allowed is None or c in allowed))
        if allowed is not None:
            text = text.replace(",", ".")  # kept as Python writes it; shown the player's way
        if not text:
            return None
        return self._set_text(row, ("" if self.replace else old) + text)

    def jump(self, char: str) -> Change | None:
        """A letter on a choice: the next value starting with it (in the player's words);
        None if the row is no choice or no value starts so."""
        row = self.row
        if row.kind != "option" or self.fields[row.number].kind != "choice":
            return None
        field = self.fields[row.number]
        choices = list(field.choices)
        start = choices.index(self.raw[field.name]) if self.raw[field.name] in choices else 0
        for offset in range(1, len(choices) + 1):
            choice = choices[(start + offset) % len(choices)]
            if _(choice_label(choice)).casefold().startswith(char.casefold()):
                self.raw[field.name] = choice
                self.errors.pop(field.name, None)
                return Change((row, *self.dependents(row)))
        return None

    def key(self, char: str) -> Change | None:
        """A printable key: space steps a value on (it is part of a seat's name), anything
        else is typed, or jumps to a choice; None if the sheet has no use for it."""
        if char == " " and self.row.kind != "seat":
            return self.step(1)
        return self.type_text(char) or self.jump(char)

    # -- the note under the rows ----------------------------------------------------------
    def help(self, row: Row) -> str:
        """The row explained, in the player's language."""
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
            return sentences(self.unused_reason(field), description)
        hint = {
            "bool": _("space: yes or no"),
            "choice": _("← → to choose"),
            "int": _("type a number, or ← →"),
            "float": _("type a number, or ← →"),
        }.get(field.kind, "")
        return sentences(description, hint)

    def unused_reason(self, field: OptionField) -> str:
        """Why an option is dimmed: "Not used unless Game end is race"."""
        titles = {other.name: other for other in self.fields}
        needs = []
        for name, value in field.applies_when:
            other = titles.get(name)
            title = _(other.title) if other is not None else name
            shown = value_label(value)
            needs.append(_("{option} is {value}").format(option=title, value=shown))
        return _("Not used unless {conditions}").format(conditions=_(" and ").join(needs))


def value_label(value: Any) -> str:
    """An option's value as the sheet shows it: yes or no, or the choice."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return _(choice_label(value))


def _default(field: OptionField) -> Any:
    return field.default if field.kind in ("bool", "choice") else str(field.default)


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


def sentences(*parts: str) -> str:
    """Parts of a note joined as sentences, each begun with a capital ("Rounds to play. Type a
    number, or ← →"): a hint may be a whole note or follow a description."""
    return ". ".join(part[:1].upper() + part[1:] for part in parts if part)
