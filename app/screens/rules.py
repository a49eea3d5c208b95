"""A game's rule card (`seeds/<game>.md`), rendered as Markdown."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Header

from rules import game_name

from ..i18n import _
from ..widgets.key_bar import KeyBar

SEEDS_DIR = Path(__file__).resolve().parents[2] / "seeds"
"""The rule cards: `seeds/` beside `app/`, in a checkout and in site-packages alike."""


def rule_card(game_id: str) -> str:
    try:
        return (SEEDS_DIR / f"{game_id}.md").read_text(encoding="utf-8")
    except OSError:
        return _("# {game}\n\nThe rule card is missing.").format(game=game_name(game_id))


class RulesScreen(Screen[None]):
    CSS_PATH = "rules.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", _("Back"), id="close-rules"),
    ]

    def __init__(self, game_id: str) -> None:
        super().__init__()
        self.game_id = game_id

    def compose(self) -> ComposeResult:
        from textual.widgets import Markdown  # markdown-it costs start-up time: load it here

        yield Header()
        with VerticalScroll(id="card"):
            yield Markdown(rule_card(self.game_id), id="rules-text")
        yield KeyBar()

    def on_mount(self) -> None:
        self.sub_title = _("Rules of {game}").format(game=game_name(self.game_id))
        self.query_one("#card").focus()

    def action_close(self) -> None:
        self.dismiss()
