"""A terminal emulator (pyte) fed with what the app writes to its terminal.

Textual's test driver writes nothing, so `Terminal` renders every update the app would write
(`uihelpers.watch_updates`, the one place that hooks Textual's way to the terminal), with a
256-colour console as the bench's terminal has, and feeds it to pyte. `differences()` compares
what the terminal then shows with a full repaint of the screen.
"""

from __future__ import annotations

import pyte
from rich.console import Console
from textual.app import App
from uihelpers import LayoutUpdate, ScreenUpdate, full_repaint, watch_updates

SIZE = (80, 24)


class Terminal:
    """The bytes an app writes to its terminal, and what that terminal then shows."""

    def __init__(self, app: App, size: tuple[int, int] = SIZE) -> None:
        self.app = app
        self.size = size
        self.console = Console(color_system="256", force_terminal=True, width=size[0])
        self.updates: list[str] = []
        self.full: list[bool] = []
        """For each update: whether it is a full-screen paint."""
        self.screen = pyte.Screen(*size)
        self.stream = pyte.Stream(self.screen)
        watch_updates(app, self.record)

    def record(self, update: ScreenUpdate) -> None:
        text = update.render_segments(self.console)
        self.updates.append(text)
        self.full.append(
            isinstance(update, LayoutUpdate) and update.region.size == self.app.screen.outer_size
        )
        self.stream.feed(text)

    def mark(self) -> int:
        return len(self.updates)

    def bytes_since(self, mark: int) -> int:
        return len("".join(self.updates[mark:]).encode())

    def paints_since(self, mark: int) -> list[str]:
        """Each update written since `mark`: "full" for a full-screen paint, else "partial"."""
        return ["full" if full else "partial" for full in self.full[mark:]]

    def differences(self) -> list[str]:
        """Cells where the terminal differs from a full repaint of the screen now."""
        full = full_repaint(self.app).render_segments(self.console)
        fresh = pyte.Screen(*self.size)
        pyte.Stream(fresh).feed(full)
        found = []
        for y in range(self.size[1]):
            for x in range(self.size[0]):
                shown, expected = looks(self.screen.buffer[y][x]), looks(fresh.buffer[y][x])
                if shown != expected:
                    found.append(f"({x}, {y}): {shown} != {expected}")
        return found


def looks(char: pyte.screens.Char) -> pyte.screens.Char:
    """A cell as it looks: a blank's text colour, bold and italics do not show."""
    if char.data == " " and not (char.reverse or char.underscore or char.strikethrough):
        return char._replace(fg="default", bold=False, italics=False)
    return char
