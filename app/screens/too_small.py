"""Shown instead of a broken layout when the terminal is smaller than the game needs."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import ModalScreen
from textual.widgets import Static

from rules import N_

from ..widgets import words


class TooSmallScreen(ModalScreen[None]):
    CSS_PATH = "too_small.tcss"

    def __init__(self, need: tuple[int, int]) -> None:
        super().__init__()
        self.need = need

    def compose(self) -> ComposeResult:
        width, height = self.need
        message = N_(
            "Terminal too small.\nCubilete needs at least {width}×{height};\n"
            "make the window larger and the game comes back."
        )
        yield words(Static(id="too-small"), message, "content", width=width, height=height)
