"""The "Table talk" event log: lines of text, repainting only the lines a write adds.

It writes, wraps, keeps and draws its lines exactly as Textual 8.2.8's `RichLog` does (its
code for text, below), but is not one: `RichLog` imports `rich.pretty` (for logging any Python
object), which imports `attrs` — 9 ms of CPU and 0.6 MiB when a game opens, for a log that
only ever writes text (docs/performance.md).

`RichLog.write` repaints the whole log (its new height is a reactive that repaints), so every
line of narration and every coach rating rewrote the log's 10 rows, about 2.5 KB at 80×24.
Here a write that does not move the lines already shown paints only the new text; a write that
scrolls the log still repaints it all (every line moved), as does trimming to `max_lines`.

`RichLog` wraps a line once, at the width it has when written: after a resize, old lines kept
their old wrapping (a wide window showed them cut in two). Here the log keeps what was written
and, when its width changes, writes it all again at the new width; and it wraps at its own
width (`RichLog` measures text against the app's console, 80 columns whatever the terminal).
"""

from __future__ import annotations

from collections import deque
from typing import Any, NamedTuple

from rich.cells import cell_len
from rich.console import RenderableType
from rich.measure import measure_renderables
from rich.protocol import is_renderable
from rich.segment import Segment
from rich.text import Text
from textual.cache import LRUCache
from textual.events import Resize
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar
from textual.strip import Strip
from textual.widget import Widget

from ..textual_private import update_scrollbars, vertical_scrollbar
from ..widgets.plain import visible
from ..widgets.runs import one_run_per_style

SCROLLBAR_GAP = 1
"""Blank columns between the wrapped text and the scrollbar."""


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


class _Deferred(NamedTuple):
    """A write made before the log knows its width (as `RichLog`'s `DeferredRender`)."""

    content: RenderableType
    width: int | None
    expand: bool
    shrink: bool
    scroll_end: bool | None


