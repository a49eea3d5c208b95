"""Thrown dice tumble for a few frames before they show their faces.

Shared by every tray. A timer runs only while dice tumble: once they settle nothing is
scheduled, so an idle table costs no CPU and writes nothing to the terminal.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

from textual.widget import Widget

from .die import Die

FRAMES = 3
STEP = 0.08


class Tumble:
    def __init__(self, owner: Widget) -> None:
        self.owner = owner
        self._dice: Sequence[Die] = ()
        self._final: Sequence[int | None] = ()
        self._rolling: Collection[int] = ()
        self._frames_left = 0
        self._tumbling = False
        self._sparkle = random.Random()  # the look of a tumble only; never a game's dice

    @property
    def running(self) -> bool:
        """True while thrown dice are still tumbling."""
        return self._tumbling

    def show(
        self,
        dice: Sequence[Die],
        final: Sequence[int | None],
        rolling: Collection[int] = (),
        animate: bool = True,
    ) -> None:
        """Give `dice` the faces `final`; those at `rolling` positions tumble first."""
        self._dice, self._final = dice, final
        self._rolling = [i for i in rolling if i < len(final) and final[i] is not None]
        self._frames_left = FRAMES if animate and self._rolling else 0
        self._step()

    def _step(self) -> None:
        if self._frames_left <= 0:
            self.finish()
            return
        self._frames_left -= 1
        self._tumbling = True
        for index in self._rolling:
            self._dice[index].value = self._sparkle.randint(1, 6)
        self.owner.set_timer(STEP, self._step)

    def finish(self) -> None:
        """Show the real faces now (a key pressed mid-tumble does not wait for it)."""
        self._frames_left = 0
        self._tumbling = False
        for die, face in zip(self._dice, self._final, strict=False):
            die.value = face
