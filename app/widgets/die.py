"""One die drawn as a pip face; a click asks to toggle its hold."""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from . import sibling_css

PIP = "●"
_FACES: dict[int, tuple[str, str, str]] = {
    1: ("     ", "  o  ", "     "),
    2: ("o    ", "     ", "    o"),
    3: ("o    ", "  o  ", "    o"),
    4: ("o   o", "     ", "o   o"),
    5: ("o   o", "  o  ", "o   o"),
    6: ("o   o", "o   o", "o   o"),
}
BLANK = ("     ", "  ?  ", "     ")


def face_lines(
    value: int | None,
    faces: dict[int, tuple[str, str, str]] = _FACES,
    blank: tuple[str, str, str] = BLANK,
) -> tuple[str, str, str]:
    """The three rows of a face, `o` drawn as a pip; `blank` for a die not yet thrown."""
    rows = faces.get(value or 0, blank)
    return tuple(row.replace("o", PIP) for row in rows)  # type: ignore[return-value]


class Die(Widget):
    """A die at a tray position. `held` shows as colour and as a heavy border."""

    DEFAULT_CSS = sibling_css(__file__)

    value: reactive[int | None] = reactive(None)
    held: reactive[bool] = reactive(False)

    class Clicked(Message):
        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    def __init__(self, index: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.index = index
        self.border_title = str(index + 1)

    def render(self) -> Text:
        return Text("\n".join(face_lines(self.value)))

    def watch_held(self, held: bool) -> None:
        self.set_class(held, "-held")

    def watch_value(self, value: int | None) -> None:
        self.set_class(value is None, "-blank")

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.index))
