"""Generala at the table: the dice tray on the left, the 13-box scoresheet on the right."""

from __future__ import annotations

from pathlib import PurePath
from typing import ClassVar, cast

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType

from rules import C_, N_, IllegalAction, Text
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
    box_name,
    score,
)

from ..host import Moved
from ..i18n import _
from ..table import Table
from ..widgets import words
from ..widgets.generala.dice_tray import DiceTray
from ..widgets.scoresheet import Cell, Scoresheet, SheetRow, SheetView
from .game import GameScreen

HOLD_KEYS = {str(i + 1): i for i in range(DICE)}
BOX_KEYS = {box.value for box in BOXES}


class GeneralaScreen(GameScreen):
    CSS_PATH: ClassVar[list[str | PurePath]] = ["game.tcss", "generala.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "throw", C_("verb", "Throw"), id="throw"),
        Binding("r", "throw", C_("verb", "Throw"), show=False, id="throw-r"),
        Binding("1", "hold(0)", N_("Hold"), key_display="1-5", id="hold"),
        *(Binding(str(i + 1), f"hold({i})", N_("Hold"), show=False) for i in range(1, DICE)),
    ]
    PLAY_KEYS: ClassVar[tuple[str, ...]] = ("throw", "hold", "choose-box")
    COACH_PLACE: ClassVar[str] = "play"  # the sheet stays in view: boxes are chosen there

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.hold: set[int] = set(self.state.held)

    @property
    def state(self) -> GeneralaState:
        return cast(GeneralaState, self.table.state)

    def compose_play(self) -> ComposeResult:
        yield DiceTray(DICE, animate=self.cubilete.animate_dice, id="tray")

    def compose_side(self) -> ComposeResult:
        yield words(Scoresheet(id="sheet"), N_("Scoresheet"))

    def focus_default(self) -> None:
        self.query_one(Scoresheet).focus()

    # -- drawing --------------------------------------------------------------------------
    def prompt(self) -> str:
        state = self.state
        if state.over:
            return _("The game is over")
        player = state.players[state.current]
        if state.throws == 0:
            text = _("{player}: press space (or click Throw) to throw all five dice")
        elif state.throws < THROWS_PER_TURN:
            text = _("{player}: hold dice with 1-5 or a click, throw again, or choose a box")
        else:
            text = _("{player}: choose a box: click it, or arrows and enter")
        return text.format(player=player)

    def bot_doing(self, bot: str) -> str:
        state = self.state
        if state.throws == 0:
            text = _("{player} (bot) is throwing all five dice")
        elif state.throws < THROWS_PER_TURN:
            text = _("{player} (bot) is choosing dice to hold or a box · throw {n} of {total}")
        else:
            text = _("{player} (bot) is choosing a box")
        return text.format(player=bot, n=state.throws, total=THROWS_PER_TURN)

    # -- the keys that work now -----------------------------------------------------------
    def can_throw(self) -> bool:
        return self.persons_turn() and self.state.throws < THROWS_PER_TURN

    def can_hold(self) -> bool:
        return self.persons_turn() and 0 < self.state.throws < THROWS_PER_TURN

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Space and 1-5 show (and work) only while they can: not before the first throw
        (holding), after the third (both), or in a bot's turn."""
        if action == "throw":
            return self.can_throw()
        if action == "hold":
            return self.can_hold()
        return super().check_action(action, parameters)

    def on_key(self, event: events.Key) -> None:
        """A play key pressed while its binding is off: say why it does nothing."""
        key = event.key
        if key in ("space", "r") and not self.can_throw():
            event.stop()
            self.throw()
        elif key in HOLD_KEYS and not self.can_hold():
            event.stop()
            self.toggle_hold(HOLD_KEYS[key])
        elif key == "enter" and not self.query_one(Scoresheet).view.choosing:
            event.stop()
            box = self.query_one(Scoresheet).cursor_key
            if box is not None and box in BOX_KEYS:
                self.on_box_chosen(Scoresheet.BoxChosen(box))

    def refresh_view(self, rolled: tuple[int, ...] = ()) -> None:
        state = self.state
        if state.throws == 0:
            self.hold = set()
        player = state.players[state.current]
        if state.over:
            caption = _("Game over")
        else:  # (one form through the turn, as Barco's: the throw added once there is one)
            where = _("round {round} of {rounds}").format(round=state.round, rounds=ROUNDS)
            parts = [player, where]
            if state.throws:
                parts.append(
                    _("throw {n} of {limit}").format(n=state.throws, limit=THROWS_PER_TURN)
                )
            caption = " · ".join(parts)
        tray = self.query_one(DiceTray)
        faces = state.dice or (None,) * DICE
        tray.show(faces, sorted(self.hold), caption, self.can_throw(), rolled)
        self.query_one(Scoresheet).show(sheet_view(state, choosing=self.persons_turn()))

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
            first = N_("Throw first: the first throw is always with all five dice")
            self.say(Text(first), error=True)
            return
        if state.throws >= THROWS_PER_TURN:
            none_left = N_("No throws left: holding changes nothing now. Choose a box")
            self.say(Text(none_left), error=True)
            return
        self.hold ^= {index}
        self.query_one(DiceTray).finish_animation()
        self.refresh_view()
        held = " ".join(str(state.dice[i]) for i in sorted(self.hold)) or Text(N_("nothing"))
        self.say(Text(N_("Holding {held}"), {"held": held}))

    def action_throw(self) -> None:
        self.throw()

    @on(DiceTray.ThrowRequested)
    def on_throw_requested(self) -> None:
        self.throw()

    def rolled(self, move: Moved) -> tuple[int, ...]:
        """A throw tumbles the dice not held (a bot's throws too)."""
        if not isinstance(move.action, Roll):
            return ()
        return tuple(i for i in range(DICE) if i not in move.action.hold)

    def show_bot_move(self, move: Moved) -> None:
        if isinstance(move.action, Roll):
            self.hold = set(move.action.hold)

    def throw(self) -> None:
        if not self.human_turn():
            return
        hold = tuple(sorted(self.hold)) if self.state.throws else ()
        if len(hold) == DICE:
            self.say(Text(N_("Every die is held: release one to throw")), error=True)
            return
        self.play(Roll(hold=hold))

    @on(Scoresheet.BoxChosen)
    def on_box_chosen(self, event: Scoresheet.BoxChosen) -> None:
        if not self.human_turn():
            return
        box = Box(event.key)
        action = Fill(box=box)
        state = self.state
        written = state.sheets[state.current][BOXES.index(box)]
        if written is not None and not state.over:
            taken = N_("{box} already holds {points}: choose an empty box")
            self.say(Text(taken, {"box": box_name(box), "points": written}), error=True)
            return
        try:
            self.table.check(action)
        except IllegalAction as error:
            self.say(error.text, error=True)
            return
        points = score(box, state.dice)
        if points == 0 and not self.forced(action):
            question = Text(N_("Write 0 in {box}?"), {"box": box_name(box)})

            def confirmed(yes: bool | None) -> None:
                if yes:
                    self.play(action)
                else:
                    self.say_status()

            self.cubilete.confirm(question, confirmed)
            return
        self.play(action)

    def forced(self, action: Fill) -> bool:
        """`action` is the only box the player may write in (the last open box, or the box
        the obligada order names): its 0 is written without asking (issue 27)."""
        legal = self.table.game.legal_actions(self.state)
        return [fill for fill in legal if isinstance(fill, Fill)] == [action]


def sheet_view(state: GeneralaState, choosing: bool = True) -> SheetView:
    """The 13 boxes for every player; the current player's empty boxes show, in brackets,
    what they'd score. The cursor reaches every box of the player to move (a filled one is
    refused when chosen). `choosing`: a person is to move (a bot chooses by itself)."""
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
        empty = current is not None and state.sheets[current][index] is None
        rows.append(
            SheetRow(box.value, _(BOX_NAMES[box]), tuple(cells), current is not None, open=empty)
        )
    totals = tuple(Cell(str(state.total(seat))) for seat in range(len(state.players)))
    rows.append(SheetRow("total", _("Total"), totals, total=True))
    return SheetView(
        state.players,
        current,
        tuple(rows),
        _("Box"),
        choosing=choosing and current is not None and bool(state.dice),
        value_width=4,  # a preview of (25)
    )
