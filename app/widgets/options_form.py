"""A form generated from a game's pydantic options model, so no game needs form code.

bool -> a checkbox; int/float -> a validated input; Literal or Enum -> a choice list.
Titles and descriptions come from the model's `Field(title=..., description=...)`.
"""

from __future__ import annotations

import enum
import typing
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Label, Select, Static

from ..i18n import _
from . import sibling_css


class SteadyInput(Input):
    """An input whose cursor does not blink: an idle screen writes nothing to the terminal
    (over SSH every blink is bytes on the wire)."""

    cursor_blink = reactive(False, init=False)


def _choices(annotation: Any) -> list[Any] | None:
    if typing.get_origin(annotation) is typing.Literal:
        return list(typing.get_args(annotation))
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return [member.value for member in annotation]
    return None


def _label(name: str, info: FieldInfo) -> str:
    return _(info.title) if info.title else name.replace("_", " ").capitalize()


class OptionsForm(Widget):
    """Edits one options model. `values()` gives raw values for the game to validate."""

    DEFAULT_CSS = sibling_css(__file__)

    def __init__(self, model: type[BaseModel], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.model = model

    def compose(self) -> ComposeResult:
        fields = self.model.model_fields
        if not fields:
            yield Static(_("This game has no options."), classes="no-options")
            return
        for name, info in fields.items():
            with Vertical(classes="option", id=f"option-{name}"):
                yield from self._field_widgets(name, info)

    def _field_widgets(self, name: str, info: FieldInfo) -> ComposeResult:
        label = _label(name, info)
        default = info.get_default(call_default_factory=True)
        if isinstance(default, enum.Enum):
            default = default.value
        annotation = info.annotation
        widget_id = f"opt-{name}"
        choices = _choices(annotation)
        if annotation is bool:
            yield Checkbox(label, value=bool(default), id=widget_id, compact=True)
        elif choices is not None:
            with Horizontal(classes="option-row"):
                yield Label(label, classes="option-label")
                yield Select(
                    [(_(str(choice)), choice) for choice in choices],
                    value=default,
                    allow_blank=False,
                    id=widget_id,
                    compact=True,
                )
        else:
            kind = "integer" if annotation is int else "number" if annotation is float else "text"
            with Horizontal(classes="option-row"):
                yield Label(label, classes="option-label")
                yield SteadyInput(str(default), type=kind, id=widget_id, compact=True)
        if info.description:
            yield Static(_(info.description), classes="option-help")
        yield Static("", classes="option-error -empty", id=f"error-{name}")

    def values(self) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for name, info in self.model.model_fields.items():
            widget = self.query_one(f"#opt-{name}")
            if isinstance(widget, (Checkbox, Select)):
                result[name] = widget.value
            elif isinstance(widget, Input):
                text = widget.value.strip()
                result[name] = text if info.annotation is str else (text or None)
        return result

    def show_errors(self, problems: list[tuple[str, str]]) -> None:
        messages: dict[str, list[str]] = {}
        for name, why in problems:
            messages.setdefault(name.split(".")[0], []).append(f"⚠ {why}")
        for name in self.model.model_fields:
            error = self.query_one(f"#error-{name}", Static)
            error.update("\n".join(messages.get(name, [])))
            error.set_class(name not in messages, "-empty")
