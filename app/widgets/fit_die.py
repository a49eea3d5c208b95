"""A die that still reads when squeezed: a 3×3 pip face when its box is only 5 columns wide
(and, like every `Die`, the large face when CSS makes it big)."""

from __future__ import annotations

from .die import Die, face_lines

SMALL_FACES: dict[int, tuple[str, ...]] = {
    1: ("   ", " o ", "   "),
    2: ("o  ", "   ", "  o"),
    3: ("o  ", " o ", "  o"),
    4: ("o o", "   ", "o o"),
    5: ("o o", " o ", "o o"),
    6: ("o o", "o o", "o o"),
}
SMALL_BLANK = ("   ", " ? ", "   ")
FULL_FACE_WIDTH = 5


class FitDie(Die):
    """A `Die` that draws the 3×3 face when CSS makes it narrow (`width: 5`), else the usual one."""

    def face(self, value: int | None) -> tuple[str, ...]:
        if self.content_size.width >= FULL_FACE_WIDTH:
            return super().face(value)  # (the usual face, or the large one)
        return face_lines(value, SMALL_FACES, SMALL_BLANK)
