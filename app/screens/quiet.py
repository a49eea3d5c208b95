"""A screen that is not repainted whole when the focus moves or the mouse clicks.

Textual repaints the whole screen (all 80×24 cells, ≈ 8 KB over SSH) when the focus moves
(`Screen.focused` is a repainting reactive), and twice for every click, because a click starts
and ends a text selection (`Screen._select_state`). The widgets that gain or lose the focus, or
that answer the click, repaint themselves, so those screen-wide repaints draw nothing new.
This screen's focus does not repaint it, and it has no mouse text selection of its own (the
terminal's own selection, usually with shift held, still works). `tests/ui/test_ui_repaint.py`
checks, step by step, that the terminal shows what a full repaint would.
"""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget

ResultT = TypeVar("ResultT")


class QuietScreen(Screen[ResultT]):
    ALLOW_SELECT: ClassVar[bool] = False
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    @property
    def opening_as_the_app_exits(self) -> bool:
        """The app is exiting as this screen opens (ctrl+q in the moment a bot's move opened
        it, or the end of a test): Textual mounts part of what it composed, or none of it, so
        the screen sets nothing up."""
        app = self.app
        return not self.is_attached or not app.is_running or app.return_code is not None
