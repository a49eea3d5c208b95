"""Multiplicación at the table: the cup, the formula's slots A + B × M, and the round sheet.

Every decision is a rules action with a key and a button, shown only while it is legal:
throw (space or r), keep (k) or throw again (t) on a triple or pair, accept (a) or refuse at a
penalty (p) on the multiplier. The formula grows on screen as the slots fill, and before a
refusal the exact penalty it would cost is spelled out.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import ClassVar, cast

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from rules import C_, N_
from rules.multiplicacion import (
    DICE_THROWN,
    ROUNDS,
    Accept,
    Keep,
    MultiplicacionAction,
    MultiplicacionState,
    PenaltyRethrow,
    Rethrow,
    Step,
    Throw,
    Turn,
)

from ..host import Moved
from ..i18n import _, render
from ..table import Table
from ..widgets import words
from ..widgets.die import BIG_DICE_MIN_HEIGHT
from ..widgets.multiplicacion.cup import Cup
from ..widgets.multiplicacion.slots import SetAsideSlots
from ..widgets.plain import plain
from ..widgets.scoresheet import Cell, Scoresheet, SheetRow, SheetView
from .game import GameScreen

CUP_DICE = 3
WIDE_TRAY = 2 * CUP_DICE * (7 + 1) + 1
BIG_TRAY = 2 * CUP_DICE * (11 + 1) + 1
"""The cup and the slots side by side with large dice (11 columns and a space each)."""
"""Columns the cup and the slots take with full-size dice (7 wide, 1 apart, 1 between)."""

DECISIONS: dict[str, type[MultiplicacionAction]] = {
    "throw": Throw,
    "keep": Keep,
    "rethrow": Rethrow,
    "accept": Accept,
    "penalty": PenaltyRethrow,
}
"""Action name (binding action and button id) -> the rules action it takes."""

KEYS: dict[str, str] = {
    "throw": C_("key", "space"),
    "keep": "k",
    "rethrow": "t",
    "accept": "a",
    "penalty": "p",
}
"""The key shown on each decision's button (a key with a name: in the player's words)."""

KEY_DECISIONS: dict[str, str] = {
    "space": "throw",
    "r": "throw",
    "k": "keep",
    "t": "rethrow",
    "a": "accept",
    "p": "penalty",
}
"""Every key bound to a decision (the bindings above), for explaining refusals."""


class MultiplicacionScreen(GameScreen):
    CSS_PATH: ClassVar[list[str | PurePath]] = ["game.tcss", "multiplicacion.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "decide('throw')", C_("verb", "Throw"), id="throw"),
        Binding("r", "decide('throw')", C_("verb", "Throw"), show=False, id="throw-r"),
        Binding("k", "decide('keep')", C_("verb", "Keep"), id="keep"),
        Binding("t", "decide('rethrow')", N_("Throw again"), id="rethrow"),
        Binding("a", "decide('accept')", N_("Accept"), id="accept"),
        Binding("p", "decide('penalty')", N_("Penalty re-throw"), id="penalty"),
    ]
    PLAY_KEYS: ClassVar[tuple[str, ...]] = ("throw", "keep", "rethrow", "accept", "penalty")

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self._shown_keys: set[str] | None = None
        """The decisions the footer shows; it is redrawn only when they change."""

    @property
    def state(self) -> MultiplicacionState:
        return cast(MultiplicacionState, self.table.state)

    def compose_play(self) -> ComposeResult:
        with Vertical(id="tray"):
            with Horizontal(id="tray-dice"):
                yield Cup(CUP_DICE, animate=self.cubilete.animate_dice, id="cup")
                yield SetAsideSlots(id="slots")
            yield Static(id="formula", markup=False)
            yield Static(id="offer", markup=False)
            with Vertical(id="decisions"):
                for name in DECISIONS:
                    # hidden until `refresh_view` shows the legal ones with their labels
                    button = Button(KEYS[name], id=name, compact=True)
                    button.can_focus = False
                    button.display = False
                    yield button

    def compose_side(self) -> ComposeResult:
        sheet = words(Scoresheet(id="sheet"), N_("Scoresheet"))
        sheet.can_focus = False
        yield sheet

    def on_mount(self) -> None:  # GameScreen.on_mount runs too (Textual calls each class's)
        self.call_after_refresh(self.fit_tray)
        # (and after every layout: the tray narrows without a resize when the coach opens
        # beside it, and the × slot was cut off)
        self.screen_layout_refresh_signal.subscribe(self, self.fit_tray_after_layout)

    def fit_tray_after_layout(self, _screen: object = None) -> None:
        self.fit_tray()

    def on_resize(self, event: events.Resize) -> None:  # and so does GameScreen.on_resize
        self.call_after_refresh(self.fit_tray)

    def fit_tray(self) -> None:
        """Small dice when the cup and the slots would not fit side by side at full size."""
        if self.opening_as_the_app_exits:
            return
        tray = self.query_one("#tray", Vertical)
        compact = tray.content_size.width < WIDE_TRAY
        big = tray.content_size.width >= BIG_TRAY and self.size.height >= BIG_DICE_MIN_HEIGHT
        for widget in (self.query_one(Cup), self.query_one(SetAsideSlots)):
            widget.compact = compact
            widget.set_class(big, "-big-dice")  # large dice on a wide, tall screen

    # -- what is legal --------------------------------------------------------------------
    def legal(self) -> set[str]:
        """The decisions open to the player now (names as in DECISIONS)."""
        kinds = {type(action) for action in self.table.game.legal_actions(self.state)}
        return {name for name, kind in DECISIONS.items() if kind in kinds}

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "decide" and parameters:
            return self.persons_turn() and parameters[0] in self.legal()
        return super().check_action(action, parameters)

    # -- drawing --------------------------------------------------------------------------
    def prompt(self) -> str:
        state = self.state
        if state.over:
            return _("The game is over")
        turn = state.turn
        if turn.step is Step.THROW_THREE:
            text = _("{player}: throw three dice: press space or click the button")
        elif turn.step is Step.TRIPLE:
            text = _("{player}: a triple: k keeps one, t throws all three again")
        elif turn.step is Step.THROW_TWO:
            text = _("{player}: press space to throw the other two dice")
        elif turn.step is Step.PAIR:
            text = _("{player}: a pair: k keeps one, t throws both again")
        elif turn.step is Step.THROW_MULTIPLIER and turn.penalty_used:
            text = _("{player}: throw the new multiplier (space): it is final")
        elif turn.step is Step.THROW_MULTIPLIER:
            text = _("{player}: press space to throw the last die: the multiplier")
        else:
            text = _("{player}: accept the multiplier (a) or refuse it once (p)")
        return text.format(player=state.players[state.current])

    def bot_doing(self, bot: str) -> str:
        step = self.state.turn.step
        if step in (Step.TRIPLE, Step.PAIR):
            text = _("{player} (bot) decides: keep one, or throw them all again")
        elif step is Step.MULTIPLIER:
            text = _("{player} (bot) decides: accept the multiplier, or refuse it")
        else:
            text = _("{player} (bot) is throwing")
        return text.format(player=bot)

    def refresh_view(self, rolled: tuple[int, ...] = ()) -> None:
        state = self.state
        turn = state.turn
        tray = self.query_one("#tray", Vertical)
        if state.over:
            tray.border_title = plain(_("Game over"))
        else:
            tray.border_title = plain(
                _("{player} · round {round} of {rounds}").format(
                    player=state.players[state.current], round=state.round, rounds=ROUNDS
                )
            )
        faces, marks, chosen = cup_view(turn)
        self.query_one(Cup).show(faces, marks, chosen, rolled=bool(rolled))
        self.query_one(SetAsideSlots).show(
            turn.first,
            turn.second,
            turn.multiplier,
            final=turn.penalty_used and turn.multiplier is None,
        )
        self._update("#formula", turn.formula())
        self._update("#offer", offer_text(state))
        legal = self.legal()
        persons_turn = self.persons_turn()
        for name in DECISIONS:
            button = self.query_one(f"#{name}", Button)
            button.display = name in legal
            button.disabled = not persons_turn
            if name in legal:
                action = render(self.table.game.describe_action(state, DECISIONS[name]()))
                label = _("{action} ({key})").format(action=action, key=_(KEYS[name]))
                if str(button.label) != label:
                    button.label = label
                    button.refresh(layout=True)  # a new label may need a new width
        self.query_one(Scoresheet).show(sheet_view(state))
        if legal != self._shown_keys:
            self._shown_keys = legal
            self.refresh_bindings()

    def _update(self, selector: str, text: str) -> None:
        """Change a line's text only when it changed: every change costs a layout."""
        line = self.query_one(selector, Static)
        shown = plain(text)  # (the offer can name a player)
        if line.content != shown:
            line.update(shown)

    def final_sheet(self) -> SheetView:
        return sheet_view(self.state)

    # -- input ----------------------------------------------------------------------------
    def action_decide(self, name: str) -> None:
        self.decide(name)

    @on(Button.Pressed, "#decisions Button")
    def on_decision_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id in DECISIONS:
            self.decide(event.button.id)

    def on_key(self, event: events.Key) -> None:
        """A decision key pressed while it is not legal: say why (its binding is off)."""
        name = KEY_DECISIONS.get(event.key)
        if name is not None and not self.check_action("decide", (name,)):
            event.stop()
            event.prevent_default()
            self.decide(name)

    def decide(self, name: str) -> None:
        self.query_one(Cup).finish_animation()
        self.play(DECISIONS[name]())

    def rolled(self, move: Moved) -> tuple[int, ...]:
        """A person's throw tumbles the cup; a bot's lands still."""
        throws = isinstance(move.action, Throw | Rethrow | PenaltyRethrow)
        return tuple(range(CUP_DICE)) if throws and not move.by_bot else ()


