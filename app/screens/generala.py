"""Generala at the table: the dice tray on the left, the 13-box scoresheet on the right."""

from __future__ import annotations

from pathlib import PurePath
from typing import ClassVar, cast

from pydantic import BaseModel
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType

from rules import IllegalAction
from rules.generala import (
    BOX_NAMES,
    BOXES,
    DICE,
    ROUNDS,
    THROWS_PER_TURN,
    Box,
    Fill,
    GeneralaState,
    Roll,
    score,
)

from ..i18n import _, explain
from ..table import Table
from ..widgets.dice_tray import DiceTray
from ..widgets.scoresheet import Cell, Scoresheet, SheetRow, SheetView
from .confirm import ConfirmScreen
from .game import GameScreen


class GeneralaScreen(GameScreen):
    CSS_PATH: ClassVar[list[str | PurePath]] = ["game.tcss", "generala.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "throw", _("Throw"), id="throw"),
        Binding("r", "throw", _("Throw"), show=False, id="throw-r"),
        Binding("1", "hold(0)", _("Hold"), key_display="1-5", id="hold"),
        *(Binding(str(i + 1), f"hold({i})", _("Hold"), show=False) for i in range(1, DICE)),
    ]

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.hold: set[int] = set(self.state.held)

    @property
    def state(self) -> GeneralaState:
        return cast(GeneralaState, self.table.state)

    def compose_play(self) -> ComposeResult:
        yield DiceTray(DICE, animate=self.cubilete.animate_dice, id="tray")

    def compose_side(self) -> ComposeResult:
        sheet = Scoresheet(id="sheet")
        sheet.border_title = _("Scoresheet")
        yield sheet

    def focus_default(self) -> None:
        self.query_one(Scoresheet).focus()

    # -- drawing --------------------------------------------------------------------------
    def prompt(self) -> str:
        state = self.state
        if state.over:
            return _("The game is over")
        if state.throws == 0:
            return _("Press space (or click Throw) to throw all five dice")
        if state.throws < THROWS_PER_TURN:
            return _("Hold dice with 1-5 or a click, throw again, or choose a box")
        return _("Choose a box: click it, or arrows and enter")

    def refresh_view(self, rolled: tuple[int, ...] = ()) -> None:
        state = self.state
        if state.throws == 0:
            self.hold = set()
        player = state.players[state.current]
        if state.over:
            caption = _("Game over")
        elif state.throws == 0:
            caption = _("{player} · round {round} of {rounds}").format(
                player=player, round=state.round, rounds=ROUNDS
            )
        else:
            caption = _("{player} · round {round} · throw {n} of {total}").format(
                player=player, round=state.round, n=state.throws, total=THROWS_PER_TURN
            )
        tray = self.query_one(DiceTray)
        faces = state.dice or (None,) * DICE
        can_throw = not state.over and state.throws < THROWS_PER_TURN
        tray.show(faces, sorted(self.hold), caption, can_throw, rolled)
        self.query_one(Scoresheet).show(sheet_view(state))

    def final_sheet(self) -> SheetView:
        return sheet_view(self.state)

    # -- input ----------------------------------------------------------------------------
    def action_hold(self, index: int) -> None:
        self.toggle_hold(index)

    @on(DiceTray.HoldToggled)
    def on_hold_toggled(self, event: DiceTray.HoldToggled) -> None:
        self.toggle_hold(event.index)

    def toggle_hold(self, index: int) -> None:
        state = self.state
        if state.over or not self.human_turn():
            return
        if state.throws == 0:
            self.say(_("Throw first: the first throw is always with all five dice"), error=True)
            return
        if state.throws >= THROWS_PER_TURN:
            self.say(_("No throws left: holding changes nothing now. Choose a box"), error=True)
            return
        self.hold ^= {index}
        self.query_one(DiceTray).finish_animation()
        self.refresh_view()
        held = " ".join(str(state.dice[i]) for i in sorted(self.hold)) or _("nothing")
        self.say(_("Holding {held}").format(held=held))

    def action_throw(self) -> None:
        self.throw()

    @on(DiceTray.ThrowRequested)
    def on_throw_requested(self) -> None:
        self.throw()

    def play_for_bot(self, action: BaseModel) -> None:
        if isinstance(action, Roll):
            self.hold = set(action.hold)
            rolled = tuple(i for i in range(DICE) if i not in action.hold)
            self.play(action, rolled, by_bot=True)
        else:
            self.play(action, by_bot=True)

    def throw(self) -> None:
        hold = tuple(sorted(self.hold)) if self.state.throws else ()
        if len(hold) == DICE:
            self.say(_("Every die is held: release one to throw"), error=True)
            return
        rolled = tuple(i for i in range(DICE) if i not in hold)
        self.play(Roll(hold=hold), rolled)

    @on(Scoresheet.BoxChosen)
    def on_box_chosen(self, event: Scoresheet.BoxChosen) -> None:
        if not self.human_turn():
            return
        box = Box(event.key)
        action = Fill(box=box)
        state = self.state
        try:
            self.table.check(action)
        except IllegalAction as error:
            self.say(explain(error), error=True)
            return
        points = score(box, state.dice)
        if points == 0:
            question = _("Write 0 in {box}?").format(box=_(BOX_NAMES[box]))

            def confirmed(yes: bool | None) -> None:
                if yes:
                    self.play(action)
                else:
                    self.say(self.prompt())

            self.app.push_screen(ConfirmScreen(question), confirmed)
            return
        self.play(action)


def sheet_view(state: GeneralaState) -> SheetView:
    """The 13 boxes for every player; the current player's empty boxes show what they'd score."""
    current = None if state.over else state.current
    rows = []
    for index, box in enumerate(BOXES):
        cells = []
        for seat, sheet in enumerate(state.sheets):
            value = sheet[index]
            if value is not None:
                cells.append(Cell(str(value)))
            elif seat == current and state.dice:
                cells.append(Cell(str(score(box, state.dice)), "potential"))
            else:
                cells.append(Cell("·", "empty"))
        selectable = current is not None and state.sheets[current][index] is None
        rows.append(SheetRow(box.value, _(BOX_NAMES[box]), tuple(cells), selectable))
    totals = tuple(Cell(str(state.total(seat))) for seat in range(len(state.players)))
    rows.append(SheetRow("total", _("Total"), totals, total=True))
    return SheetView(state.players, current, tuple(rows), _("Box"))
