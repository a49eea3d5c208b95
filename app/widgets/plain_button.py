"""A one-line button: ` Start (F2) `, pressed by a click, enter or space.

It looks and behaves as Textual's compact `Button` (the same theme colours, bold label, a tint
while pressed, dim when disabled) with a small style sheet: Button's default CSS is ≈ 7 KB of
rules for borders, flat and ANSI styles and five variants, parsed at every start-up, and was
about half of all the style sheets the lobby needs.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widget import Widget

from ..i18n import _
from . import sibling_css

PRESS_SHOWN = 0.2
"""Seconds a press shows (and further presses are ignored, as Button does against doubles)."""


class PlainButton(Widget, can_focus=True):
    DEFAULT_CSS = sibling_css(__file__)
    ALLOW_SELECT = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "press", _("Press"), show=False),
    ]

    class Pressed(Message):
        """The button was pressed."""

        def __init__(self, button: PlainButton) -> None:
            super().__init__()
            self.button = button

        @property
        def control(self) -> PlainButton:
            return self.button

    def __init__(
        self,
        label: str,
        *,
        variant: Literal["default", "primary"] = "default",
        id: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(id=id, classes=f"-{variant}", disabled=disabled)
        self.label = label

    def render(self) -> str:
        return f" {self.label} "

    def get_content_width(self, container: object, viewport: object) -> int:
        return len(self.label) + 2

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return 1

    def press(self) -> None:
        if self.disabled or not self.display or self.has_class("-active"):
            return
        self.add_class("-active")
        self.set_timer(PRESS_SHOWN, lambda: self.remove_class("-active"))
        self.post_message(self.Pressed(self))

    def action_press(self) -> None:
        self.press()

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.press()