class TableTalk(ScrollView, can_focus=True):
    """The game screen's log (`#log`), written with `write` like a `RichLog`."""

    DEFAULT_CSS = """
    TableTalk {
        background: $surface;
        color: $foreground;
        overflow-y: scroll;
        &:focus {
            background-tint: $foreground 5%;
        }
    }
    """

    _writing = False
    """True inside `write`."""
    _wrapped_at: int | None = None
    """The width the lines were wrapped at."""

    def __init__(
        self,
        *,
        max_lines: int | None = None,
        min_width: int = 78,
        wrap: bool = False,
        markup: bool = False,
        auto_scroll: bool = True,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.max_lines = max_lines
        """The most lines kept (the oldest go first), or None."""
        self.min_width = min_width
        self.wrap = wrap
        self.markup = markup
        self.auto_scroll = auto_scroll
        self.lines: list[Strip] = []
        """The lines kept."""
        self._start_line = 0
        self._line_cache: LRUCache[tuple[int, int, int, int], Strip] = LRUCache(1024)
        self._deferred: deque[_Deferred] = deque()
        self._widest_line_width = 0
        self._size_known = False
        self._written: deque[_Deferred] = deque(maxlen=max_lines)
        """What was written (as `write` got it), to wrap again at another width."""

    # -- as RichLog (Textual 8.2.8) does for text ---------------------------------------------
    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._line_cache.clear()

    def on_resize(self, event: Resize) -> None:
        if event.size.width and not self._size_known:
            self._size_known = True  # the width is known: the writes held back go in now
            while self._deferred:
                self._write(*self._deferred.popleft())
        # the log's own: wrapped again at a new width
        width = self.scrollable_content_region.width
        if self._wrapped_at is None:
            self._wrapped_at = width
        elif width != self._wrapped_at and self._size_known:
            self._wrapped_at = width
            self._rewrap()

    def clear(self) -> TableTalk:
        """Remove every line."""
        self._written.clear()
        self.lines.clear()
        self._line_cache.clear()
        self._start_line = 0
        self._widest_line_width = 0
        self._deferred.clear()
        self.virtual_size = Size(0, len(self.lines))
        self.refresh()
        return self

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self.virtual_size.width if self._size_known else container.width

    def _renderable(self, content: RenderableType) -> RenderableType:
        if isinstance(content, str):
            renderable: RenderableType = Text.from_markup(content) if self.markup else Text(content)
        elif is_renderable(content):
            renderable = content
        else:
            raise TypeError(f"the log writes text, not {type(content).__name__}")
        if isinstance(renderable, Text):
            renderable.expand_tabs()
        return renderable

    def _write(
        self,
        content: RenderableType,
        width: int | None,
        expand: bool,
        shrink: bool,
        scroll_end: bool | None,
    ) -> None:
        if not self._size_known:
            if isinstance(content, Text):
                content = content.copy()
            self._deferred.append(_Deferred(content, width, expand, shrink, scroll_end))
            return
        if self.wrap and width is None:
            # (the log's own) wrap at the log's width: `RichLog` measures the text against the
            # app's console, which stays 80 columns wide whatever the terminal's width; and a
            # column short of it, so that no text touches the scrollbar ("the crew▂")
            width = max(self.scrollable_content_region.width - SCROLLBAR_GAP, 1)
        renderable = self._renderable(content)
        auto_scroll = self.auto_scroll if scroll_end is None else scroll_end
        console = self.app.console
        options = console.options
        if isinstance(renderable, Text) and not self.wrap:
            options = options.update(overflow="ignore", no_wrap=True)
        if width is not None:
            render_width = width
        else:
            render_width = measure_renderables(console, options, [renderable]).maximum
            visible = self.scrollable_content_region.width
            if expand and render_width < visible:
                render_width = max(render_width, visible)
            if shrink and render_width > visible:
                render_width = min(render_width, visible)
            render_width = max(render_width, self.min_width)
        options = options.update_width(render_width)
        lines = list(Segment.split_lines(console.render(renderable, options)))
        if not lines:
            self._widest_line_width = max(render_width, self._widest_line_width)
            self.lines.append(Strip.blank(render_width))
        else:
            strips = Strip.from_lines(lines)
            for strip in strips:
                strip.adjust_cell_length(render_width)
            self.lines.extend(strips)
            if self.max_lines is not None and len(self.lines) > self.max_lines:
                self._start_line += len(self.lines) - self.max_lines
                self.refresh()
                self.lines = self.lines[-self.max_lines :]
            self._widest_line_width = max(
                self._widest_line_width,
                max(sum(segment.cell_length for segment in line) for line in lines),
            )
        fixed = self._fixed_size()
        self._set_virtual_size(Size(self._widest_line_width, len(self.lines)), fixed)
        if auto_scroll:
            # (the log's own: with a fixed size, at once, in the paint of the write; `RichLog`
            # scrolls after the refresh, after the layout its new height asked for, which
            # was one more paint of the whole log a moment after the line's own)
            self.scroll_end(animate=False, immediate=fixed, x_axis=False)

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        index = scroll_y + y
        if index >= len(self.lines):
            line = Strip.blank(width, self.rich_style)
        else:
            key = (index + self._start_line, scroll_x, width, self._widest_line_width)
            cached = self._line_cache.get(key)
            if cached is None:
                cached = self.lines[index].crop_extend(scroll_x, scroll_x + width, self.rich_style)
                self._line_cache[key] = cached
            line = cached
        return line.apply_style(self.rich_style)

    # -- the log's own --------------------------------------------------------------------------
    def _fixed_size(self) -> bool:
        """Whether nothing on screen depends on how much the log holds: its size is set by its
        CSS (no `auto` width or height) and so is whether it shows each scrollbar (no `auto`
        overflow). Then a write needs no layout of the screen (see `_set_virtual_size`)."""
        styles = self.styles
        parent = self.parent.styles if isinstance(self.parent, Widget) else None
        # (a fraction of a container sized by its content may be measured like `auto`: not
        # taken as fixed)
        auto_parent = (
            parent is None or parent.is_auto_width,
            parent is None or parent.is_auto_height,
        )
        sized = all(
            scalar is None or not (scalar.is_auto or (scalar.is_fraction and auto))
            for scalar, auto in zip((styles.width, styles.height), auto_parent, strict=True)
        )
        bars = "auto" not in (styles.overflow_x, styles.overflow_y)
        return self._size_known and self.is_attached and sized and bars

    def _set_virtual_size(self, size: Size, fixed: bool) -> None:
        """The lines' extent. Textual lays the whole screen out when a widget's virtual size
        changes (4-6 ms of CPU for the game screen, at every line of table talk); a log of
        fixed size needs only what that layout would do for it: its scrollbar's window and
        its scroll offsets within the new bounds."""
        if not fixed:
            self.virtual_size = size
        elif size != self.virtual_size:
            self.set_reactive(TableTalk.virtual_size, size)
            update_scrollbars(self)

    def write(
        self,
        content: RenderableType,
        width: int | None = None,
        expand: bool = False,
        shrink: bool = True,
        scroll_end: bool | None = None,
    ) -> TableTalk:
        """Add `content` (text, wrapped to the log's width) at the end of the log."""
        if isinstance(content, str):  # narration names the players: no control goes through
            content = visible(content)
        kept = content.copy() if isinstance(content, Text) else content
        self._written.append(_Deferred(kept, width, expand, shrink, scroll_end))
        first_new, start = len(self.lines), self._start_line
        self._writing = True
        try:
            self._write(content, width, expand, shrink, scroll_end)  # (deferred: size unknown)
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

    def _rewrap(self) -> None:
        """Every line written so far, wrapped at the width the log has now (the view stays
        at the end if it was there)."""
        at_end = self.scroll_y >= self.max_scroll_y
        self.lines = []
        self._start_line = 0
        self._widest_line_width = 0
        self._line_cache.clear()
        for content, width, expand, shrink, _scroll_end in self._written:
            self._write(content, width, expand, shrink, False)
        if at_end:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        self.refresh()

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
        return vertical_scrollbar(
            self,
            lambda: QuietScrollBar(
                vertical=True, name="vertical", thickness=self.scrollbar_size_vertical
            ),
        )

    def render_lines(self, crop: Region) -> list[Strip]:
        # Border, padding and text in as few styled runs as their looks allow.
        return [one_run_per_style(strip) for strip in super().render_lines(crop)]
