"""The Ship-Captain-Crew tray: three labelled places, the two scoring dice, Throw and Stop.

Barco and navio share it. The ship (6), the captain (5) and the third man (barco's pilot,
navio's crew) each have their own place, filled as the table sets them aside; the two scoring
dice (barco's crew, navio's treasure) stand apart, marked "again" when picked to be thrown
again. Below the buttons, notes tell what became of the last throw and why a die went back
into the cup. The tray only draws a `TrayView` and posts messages; the screen decides.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Static

from rules import C_

from ...i18n import _
from .. import sibling_css, words
from ..die import Die, room_for_big_dice
from ..plain import plain
from ..tumble import Tumble

PLACES = 3
SCORING = 2
BIG_ROW_WIDTH = (PLACES + SCORING) * 12 + 1
"""The row of dice with large ones: five dice of 11 columns and a space each, and the gap."""


@dataclass(frozen=True)
class TrayView:
    """Everything the tray shows. Positions 0-2 are the places, 3-4 the scoring dice."""

    caption: str
    places: tuple[int | None, ...] = (None,) * PLACES
    """The face set aside in each place (6, 5, 4), or None while the place is empty."""
    scoring: tuple[int | None, ...] = (None,) * SCORING
    """The two scoring dice, or None before ship, captain and third man are aside."""
    picked: tuple[int, ...] = ()
    """Scoring dice (0, 1) picked to be thrown again."""
    can_throw: bool = False
    can_stop: bool = False
    notes: tuple[str, ...] = ()


class ShipTray(Widget):
    """Posts ThrowRequested, StopRequested, ScoringDieClicked and PlaceClicked."""

    DEFAULT_CSS = sibling_css(__file__)

    class ThrowRequested(Message):
        pass

    class StopRequested(Message):
        pass

    class ScoringDieClicked(Message):
        def __init__(self, position: int) -> None:
            self.position = position
            super().__init__()

    class PlaceClicked(Message):
        def __init__(self, place: int) -> None:
            self.place = place
            super().__init__()

    def __init__(
        self,
        place_labels: Sequence[str],
        scoring_label: str,
        *,
        numbered: bool = False,
        animate: bool = True,
        id: str | None = None,
    ) -> None:
        """`place_labels`, `scoring_label`: marked words (`N_`, `C_`), shown in the player's
        language. `numbered`: the scoring dice carry 1 and 2, the keys that pick them."""
        super().__init__(id=id)
        self.place_labels = tuple(place_labels)
        self.scoring_label = scoring_label
        self.numbered = numbered
        self.animate_dice = animate
        self.view = TrayView(caption="")
        self.tumble = Tumble(self)

    def compose(self) -> ComposeResult:
        yield Static(id="tray-caption")
        with Horizontal(id="tray-labels"):
            for index, label in enumerate(self.place_labels):
                place = Static(classes="place-label", id=f"place-label-{index + 1}")
                yield words(place, label, "content")
            yield words(Static(id="scoring-label"), self.scoring_label, "content")
        with Horizontal(id="tray-dice"):
            for index in range(PLACES):
                die = Die(index, id=f"place-{index + 1}")
                die.border_title = ""
                die.add_class("-place")
                die.marks_blank = True  # `ShipTray Die.-place.-blank` in ship_tray.tcss
                yield die
            yield Static("", id="tray-gap")
            for position in range(SCORING):
                die = Die(PLACES + position, id=f"scoring-{position + 1}")
                die.border_title = str(position + 1) if self.numbered else ""
                die.add_class("-scoring")
                yield die
        with Horizontal(id="tray-actions"):
            with Horizontal(id="tray-buttons"):
                for button_id, label in (
                    ("throw", C_("verb", "Throw")),
                    ("stop", C_("verb", "Stop")),
                ):
                    button = words(Button("", id=button_id, compact=True), label, "label")
                    button.can_focus = False
                    yield button
            for position in range(SCORING):
                yield Static("", classes="scoring-mark", id=f"scoring-mark-{position + 1}")
        yield Static(id="tray-notes")

    def on_mount(self) -> None:
        self.screen.screen_layout_refresh_signal.subscribe(self, self._fit_dice)

    def _fit_dice(self, _screen: object = None) -> None:
        """Large dice (11 × 7, ship_tray.tcss) while the screen has room for them."""
        self.set_class(room_for_big_dice(self, BIG_ROW_WIDTH), "-big-dice")

    @property
    def dice(self) -> list[Die]:
        return list(self.query(Die))

    def faces(self) -> tuple[int | None, ...]:
        return (*self.view.places, *self.view.scoring)

    def show(self, view: TrayView, rolled: Sequence[int] = ()) -> None:
        """Draw `view`; dice at the `rolled` positions were just thrown and tumble briefly."""
        self.view = view
        self.query_one("#tray-caption", Static).update(plain(view.caption))
        self.query_one("#throw", Button).disabled = not view.can_throw
        self.query_one("#stop", Button).disabled = not view.can_stop
        self.query_one("#tray-notes", Static).update(plain(*view.notes))
        for die in self.dice:
            die.held = die.index - PLACES in view.picked
        for position, mark in enumerate(self.query(".scoring-mark").results(Static)):
            mark.update(_("again") if position in view.picked else "")
        self.tumble.show(self.dice, self.faces(), rolled, self.animate_dice)

    def finish_animation(self) -> None:
        self.tumble.finish()

    def on_die_clicked(self, event: Die.Clicked) -> None:
        event.stop()
        if event.index < PLACES:
            self.post_message(self.PlaceClicked(event.index))
        else:
            self.post_message(self.ScoringDieClicked(event.index - PLACES))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "stop":
            self.post_message(self.StopRequested())
        else:
            self.post_message(self.ThrowRequested())
