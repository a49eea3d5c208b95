"""The cup: the dice of the last throw, with a mark under each (set aside, a pair, refused)."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from .. import sibling_css
from ..fit_die import FitDie
from ..tumble import Tumble


class Cup(Widget):
    """Up to `count` dice as they fell. Positions past the dice shown stay empty.

    `chosen` dice (the one set aside, the multiplier) are drawn held: colour and heavy border;
    the mark under each die says the same in words (six columns at most, to fit compact mode).
    `compact` draws small dice for narrow screens.
    """

    DEFAULT_CSS = sibling_css(__file__)

    compact: reactive[bool] = reactive(False)

    def __init__(self, count: int = 3, *, animate: bool = True, id: str | None = None) -> None:
        super().__init__(id=id)
        self.count = count
        self.animate_dice = animate
        self.tumble = Tumble(self)

    def compose(self) -> ComposeResult:
        with Horizontal(classes="cup-dice"):
            for index in range(self.count):
                die = FitDie(index, id=f"cup-die-{index + 1}")
                die.border_title = ""
                yield die
        with Horizontal(classes="cup-marks"):
            for index in range(self.count):
                yield Static("", classes="cup-mark", id=f"cup-mark-{index + 1}", markup=False)

    def watch_compact(self, compact: bool) -> None:
        self.set_class(compact, "-compact")

    @property
    def dice(self) -> list[FitDie]:
        return list(self.query(FitDie))

    def show(
        self,
        faces: Sequence[int | None],
        marks: Sequence[str] = (),
        chosen: Sequence[int] = (),
        rolled: bool = False,
    ) -> None:
        """Draw `faces` in the first positions; `rolled` dice tumble briefly if animated."""
        final = tuple(faces) + (None,) * (self.count - len(faces))
        for die in self.dice:
            die.held = die.index in chosen
            die.visible = die.index < len(faces)
        for index, mark in enumerate(self.query(".cup-mark").results(Static)):
            mark.update(marks[index] if index < len(marks) else "")
        rolling = range(len(faces)) if rolled else ()
        self.tumble.show(self.dice, final, rolling, self.animate_dice)

    def finish_animation(self) -> None:
        self.tumble.finish()
