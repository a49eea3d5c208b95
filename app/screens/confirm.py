"""A yes/no question over the current screen (e.g. writing 0 in a box)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from rules import N_, Text

from ..i18n import render, yes_key
from ..quiet.key_bar import KeyBar
from ..quiet.screen import PaintOnceScreen
from ..widgets import retranslate, words


class ConfirmScreen(PaintOnceScreen[bool], ModalScreen[bool]):
    """Painted once when it opens, as the screens under it (it was painted four times over:
    21 KB at 80×24, the screen under it included)."""

    CSS_PATH = "confirm.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True, 'y')", N_("Yes")),
        Binding("s", "answer(True, 's')", N_("Yes")),  # sí, sim
        Binding("y", "answer(True)", N_("Yes"), show=False),  # (y in every language)
        Binding("n,escape", "answer(False)", N_("No")),
    ]

    def __init__(self, question: Text | str) -> None:
        """`question`: a message, asked in the player's language (plain words as they are)."""
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(render(self.question), id="question")
            with Horizontal(id="answers"):
                yes = Button("", id="yes", variant="warning", compact=True)
                yield words(yes, N_("Yes (y)"), "label")
                yield words(
                    Button("", id="no", variant="primary", compact=True), N_("No (n)"), "label"
                )
        yield KeyBar()  # the question's keys, over the game's (issue 27)

    def ask(self, question: Text | str) -> None:
        """Ask another question (the app keeps one question screen: `CubileteApp.confirm`),
        "No" focused again, as at the first asking."""
        self.question = question
        if self.is_mounted:
            for node in self.walk_children(with_self=True):
                retranslate(node)  # (the language may have changed since it was last asked)
            self.query_one("#no", Button).focus()

    def retranslate(self) -> None:
        self.query_one("#question", Static).update(render(self.question))

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.answer(event.button.id == "yes")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The yes key the buttons name is the language's (`yes_key`): s in Spanish and
        Portuguese; y answers yes in every language."""
        if action == "answer" and len(parameters) > 1:
            return parameters[1] == yes_key()
        return super().check_action(action, parameters)

    def action_answer(self, yes: bool, key: str = "") -> None:
        self.answer(yes)

    def answer(self, yes: bool) -> None:
        """Close with the answer. The app's kept question is not removed as it closes: the
        screen under it, shown again, settles with no more than the answer's repaints."""
        stack = self.app.screen_stack
        below = stack[-2] if len(stack) > 1 and stack[-1] is self else None
        if isinstance(below, PaintOnceScreen) and self.app.is_screen_installed(self):
            below.uncovered()
        self.dismiss(yes)
