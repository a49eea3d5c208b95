"""The command palette in the player's language.

Textual's `CommandPalette` writes two things of its own: the search box's placeholder (a
constructor argument) and "No matches found"; this subclass writes the second in the
player's language (Textual 8.2.8's method, with the words translated: there is no public way,
so the method's steps are in `app.textual_private`).
"""

from __future__ import annotations

from rich.align import Align
from rich.text import Text
from textual.command import CommandPalette

from rules import N_

from .i18n import _
from .textual_private import show_no_matches_later

NO_MATCHES = N_("No matches found")


class Palette(CommandPalette):
    def _start_no_matches_countdown(self, search_value: str) -> None:
        show_no_matches_later(
            self, search_value, lambda: Align.center(Text(_(NO_MATCHES), style="not bold"))
        )
