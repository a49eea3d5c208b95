"""A game's rule card (`seeds/<game>.md`), rendered as Markdown.

Building the card (Textual's Markdown: a parse, then about a hundred widgets to compose, style
and lay out) costs ≈ 0.3 s of CPU, so each game's card is built once and kept
(`CubileteApp.show_rules` installs the screen): shown again, it is only restyled if the theme
changed, and painted (`docs/performance.md`).
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll

from rules import game_name

from ..i18n import _
from ..rule_cards import rule_card
from ..widgets.key_bar import KeyBar
from ..widgets.title_bar import TitleBar
from .quiet import PaintOnceScreen


class RulesScreen(PaintOnceScreen[None]):
    CSS_PATH = "rules.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", _("Back"), id="close-rules"),
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
        self.sub_title = _("Rules of {game}").format(game=game_name(self.game_id))
        self.query_one("#card").focus()

    def on_screen_resume(self) -> None:
        """The card opens at its top, as when it was first built."""
        card = self.query_one("#card", VerticalScroll)
        card.scroll_home(animate=False, immediate=True)
        card.focus()

    def action_close(self) -> None:
        self.dismiss()
