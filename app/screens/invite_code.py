"""A private table's invite code, asked before joining or watching it."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from rules import N_

from ..i18n import tr
from ..quiet.screen import PaintOnceScreen
from ..widgets import words


class InviteCodeScreen(PaintOnceScreen[str | None], ModalScreen[str | None]):
    CSS_PATH = "invite_code.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Cancel")),
    ]

    def __init__(self, table: str) -> None:
        super().__init__()
        self.table = table

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.question(), id="question")
            yield Input(max_length=16, compact=True, id="code")

    def question(self) -> str:
        return tr(
            N_("Table {table} is private: its invite code (enter; esc cancels)"), table=self.table
        )

    def on_mount(self) -> None:
        words(self.query_one("#code", Input), N_("the code its host gave you"), "placeholder")
        self.query_one("#code", Input).focus()

    def retranslate(self) -> None:
        self.query_one("#question", Static).update(self.question())

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        code = "".join(event.value.split()).upper()
        self.dismiss(code or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
