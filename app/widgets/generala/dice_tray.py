"""The dice tray: five dice, the throw count, and the throw button."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Static

from rules import C_, N_

from ...i18n import _
from ...quiet.text import set_text
from .. import sibling_css, words
from ..die import Die, room_for_big_dice
from ..plain import plain
from ..tumble import Tumble

BIG_DIE_WIDTH = 12
"""A large die and the space after it (dice_tray.tcss, `.-big-dice`)."""


class DiceTray(Widget):
    """Shows dice and holds. Posts HoldToggled and ThrowRequested; the screen decides.

    Where the screen has room (a wide, tall terminal) the dice are drawn large: the tray has
    the class `-big-dice` (see `room_for_big_dice`), which its CSS turns into 11 × 7 dice.
    """

    DEFAULT_CSS = sibling_css(__file__)

    class HoldToggled(Message):
        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    class ThrowRequested(Message):
        pass

    def __init__(self, count: int = 5, *, animate: bool = True, id: str | None = None) -> None:
        super().__init__(id=id)
        self.count = count
        self.animate_dice = animate
        self.tumble = Tumble(self)
        self._dice: list[Die] = []
        self._hold_marks: list[Static] = []
        """The dice and their marks, as composed (a query for them, at every throw and box
        filled, matched the tray's selectors against all its widgets)."""

    def compose(self) -> ComposeResult:
        self._dice = [Die(index, id=f"die-{index + 1}") for index in range(self.count)]
        self._hold_marks = [
            Static("", classes="hold-mark", id=f"hold-mark-{index + 1}")
            for index in range(self.count)
        ]
        yield Static(id="tray-caption")
        with Horizontal(id="dice"):
            yield from self._dice
        with Horizontal(id="hold-marks"):
            yield from self._hold_marks
        with Horizontal(id="tray-actions"):
            button = words(Button("", id="throw", compact=True), C_("verb", "Throw"), "label")
            button.can_focus = False
            yield button
            yield words(Static(id="tray-hint"), N_("1-5 hold · space throw"), "content")

    def on_mount(self) -> None:
        self.screen.screen_layout_refresh_signal.subscribe(self, self._fit_dice)

    def _fit_dice(self, _screen: object = None) -> None:
        """Large dice while there is room for them (after every layout of the screen: the
        tray's own size does not change when its container's does)."""
        self.set_class(room_for_big_dice(self, self.count * BIG_DIE_WIDTH), "-big-dice")

    @property
    def dice(self) -> list[Die]:
        return list(self._dice)

    def show(
        self,
        faces: Sequence[int | None],
        held: Sequence[int],
        caption: str,
        can_throw: bool,
        rolled: Sequence[int] = (),
    ) -> None:
        """Draw the dice; `rolled` positions were just thrown and tumble briefly if animated."""
        set_text(self.query_one("#tray-caption", Static), plain(caption))  # (a name)
        self.query_one("#throw", Button).disabled = not can_throw
        for die in self._dice:
            die.held = die.index in held
        for index, mark in enumerate(self._hold_marks):
            set_text(mark, _("held") if index in held else "")
        self.tumble.show(self.dice, faces, rolled, self.animate_dice)

    def finish_animation(self) -> None:
        self.tumble.finish()

    def on_die_clicked(self, event: Die.Clicked) -> None:
        event.stop()
        self.post_message(self.HoldToggled(event.index))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.ThrowRequested())