def cup_view(turn: Turn) -> tuple[tuple[int | None, ...], tuple[str, ...], tuple[int, ...]]:
    """The dice in the cup, the word under each, and the dice drawn as chosen.

    Before the first throw of a turn the three dice wait, blank; afterwards the cup shows the
    last throw as it fell and marks the die that went to a slot.
    """
    thrown = turn.thrown
    if not thrown:
        return (None,) * DICE_THROWN.get(turn.step, CUP_DICE), (), ()
    step = turn.step
    if step is Step.TRIPLE:
        return thrown, (_("triple"),) * len(thrown), ()
    if step is Step.PAIR:
        return thrown, (_("pair"),) * len(thrown), ()
    if step is Step.MULTIPLIER:
        return thrown, (_("→ ×"),), (0,)
    if step is Step.THROW_MULTIPLIER and turn.penalty_used:
        return thrown, (_("✗ out"),), ()
    slot = _("→ A") if step is Step.THROW_TWO else _("→ B")
    index = thrown.index(max(thrown))
    marks = tuple(slot if i == index else "" for i in range(len(thrown)))
    return thrown, marks, (index,)


def offer_text(state: MultiplicacionState) -> str:
    """The line under the formula: what a choice would give, or how the last turn ended."""
    turn = state.turn
    if state.over:
        return ""
    preview = turn.preview()
    if preview is not None:
        return render(preview)
    if turn.step is Step.THROW_MULTIPLIER and turn.penalty_used:
        return _("Penalty {penalty} taken: the new die must be accepted").format(
            penalty=turn.penalty_taken
        )
    if turn.step is Step.THROW_THREE and state.last_turn is not None:
        seat, last = state.last_turn
        return _("{player} scored {formula}").format(
            player=state.players[seat], formula=last.formula()
        )
    return ""


def sheet_view(state: MultiplicacionState) -> SheetView:
    """One row per round, one column per player, and the totals; nothing is chosen here.

    Until the multiplier is accepted, the current player's cell for this round shows what it
    would score as a preview, in brackets: refused, it scores something else.
    """
    current = None if state.over else state.current
    rows = []
    for index in range(ROUNDS):
        cells = []
        for seat, sheet in enumerate(state.sheets):
            if index < len(sheet):
                cells.append(Cell(str(sheet[index].score or 0)))
            elif seat == current and index == len(sheet) and state.turn.score is not None:
                cells.append(Cell(str(state.turn.score), "potential"))
            else:
                cells.append(Cell("·", "empty"))
        rows.append(SheetRow(f"round-{index + 1}", str(index + 1), tuple(cells)))
    totals = tuple(Cell(str(state.total(seat))) for seat in range(len(state.players)))
    rows.append(SheetRow("total", _("Total"), totals, total=True))
    return SheetView(state.players, current, tuple(rows), _("Round"), value_width=4)  # (72)
