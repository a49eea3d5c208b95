"""A yes/no question over the current screen (e.g. writing 0 in a box)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..i18n import _
from .quiet import PaintOnceScreen


class ConfirmScreen(PaintOnceScreen[bool], ModalScreen[bool]):
    """Painted once when it opens, as the screens under it (it was painted four times over:
    21 KB at 80×24, the screen under it included)."""

    CSS_PATH = "confirm.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", _("Yes")),
        Binding("n,escape", "answer(False)", _("No")),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.question, id="question")
            with Horizontal(id="answers"):
                yield Button(_("Yes (y)"), id="yes", variant="warning", compact=True)
                yield Button(_("No (n)"), id="no", variant="primary", compact=True)

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
