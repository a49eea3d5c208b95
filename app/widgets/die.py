"""One die drawn as a pip face; a click asks to toggle its hold."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widget import Widget

from . import sibling_css
from .runs import one_run_per_style

PIP = "●"
_FACES: dict[int, tuple[str, ...]] = {
    1: ("     ", "  o  ", "     "),
    2: ("o    ", "     ", "    o"),
    3: ("o    ", "  o  ", "    o"),
    4: ("o   o", "     ", "o   o"),
    5: ("o   o", "  o  ", "o   o"),
    6: ("o   o", "o   o", "o   o"),
}
BLANK = ("     ", "  ?  ", "     ")
LARGE_FACES: dict[int, tuple[str, ...]] = {
    1: ("         ", "         ", "    o    ", "         ", "         "),
    2: (" o       ", "         ", "         ", "         ", "       o "),
    3: (" o       ", "         ", "    o    ", "         ", "       o "),
    4: (" o     o ", "         ", "         ", "         ", " o     o "),
    5: (" o     o ", "         ", "    o    ", "         ", " o     o "),
    6: (" o     o ", "         ", " o     o ", "         ", " o     o "),
}
LARGE_BLANK = ("         ", "         ", "    ?    ", "         ", "         ")
LARGE_FACE = (9, 5)
ROWS_KEPT = 64
"""At most this many drawn rows are kept by a die (a face's rows in a few looks: held,
hovered; more only after a theme change, which drops them anyway)."""
BIG_DICE_MIN_HEIGHT = 32
"""The inside a die needs for the large face (CSS gives it on a wide terminal: 11 × 7 with
its border); narrower or lower, the usual 5 × 3 face."""


def face_lines(
    value: int | None,
    faces: dict[int, tuple[str, ...]] = _FACES,
    blank: tuple[str, ...] = BLANK,
) -> tuple[str, ...]:
    """The rows of a face, `o` drawn as a pip; `blank` for a die not yet thrown."""
    rows = faces.get(value or 0, blank)
    return tuple(row.replace("o", PIP) for row in rows)


class Die(Widget):
    """A die at a tray position. `held` shows as colour and as a heavy border.

    Drawn for a terminal that is written to often (a tumbling die changes several times a
    second): a new face repaints only the rows of the face that differ, not the border, and
    each row of the die is written with as few style changes as its colours allow (border and
    pips in the same colour make a row one styled run).
    """

    DEFAULT_CSS = sibling_css(__file__)
    COMPONENT_CLASSES: ClassVar[set[str]] = {"die--blank"}
    """`die--blank`: the "?" of a die not yet thrown (a component style, not a class rule, so
    that the first face of a throw repaints the face only)."""

    value: reactive[int | None] = reactive(None, repaint=False)
    """The face shown; a change repaints the face only (see `watch_value`)."""
    marks_blank = False
    """Whether a die not yet thrown has the class `-blank`, for a tray whose CSS draws it
    differently (a class change restyles the die and repaints all of it, so a tray that has no
    such rule does not pay for it at every throw)."""
    held: reactive[bool] = reactive(False)

    class Clicked(Message):
        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    def __init__(self, index: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.index = index
        self.border_title = str(index + 1)
        self._rows: dict[tuple[object, ...], Strip] = {}
        """The rows of faces drawn (`render_line`), by what they show."""

    def face(self, value: int | None) -> tuple[str, ...]:
        """The rows of the face drawn for `value`: the large face when CSS makes the die
        big enough for it (`LARGE_FACE`), else the usual one."""
        width, height = self.content_size
        if width >= LARGE_FACE[0] and height >= LARGE_FACE[1]:
            return face_lines(value, LARGE_FACES, LARGE_BLANK)
        return face_lines(value)

    def render(self) -> Text:
        text = Text("\n".join(self.face(self.value)))
        if self.value is None:
            text.stylize(self.get_component_rich_style("die--blank"))
        return text

    def render_line(self, y: int) -> Strip:
        """Row `y` of the face, drawn as Textual draws `render()`'s text, but alone and kept:
        Textual renders all of a widget's text for any repaint of it, and the tray repaints
        five dice at every throw, tumble and box filled. A die shows a few rows over and over
        (six faces, a blank), so the rows drawn are kept, by what they show."""
        width = self.size.width
        face = self.face(self.value)
        row = face[y] if 0 <= y < len(face) else None
        key = (row, self.value is None, width, self.visual_style)
        strip = self._rows.get(key)
        if strip is None:
            strips: list[Strip] = []
            if row is not None and width > 0:
                text = Text(row)
                if self.value is None:
                    text.stylize(self.get_component_rich_style("die--blank"))
                visual = visualize(self, text, markup=False)
                strips = Visual.to_strips(self, visual, width, 1, self.visual_style)
            strip = strips[0] if strips else Strip.blank(width, self.visual_style.rich_style)
            if len(self._rows) >= ROWS_KEPT:
                self._rows.clear()
            self._rows[key] = strip
        return strip

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._rows.clear()

    def render_lines(self, crop: Region) -> list[Strip]:
        # Border, title and face in one run where their styles are equal: each run costs a
        # colour sequence and a reset on the terminal.
        return [one_run_per_style(strip, keep_meta=False) for strip in super().render_lines(crop)]

    def watch_held(self, held: bool) -> None:
        self.set_class(held, "-held")

    def watch_value(self, old: int | None, new: int | None) -> None:
        # `-blank` is for trays whose CSS draws a die not yet thrown differently (a CSS change
        # repaints the whole die); otherwise only the rows of the face that changed are
        # repainted: the border, the title and the rows that stay the same are not rewritten.
        if self.marks_blank:
            self.set_class(new is None, "-blank")
        width = self.content_size.width
        for y, (was, now) in enumerate(zip(self.face(old), self.face(new), strict=False)):
            if was != now:
                self.refresh(Region(0, y, width, 1))

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.index))


def room_for_big_dice(widget: Widget, row_width: int) -> bool:
    """Whether `widget`, a row of dice that is `row_width` columns wide with large dice
    (`LARGE_FACE`), gets that much room from its container, on a screen tall enough
    (`BIG_DICE_MIN_HEIGHT`) for the log under the dice to keep its lines."""
    parent = widget.parent
    if not isinstance(parent, Widget) or not widget.is_attached:
        return False
    room = parent.content_region.width - widget.styles.gutter.width
    return room >= row_width and widget.screen.size.height >= BIG_DICE_MIN_HEIGHT
