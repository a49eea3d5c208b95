"""A form generated from a game's options, so no game needs form code.

The fields come from the catalogue (`app.catalog`, generated from the game's pydantic options
model): bool -> a checkbox; int/float -> a validated input; a Literal or Enum -> a Choice.
Titles and descriptions are the model's `Field(title=..., description=...)`. Each field is a
row (label and control) and a note under it: the description, or what is wrong with the value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Label, Static

from ..catalog import OptionField
from ..i18n import _
from . import sibling_css
from .choice import Choice


class SteadyInput(Input):
    """An input whose cursor does not blink: an idle screen writes nothing to the terminal
    (over SSH every blink is bytes on the wire)."""

    cursor_blink = reactive(False, init=False)


INPUT_TYPES = {"int": "integer", "float": "number", "text": "text"}


class OptionsForm(Widget):
    """Edits one game's options. `values()` gives raw values for the game to validate."""

    DEFAULT_CSS = sibling_css(__file__)

    def __init__(self, fields: Sequence[OptionField], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.fields = tuple(fields)

    def compose(self) -> ComposeResult:
        if not self.fields:
            yield Static(_("This game has no options."), classes="no-options")
            return
        for field in self.fields:
            yield from self._field_widgets(field)

    def _field_widgets(self, field: OptionField) -> ComposeResult:
        label = _(field.title)
        widget_id = f"opt-{field.name}"
        if field.kind == "bool":
            yield Checkbox(label, value=bool(field.default), id=widget_id, compact=True)
        else:
            with Horizontal(classes="option-row"):
                yield Label(label, classes="option-label")
                if field.kind == "choice":
                    yield Choice(
                        [(_(str(choice)), choice) for choice in field.choices],
                        value=field.default,
                        id=widget_id,
                    )
                else:
                    yield SteadyInput(
                        str(field.default),
                        type=INPUT_TYPES[field.kind],  # type: ignore[arg-type]
                        id=widget_id,
                        compact=True,
                    )
        yield Static(self._help(field), classes="option-note", id=f"note-{field.name}")

    @staticmethod
    def _help(field: OptionField) -> str:
        return _(field.description) if field.description else ""

    def values(self) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for field in self.fields:
            widget = self.query_one(f"#opt-{field.name}")
            if isinstance(widget, (Checkbox, Choice)):
                result[field.name] = widget.value
            elif isinstance(widget, Input):
                text = widget.value.strip()
                result[field.name] = text if field.kind == "text" else (text or None)
        return result

    def show_errors(self, problems: list[tuple[str, str]]) -> None:
        """Each field's note shows what is wrong with it, or its description again."""
        messages: dict[str, list[str]] = {}
        for name, why in problems:
            messages.setdefault(name.split(".")[0], []).append(f"⚠ {why}")
        for field in self.fields:
            note = self.query_one(f"#note-{field.name}", Static)
            wrong = messages.get(field.name)
            note.update("\n".join(wrong) if wrong else self._help(field))
            note.set_class(bool(wrong), "-error")
