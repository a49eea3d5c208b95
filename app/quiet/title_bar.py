"""The top line of every screen: the ⭘ that opens the command palette, and the title.

One widget where Textual's Header is four (icon, title, clock space, and the header itself):
it looks the same (the app's `format_title`, "Cubilete — Lobby", centred), follows the screen's
and the app's title and sub-title as Header does, and a click on ⭘ opens the command palette.
It has no clock and no tall mode (Header grows to 3 lines when clicked): neither is used here.
"""

from __future__ import annotations

from textual import events
from textual.content import Content
from textual.widget import Widget

from rules import N_

from ..widgets import sibling_css, words

ICON = "⭘"
ICON_WIDTH = 8  # Header's icon column: the ⭘ and its padding
CLOCK_WIDTH = 10  # and the column on the right that Header keeps for a clock


class TitleBar(Widget):
    DEFAULT_CSS = sibling_css(__file__)

    def on_mount(self) -> None:
        for node in (self.app, self.screen):
            self.watch(node, "title", self._title_changed, init=False)
            self.watch(node, "sub_title", self._title_changed, init=False)
        if self.app.ENABLE_COMMAND_PALETTE:
            words(self, N_("Open the command palette"), "tooltip")

    def _title_changed(self) -> None:
        self.refresh()

    @property
    def title_text(self) -> Content:
        screen, app = self.screen, self.app
        title = screen.title if screen.title is not None else app.title
        sub_title = screen.sub_title if screen.sub_title is not None else app.sub_title
        return app.format_title(title, sub_title)

    def render(self) -> Content:
        # centred between the icon's column and the (empty) clock column, as in Header
        width = self.size.width
        room = max(width - ICON_WIDTH - CLOCK_WIDTH, 1)
        title = self.title_text
        if title.cell_length > room:
            title = title.truncate(room, ellipsis=True)
        left = ICON_WIDTH + (room - title.cell_length) // 2
        return Content.assemble(f" {ICON}".ljust(left), title)

    async def on_click(self, event: events.Click) -> None:
        if event.x < ICON_WIDTH and self.app.ENABLE_COMMAND_PALETTE:
            event.stop()
            await self.run_action("app.command_palette")
