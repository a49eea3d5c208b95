"""A game's rule card (`seeds/<game>.md`), rendered as Markdown."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen

from rules import N_, game_name

from ..rule_cards import rule_card
from ..widgets import words
from ..widgets.key_bar import KeyBar
from ..widgets.title_bar import TitleBar


class RulesScreen(Screen[None]):
    CSS_PATH = "rules.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", N_("Back"), id="close-rules"),
    ]

    def __init__(self, game_id: str) -> None:
        super().__init__()
        self.game_id = game_id

    def compose(self) -> ComposeResult:
        from textual.widgets import Markdown  # markdown-it costs start-up time: load it here

        yield TitleBar()
        with VerticalScroll(id="card"):
            yield Markdown(rule_card(self.game_id), id="rules-text")
        yield KeyBar()

    def on_mount(self) -> None:
        words(self, N_("Rules of {game}"), "sub_title", game=game_name(self.game_id))
        self.query_one("#card").focus()

    def retranslate(self) -> None:
        """The card in the language now in use."""
        from textual.widgets import Markdown

        self.query_one("#rules-text", Markdown).update(rule_card(self.game_id))

    def action_close(self) -> None:
        self.dismiss()
