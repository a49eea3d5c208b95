"""A row of buttons drawn as one widget: ` Start (F2) `  ` Resume (F3) `  ` Rules (F1) `.

It is one Tab stop, as a toolbar is: ← → move between its buttons (a disabled one is skipped),
enter or space presses the one under the focus, and a click presses the one clicked. The
buttons look like Textual's compact `Button` (the same theme colours, bold labels, a tint while
pressed, dim when disabled); one widget instead of one per button (and a container) keeps the
lobby's start-up within its budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from rules import N_

from ..i18n import _
from ..widgets import sibling_css
from ..widgets.runs import one_run_per_style

GAP = 2
"""Blank columns between two buttons."""
PRESS_SHOWN = 0.2
"""Seconds a press shows (further presses are ignored meanwhile, as Button does)."""


class RowButton:
    """One button of a row (`disabled` and `hidden` may change). Its `label` is a marked
    message (`N_`), drawn in the player's language, with `params` to fill it. A hidden button
    takes no room: the buttons after it move up."""

    __slots__ = ("disabled", "hidden", "id", "label", "params", "variant")

    def __init__(
        self,
        id: str,
        label: str,
        variant: Literal["default", "primary"] = "default",
        disabled: bool = False,
        params: dict[str, str] | None = None,
        hidden: bool = False,
    ) -> None:
        self.id = id
        self.label = label
        self.params = params or {}
        self.variant = variant
        self.disabled = disabled
        self.hidden = hidden

    @property
    def usable(self) -> bool:
        return not (self.disabled or self.hidden)

    @property
    def text(self) -> str:
        """The label as drawn, in the player's language."""
        return _(self.label).format(**self.params)


class ButtonRow(Widget, can_focus=True):
    DEFAULT_CSS = sibling_css(__file__)
    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "button-row--button",
        "button-row--primary",
        "button-row--focus",
        "button-row--hover",
        "button-row--pressed",
        "button-row--disabled",
    }
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", N_("Previous"), show=False),
        Binding("right", "move(1)", N_("Next"), show=False),
        Binding("enter,space", "press", N_("Press"), show=False),
    ]

    class Pressed(Message):
        """A button of the row was pressed."""

        def __init__(self, row: ButtonRow, button_id: str) -> None:
            super().__init__()
            self.row = row
            self.button_id = button_id

        @property
        def control(self) -> ButtonRow:
            return self.row

    def __init__(self, buttons: Sequence[RowButton], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.buttons = list(buttons)
        self.current = next((i for i, b in enumerate(self.buttons) if b.usable), 0)
        """The button the keyboard is on."""
        self.hovered: int | None = None
        self.pressed: int | None = None

    def button(self, button_id: str) -> RowButton:
        return next(button for button in self.buttons if button.id == button_id)

    def set_disabled(self, button_id: str, disabled: bool) -> None:
        button = self.button(button_id)
        if button.disabled != disabled:
            button.disabled = disabled
            if disabled and self.buttons[self.current] is button:
                self.action_move(1)
            self.refresh()

    def set_hidden(self, button_id: str, hidden: bool) -> None:
        """Show or hide a button (the row is laid out again: its width changes)."""
        button = self.button(button_id)
        if button.hidden != hidden:
            button.hidden = hidden
            if hidden and self.buttons[self.current] is button:
                self.action_move(1)
            self.hovered = None
            self.refresh(layout=True)

    def region_of(self, button_id: str) -> Region:
        """Where the button is, within the row's region (its padding included)."""
        index = self.buttons.index(self.button(button_id))
        start, end = self._spans()[index]
        left, top = self.styles.padding.left, self.styles.padding.top
        return Region(left + start, top, end - start, 1)

    # -- pressing -------------------------------------------------------------------------
    def press(self, button_id: str) -> None:
        """Press a button, as a click would (nothing if it is disabled or just pressed)."""
        index = self.buttons.index(self.button(button_id))
        if not self.buttons[index].usable or self.pressed is not None:
            return
        self.pressed = index
        self.refresh()
        self.set_timer(PRESS_SHOWN, self._release)
        self.post_message(self.Pressed(self, button_id))

    def _release(self) -> None:
        self.pressed = None
        self.refresh()

    def action_press(self) -> None:
        self.press(self.buttons[self.current].id)

    def action_move(self, step: int) -> None:
        count = len(self.buttons)
        for offset in range(1, count + 1):
            index = (self.current + step * offset) % count
            if self.buttons[index].usable:
                if index != self.current:
                    self.current = index
                    self.refresh()
                return

    def _at(self, x: int) -> int | None:
        for index, (start, end) in enumerate(self._spans()):
            if start <= x < end and not self.buttons[index].hidden:
                return index
        return None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        index = None if offset is None else self._at(offset.x)
        if index is None:
            return
        event.stop()
        if self.buttons[index].usable:
            self.current = index
            self.press(self.buttons[index].id)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        offset = event.get_content_offset(self)
        index = None if offset is None else self._at(offset.x)
        if index != self.hovered:
            self.hovered = index
            self.refresh()

    def on_leave(self) -> None:
        if self.hovered is not None:
            self.hovered = None
            self.refresh()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    # -- drawing --------------------------------------------------------------------------
    def _spans(self) -> list[tuple[int, int]]:
        """Where each button is drawn (a hidden one: an empty span where it would start)."""
        spans: list[tuple[int, int]] = []
        x = 0
        for button in self.buttons:
            if button.hidden:
                spans.append((x, x))
                continue
            width = len(button.text) + 2
            spans.append((x, x + width))
            x += width + GAP
        return spans

    def get_content_width(self, container: object, viewport: object) -> int:
        return max((end for _, end in self._spans()), default=0)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return 1

    def render(self) -> Text:
        base = self.get_component_rich_style("button-row--button")

        def style(name: str) -> Style:  # only what the modifier's rule sets
            return self.get_component_rich_style(name, partial=True)

        text = Text(no_wrap=True, end="")
        for index, button in enumerate(self.buttons):
            if button.hidden:
                continue
            if text:
                text.append(" " * GAP)
            look = base
            if button.variant == "primary":
                look += style("button-row--primary")
            if button.disabled:  # (its whole style: a dimmed colour is blended over the surface)
                look = self.get_component_rich_style("button-row--disabled")
            else:
                if index == self.hovered:
                    look += style("button-row--hover")
                if index == self.current and self.has_focus:
                    look += style("button-row--focus")
                if index == self.pressed:
                    look += style("button-row--pressed")
            text.append(f" {button.text} ", look)
        return text

    def render_lines(self, crop: Region) -> list[Strip]:
        return [one_run_per_style(strip) for strip in super().render_lines(crop)]
