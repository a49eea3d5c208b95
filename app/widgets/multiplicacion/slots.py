"""The formula's slots: A and B hold the dice set aside, × holds the multiplier."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from ...i18n import _
from .. import sibling_css
from ..fit_die import FitDie

SLOTS = (("a", "A"), ("b", "B"), ("multiplier", "×"))


class SetAsideSlots(Widget):
    """Three labelled slots drawn as dice; an empty slot shows a dimmed `?` (not colour only).

    Each slot's label is its border title; `compact` (small dice for narrow screens) has no room
    for border titles, so the labels move under the dice. Otherwise the word under the
    multiplier, "final", says the die still to come must be accepted (after a refusal).
    """

    DEFAULT_CSS = sibling_css(__file__)

    compact: reactive[bool] = reactive(False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._final = False

    def compose(self) -> ComposeResult:
        with Horizontal(classes="slot-dice"):
            for index, (key, label) in enumerate(SLOTS):
                die = FitDie(index, id=f"slot-{key}")
                die.border_title = label
                yield die
        with Horizontal(classes="slot-marks"):
            for key, _label in SLOTS:
                yield Static("", classes="slot-mark", id=f"slot-mark-{key}", markup=False)

    def show(
        self,
        first: int | None,
        second: int | None,
        multiplier: int | None,
        *,
        final: bool = False,
    ) -> None:
        """Fill the slots; `final` says the multiplier still to come must be accepted."""
        values = (first, second, multiplier)
        for (key, _label), value in zip(SLOTS, values, strict=True):
            self.query_one(f"#slot-{key}", FitDie).value = value
        self._final = final
        self._draw_marks()

    def retranslate(self) -> None:
        self._draw_marks()

    def watch_compact(self, compact: bool) -> None:
        self.set_class(compact, "-compact")
        self._draw_marks()

    def _draw_marks(self) -> None:
        if not self.is_mounted:
            return
        if self.compact:
            marks = tuple(label for _key, label in SLOTS)
        else:
            marks = ("", "", _("final") if self._final else "")
        for (key, _label), mark in zip(SLOTS, marks, strict=True):
            self.query_one(f"#slot-mark-{key}", Static).update(mark)
