"""A one-line picker for a short list of values: ‹ Human ›.

One widget where Textual's Select is five (and an overlay list), so a lobby with a choice per
seat and per option stays quick to build. ← → or space move through the values (enter as
well), the first letter of a value jumps to it, and a click on ‹ or › steps back or on.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import ClassVar, Generic, TypeVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from ..i18n import _
from . import sibling_css

V = TypeVar("V", bound=Hashable)


class Choice(Widget, Generic[V], can_focus=True):
    DEFAULT_CSS = sibling_css(__file__)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", _("Previous"), show=False),
        Binding("right,space,enter", "step(1)", _("Next"), show=False),
    ]

    value: reactive[V] = reactive[V](None, init=False, layout=True)  # type: ignore[arg-type]

    class Changed(Message):
        """The value changed (by the player, or by setting `value`)."""

        def __init__(self, choice: Choice[V], value: V) -> None:
            super().__init__()
            self.choice = choice
            self.value = value

        @property
        def control(self) -> Choice[V]:
            return self.choice

    def __init__(
        self,
        options: Sequence[tuple[str, V]],
        value: V,
        *,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(id=id, classes=classes, disabled=disabled)
        self._options: list[tuple[str, V]] = list(options)
        if not self._options:
            raise ValueError("a Choice needs at least one option")
        self.set_reactive(Choice.value, value if self._has(value) else self._options[0][1])

    @property
    def options(self) -> list[tuple[str, V]]:
        return list(self._options)

    def _has(self, value: V) -> bool:
        return any(option == value for _label, option in self._options)

    def _index(self) -> int:
        for index, (_label, option) in enumerate(self._options):
            if option == self.value:
                return index
        return 0

    @property
    def label(self) -> str:
        return self._options[self._index()][0]

    def set_options(self, options: Sequence[tuple[str, V]]) -> None:
        """New values to choose from; the current one stays if it is still offered."""
        if not options:
            raise ValueError("a Choice needs at least one option")
        self._options = list(options)
        if not self._has(self.value):
            self.value = self._options[0][1]
        self.refresh(layout=True)

    def validate_value(self, value: V) -> V:
        if not self._has(value):
            raise ValueError(f"{value!r} is not one of the choices")
        return value

    def watch_value(self, value: V) -> None:
        self.post_message(self.Changed(self, value))

    def action_step(self, step: int) -> None:
        self.value = self._options[(self._index() + step) % len(self._options)][1]

    def _width(self) -> int:
        return max(len(label) for label, _value in self._options) + 4

    def get_content_width(self, container: object, viewport: object) -> int:
        return self._width()

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return 1

    def render(self) -> Text:
        arrows = "bold" if self.has_focus else "dim"
        return Text.assemble(
            ("‹ ", arrows), self.label.ljust(self._width() - 4), (" ›", arrows), no_wrap=True
        )

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.focus()
        self.action_step(-1 if event.x < 2 else 1)

    def on_key(self, event: events.Key) -> None:
        char = event.character
        if char is None or not char.isprintable() or char == " ":
            return
        labels = [label.casefold() for label, _value in self._options]
        count = len(labels)
        start = self._index()
        for offset in range(1, count + 1):
            index = (start + offset) % count
            if labels[index].startswith(char.casefold()):
                event.stop()
                self.value = self._options[index][1]
                return

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
