"""The command palette in the player's language.

Textual's `CommandPalette` writes two things of its own: the search box's placeholder (a
constructor argument) and "No matches found"; this subclass writes the second in the
player's language (Textual 8.2.8's method, with the words translated).
"""

from __future__ import annotations

from rich.align import Align
from rich.text import Text
from textual.command import CommandList, CommandPalette
from textual.widgets.option_list import Option

from rules import N_

from .i18n import _

NO_MATCHES = N_("No matches found")


class Palette(CommandPalette):
    def _start_no_matches_countdown(self, search_value: str) -> None:
        self._stop_no_matches_countdown()

        def _show_no_matches() -> None:
            if search_value:
                command_list = self.query_one(CommandList)
                command_list.add_option(
                    Option(
                        Align.center(Text(_(NO_MATCHES), style="not bold")),
                        disabled=True,
                        id=self._NO_MATCHES,
                    )
                )
                self._list_visible = True
            else:
                self._list_visible = False

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, _show_no_matches)
