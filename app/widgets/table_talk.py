"""The "Table talk" event log: a `RichLog` that repaints only the lines a write adds, and
wraps its lines again when its width changes.

`RichLog.write` repaints the whole log (its new height is a reactive that repaints), so every
line of narration and every coach rating rewrote the log's 10 rows, about 2.5 KB at 80×24.
Here a write that does not move the lines already shown paints only the new text; a write that
scrolls the log still repaints it all (every line moved), as does trimming to `max_lines`.

`RichLog` wraps a line once, at the width it has when written: after a resize, old lines kept
their old wrapping (a wide window showed them cut in two). Here the log keeps what was written
and, when its width changes, writes it all again at the new width.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.geometry import Region
from textual.scrollbar import ScrollBar
from textual.strip import Strip
from textual.widgets import RichLog

from .runs import one_run_per_style


class QuietScrollBar(ScrollBar):
    """A scrollbar that skips a repaint which would draw what is already on the screen.

    Textual repaints a scroll view's scrollbar at every layout of the screen (a status line
    changing anywhere) and at every write, although a log whose lines all fit shows the same
    empty track each time: eight more rows to the terminal for nothing.
    """

    _painted: tuple[object, ...] | None = None

    def _look(self) -> tuple[object, ...]:
        styles = self.parent.styles if self.parent is not None else None
        fits = not self.window_size < self.window_virtual_size
        thumb = None if fits else (self.window_size, self.window_virtual_size, self.position)
        colours = (
            None
            if styles is None
            else (
                styles.scrollbar_color,
                styles.scrollbar_color_hover,
                styles.scrollbar_color_active,
                styles.scrollbar_background,
                styles.scrollbar_background_hover,
                styles.scrollbar_background_active,
                self.screen.styles.scrollbar_color,
            )
        )
        return (
            self.size,
            self.thickness,
            self.renderer,
            self.mouse_over,
            self.grabbed is not None,
            thumb,
            colours,
        )

    def render(self) -> Any:
        self._painted = self._look()
        return super().render()

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> QuietScrollBar:
        if (
            repaint
            and not (regions or layout or recompose)
            and self._painted is not None
            and self.is_attached
            and self._painted == self._look()
        ):
            return self
        super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)
        return self


class TableTalk(RichLog):
    """The game screen's log (`#log`), written with `write` like any `RichLog`."""

    _writing = False
    """True inside `write`."""
    _wrapped_at: int | None = None
    """The width the lines were wrapped at."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._written: deque[tuple[Any, tuple[Any, ...], dict[str, Any]]] = deque(
            maxlen=self.max_lines
        )
        """What was written (as `write` got it), to wrap again at another width."""

    _replaying = False
    """True while `RichLog` writes what was written before its size was known."""

    def write(self, content: Any, *args: Any, **kwargs: Any) -> TableTalk:
        if not self._replaying:
            if isinstance(content, Text):
                content = content.copy()
            self._written.append((content, args, kwargs))
        return self._write(content, *args, **kwargs)

    def clear(self) -> TableTalk:
        self._written.clear()
        super().clear()
        return self

    def on_resize(self, event: events.Resize) -> None:
        self._replaying = True
        try:
            super().on_resize(event)  # (the writes made before the size was known)
        finally:
            self._replaying = False
        width = self.scrollable_content_region.width
        if self._wrapped_at is None:
            self._wrapped_at = width
        elif width != self._wrapped_at and self._size_known:
            self._wrapped_at = width
            self._rewrap()

    def _rewrap(self) -> None:
        """Every line written so far, wrapped at the width the log has now (the view stays
        at the end if it was there)."""
        at_end = self.scroll_y >= self.max_scroll_y
        self.lines = []
        self._start_line = 0
        self._widest_line_width = 0
        self._line_cache.clear()
        for content, args, kwargs in self._written:
            self._replaying = True
            try:
                self._write(content, *args, **{**kwargs, "scroll_end": False})
            finally:
                self._replaying = False
        if at_end:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        self.refresh()

    def _write(self, content: Any, *args: Any, **kwargs: Any) -> TableTalk:
        if self.wrap and self._size_known and not args and kwargs.get("width") is None:
            # wrap at the log's width: left to itself, `RichLog` measures the text against the
            # app's console, which stays 80 columns wide whatever the terminal's width
            kwargs["width"] = max(self.scrollable_content_region.width, 1)
        first_new, start = len(self.lines), self._start_line
        self._writing = True
        try:
            super().write(content, *args, **kwargs)  # (deferred while the size is unknown)
        finally:
            self._writing = False
        if self._start_line != start:
            self.refresh()  # trimmed to max_lines: every line moved
            return self
        left, top = round(self.scroll_x), round(self.scroll_y)
        for y in range(first_new, len(self.lines)):
            # The new line's text, where it shows now (a scroll to the end, if one follows,
            # repaints the whole log anyway); the rest of its row was blank and stays blank.
            width = cell_len(self.lines[y].text.rstrip()) - left
            if width > 0 and top <= y < top + self.scrollable_content_region.height:
                self.refresh(Region(0, y - top, width, 1))
        return self

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> TableTalk:
        if self._writing and not regions:
            repaint = False  # the new height during a write: `write` repaints the new lines
        super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)
        return self

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        """As `Widget.vertical_scrollbar` (Textual 8.2.8), but a `QuietScrollBar`."""
        if self._vertical_scrollbar is None:
            bar = QuietScrollBar(
                vertical=True, name="vertical", thickness=self.scrollbar_size_vertical
            )
            bar.display = False
            self._vertical_scrollbar = bar
            self.app._start_widget(self, bar)
        return self._vertical_scrollbar

    def render_lines(self, crop: Region) -> list[Strip]:
        # Border, padding and text in as few styled runs as their looks allow.
        return [one_run_per_style(strip) for strip in super().render_lines(crop)]
