"""The tests read the screen through Textual's private compositor, in one place
(tests/ui/uihelpers.py), because Textual has no public way to: if a new Textual changes it,
these tests fail first and say what to update, checked against what Textual's public
screenshot (`App.export_screenshot`) shows."""

from __future__ import annotations

import html
import re

from rich.console import Console
from textual.app import App, ComposeResult
from textual.widgets import Static
from uihelpers import (
    ChopsUpdate,
    LayoutUpdate,
    ScreenUpdate,
    full_repaint,
    notifications,
    row_cells,
    screen_rows,
    screen_text,
    until,
    watch_updates,
)

CHANGED = "Textual changed what tests/ui/uihelpers.py reads of the screen: update it"


class Board(App[None]):
    CSS = "#bold { text-style: bold; }"

    def compose(self) -> ComposeResult:
        yield Static("Hello, board", id="hello")
        yield Static("Bold words", id="bold")

    def key_x(self) -> None:
        self.query_one("#hello", Static).update("Changed!")


def screenshot_words(app: App[None]) -> list[str]:
    """The words of Textual's public SVG screenshot, in order (not its window's title)."""
    svg = app.export_screenshot()
    texts = re.findall(r"<text (?![^>]*-title)[^>]*>([^<]*)</text>", svg)
    return " ".join(html.unescape(text).replace("\xa0", " ") for text in texts).split()


async def test_the_screen_as_text_is_what_the_public_screenshot_shows():
    app = Board()
    async with app.run_test(size=(30, 4)) as pilot:
        await pilot.pause()
        rows = screen_rows(app)
        assert len(rows) == 4 and all(len(row) == 30 for row in rows), CHANGED
        assert rows[0].startswith("Hello, board") and rows[1].startswith("Bold words"), CHANGED
        assert screen_text(app).split() == screenshot_words(app), CHANGED


async def test_the_cells_of_a_row_carry_their_styles():
    app = Board()
    async with app.run_test(size=(30, 4)) as pilot:
        await pilot.pause()
        cells = row_cells(app, 1)
        assert "".join(char for char, _ in cells).startswith("Bold words"), CHANGED
        style = cells[0][1]
        assert style is not None and style.bold, CHANGED


async def test_the_updates_sent_to_the_terminal_can_be_watched_and_a_full_repaint_rendered():
    app = Board()
    async with app.run_test(size=(30, 4)) as pilot:
        await pilot.pause()
        seen: list[ScreenUpdate] = []
        watch_updates(app, seen.append)
        await pilot.press("x")
        await until(pilot, lambda: seen, "an update")
        assert all(isinstance(update, ChopsUpdate | LayoutUpdate) for update in seen), CHANGED
        console = Console(color_system="256", force_terminal=True, width=30)
        assert "Changed!" in "".join(update.render_segments(console) for update in seen)
        assert "Changed!" in full_repaint(app).render_segments(console), CHANGED


async def test_the_notifications_on_show_are_read_as_their_messages():
    app = Board()
    async with app.run_test(size=(30, 4), notifications=True) as pilot:
        await pilot.pause()
        assert notifications(app) == []
        app.notify("Saved")
        await pilot.pause()
        assert notifications(app) == ["Saved"], CHANGED
