"""Where dice come from. The rules never roll; the table asks one of these sources."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from typing import Protocol

from .i18n import _


class DiceExhausted(RuntimeError):
    """The loaded dice have no values left: the demo or test asked for more than it listed."""


class DiceSource(Protocol):
    def roll(self, count: int) -> tuple[int, ...]: ...


class RandomDice:
    """Seeded dice for tests and replays: the same seed gives the same game."""

    def __init__(self, seed: int | str | None = None) -> None:
        self._random = random.Random(seed)

    def roll(self, count: int) -> tuple[int, ...]:
        return tuple(self._random.randint(1, 6) for _ in range(count))


class SystemDice:
    """Dice for real play, from the operating system's secure generator (`os.urandom`).

    `random.SystemRandom` is the class `secrets.SystemRandom` names; taken from `random`
    (which Textual loads anyway), it spares the start-up `secrets`' imports (hashlib, hmac:
    ≈ 3 ms)."""

    def __init__(self) -> None:
        self._random = random.SystemRandom()

    def roll(self, count: int) -> tuple[int, ...]:
        return tuple(self._random.randint(1, 6) for _ in range(count))


class LoadedDice:
    """Serves the listed faces in order (for demos and black-box tests). Never falls back."""

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = tuple(faces)
        for face in self.faces:
            if not isinstance(face, int) or isinstance(face, bool) or face not in range(1, 7):
                raise ValueError(_("A die shows 1 to 6, not {face}").format(face=face))
        self.served = 0

    @property
    def left(self) -> int:
        return len(self.faces) - self.served

    def roll(self, count: int) -> tuple[int, ...]:
        if count > self.left:
            raise DiceExhausted(
                _("The loaded dice ran out: {count} dice asked for, {left} of {total} left").format(
                    count=count, left=self.left, total=len(self.faces)
                )
            )
        faces = self.faces[self.served : self.served + count]
        self.served += count
        return faces


FACE_TEXTS = frozenset("123456")


def parse_faces(text: str) -> tuple[int, ...]:
    """`"3,3,3,4,5"` -> (3, 3, 3, 4, 5); a clear ValueError for anything else."""
    faces = []
    parts = re.split(r"\s*,\s*|\s+", text.strip())
    if parts == [""]:
        raise ValueError(_("No dice faces given"))
    for part in parts:
        if not part:
            raise ValueError(
                _("{text!r} has an empty face: write the faces as 3,3,3,4,5").format(text=text)
            )
        if part not in FACE_TEXTS:  # ("٣" and "³" are digits to str.isdigit, not faces)
            raise ValueError(_("{part!r} is not a die face (1 to 6)").format(part=part))
        faces.append(int(part))
    if not faces:
        raise ValueError(_("No dice faces given"))
    return tuple(faces)
