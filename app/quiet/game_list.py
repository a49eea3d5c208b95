"""The lobby's list of games: one widget, a name per entry (wrapped when long), one highlighted.

The highlighted game is marked ▸ while the list has the keyboard, and ▹ (hollow, dim) while
another panel has it, so that only the focused panel's cursor stands out, with or without
colour.

↑ ↓ (home, end) move the highlight, enter picks the game; a click highlights and picks. Textual's
OptionList does the same and more (scrolling, separators, disabled options...) at the price of
≈ 10 ms more of start-up; the lobby lists five games and needs none of the rest.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from rules import N_

from ..widgets import row_moves, sibling_css
from ..widgets.runs import one_run_per_style

CURSOR, BLURRED_CURSOR = "▸", "▹"
"""The mark of the highlighted game, with the keyboard and without it."""


class GameList(Widget, can_focus=True):
    DEFAULT_CSS = sibling_css(__file__)
    COMPONENT_CLASSES: ClassVar[set[str]] = {"game-list--highlight"}
    BINDINGS: ClassVar[list[BindingType]] = [
        *row_moves(),
        Binding("enter", "select", N_("Choose"), show=False),
    ]

    highlighted: reactive[int] = reactive(0, init=False, repaint=False)

    class Highlighted(Message):
        """Another game is highlighted."""

        def __init__(self, game_id: str) -> None:
            super().__init__()
            self.game_id = game_id

    class Selected(Message):
        """The highlighted game is picked (enter, or a click)."""

        def __init__(self, game_id: str) -> None:
            super().__init__()
            self.game_id = game_id

    def __init__(
        self, games: Sequence[tuple[str, str]], highlighted: int = 0, *, id: str | None = None
    ) -> None:
        """`games`: (id, name) pairs, in the order shown."""
        super().__init__(id=id)
        self.games = list(games)
        self.set_reactive(GameList.highlighted, highlighted)

    @property
    def game_id(self) -> str:
        return self.games[self.highlighted][0]

    def validate_highlighted(self, index: int) -> int:
        return min(max(index, 0), len(self.games) - 1)

    def watch_highlighted(self, old: int, new: int) -> None:
        self.refresh(*self._regions(old), *self._regions(new))
        self.post_message(self.Highlighted(self.game_id))

    def action_move(self, step: int) -> None:
        self.highlighted += step

    def action_select(self) -> None:
        self.post_message(self.Selected(self.game_id))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for index, lines in enumerate(self._spans()):
            if offset.y in lines:
                self.highlighted = index
                self.action_select()
                return

    # -- drawing --------------------------------------------------------------------------
    def _wrapped(self, width: int) -> list[list[str]]:
        """Each game's name, in lines of the list's width (a margin each side; the left one
        holds the ▸ of the game highlighted)."""
        return [textwrap.wrap(name, max(width - 2, 4)) or [""] for _id, name in self.games]

    def _spans(self) -> list[range]:
        """The lines each game takes."""
        spans, line = [], 0
        for lines in self._wrapped(self.size.width):
            spans.append(range(line, line + len(lines)))
            line += len(lines)
        return spans

    def _regions(self, index: int) -> list[Region]:
        spans = self._spans()
        if not 0 <= index < len(spans):
            return []
        span = spans[index]
        return [Region(0, span.start, self.size.width, len(span))]

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return sum(len(lines) for lines in self._wrapped(width))

    def render(self) -> Text:
        width = self.size.width
        highlight = self.get_component_rich_style("game-list--highlight")
        text = Text(no_wrap=True, end="")
        for index, lines in enumerate(self._wrapped(width)):
            here = index == self.highlighted
            for number, line in enumerate(lines):
                if text:
                    text.append("\n")
                marker = " "
                if here and number == 0:  # seen without colours too
                    marker = CURSOR if self.has_focus else BLURRED_CURSOR
                text.append(f"{marker}{line}".ljust(width), highlight if here else "")
                if marker == BLURRED_CURSOR:
                    text.stylize(Style(dim=True), len(text) - width, len(text) - width + 1)
        return text

    def render_lines(self, crop: Region) -> list[Strip]:
        return [one_run_per_style(strip) for strip in super().render_lines(crop)]
