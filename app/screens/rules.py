"""A game's rule card (`seeds/<game>.md`), rendered as Markdown.

Building the card (Textual's Markdown: a parse, then about a hundred widgets to compose, style
and lay out) costs ≈ 0.3 s of CPU, so each game's card is built once and kept
(`CubileteApp.show_rules` installs the screen): shown again, it is only restyled if the theme
changed, and painted (`docs/performance.md`); if the language changed while it was hidden, its
words and card are written again first.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll

from rules import N_, game_name

from ..i18n import current_language
from ..quiet.key_bar import KeyBar
from ..quiet.screen import PaintOnceScreen
from ..quiet.title_bar import TitleBar
from ..rule_cards import rule_card
from ..widgets import retranslate, words


class RulesScreen(PaintOnceScreen[None]):
    CSS_PATH = "rules.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", N_("Back"), id="close-rules"),
    ]

    def __init__(self, game_id: str) -> None:
        super().__init__()
        self.game_id = game_id
        self.card_language = current_language()
        """The language the card is written in."""

    def compose(self) -> ComposeResult:
        from textual.widgets import Markdown  # markdown-it costs start-up time: load it here

        yield TitleBar()
        with VerticalScroll(id="card"):
            yield Markdown(rule_card(self.game_id), id="rules-text")
        yield KeyBar()

    def on_mount(self) -> None:
        words(self, N_("Rules of {game}"), "sub_title", game=game_name(self.game_id))
        self.query_one("#card").focus()

    def on_screen_resume(self) -> None:
        """The card opens at its top, as when it was first built, in the language of the
        moment (a kept card missed a change of language made while it was hidden: only the
        screens on the stack are told)."""
        if self.card_language != current_language():
            for node in (self, *self.walk_children(with_self=False)):
                retranslate(node)  # (this screen's own `retranslate` among them)
                node.refresh(layout=True)
        card = self.query_one("#card", VerticalScroll)
        card.scroll_home(animate=False, immediate=True)
        card.focus()

    def retranslate(self) -> None:
        """The card in the language now in use."""
        from textual.widgets import Markdown

        self.card_language = current_language()
        self.query_one("#rules-text", Markdown).update(rule_card(self.game_id))

    def action_close(self) -> None:
        self.dismiss()
