"""The "Table talk" event log: a `RichLog` that repaints only the lines a write adds.

`RichLog.write` repaints the whole log (its new height is a reactive that repaints), so every
line of narration and every coach rating rewrote the log's 10 rows, about 2.5 KB at 80×24.
Here a write that does not move the lines already shown paints only the new text; a write that
scrolls the log still repaints it all (every line moved), as does trimming to `max_lines`.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
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
    """The game screen's log (`#log`), written with `write` like any `RichLog`.

    Unlike `RichLog` it keeps what was written and wraps it again when its width changes
    (the coach opening beside it, a longer language): a line wrapped at the old width would
    otherwise be cut at the new one, mid-word."""

    _writing = False
    """True inside `write`."""
    _rewrapping = False
    _wrapped_at = 0
    """The width the lines were last wrapped at (0: not yet known)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._written: list[tuple[Any, tuple[Any, ...], dict[str, Any]]] = []

    def clear(self) -> TableTalk:
        if not self._rewrapping:
            self._written = []
        super().clear()
        return self

    def on_resize(self, event: events.Resize) -> None:  # (RichLog's own runs after it)
        width = self.scrollable_content_region.width
        if not self._wrapped_at or not width:
            self._wrapped_at = width
            return
        if width != self._wrapped_at and self._written:
            self._wrapped_at = width
            self._rewrapping = True
            try:
                self.clear()
                for content, args, kwargs in self._written:
                    super().write(content, *args, **kwargs)
            finally:
                self._rewrapping = False
            self.scroll_end(animate=False)

    def write(self, content: Any, *args: Any, **kwargs: Any) -> TableTalk:
        if not self._rewrapping:
            self._written.append((content, args, kwargs))
            if self.max_lines is not None and len(self._written) > self.max_lines:
                del self._written[: -self.max_lines]
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
